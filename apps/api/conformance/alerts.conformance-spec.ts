import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { startTestApi, type TestApi, type TestOrganization, type TestResponse } from '../src/testing';
import { referenceValidator, sampleFromSchema, validateAgainstReference } from '../test/support/openapi-ajv';

/**
 * Alerts against the REFERENCE document: every response of `/v1/alerts` (create, deduplicated
 * create, get, list with and without include, PATCH, the operations), of alert sources, alert
 * events, receipts and the alerts of an incident is validated against the reference's documents
 * (`alert_response`, `alert_list`, `alerts_source_response`, `alert_event_feed_list`, `receipt`,
 * ...), and the errors against `errors_list`.
 */
describe('alerts conform to the reference', () => {
  let api: TestApi;
  let org: TestOrganization;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
  });
  after(() => api?.close());

  const send = (method: string, path: string, body?: unknown) => api.request(method, path, { token: org.token, body });
  const doc = (attributes: Record<string, unknown>) => ({ data: { type: 'alerts', attributes } });
  const check = (res: TestResponse, schema: string, what: string) => {
    assert.ok(res.status < 500, `${what}: ${res.status}`);
    validateAgainstReference(res.status >= 400 ? 'errors_list' : schema, res.body, what);
  };

  test('create, get, list, PATCH and the operations answer the reference documents', async () => {
    const urgency = await send('POST', '/v1/alert_urgencies', { data: { type: 'alert_urgencies', attributes: { name: 'High', description: 'now' } } });
    const team = await send('POST', '/v1/teams', { data: { type: 'groups', attributes: { name: 'Storage' } } });
    const full = {
      summary: 'Disk full',
      description: 'db1 at 97%',
      source: 'datadog',
      deduplication_key: 'disk-db1',
      labels: [{ key: 'host', value: 'db1' }, { key: 'pct', value: 97 }],
      data: { disk: 97 },
      alert_urgency_id: urgency.body.data.id,
      external_id: 'ext-1',
      external_url: 'https://example.test/alerts/1',
      notification_target_type: 'Group',
      notification_target_id: team.body.data.id,
      started_at: '2026-11-01T10:00:00Z',
    };
    const created = await send('POST', '/v1/alerts', doc(full));
    assert.equal(created.status, 201);
    check(created, 'alert_response', 'POST /v1/alerts');
    check(await send('POST', '/v1/alerts', doc({ summary: 'minimal' })), 'alert_response', 'POST /v1/alerts (minimal)');
    const dedup = await send('POST', '/v1/alerts', doc(full));
    assert.equal(dedup.status, 200);
    check(dedup, 'alert_response', 'POST /v1/alerts (deduplicated)');
    const id = created.body.data.id;
    check(await send('GET', `/v1/alerts/${id}`), 'alert_response', 'GET /v1/alerts/{id}');
    check(await send('GET', `/v1/alerts/${id}?include=incidents,groups`), 'alert_response', 'GET /v1/alerts/{id}?include');
    check(await send('GET', '/v1/alerts'), 'alert_list', 'GET /v1/alerts');
    check(await send('GET', '/v1/alerts?page[size]=1&page[number]=2'), 'alert_list', 'GET /v1/alerts (page)');
    check(await send('GET', '/v1/alerts?include=incidents,notified_users,responders,groups&filter[status]=triggered'), 'alert_list', 'GET /v1/alerts?include');
    check(await send('PATCH', `/v1/alerts/${id}`, doc({ summary: 'Disk still full', status: 'acknowledged' })), 'alert_response', 'PATCH /v1/alerts/{id}');
    check(await send('POST', `/v1/alerts/${id}/snooze`, doc({ delay_minutes: 10 })), 'alert_response', 'snooze');
    check(await send('POST', `/v1/alerts/${id}/escalate`), 'alert_response', 'escalate');
    check(await send('POST', `/v1/alerts/${id}/acknowledge`), 'alert_response', 'acknowledge');
    check(await send('POST', `/v1/alerts/${id}/resolve`), 'alert_response', 'resolve');
    const refused = await send('POST', `/v1/alerts/${id}/acknowledge`);
    assert.equal(refused.status, 422);
    check(refused, 'alert_response', 'acknowledge a resolved alert');
  });

  test('alert sources, alert events, receipts and the alerts of an incident answer the reference documents', async () => {
    // The reference answers alert_urgency_id as a non-null string: a source without one answers null (docs/alert-sources.md).
    const urgency = await send('POST', '/v1/alert_urgencies', { data: { type: 'alert_urgencies', attributes: { name: 'Low', description: 'later' } } });
    const source = await send('POST', '/v1/alert_sources', { data: { type: 'alert_sources', attributes: { name: 'Prometheus', source_type: 'alertmanager', alert_urgency_id: urgency.body.data.id } } });
    assert.equal(source.status, 201, JSON.stringify(source.body));
    check(source, 'alerts_source_response', 'POST /v1/alert_sources');
    const sourceId = source.body.data.id;
    check(await send('GET', `/v1/alert_sources/${sourceId}`), 'alerts_source_response', 'GET /v1/alert_sources/{id}');
    check(await send('PUT', `/v1/alert_sources/${sourceId}`, { data: { type: 'alert_sources', attributes: { name: 'Prometheus EU' } } }), 'alerts_source_response', 'PUT /v1/alert_sources/{id}');
    check(await send('GET', '/v1/alert_sources'), 'alerts_source_list', 'GET /v1/alert_sources');

    // An alert through the source's inbound route, with its receipt.
    const inbound = await api.request('POST', `/v1/alert_sources/${sourceId}/alerts?secret=${source.body.data.attributes.secret}`, {
      headers: { 'content-type': 'application/json' },
      rawBody: JSON.stringify({ version: '4', status: 'firing', alerts: [{ status: 'firing', labels: { alertname: 'HighLatency' }, annotations: { summary: 'p99 over 2s' }, startsAt: '2026-11-01T10:00:00Z', fingerprint: 'f1' }] }),
    });
    assert.equal(inbound.status, 202, JSON.stringify(inbound.body));
    const receipt = await send('GET', `/v1/alerts/receipts/${inbound.body.meta.receipts[0].id}`);
    assert.equal(receipt.status, 200);
    validateAgainstReference('receipt', receipt.body, 'GET /v1/alerts/receipts/{id}');
    const alertId = inbound.body.data[0].id;

    const note = await send('POST', `/v1/alerts/${alertId}/events`, { data: { type: 'alert_events', attributes: { kind: 'note', details: 'Looking' } } });
    assert.equal(note.status, 201, JSON.stringify(note.body));
    check(note, 'alert_event_response', 'POST /v1/alerts/{alert_id}/events');
    check(await send('GET', `/v1/alerts/${alertId}/events`), 'alert_event_list', 'GET /v1/alerts/{alert_id}/events');
    check(await send('GET', '/v1/alert_events?sort=-created_at'), 'alert_event_feed_list', 'GET /v1/alert_events');
    check(await send('GET', `/v1/alert_events/${note.body.data.id}`), 'alert_event_response', 'GET /v1/alert_events/{id}');
    check(await send('PATCH', `/v1/alert_events/${note.body.data.id}`, { data: { type: 'alert_events', attributes: { details: 'Found it' } } }), 'alert_event_response', 'PATCH /v1/alert_events/{id}');

    const incident = await send('POST', '/v1/incidents', { data: { type: 'incidents', attributes: { title: 'Latency' } } });
    const attached = await send('POST', `/v1/incidents/${incident.body.data.id}/alerts`, { data: { type: 'alerts', attributes: { alert_ids: [alertId] } } });
    assert.equal(attached.status, 200, JSON.stringify(attached.body));
    check(attached, 'alert_list', 'POST /v1/incidents/{incident_id}/alerts');
    check(await send('GET', `/v1/incidents/${incident.body.data.id}/alerts`), 'alert_list', 'GET /v1/incidents/{incident_id}/alerts');
    check(await send('GET', `/v1/alerts/${alertId}`), 'alert_response', 'GET /v1/alerts/{id} (attached)');
  });

  test("escalate and resolve take the reference's escalate_alert and resolve_alert documents; a page, notified users and responders answer its documents", async () => {
    const ref = referenceValidator();
    const me = String((await send('GET', '/v1/users/me')).body.data.id);
    const policy = (await send('POST', '/v1/escalation_policies', { data: { type: 'escalation_policies', attributes: { name: 'Storage on call' } } })).body.data.id as string;
    const level = await send('POST', `/v1/escalation_policies/${policy}/escalation_levels`, { data: { type: 'escalation_levels', attributes: { delay: 5, notification_target_params: [{ type: 'user', id: me }] } } });
    assert.equal(level.status, 201, JSON.stringify(level.body));
    // The reference does not show POST /v1/pages; what it answers is an alert, as the reference's alert_response.
    const paged = await send('POST', '/v1/pages', { data: { type: 'pages', attributes: { summary: 'Checkout down', escalation_policy_id: policy } } });
    assert.equal(paged.status, 201, JSON.stringify(paged.body));
    check(paged, 'alert_response', 'POST /v1/pages');
    const id = paged.body.data.id as string;

    // Every attribute of the reference's bodies (then the nullable ones null); the policy is one of the organization.
    const pick = (pointer: string) => (pointer === '/data/attributes/escalation_policy_id' ? policy : undefined);
    for (const nulls of [false, true]) {
      for (const [operation, schema] of [['escalate', 'escalate_alert'], ['resolve', 'resolve_alert']]) {
        const body = sampleFromSchema(ref, ref.schema(schema), { pick, nulls });
        const res = await send('POST', `/v1/alerts/${id}/${operation}`, body);
        assert.equal(res.status, 200, `${operation} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
        check(res, 'alert_response', `POST /v1/alerts/{id}/${operation} with ${schema}${nulls ? ' (nulls)' : ''}`);
      }
    }

    // The owner's key acknowledges: a responder to include.
    assert.equal((await send('POST', `/v1/alerts/${id}/escalate`)).status, 200);
    assert.equal((await send('POST', `/v1/alerts/${id}/acknowledge`)).status, 200);
    const one = await send('GET', `/v1/alerts/${id}?include=notified_users,responders`);
    check(one, 'alert_response', 'GET /v1/alerts/{id}?include=notified_users,responders');
    assert.deepEqual(one.body.data.relationships.responders, { data: [{ type: 'users', id: me }] });
    check(await send('GET', '/v1/alerts?include=notified_users,responders'), 'alert_list', 'GET /v1/alerts?include=notified_users,responders');
  });
});
