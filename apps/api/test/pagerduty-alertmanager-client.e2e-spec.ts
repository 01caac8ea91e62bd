import { afterAll as after, beforeAll as before, describe, expect, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { eventually, startTestApi, type TestApi, type TestOrganization } from '../src/testing';
import { newAlertSource } from './support/alert-sources';
import { Alertmanager, ALERTMANAGER_BIN as BIN, alertmanagerConfig, DELIVERY_TIMEOUT_MS, NO_ALERTMANAGER, withLog } from './support/alertmanager';

type Alert = { id: string; attributes: Record<string, unknown> };

/**
 * A real Prometheus Alertmanager (support/alertmanager.ts; the file name's ending makes
 * tools/test/run.ts install it) sends PagerDuty Events v2 through its `pagerduty_configs`
 * receiver, its `url` pointed at Taproot's `/v2/enqueue` and its `routing_key` an alert source's
 * secret (docs/pagerduty-events.md).
 */
describe("a real Prometheus Alertmanager's PagerDuty receiver pointed at /v2/enqueue", () => {
  let api: TestApi;
  let org: TestOrganization;
  let am: Alertmanager | undefined;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
  });
  after(async () => {
    await am?.stop();
    await api?.close();
  });

  test('a firing alert opens one Taproot alert, repeat notifications deduplicate into it, the resolution resolves it', async () => {
    assert.ok(BIN, NO_ALERTMANAGER);
    const source = await newAlertSource(api, org.token, { source_type: 'alertmanager' });
    // Repeats every second: Alertmanager re-sends the firing group's trigger with the same dedup_key.
    am = await Alertmanager.start(
      BIN,
      alertmanagerConfig(['pagerduty_configs:', `  - url: '${api.url}/v2/enqueue'`, `    routing_key: '${source.secret}'`, '    send_resolved: true'], '1s'),
    );

    const alert = {
      labels: { alertname: 'CheckoutLatencyHigh', service: 'checkout', severity: 'critical' },
      annotations: { summary: 'checkout p99 above 2s' },
      startsAt: new Date(Date.now() - 60_000).toISOString(),
    };
    await am.post([alert]);

    const list = async () => (await api.request('GET', `/v1/alerts?filter[alert_source_id]=${source.id}`, { token: org.token })).body.data as Alert[];
    const [opened, ...others] = await withLog(am, eventually(list, (alerts) => alerts.length > 0, DELIVERY_TIMEOUT_MS));
    expect(others).toEqual([]);
    const a = opened.attributes;
    expect(a).toMatchObject({ source: 'alertmanager', alert_source_id: source.id, status: 'open' });
    // Alertmanager's dedup_key is a sha256 of the group key; its summary the group's default title.
    assert.match(String(a.deduplication_key), /^[0-9a-f]{64}$/);
    assert.match(String(a.summary), /CheckoutLatencyHigh/);
    expect(a.labels).toEqual(expect.arrayContaining([{ key: 'client', value: 'Alertmanager' }]));

    // Repeat notifications fold into the alert (its timeline says so), opening nothing new.
    const events = async () => (await api.request('GET', `/v1/alerts/${opened.id}/events`, { token: org.token })).body.data as Alert[];
    await withLog(am, eventually(events, (lines) => lines.some((e) => e.attributes.kind === 'alert_grouping'), DELIVERY_TIMEOUT_MS));
    expect((await list()).map((x) => x.id)).toEqual([opened.id]);

    await am.post([{ ...alert, endsAt: new Date(Date.now() - 1000).toISOString() }]);
    const [resolved, ...more] = await withLog(am, eventually(list, (alerts) => alerts.some((x) => x.attributes.status === 'resolved'), DELIVERY_TIMEOUT_MS));
    expect(more).toEqual([]);
    assert.equal(resolved.id, opened.id);
  });
});
