import { afterAll as after, beforeAll as before, describe, expect, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startTestApi, withinOneMinute, type TestApi, type TestOrganization } from '../src/testing';
import { listAlerts, newAlertSource, postInbound, type InboundSource } from './support/alert-sources';

type Attributes = Record<string, unknown>;

/**
 * PagerDuty Events API v2 over HTTP (docs/pagerduty-events.md): `POST /v2/enqueue` and
 * `POST /v2/change/enqueue`, public, the routing key an alert source's secret; PagerDuty's
 * 202 and 400 bodies as plain JSON.
 */
describe('PagerDuty Events API v2', () => {
  let api: TestApi;
  let org: TestOrganization;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
  });
  after(() => api?.close());

  const enqueue = (body: unknown, path = '/v2/enqueue') => postInbound(api, path, JSON.stringify(body));
  const trigger = (source: InboundSource, more: Attributes = {}, payload: Attributes = {}) =>
    enqueue({ routing_key: source.secret, event_action: 'trigger', payload: { summary: 'DISK at 99% on prod-db-1', source: 'prod-db-1', severity: 'critical', ...payload }, ...more });
  const alertsOf = (source: InboundSource) => listAlerts(api, org.token, `filter[alert_source_id]=${source.id}`);
  const count = async () => (await api.runtime.dataSource.query('SELECT count(*)::int AS n FROM alerts WHERE organization_id = $1', [org.organizationId]))[0].n as number;

  test('new alert sources have a 32-character secret: the routing key', async () => {
    const source = await newAlertSource(api, org.token, { source_type: 'generic_webhook' });
    assert.match(source.secret, /^[0-9a-f]{32}$/);
  });

  test('a trigger opens an alert of the source and answers 202 with the dedup_key; a repeat deduplicates into it', async () => {
    const source = await newAlertSource(api, org.token, { source_type: 'generic_webhook' });
    const res = await trigger(source, { dedup_key: 'srv01/disk', client: 'Nagios', client_url: 'https://nagios.example.test/host/prod-db-1' }, { component: 'mysql', custom_details: { free: '1%' }, timestamp: '2026-11-25T09:42:58.315+0100' });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    expect(res.body).toEqual({ status: 'success', message: 'Event processed', dedup_key: 'srv01/disk' });
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/, 'plain JSON, as PagerDuty answers');
    const [alert, ...others] = await alertsOf(source);
    expect(others).toEqual([]);
    const a = alert.attributes;
    expect(a).toMatchObject({
      summary: 'DISK at 99% on prod-db-1',
      description: JSON.stringify({ free: '1%' }),
      source: 'generic_webhook',
      alert_source_id: source.id,
      status: 'open',
      deduplication_key: 'srv01/disk',
      external_id: 'srv01/disk',
      external_url: 'https://nagios.example.test/host/prod-db-1',
    });
    assert.equal(new Date(a.started_at as string).toISOString(), '2026-11-25T08:42:58.315Z');
    expect(a.labels).toEqual([
      { key: 'severity', value: 'critical' },
      { key: 'source', value: 'prod-db-1' },
      { key: 'component', value: 'mysql' },
      { key: 'client', value: 'Nagios' },
    ]);
    assert.equal(JSON.stringify(a.data).includes(source.secret), false, "the routing key is a credential: it is not kept in the alert's data");

    const again = await trigger(source, { dedup_key: 'srv01/disk' }, { summary: 'DISK at 100% on prod-db-1' });
    assert.equal(again.status, 202, JSON.stringify(again.body));
    const [refreshed, ...more] = await alertsOf(source);
    expect(more).toEqual([]);
    assert.equal(refreshed.id, alert.id);
    assert.equal(refreshed.attributes.summary, 'DISK at 100% on prod-db-1');
  });

  test('a trigger without dedup_key gets a generated one, answered and kept as the deduplication key', async () => {
    const source = await newAlertSource(api, org.token, { source_type: 'generic_webhook' });
    const res = await trigger(source);
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.match(res.body.dedup_key, /^[0-9a-f]{32}$/);
    const [alert] = await alertsOf(source);
    assert.equal(alert.attributes.deduplication_key, res.body.dedup_key);
    const resolved = await enqueue({ routing_key: source.secret, event_action: 'resolve', dedup_key: res.body.dedup_key });
    assert.equal(resolved.status, 202);
    assert.equal((await alertsOf(source))[0].attributes.status, 'resolved');
  });

  test("a trigger pages the source's notification target; acknowledge then resolve act on that alert", async () => {
    const user = String(await api.addUser(org.organizationId, { roleKind: 'user' }));
    const source = await newAlertSource(api, org.token, { source_type: 'generic_webhook', sourceable_attributes: { notification_target_type: 'User', notification_target_id: user } });
    assert.equal((await trigger(source, { dedup_key: 'page-me' })).status, 202);
    const [alert] = await alertsOf(source);
    expect(alert.attributes).toMatchObject({ status: 'triggered', notification_target_type: 'User', notification_target_id: user });

    const ack = await enqueue({ routing_key: source.secret, event_action: 'acknowledge', dedup_key: 'page-me' });
    assert.equal(ack.status, 202, JSON.stringify(ack.body));
    expect(ack.body).toEqual({ status: 'success', message: 'Event processed', dedup_key: 'page-me' });
    assert.equal((await alertsOf(source))[0].attributes.status, 'acknowledged');

    assert.equal((await enqueue({ routing_key: source.secret, event_action: 'resolve', dedup_key: 'page-me' })).status, 202);
    const [resolved, ...others] = await alertsOf(source);
    expect(others).toEqual([]);
    assert.equal(resolved.id, alert.id);
    assert.equal(resolved.attributes.status, 'resolved');
    const events = await api.request('GET', `/v1/alerts/${alert.id}/events`, { token: org.token });
    const actions = (events.body.data as { attributes: Attributes }[]).map((e) => e.attributes.action);
    expect(actions).toEqual(expect.arrayContaining(['created', 'acknowledged', 'resolved']));
  });

  test("a trigger is routed like the source's webhook alerts: its routes' destinations page", async () => {
    const team = await api.request('POST', '/v1/teams', { token: org.token, body: { data: { type: 'groups', attributes: { name: `Payments ${randomUUID().slice(0, 6)}` } } } });
    assert.equal(team.status, 201, JSON.stringify(team.body));
    const source = await newAlertSource(api, org.token, { source_type: 'generic_webhook' });
    const route = { name: 'Critical', alerts_source_ids: [source.id], rules: [{ name: 'Critical', destinations: [{ target_id: team.body.data.id }], condition_groups: [{ conditions: [{ property_field_name: '$.payload.severity', property_field_value: 'critical' }] }] }] };
    const made = await api.request('POST', '/v1/alert_routes', { token: org.token, body: { data: { type: 'alert_routes', attributes: route } } });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    await trigger(source, { dedup_key: 'routed' }, { severity: 'critical' });
    await trigger(source, { dedup_key: 'unrouted' }, { severity: 'info' });
    const byKey = Object.fromEntries((await alertsOf(source)).map((a) => [a.attributes.deduplication_key, a.attributes]));
    expect(byKey.routed).toMatchObject({ status: 'triggered', notification_targets: [{ type: 'Group', id: team.body.data.id }] });
    expect(byKey.unrouted).toMatchObject({ status: 'open' });
  });

  test('acknowledge or resolve of no open alert, or a move that does not apply, is a 202 that changes nothing', async () => {
    const source = await newAlertSource(api, org.token, { source_type: 'generic_webhook' });
    const before = await count();
    for (const event_action of ['acknowledge', 'resolve']) {
      const res = await enqueue({ routing_key: source.secret, event_action, dedup_key: 'never-triggered' });
      assert.equal(res.status, 202, JSON.stringify(res.body));
    }
    assert.equal(await count(), before);
    // An open alert pages nobody: acknowledging it does not apply (the API would answer 400), PagerDuty drops it.
    await trigger(source, { dedup_key: 'open-one' });
    assert.equal((await enqueue({ routing_key: source.secret, event_action: 'acknowledge', dedup_key: 'open-one' })).status, 202);
    assert.equal((await alertsOf(source))[0].attributes.status, 'open');
  });

  test("severity reaches the alert urgency through the source's urgency rules, else the source's default urgency", async () => {
    const urgency = async (name: string) => {
      const res = await api.request('POST', '/v1/alert_urgencies', { token: org.token, body: { data: { type: 'alert_urgencies', attributes: { name: `${name} ${randomUUID().slice(0, 6)}`, description: name } } } });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.data.id as string;
    };
    const [high, low] = [await urgency('High'), await urgency('Low')];
    const source = await newAlertSource(api, org.token, {
      source_type: 'generic_webhook',
      alert_urgency_id: low,
      alert_source_urgency_rules_attributes: [{ alert_urgency_id: high, json_path: '$.payload.severity', operator: 'is', value: 'critical', kind: 'payload' }],
    });
    await trigger(source, { dedup_key: 'crit' }, { severity: 'critical' });
    await trigger(source, { dedup_key: 'warn' }, { severity: 'warning' });
    const byKey = Object.fromEntries((await alertsOf(source)).map((a) => [a.attributes.deduplication_key, a.attributes.alert_urgency_id]));
    expect(byKey).toEqual({ crit: high, warn: low });
  });

  test("an invalid event answers PagerDuty's 400 naming the problems, and stores nothing", async () => {
    const source = await newAlertSource(api, org.token, { source_type: 'generic_webhook' });
    const before = await count();
    const res = await enqueue({ routing_key: source.secret, event_action: 'trigger', payload: { summary: '', source: 'x', severity: 'fatal' } });
    assert.equal(res.status, 400);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    expect(res.body).toEqual({ status: 'invalid event', message: 'Event object is invalid', errors: ["'payload.summary' is missing or blank", "'payload.severity' must be one of critical, error, warning, info"] });
    const noKey = await enqueue({ routing_key: source.secret, event_action: 'resolve' });
    expect([noKey.status, noKey.body.errors]).toEqual([400, ["'dedup_key' is missing or blank"]]);
    assert.equal(await count(), before);
  });

  test('bodies that are no JSON object: malformed JSON 400 and an unknown media type 415 (JSON:API errors), text 400 (PagerDuty)', async () => {
    const malformed = await postInbound(api, '/v2/enqueue', '{"routing_key": ');
    assert.equal(malformed.status, 400);
    assert.ok(Array.isArray(malformed.body.errors), JSON.stringify(malformed.body));
    const xml = await postInbound(api, '/v2/enqueue', '<event/>', { 'content-type': 'application/xml' });
    assert.equal(xml.status, 415, JSON.stringify(xml.body));
    const text = await postInbound(api, '/v2/enqueue', JSON.stringify({ routing_key: 'x' }), { 'content-type': 'text/plain' });
    expect([text.status, text.body]).toEqual([400, { status: 'invalid event', message: 'Event object is invalid', errors: ['Event must be a JSON object'] }]);
  });

  test('a routing key of no source, and the key of a disabled source, answer 400', async () => {
    const unknown = await enqueue({ routing_key: 'a'.repeat(32), event_action: 'trigger', payload: { summary: 's', source: 'x', severity: 'info' } });
    expect([unknown.status, unknown.body]).toEqual([400, { status: 'invalid event', message: 'Event object is invalid', errors: ['Invalid routing key'] }]);
    const source = await newAlertSource(api, org.token, { source_type: 'generic_webhook', enabled: false });
    const before = await count();
    const disabled = await trigger(source);
    expect([disabled.status, disabled.body.errors]).toEqual([400, ['The alert source of this routing key is disabled']]);
    assert.equal(await count(), before);
  });

  test('each source acts only on its own alerts: the same dedup_key through another source (of another organization) opens its own', async () => {
    const other = await api.newOrganization();
    const mine = await newAlertSource(api, org.token, { source_type: 'generic_webhook' });
    const theirs = await newAlertSource(api, other.token, { source_type: 'generic_webhook' });
    await trigger(mine, { dedup_key: 'shared' });
    await trigger(theirs, { dedup_key: 'shared' });
    assert.equal((await enqueue({ routing_key: theirs.secret, event_action: 'resolve', dedup_key: 'shared' })).status, 202);
    assert.equal((await alertsOf(mine))[0].attributes.status, 'open', "the other organization's resolve leaves this alert open");
    const [their] = await listAlerts(api, other.token, `filter[alert_source_id]=${theirs.id}`);
    assert.equal(their.attributes.status, 'resolved');
  });

  test('a change event is recorded as a resolved alert of the source (a timeline entry that pages nobody)', async () => {
    const user = String(await api.addUser(org.organizationId, { roleKind: 'user' }));
    const source = await newAlertSource(api, org.token, { source_type: 'generic_webhook', sourceable_attributes: { notification_target_type: 'User', notification_target_id: user } });
    const res = await enqueue(
      {
        routing_key: source.secret,
        payload: { summary: 'Build success: deploy payments-api v42', timestamp: '2026-11-25T09:00:00.000Z', source: 'ci', custom_details: { build: 42 } },
        links: [{ href: 'https://ci.example.test/build/42', text: 'Build' }],
      },
      '/v2/change/enqueue',
    );
    assert.equal(res.status, 202, JSON.stringify(res.body));
    expect(res.body).toEqual({ status: 'success', message: 'Change event processed' });
    const [change] = await alertsOf(source);
    expect(change.attributes).toMatchObject({ summary: 'Build success: deploy payments-api v42', status: 'resolved', deduplication_key: null, external_url: 'https://ci.example.test/build/42', notification_target_id: null });
    expect(change.attributes.labels).toEqual([
      { key: 'pagerduty_event', value: 'change' },
      { key: 'source', value: 'ci' },
    ]);
    const invalid = await enqueue({ routing_key: source.secret, payload: {} }, '/v2/change/enqueue');
    expect([invalid.status, invalid.body.errors]).toEqual([400, ["'payload.summary' is missing or blank"]]);
  });

  test("past the source's alerts a minute the answer is 429 and nothing more is stored", async () => {
    const source = await newAlertSource(api, org.token, { source_type: 'generic_webhook' });
    // The 51 requests in one minute window (seen once in CI: across a window's start the 51st fits).
    await withinOneMinute();
    for (let i = 0; i < 50; i++) assert.equal((await trigger(source, { dedup_key: `k${i}` })).status, 202);
    const over = await trigger(source, { dedup_key: 'one-too-many' });
    assert.equal(over.status, 429, JSON.stringify(over.body));
    assert.equal((await alertsOf(source)).some((a) => a.attributes.deduplication_key === 'one-too-many'), false);
  });

  test('the OpenAPI document lists both routes, public', async () => {
    const doc = await api.request('GET', '/v1/openapi.json');
    for (const path of ['/v2/enqueue', '/v2/change/enqueue']) {
      const post = doc.body.paths[path]?.post;
      assert.ok(post, `${path} is in the document`);
      expect(post.security).toEqual([]);
      expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(['202', '400', '429']));
    }
  });
});
