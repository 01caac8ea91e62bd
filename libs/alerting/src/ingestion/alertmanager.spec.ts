import { describe, expect, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { IngestionError } from './alert-draft';
import { DEFAULT_ALERTMANAGER_SUMMARY, mapAlertmanager } from './alertmanager';

/** This test's folder (Jest runs it as an ES module, without `__dirname`). */
const here = dirname(expect.getState().testPath!);

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(here, 'fixtures', name), 'utf8'));
const firing = fixture('alertmanager-firing.json');
const resolved = fixture('alertmanager-resolved.json');

describe('Alertmanager v4 mapper', () => {
  test('a firing group gives one open draft per alert, keyed by fingerprint', () => {
    const drafts = mapAlertmanager(firing);
    assert.equal(drafts.length, 2);
    const [a, b] = drafts;
    assert.equal(a.summary, 'Pod is crash looping.');
    assert.equal(b.summary, 'KubePodCrashLooping', 'falls back to labels.alertname');
    assert.match(a.description ?? '', /checkout-7d9c8b6f5-x2kqp .*CrashLoopBackOff/);
    assert.equal(a.deduplication_key, '3b6f2c9d1e0a4f87');
    assert.equal(a.external_id, '3b6f2c9d1e0a4f87');
    assert.equal(b.deduplication_key, '9a0e7d5c4b3f2e16');
    assert.match(a.external_url ?? '', /^http:\/\/prometheus-k8s-0:9090\/graph\?g0\.expr=/);
    assert.equal(a.started_at, '2025-03-14T10:02:11.123Z');
    assert.equal(a.ended_at, null);
    assert.equal(a.resolve, false);
    assert.equal(b.resolve, false);
    assert.equal(a.data, (firing.alerts as unknown[])[0]);
  });

  test('labels are the common labels overlaid with the alert labels, sorted', () => {
    const [a] = mapAlertmanager(firing);
    assert.deepEqual(a.labels.map((l) => l.key), ['alertname', 'container', 'instance', 'job', 'namespace', 'pod', 'severity']);
    assert.deepEqual(a.labels.find((l) => l.key === 'pod'), { key: 'pod', value: 'checkout-7d9c8b6f5-x2kqp' });
    const payload = { ...firing, commonLabels: { ...(firing.commonLabels as object), cluster: 'eu-1', severity: 'info' } };
    const [c] = mapAlertmanager(payload);
    assert.deepEqual(c.labels.find((l) => l.key === 'cluster'), { key: 'cluster', value: 'eu-1' });
    assert.deepEqual(c.labels.find((l) => l.key === 'severity'), { key: 'severity', value: 'warning' });
  });

  test('the resolution resolves the draft with the same dedup key and carries endsAt', () => {
    const [r] = mapAlertmanager(resolved);
    const [f] = mapAlertmanager(firing);
    assert.equal(r.resolve, true);
    assert.equal(r.deduplication_key, f.deduplication_key);
    assert.equal(r.ended_at, '2025-03-14T10:19:26.789Z');
  });

  test('without a fingerprint the key is a stable hash of the labels', () => {
    const strip = (p: Record<string, unknown>) => ({
      ...p,
      alerts: (p.alerts as Record<string, unknown>[]).map(({ fingerprint: _f, ...rest }) => rest),
    });
    const [f] = mapAlertmanager(strip(firing));
    const [r] = mapAlertmanager(strip(resolved));
    assert.match(f.deduplication_key ?? '', /^labels:[0-9a-f]{16}$/);
    assert.equal(f.deduplication_key, r.deduplication_key);
    assert.notEqual(f.deduplication_key, mapAlertmanager(strip(firing))[1].deduplication_key);
  });

  test('an empty alert still gets a summary', () => {
    const [d] = mapAlertmanager({ version: '4', status: 'firing', alerts: [{ status: 'firing', labels: {} }] });
    assert.equal(d.summary, DEFAULT_ALERTMANAGER_SUMMARY);
    assert.equal(d.external_url, null);
  });

  test('payloads that are not v4 webhooks throw IngestionError', () => {
    const cases: [unknown, string][] = [
      ['nope', 'body'],
      [{ ...firing, version: '3' }, 'version'],
      [{ ...firing, alerts: {} }, 'alerts'],
      [{ ...firing, alerts: [{ status: 'pending', labels: {} }] }, 'alerts[0].status'],
      [{ ...firing, alerts: [{ status: 'firing', labels: { a: 1 } }] }, 'alerts[0].labels.a'],
      [{ ...firing, commonLabels: [] }, 'commonLabels'],
    ];
    for (const [payload, field] of cases) {
      assert.throws(() => mapAlertmanager(payload), (e: unknown) => e instanceof IngestionError && e.field === field, field);
    }
  });
});
