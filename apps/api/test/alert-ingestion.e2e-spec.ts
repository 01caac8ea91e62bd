import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { signBody } from '@taproot/alerting';
import { startTestApi, withinOneMinute, type TestApi, type TestOrganization } from '../src/testing';
import { newAlertSource, postInbound, listAlerts, type InboundSource } from './support/alert-sources';

// Jest runs from the workspace root (jest.config.mjs).
const FIXTURES = join(process.cwd(), 'libs/alerting/src/ingestion/fixtures');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

/** The Grafana mapping of the ingestion unit tests (reference alerts_source attributes). */
const GRAFANA = {
  sourceable_attributes: {
    auto_resolve: true,
    resolve_state: 'resolved',
    field_mappings_attributes: [
      { field: 'alert_title', json_path: '$.alerts[0].annotations.summary' },
      { field: 'external_id', json_path: '$.alerts[0].fingerprint' },
      { field: 'state', json_path: '$.status' },
    ],
  },
  deduplicate_alerts_by_key: true,
  deduplication_key_path: '$.groupKey',
  deduplication_key_regexp: 'alertname="([^"]+)"',
};

describe('alert ingestion: POST /v1/alert_sources/{id}/alerts', () => {
  let api: TestApi;
  let org: TestOrganization;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
  });
  after(() => api?.close());

  const newSource = (attributes: Record<string, unknown>) => newAlertSource(api, org.token, attributes);
  const post = (path: string, raw: string, headers: Record<string, string> = {}) => postInbound(api, path, raw, headers);
  const alertsOf = (query: string) => listAlerts(api, org.token, query);

  test('a signed generic webhook (recorded Grafana payload) creates the mapped alert; a repeat deduplicates; resolved resolves it', async () => {
    const source = await newSource({ source_type: 'generic_webhook', ...GRAFANA });
    const raw = fixture('grafana-webhook.json');
    const res = await post(source.path, raw, { 'x-taproot-signature': signBody(raw, source.secret) });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.match(res.headers.get('content-type') ?? '', /application\/vnd\.api\+json/);
    const [alert] = res.body.data;
    assert.equal(alert.attributes.summary, 'payments-api 5xx ratio above 5%');
    assert.equal(alert.attributes.deduplication_key, 'PaymentsHighErrorRate');
    assert.equal(alert.attributes.source, 'generic_webhook');
    assert.equal(alert.attributes.status, 'open');
    assert.deepEqual(res.body.meta.receipts.map((r: { state: string; resource_id: string }) => [r.state, r.resource_id]), [['done', alert.id]]);

    const again = await post(source.path, raw, { 'x-taproot-signature': signBody(raw, source.secret) });
    assert.equal(again.status, 202);
    assert.equal(again.body.data[0].id, alert.id, 'deduplicated into the unresolved alert');

    const resolvedRaw = JSON.stringify({ ...JSON.parse(raw), status: 'resolved' });
    const resolved = await post(source.path, resolvedRaw, { 'x-taproot-signature': signBody(resolvedRaw, source.secret) });
    assert.equal(resolved.status, 202, JSON.stringify(resolved.body));
    assert.equal(resolved.body.data[0].id, alert.id);
    assert.equal(resolved.body.data[0].attributes.status, 'resolved');
  });

  test('two generic webhook sources receiving one payload open one alert each; each resolution resolves only its own', async () => {
    const first = await newSource({ source_type: 'generic_webhook', ...GRAFANA });
    const second = await newSource({ source_type: 'generic_webhook', ...GRAFANA });
    const key = `two-sources-${Math.random()}`;
    const groupKey = `{}:{alertname="${key}"}`;
    const firing = JSON.stringify({ ...JSON.parse(fixture('grafana-webhook.json')), groupKey, status: 'firing' });
    const resolving = JSON.stringify({ ...JSON.parse(firing), status: 'resolved' });
    const send = (source: InboundSource, raw: string) => post(source.path, raw, { 'x-taproot-signature': signBody(raw, source.secret) });

    const a = await send(first, firing);
    const b = await send(second, firing);
    assert.equal(a.status, 202, JSON.stringify(a.body));
    assert.equal(b.status, 202, JSON.stringify(b.body));
    const [alertA] = a.body.data;
    const [alertB] = b.body.data;
    assert.equal(alertA.attributes.deduplication_key, key);
    assert.equal(alertB.attributes.deduplication_key, key);
    assert.notEqual(alertA.id, alertB.id, 'another source of the same type does not deduplicate');
    assert.equal(alertA.attributes.alert_source_id, first.id);
    assert.equal(alertB.attributes.alert_source_id, second.id);
    assert.equal((await send(first, firing)).body.data[0].id, alertA.id, 'a repeat to the same source deduplicates');
    assert.deepEqual((await alertsOf(`filter[alert_source_id]=${second.id}`)).map((x) => x.id), [alertB.id]);

    const resolvedA = await send(first, resolving);
    assert.equal(resolvedA.status, 202, JSON.stringify(resolvedA.body));
    assert.deepEqual(resolvedA.body.data.map((x: { id: string }) => x.id), [alertA.id]);
    const statuses = async () => Object.fromEntries((await alertsOf(`filter[deduplication_key]=${encodeURIComponent(key)}`)).map((x) => [x.id, x.attributes.status]));
    assert.deepEqual(await statuses(), { [alertA.id]: 'resolved', [alertB.id]: 'open' });
    const resolvedB = await send(second, resolving);
    assert.deepEqual(resolvedB.body.data.map((x: { id: string }) => x.id), [alertB.id]);
    assert.deepEqual(await statuses(), { [alertA.id]: 'resolved', [alertB.id]: 'resolved' });
  });

  test('a missing, wrong or foreign signature answers 401 and stores nothing; an unknown source answers the same', async () => {
    const source = await newSource({ source_type: 'generic_webhook' });
    const raw = JSON.stringify({ title: 'unsigned-marker' });
    for (const headers of [{} as Record<string, string>, { 'x-taproot-signature': signBody(raw, 'not the secret') }, { 'x-taproot-signature': signBody(`${raw} `, source.secret) }, { 'x-taproot-signature': 'sha256=zz' }]) {
      const res = await post(source.path, raw, headers);
      assert.equal(res.status, 401, JSON.stringify(headers));
    }
    // A generic webhook must sign: the query secret is not enough.
    assert.equal((await post(`${source.path}?secret=${source.secret}`, raw)).status, 401);
    const unknown = await post('/v1/alert_sources/00000000-0000-4000-8000-000000000000/alerts', raw, { 'x-taproot-signature': signBody(raw, source.secret) });
    assert.equal(unknown.status, 401);
    assert.deepEqual(await alertsOf('filter[search]=unsigned-marker'), []);
  });

  test('the route takes JSON only: a text/plain body (the email route\'s) answers 415 and stores nothing', async () => {
    const source = await newSource({ source_type: 'alertmanager' });
    const res = await api.request('POST', `${source.path}?secret=${source.secret}`, { rawBody: fixture('alertmanager-firing.json'), headers: { 'content-type': 'text/plain' } });
    assert.equal(res.status, 415, JSON.stringify(res.body));
    assert.deepEqual(await alertsOf(`filter[alert_source_id]=${source.id}`), []);
  });

  test('a disabled source answers 409 and stores nothing', async () => {
    const source = await newSource({ source_type: 'generic_webhook', enabled: false });
    const raw = JSON.stringify({ title: 'disabled-marker' });
    const res = await post(source.path, raw, { 'x-taproot-signature': signBody(raw, source.secret) });
    assert.equal(res.status, 409, JSON.stringify(res.body));
    assert.equal(res.body.errors[0].code, 'ALERT_SOURCE_DISABLED');
    assert.deepEqual(await alertsOf('filter[search]=disabled-marker'), []);
  });

  test('a source disabled after it was used (its credentials are cached) refuses the next payload at once', async () => {
    const source = await newSource({ source_type: 'generic_webhook' });
    const send = (title: string) => {
      const raw = JSON.stringify({ title });
      return post(source.path, raw, { 'x-taproot-signature': signBody(raw, source.secret) });
    };
    assert.equal((await send('before-disable-marker')).status, 202);
    const patched = await api.request('PUT', `/v1/alert_sources/${source.id}`, { token: org.token, body: { data: { type: 'alert_sources', attributes: { enabled: false } } } });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    const refused = await send('after-disable-marker');
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.deepEqual(await alertsOf('filter[search]=after-disable-marker'), []);
  });

  test('Alertmanager: one alert per firing entry (query secret); the resolved entry resolves the alert with its fingerprint', async () => {
    const source = await newSource({ source_type: 'alertmanager' });
    assert.equal((await post(source.path, fixture('alertmanager-firing.json'))).status, 401, 'no secret');
    const firing = await post(`${source.path}?secret=${source.secret}`, fixture('alertmanager-firing.json'));
    assert.equal(firing.status, 202, JSON.stringify(firing.body));
    assert.equal(firing.body.data.length, 2);
    const keys = firing.body.data.map((a: { attributes: { deduplication_key: string } }) => a.attributes.deduplication_key).sort();
    assert.deepEqual(keys, ['3b6f2c9d1e0a4f87', '9a0e7d5c4b3f2e16']);

    const resolved = await post(`${source.path}?secret=${source.secret}`, fixture('alertmanager-resolved.json'));
    assert.equal(resolved.status, 202, JSON.stringify(resolved.body));
    const stored = await alertsOf('filter[source]=alertmanager&filter[deduplication_key]=3b6f2c9d1e0a4f87');
    assert.deepEqual(stored.map((a) => a.attributes.status), ['resolved']);
    const other = await alertsOf('filter[source]=alertmanager&filter[deduplication_key]=9a0e7d5c4b3f2e16');
    assert.deepEqual(other.map((a) => a.attributes.status), ['open']);
  });

  test('a payload the mapper refuses answers 422 with the field as pointer', async () => {
    const source = await newSource({ source_type: 'alertmanager' });
    const res = await post(`${source.path}?secret=${source.secret}`, JSON.stringify({ nothing: true }));
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.ok(res.body.errors[0].source.pointer.startsWith('/'));
  });

  test('past 50 alerts a minute for one source the answer is 429 with the spec body', async () => {
    const source = await newSource({ source_type: 'generic_webhook' });
    await withinOneMinute();
    const raw = JSON.stringify(Array.from({ length: 50 }, (_, i) => ({ title: `burst ${i}` })));
    const burst = await post(source.path, raw, { 'x-taproot-signature': signBody(raw, source.secret) });
    assert.equal(burst.status, 202, JSON.stringify(burst.body).slice(0, 500));
    assert.equal(burst.body.data.length, 50);
    const one = JSON.stringify({ title: 'one too many' });
    const limited = await post(source.path, one, { 'x-taproot-signature': signBody(one, source.secret) });
    assert.equal(limited.status, 429, JSON.stringify(limited.body));
    assert.deepEqual(limited.body, { error: 'Rate limit exceeded. Try again later.' });
    // Another source has its own budget.
    const fresh = await newSource({ source_type: 'generic_webhook' });
    assert.equal((await post(fresh.path, one, { 'x-taproot-signature': signBody(one, fresh.secret) })).status, 202);
  });
});
