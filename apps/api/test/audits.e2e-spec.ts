import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { eventually, startTestApi, type TestApi, type TestOrganization, type TestResponse } from '../src/testing';

describe('the audit log', () => {
  let api: TestApi;
  let org: TestOrganization;
  let other: TestOrganization;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
    other = await api.newOrganization();
  });
  after(() => api.close());

  const audits = (query: string, token = org.token) => api.request('GET', `/v1/audits?${query}`, { token });
  // Writes do not wait for the audit log: read until the item's rows are there.
  const itemRows = (res: TestResponse, itemId: string) => res.body.data.filter((d: { attributes: { item_id: string } }) => d.attributes.item_id === itemId);
  const auditsOf = (query: string, itemId: string, count = 1) => eventually(() => audits(query), (res) => itemRows(res, itemId).length >= count);

  test('every write is recorded with actor, request, item and change', async () => {
    const created = await api.request('POST', '/v1/services', {
      token: org.token,
      body: { data: { type: 'services', attributes: { name: 'Audited', color: '#111111' } } },
      headers: { 'user-agent': 'audit-test/1.0', 'x-request-id': 'req-audit-1' },
    });
    assert.equal(created.status, 201);
    const id = created.body.data.id;
    await api.request('PUT', `/v1/services/${id}`, {
      token: org.token,
      body: { data: { type: 'services', attributes: { color: '#222222' } } },
      headers: { 'x-request-id': 'req-audit-2' },
    });
    await api.request('DELETE', `/v1/services/${id}`, { token: org.token });

    const res = await auditsOf('filter[item_type]=Service&sort=created_at', id, 3);
    assert.equal(res.status, 200);
    const rows = res.body.data.filter((d: { attributes: { item_id: string } }) => d.attributes.item_id === id).map((d: { attributes: Record<string, unknown> }) => d.attributes);
    assert.deepEqual(rows.map((r: { event: string }) => r.event), ['create', 'update', 'destroy']);
    const [create, update, destroy] = rows;
    assert.equal(create.request_id, 'req-audit-1');
    assert.equal(create.user_agent, 'audit-test/1.0');
    assert.match(String(create.ip_address), /127\.0\.0\.1/);
    assert.equal(create.source, 'api');
    assert.equal(typeof create.api_key_id, 'string');
    assert.equal(typeof create.user_id, 'number', 'the key’s user is the actor');
    assert.equal(create.user_email, 'owner@example.test');
    assert.equal((create.object as { name: string }).name, 'Audited');
    assert.deepEqual(update.object_changes, { color: ['#111111', '#222222'] });
    assert.equal(update.request_id, 'req-audit-2');
    assert.equal(destroy.object, null);
  });

  test('filters by actor and date; another organization sees none of it', async () => {
    const created = await api.request('POST', '/v1/severities', { token: org.token, body: { data: { type: 'severities', attributes: { name: 'Audited sev' } } } });
    assert.equal(created.status, 201);
    const mine = await auditsOf('filter[item_type]=Severity', created.body.data.id);
    const apiKeyId = mine.body.data[0].attributes.api_key_id;
    assert.ok(mine.body.data.length >= 1);
    assert.equal((await audits(`filter[api_key_id]=${apiKeyId}&filter[item_type]=Severity`)).body.data.length, mine.body.data.length);
    assert.equal((await audits('filter[api_key_id]=00000000-0000-4000-8000-000000000000')).body.data.length, 0);
    assert.equal((await audits('filter[created_at][lt]=2000-01-01T00:00:00Z')).body.data.length, 0);
    assert.equal((await audits('filter[item_type]=Severity', other.token)).body.data.length, 0);
  });

  test('item_type is the reference enum’s name of the kind, or null where it has none; item_type_display names every kind', async () => {
    // The hosted API's SDK (rootly 3.0.1, tools/sdk) refuses a list holding any other item_type.
    const urgency = await api.request('POST', '/v1/alert_urgencies', { token: org.token, body: { data: { type: 'alert_urgencies', attributes: { name: 'Audited urgency', description: 'Now' } } } });
    const source = await api.request('POST', '/v1/alert_sources', { token: org.token, body: { data: { type: 'alert_sources', attributes: { name: 'Audited source' } } } });
    assert.equal(urgency.status, 201);
    assert.equal(source.status, 201);
    const [urgencyRow] = itemRows(await auditsOf('page[size]=100', urgency.body.data.id), urgency.body.data.id);
    assert.equal(urgencyRow.attributes.item_type, null);
    assert.equal(urgencyRow.attributes.item_type_display, 'Alert Urgency');
    const [sourceRow] = itemRows(await auditsOf('filter[item_type]=Alerts::Source', source.body.data.id), source.body.data.id);
    assert.equal(sourceRow.attributes.item_type_display, 'Alerts Source');

    // The previous object is still found for a kind served as null: the change lists only what changed.
    await api.request('PUT', `/v1/alert_urgencies/${urgency.body.data.id}`, { token: org.token, body: { data: { type: 'alert_urgencies', attributes: { description: 'Later' } } } });
    const rows = itemRows(await auditsOf('page[size]=100&sort=created_at', urgency.body.data.id, 2), urgency.body.data.id);
    assert.deepEqual(rows[1].attributes.object_changes, { description: ['Now', 'Later'] });
  });

  test('each audit record is announced as audit_log.created on the bus', async () => {
    const created = await api.request('POST', '/v1/services', { token: org.token, body: { data: { type: 'services', attributes: { name: 'Announced' } } } });
    const [audit] = itemRows(await auditsOf('filter[item_type]=Service', created.body.data.id), created.body.data.id);
    const rows = await api.runtime.dataSource.query("SELECT topic, event FROM outbox WHERE event->>'type' = 'audit_log.created' AND aggregate_id = $1", [audit.id]);
    assert.equal(rows.length, 1);
    assert.equal(rows[0].topic, 'taproot.identity');
    assert.equal(rows[0].event.payload.item_id, created.body.data.id);
  });
});
