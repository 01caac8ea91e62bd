import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startTestApi, withinOneMinute, type TestApi, type TestOrganization } from '../src/testing';
import { outboxTypes } from './support/json-api';

type Attributes = Record<string, unknown>;
const doc = (attributes: Attributes, type = 'alerts') => ({ data: { type, attributes } });

describe('alerts over HTTP', () => {
  let api: TestApi;
  let org: TestOrganization;
  let other: TestOrganization;
  /** Records of `org` alerts can page: a user, a team and a service. */
  const targets = { user: '', group: '', service: '' };
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
    other = await api.newOrganization();
    targets.user = String(await api.addUser(org.organizationId, { roleKind: 'user' }));
    targets.group = (await send('POST', '/v1/teams', doc({ name: 'Paged team' }, 'groups'))).body.data.id;
    targets.service = (await send('POST', '/v1/services', doc({ name: 'Paged service' }, 'services'))).body.data.id;
  });
  after(() => api?.close());

  const send = (method: string, path: string, body?: unknown, token = org.token) => api.request(method, path, { token, body });
  const create = async (attributes: Attributes, token = org.token) => {
    const res = await send('POST', '/v1/alerts', doc(attributes), token);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data as { id: string; attributes: Attributes };
  };

  test('create defaults source to api and status to open without a target, triggered with one; get reads it back', async () => {
    const open = await create({ summary: 'Disk full', labels: [{ key: 'host', value: 'db1' }], data: { disk: 97 } });
    assert.equal(open.attributes.source, 'api');
    assert.equal(open.attributes.status, 'open');
    assert.ok(open.attributes.started_at);
    assert.equal(open.attributes.ended_at, null);
    assert.match(String(open.attributes.short_id), /^[0-9a-f]{10}$/);
    assert.deepEqual(open.attributes.labels, [{ key: 'host', value: 'db1' }]);
    assert.deepEqual(open.attributes.data, { disk: 97 });
    const paging = await create({ summary: 'CPU', source: 'datadog', notification_target_type: 'Group', notification_target_id: targets.group });
    assert.equal(paging.attributes.status, 'triggered');
    assert.equal(paging.attributes.source, 'datadog');
    const many = await create({ summary: 'Many', notification_targets: [{ type: 'User', id: targets.user }, { type: 'Service', id: targets.service }] });
    assert.equal(many.attributes.status, 'triggered');
    assert.deepEqual(many.attributes.notification_targets, [{ type: 'User', id: targets.user }, { type: 'Service', id: targets.service }]);

    const got = await send('GET', `/v1/alerts/${open.id}`);
    assert.equal(got.status, 200);
    assert.equal(got.body.data.attributes.summary, 'Disk full');
    assert.deepEqual(await outboxTypes(api, open.id), ['alert.created']);
    const events = await send('GET', `/v1/alerts/${open.id}/events`);
    assert.equal(events.status, 200);
    assert.deepEqual(events.body.data.map((e: { attributes: Attributes }) => e.attributes.action), ['created']);
  });

  test('GET /v1/alerts/{id} also takes the short_id; another organization gets 404 for it', async () => {
    const alert = await create({ summary: 'Known by its short id' });
    const byShortId = await send('GET', `/v1/alerts/${alert.attributes.short_id}`);
    assert.equal(byShortId.status, 200, JSON.stringify(byShortId.body));
    assert.equal(byShortId.body.data.id, alert.id);
    assert.equal((await send('GET', `/v1/alerts/${alert.attributes.short_id}`, undefined, other.token)).status, 404);
    assert.equal((await send('GET', '/v1/alerts/0000000000')).status, 404);
  });

  test('summary is required, deferred is not a create status, and the urgency must be of the organization', async () => {
    const missing = await send('POST', '/v1/alerts', doc({ description: 'no summary' }));
    assert.equal(missing.status, 422);
    const deferred = await send('POST', '/v1/alerts', doc({ summary: 's', status: 'deferred' }));
    assert.equal(deferred.status, 422);
    const foreign = await send('POST', '/v1/alert_urgencies', doc({ name: 'High', description: 'x' }, 'alert_urgencies'), other.token);
    assert.equal(foreign.status, 201);
    const refused = await send('POST', '/v1/alerts', doc({ summary: 's', alert_urgency_id: foreign.body.data.id }));
    assert.equal(refused.status, 422);
    assert.equal(refused.body.errors[0].source.pointer, '/data/attributes/alert_urgency_id');
    const own = await send('POST', '/v1/alert_urgencies', doc({ name: 'High', description: 'x' }, 'alert_urgencies'));
    const ok = await create({ summary: 'urgent', alert_urgency_id: own.body.data.id });
    assert.equal(ok.attributes.alert_urgency_id, own.body.data.id);
    const list = await send('GET', `/v1/alerts?filter[alert_urgency_id]=${own.body.data.id}`);
    assert.deepEqual(list.body.data.map((d: { id: string }) => d.id), [ok.id]);
  });

  test("labels must be the reference's {key, value} pairs, on create and PATCH; a refused write stores nothing", async () => {
    const before = (await send('GET', '/v1/alerts?page[size]=1')).body.meta.total_count;
    const bad = await send('POST', '/v1/alerts', doc({ summary: 'Odd labels', labels: [{ key: 'ok', value: 1 }, { key: null, value: 'x' }, { tag: 'y' }, { key: 'k', value: { nested: true } }] }));
    assert.equal(bad.status, 422, JSON.stringify(bad.body));
    assert.deepEqual(
      bad.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer),
      ['/data/attributes/labels/1/key', '/data/attributes/labels/2/key', '/data/attributes/labels/2/value', '/data/attributes/labels/2/tag', '/data/attributes/labels/3/value'],
    );
    assert.equal((await send('GET', '/v1/alerts?page[size]=1')).body.meta.total_count, before);
    const alert = await create({ summary: 'Typed labels', labels: [{ key: 'port', value: 5432 }, { key: 'primary', value: true }] });
    assert.deepEqual(alert.attributes.labels, [{ key: 'port', value: 5432 }, { key: 'primary', value: true }]);
    const patched = await send('PATCH', `/v1/alerts/${alert.id}`, doc({ labels: [{ value: 'no key' }] }));
    assert.equal(patched.status, 422);
    assert.equal(patched.body.errors[0].source.pointer, '/data/attributes/labels/0/key');
    assert.deepEqual((await send('GET', `/v1/alerts/${alert.id}`)).body.data.attributes.labels, alert.attributes.labels);
  });

  test('list: page numbers and cursors, filters on status (with deferred), source and date ranges', async () => {
    const o = await api.newOrganization();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await create({ summary: `a${i}`, source: i === 2 ? 'grafana' : 'api' }, o.token)).id);
    const page = await send('GET', '/v1/alerts?page[size]=2&page[number]=2', undefined, o.token);
    assert.equal(page.status, 200);
    assert.deepEqual(page.body.data.map((d: { id: string }) => d.id), [ids[2]]);
    const first = await send('GET', '/v1/alerts?page[size]=2', undefined, o.token);
    assert.ok(first.body.links.next);
    const cursor = await send('GET', `/v1/alerts?page[size]=2&page[after]=${encodeURIComponent(first.body.meta.next_cursor ?? new URL(first.body.links.next, api.url).searchParams.get('page[after]'))}`, undefined, o.token);
    assert.equal(cursor.status, 200, JSON.stringify(cursor.body));
    assert.deepEqual(cursor.body.data.map((d: { id: string }) => d.id), [ids[2]]);
    const source = await send('GET', '/v1/alerts?filter[source]=grafana', undefined, o.token);
    assert.deepEqual(source.body.data.map((d: { id: string }) => d.id), [ids[2]]);
    await send('POST', `/v1/alerts/${ids[0]}/escalate`, undefined, o.token);
    const snoozed = await send('POST', `/v1/alerts/${ids[0]}/snooze`, doc({ delay_minutes: 5 }), o.token);
    assert.equal(snoozed.status, 200);
    const deferred = await send('GET', '/v1/alerts?filter[status]=deferred', undefined, o.token);
    assert.deepEqual(deferred.body.data.map((d: { id: string }) => d.id), [ids[0]]);
    const notDeferred = await send('GET', '/v1/alerts?filter[status][not_in]=deferred,resolved', undefined, o.token);
    assert.equal(notDeferred.body.data.length, 2);
    const future = await send('GET', `/v1/alerts?filter[started_at][gt]=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`, undefined, o.token);
    assert.deepEqual(future.body.data, []);
    const past = await send('GET', `/v1/alerts?filter[created_at][gte]=2020-01-01T00:00:00Z`, undefined, o.token);
    assert.equal(past.body.data.length, 3);
    const bad = await send('GET', '/v1/alerts?filter[status]=sleeping', undefined, o.token);
    assert.equal(bad.status, 400);
  });

  test('incidents, notified_users, responders and groups are absent unless include asks for them', async () => {
    const alert = await create({ summary: 'include me' });
    const plain = await send('GET', `/v1/alerts?filter[external_id]=none`);
    assert.equal(plain.status, 200);
    const list = await send('GET', '/v1/alerts');
    for (const d of list.body.data) {
      assert.equal(d.relationships, undefined);
      for (const name of ['incidents', 'notified_users', 'responders', 'groups']) assert.equal(d.attributes[name], undefined);
    }
    assert.equal(list.body.included, undefined);
    const single = await send('GET', `/v1/alerts/${alert.id}`);
    assert.equal(single.body.data.relationships, undefined);
    const asked = await send('GET', '/v1/alerts?include=incidents,responders');
    assert.equal(asked.status, 200);
    const item = asked.body.data.find((d: { id: string }) => d.id === alert.id);
    assert.deepEqual(item.relationships, { incidents: { data: [] }, responders: { data: [] } });
    assert.deepEqual(asked.body.included, []);
    const one = await send('GET', `/v1/alerts/${alert.id}?include=notified_users,groups`);
    assert.deepEqual(one.body.data.relationships, { notified_users: { data: [] }, groups: { data: [] } });
    assert.equal((await send('GET', '/v1/alerts?include=owners')).status, 400);
  });

  test('PATCH updates attributes with an alert event, and a status through the lifecycle', async () => {
    const alert = await create({ summary: 'patch me', notification_target_type: 'User', notification_target_id: targets.user });
    const renamed = await send('PATCH', `/v1/alerts/${alert.id}`, doc({ summary: 'patched', description: 'more' }));
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assert.equal(renamed.body.data.attributes.summary, 'patched');
    const resolved = await send('PATCH', `/v1/alerts/${alert.id}`, doc({ status: 'resolved' }));
    assert.equal(resolved.status, 200);
    assert.equal(resolved.body.data.attributes.status, 'resolved');
    assert.ok(resolved.body.data.attributes.ended_at);
    assert.deepEqual(await outboxTypes(api, alert.id), ['alert.created', 'alert.updated', 'alert.updated', 'alert.resolved', 'alert.paging_cancelled']);
    const deferred = await send('PATCH', `/v1/alerts/${alert.id}`, doc({ status: 'deferred' }));
    assert.equal(deferred.status, 422);
    assert.match(deferred.body.errors[0].detail, /^An alert that is resolved cannot be deferred; snooze it/);
    const ack = await send('PATCH', `/v1/alerts/${alert.id}`, doc({ status: 'acknowledged' }));
    assert.equal(ack.status, 422);
    const reopened = await send('PATCH', `/v1/alerts/${alert.id}`, doc({ status: 'open' }));
    assert.equal(reopened.body.data.attributes.status, 'open');
    assert.equal(reopened.body.data.attributes.ended_at, null);
    const events = await send('GET', `/v1/alerts/${alert.id}/events`);
    // The paging engine runs beside the test (it may have paged the user before the resolve): its lines are kind notification.
    const lifecycle = (events.body.data as { attributes: Attributes }[]).filter((e) => e.attributes.kind !== 'notification');
    assert.deepEqual(lifecycle.map((e) => e.attributes.action), ['created', 'updated', 'resolved', 'open']);
  });

  test('notes: clients add notes only and change them with PATCH (the reference method); /v1/alert_events lists across alerts with sort', async () => {
    const alert = await create({ summary: 'notes' });
    const note = await send('POST', `/v1/alerts/${alert.id}/events`, doc({ kind: 'note', details: 'looking' }, 'alert_events'));
    assert.equal(note.status, 201, JSON.stringify(note.body));
    assert.equal(note.body.data.attributes.kind, 'note');
    assert.equal(note.body.data.attributes.alert_id, alert.id);
    const other = await send('POST', `/v1/alerts/${alert.id}/events`, doc({ kind: 'action', details: 'x' }, 'alert_events'));
    assert.equal(other.status, 422);
    const edited = await send('PATCH', `/v1/alert_events/${note.body.data.id}`, doc({ details: 'found it' }, 'alert_events'));
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    assert.equal(edited.body.data.attributes.details, 'found it');
    assert.equal((await send('GET', `/v1/alert_events/${note.body.data.id}`)).body.data.attributes.details, 'found it');
    assert.equal((await send('PUT', `/v1/alert_events/${note.body.data.id}`, doc({ details: 'put' }, 'alert_events'))).status, 405, 'the reference declares PATCH only');
    const lifecycle = (await send('GET', `/v1/alerts/${alert.id}/events?filter[kind]=informational`)).body.data[0];
    const refused = await send('PATCH', `/v1/alert_events/${lifecycle.id}`, doc({ details: 'rewrite' }, 'alert_events'));
    assert.equal(refused.status, 422);
    assert.equal(refused.body.errors[0].code, 'NOT_A_NOTE');
    assert.equal((await send('GET', `/v1/alert_events/${lifecycle.id}`)).body.data.attributes.details, lifecycle.attributes.details);
    assert.equal((await send('DELETE', `/v1/alert_events/${lifecycle.id}`)).status, 422);
    const all = await send('GET', `/v1/alert_events?filter[alert_id]=${alert.id}&sort=-created_at`);
    assert.equal(all.status, 200);
    assert.deepEqual(all.body.data.map((e: { attributes: Attributes }) => e.attributes.kind), ['note', 'informational']);
    // Nothing pages yet: every event answers the paging attributes, null (spec Events 5).
    for (const e of [note.body.data, edited.body.data, ...all.body.data]) {
      assert.deepEqual([e.attributes.page_reason, e.attributes.escalation_level, e.attributes.escalation_target_type], [null, null, null], JSON.stringify(e));
    }
  });

  test('deduplication: an unresolved alert of the same source and key is updated instead, once under concurrent posts', async () => {
    const o = await api.newOrganization();
    const key = randomUUID();
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => send('POST', '/v1/alerts', doc({ summary: `dup ${i}`, deduplication_key: key }), o.token)));
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    const ids = new Set(results.map((r) => r.body.data.id));
    assert.equal(ids.size, 1);
    const [id] = ids;
    const [{ count }] = await api.runtime.dataSource.query('SELECT count(*)::int AS count FROM alerts WHERE organization_id = $1', [o.organizationId]);
    assert.equal(count, 1);
    const events = await send('GET', `/v1/alerts/${id}/events?page[size]=20`, undefined, o.token);
    assert.equal(events.body.data.filter((e: { attributes: Attributes }) => e.attributes.kind === 'alert_grouping').length, 9);
    // Another source, or once the first is resolved: a new alert.
    const otherSource = await send('POST', '/v1/alerts', doc({ summary: 'dup', deduplication_key: key, source: 'grafana' }), o.token);
    assert.equal(otherSource.status, 201);
    assert.notEqual(otherSource.body.data.id, id);
    await send('POST', `/v1/alerts/${id}/resolve`, undefined, o.token);
    const fresh = await send('POST', '/v1/alerts', doc({ summary: 'dup again', deduplication_key: key }), o.token);
    assert.equal(fresh.status, 201);
    assert.notEqual(fresh.body.data.id, id);
  });

  test('POST /v1/alerts alerts carry no alert_source_id (a client cannot set one) and still deduplicate among themselves by source', async () => {
    const key = randomUUID();
    const first = await send('POST', '/v1/alerts', doc({ summary: 'api dup', deduplication_key: key, source: 'generic_webhook', alert_source_id: randomUUID() }));
    assert.equal(first.status, 201, JSON.stringify(first.body));
    assert.equal(first.body.data.attributes.alert_source_id, null);
    const again = await send('POST', '/v1/alerts', doc({ summary: 'api dup 2', deduplication_key: key, source: 'generic_webhook' }));
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal(again.body.data.id, first.body.data.id);
    assert.equal(again.body.data.attributes.summary, 'api dup 2');
    const listed = await send('GET', `/v1/alerts?filter[deduplication_key]=${key}&filter[alert_source_id][null]=true`);
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    assert.deepEqual(listed.body.data.map((a: { id: string }) => a.id), [first.body.data.id]);
  });

  test('alert creation is limited to 50 per minute per API key with the spec body', async () => {
    const o = await api.newOrganization();
    await withinOneMinute();
    for (let i = 0; i < 50; i++) assert.equal((await send('POST', '/v1/alerts', doc({ summary: `n${i}` }), o.token)).status, 201);
    const over = await send('POST', '/v1/alerts', doc({ summary: 'n50' }), o.token);
    assert.equal(over.status, 429);
    assert.deepEqual(over.body, { error: 'Rate limit exceeded. Try again later.' });
    const [{ count }] = await api.runtime.dataSource.query('SELECT count(*)::int AS count FROM alerts WHERE organization_id = $1', [o.organizationId]);
    assert.equal(count, 50);
    // Another key has its own budget.
    assert.equal((await send('POST', '/v1/alerts', doc({ summary: 'other key' }), other.token)).status, 201);
  });

  test("another organization's alert answers 404 on every route", async () => {
    const alert = await create({ summary: 'mine' });
    for (const [method, path, body] of [
      ['GET', `/v1/alerts/${alert.id}`],
      ['PATCH', `/v1/alerts/${alert.id}`, doc({ summary: 'x' })],
      ['POST', `/v1/alerts/${alert.id}/resolve`],
      ['POST', `/v1/alerts/${alert.id}/acknowledge`],
      ['POST', `/v1/alerts/${alert.id}/snooze`, doc({ delay_minutes: 5 })],
      ['POST', `/v1/alerts/${alert.id}/escalate`],
      ['GET', `/v1/alerts/${alert.id}/events`],
      ['POST', `/v1/alerts/${alert.id}/events`, doc({ kind: 'note', details: 'x' }, 'alert_events')],
    ] as [string, string, unknown?][]) {
      const res = await send(method, path, body, other.token);
      assert.equal(res.status, 404, `${method} ${path}`);
    }
    assert.equal((await send('GET', `/v1/alerts/${alert.id}`)).body.data.attributes.summary, 'mine');
  });
});
