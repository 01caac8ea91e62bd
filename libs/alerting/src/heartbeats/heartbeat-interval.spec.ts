import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { deadlineAfter, intervalMs, MAX_INTERVAL_MS } from './heartbeat-interval';
import { deadlineAfterUpdate } from './heartbeat.schema';

const at = (iso: string) => new Date(iso);

describe('heartbeat deadlines', () => {
  test('an interval in minutes, hours or days', () => {
    assert.equal(intervalMs(5, 'minutes'), 300_000);
    assert.equal(intervalMs(2, 'hours'), 7_200_000);
    assert.equal(intervalMs(1, 'days'), 86_400_000);
    assert.equal(deadlineAfter(at('2026-11-25T23:50:00Z'), 20, 'minutes').toISOString(), '2026-11-26T00:10:00.000Z');
    assert.ok(intervalMs(366, 'days') <= MAX_INTERVAL_MS && intervalMs(367, 'days') > MAX_INTERVAL_MS);
  });

  const active = { status: 'active', enabled: true, interval: 10, interval_unit: 'minutes', last_pinged_at: at('2026-11-25T12:00:00Z') };
  const now = at('2026-11-25T12:05:00Z');

  test('an active heartbeat whose interval changes expires that interval after its last ping', () => {
    assert.equal(deadlineAfterUpdate(active, { ...active, interval: 1, interval_unit: 'hours' }, now)?.toISOString(), '2026-11-25T13:00:00.000Z');
    assert.equal(deadlineAfterUpdate(active, { ...active, interval: 30 }, now)?.toISOString(), '2026-11-25T12:30:00.000Z');
  });

  test('enabled again: a whole interval from now (pings missed while disabled never page)', () => {
    const disabled = { ...active, enabled: false };
    assert.equal(deadlineAfterUpdate(disabled, { ...disabled, enabled: true }, now)?.toISOString(), '2026-11-25T12:15:00.000Z');
  });

  test('otherwise the deadline stays: same interval, disabled, waiting or expired', () => {
    assert.equal(deadlineAfterUpdate(active, { ...active, name: 'renamed' }, now), undefined);
    assert.equal(deadlineAfterUpdate(active, { ...active, enabled: false, interval: 30 }, now), undefined);
    for (const status of ['waiting', 'expired']) assert.equal(deadlineAfterUpdate({ ...active, status }, { ...active, status, interval: 30 }, now), undefined);
  });
});
