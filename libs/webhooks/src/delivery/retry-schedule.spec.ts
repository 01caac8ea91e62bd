import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { RETRY_WINDOW_MS, retryDelayMs, verdictOf } from './retry-schedule';
import type { WebhookAttemptOutcome } from './webhook-sender';

const HOUR = 3_600_000;
const answered = (status: number): WebhookAttemptOutcome => ({ status, body: '', error: null, blocked: false });
const none: WebhookAttemptOutcome = { status: null, body: null, error: 'connect ECONNREFUSED', blocked: false };

describe('retryDelayMs: exponential backoff with full jitter', () => {
  test('the ceiling is 30 s after the first failure, doubling with each, capped at 1 h; the wait is uniform below it', () => {
    const ceilings = [1, 2, 3, 4, 5, 6, 7, 8, 9, 20].map((attempts) => retryDelayMs(attempts, () => 0.999_999_9) + 1);
    assert.deepEqual(ceilings, [30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000, HOUR, HOUR, HOUR]);
    assert.equal(retryDelayMs(5, () => 0), 0);
    assert.equal(retryDelayMs(3, () => 0.5), 60_000);
  });

  test('with Math.random, every wait is within [0, ceiling) and they spread over it', () => {
    const waits = Array.from({ length: 2000 }, () => retryDelayMs(3));
    assert.ok(waits.every((w) => Number.isInteger(w) && w >= 0 && w < 120_000));
    assert.ok(Math.min(...waits) < 12_000 && Math.max(...waits) > 108_000, 'full jitter: from near 0 to near the ceiling');
  });
});

describe('verdictOf', () => {
  const first = new Date('2026-11-25T12:00:00Z');
  const later = (ms: number) => new Date(first.getTime() + ms);

  test('2xx delivers; 410 fails for good (the endpoint is gone)', () => {
    assert.deepEqual(verdictOf(answered(200), 1, first, first), { status: 'delivered' });
    assert.deepEqual(verdictOf(answered(204), 3, first, later(HOUR)), { status: 'delivered' });
    assert.deepEqual(verdictOf(answered(410), 1, first, first), { status: 'failed', gone: true });
  });

  test('any other answer, or none, retries after the jittered wait until an attempt fails 24 h after the first', () => {
    for (const outcome of [answered(500), answered(301), answered(404), answered(429), none]) {
      assert.deepEqual(verdictOf(outcome, 2, first, later(HOUR), () => 0.5), { status: 'retrying', nextAttemptAt: later(HOUR + 30_000) });
    }
    assert.equal(verdictOf(answered(500), 40, first, later(RETRY_WINDOW_MS - 1)).status, 'retrying');
    assert.deepEqual(verdictOf(answered(500), 41, first, later(RETRY_WINDOW_MS)), { status: 'failed', gone: false });
  });
});
