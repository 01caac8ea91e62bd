import { afterAll as after, beforeAll as before, describe, expect, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { eventually, startTestApi, type TestApi, type TestOrganization } from '../src/testing';
import { Alertmanager, ALERTMANAGER_BIN as BIN, alertmanagerConfig, DELIVERY_TIMEOUT_MS, NO_ALERTMANAGER, withLog } from './support/alertmanager';

/**
 * A real Prometheus Alertmanager (support/alertmanager.ts) notifies an `alertmanager` alert source
 * through a webhook receiver.
 */
const PUBLIC_URL = 'https://taproot.example.test';

interface TaprootAlert {
  id: string;
  attributes: Record<string, unknown>;
}

describe('a real Prometheus Alertmanager notifying an alertmanager alert source', () => {
  let api: TestApi;
  let org: TestOrganization;
  let am: Alertmanager | undefined;
  before(async () => {
    api = await startTestApi({ env: { PUBLIC_URL } });
    org = await api.newOrganization();
  });
  after(async () => {
    await am?.stop();
    await api?.close();
  });

  test('a fired alert opens a Taproot alert with its fingerprint; the resolution Alertmanager sends resolves it', async () => {
    assert.ok(BIN, NO_ALERTMANAGER);

    const created = await api.request('POST', '/v1/alert_sources', { token: org.token, body: { data: { type: 'alert_sources', attributes: { name: 'Prometheus', source_type: 'alertmanager' } } } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const source = created.body.data;
    const endpoint = new URL(source.attributes.webhook_endpoint);
    assert.equal(endpoint.href, `${PUBLIC_URL}/v1/alert_sources/${source.id}/alerts`);
    // The harness listens on a random port, so PUBLIC_URL cannot name it: Alertmanager gets the
    // endpoint's path on the listening address (in production a proxy serves PUBLIC_URL). It
    // cannot sign, so the secret rides in the query.
    const receiverUrl = `${api.url}${endpoint.pathname}?secret=${source.attributes.secret}`;

    am = await Alertmanager.start(BIN, alertmanagerConfig(['webhook_configs:', `  - url: '${receiverUrl}'`, '    send_resolved: true']));

    const startsAt = new Date(Date.now() - 60_000).toISOString();
    const alert = {
      labels: { alertname: 'PaymentsHighErrorRate', service: 'payments-api', severity: 'critical' },
      annotations: { summary: 'payments-api 5xx ratio above 5%', description: 'The 5xx ratio has been above 5% for 5 minutes.' },
      generatorURL: 'http://prometheus.example.test/graph?g0.expr=payments_5xx_ratio',
      startsAt,
    };
    await am.post([alert]);
    const [{ fingerprint }] = await am.alerts();

    const list = async () => (await api.request('GET', `/v1/alerts?filter[alert_source_id]=${source.id}`, { token: org.token })).body.data as TaprootAlert[];
    const [opened, ...others] = await withLog(am, eventually(list, (alerts) => alerts.length > 0, DELIVERY_TIMEOUT_MS));
    // One alert per Alertmanager alert.
    expect(others).toEqual([]);
    const a = opened.attributes;
    assert.equal(a.summary, alert.annotations.summary);
    assert.equal(a.description, alert.annotations.description);
    assert.equal(a.source, 'alertmanager');
    assert.equal(a.alert_source_id, source.id);
    assert.equal(a.status, 'open', 'no notification target: open (docs/alerts.md)');
    assert.equal(a.deduplication_key, fingerprint, "Alertmanager's fingerprint is the key");
    assert.equal(a.external_id, fingerprint);
    assert.equal(a.external_url, alert.generatorURL);
    assert.equal(new Date(a.started_at as string).getTime(), new Date(startsAt).getTime());
    assert.equal(a.ended_at, null, "a firing alert's zero endsAt is not an end");
    expect(a.labels).toEqual([
      { key: 'alertname', value: 'PaymentsHighErrorRate' },
      { key: 'service', value: 'payments-api' },
      { key: 'severity', value: 'critical' },
    ]);

    // The resolution, as Prometheus sends it: the same labels with an end in the past.
    const endsAt = new Date(Date.now() - 1000).toISOString();
    await am.post([{ ...alert, endsAt }]);
    const [resolved, ...more] = await withLog(am, eventually(list, (alerts) => alerts.some((x) => x.attributes.status === 'resolved'), DELIVERY_TIMEOUT_MS));
    // The resolution opens nothing new.
    expect(more).toEqual([]);
    assert.equal(resolved.id, opened.id);
    assert.equal(new Date(resolved.attributes.ended_at as string).getTime(), new Date(endsAt).getTime(), "the resolution keeps Alertmanager's endsAt");
  });
});
