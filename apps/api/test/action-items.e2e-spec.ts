import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { DomainEvent } from '@taproot/messaging';
import { startTestApi, type TestApi, type TestOrganization, type TestResponse } from '../src/testing';
import { created, errorCodes, ids, outboxTypes, pointers, publicOnlyKey, unique } from './support/json-api';

type Attributes = Record<string, unknown>;

const item = (attributes: Attributes) => ({ data: { type: 'incident_action_items', attributes } });
const itemsOf = (incident: string) => `/v1/incidents/${incident}/action_items`;

describe('incident action items: under their incident, at /v1/action_items, and listed across incidents', () => {
  let api: TestApi;
  let org: TestOrganization;
  let other: TestOrganization;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
    other = await api.newOrganization();
  });
  after(() => api?.close());

  const send = (method: string, path: string, body?: unknown, token = org.token) => api.request(method, path, { token, body });
  const newIncident = async (attributes: Attributes = {}, token = org.token) =>
    created(await send('POST', '/v1/incidents', { data: { type: 'incidents', attributes: { title: unique('Outage'), ...attributes } } }, token));
  const newItem = async (incident: string, attributes: Attributes = {}, token = org.token) => created(await send('POST', itemsOf(incident), item({ summary: unique('Add an alert'), ...attributes }), token));
  const newTeam = async (token = org.token) => created(await send('POST', '/v1/teams', { data: { type: 'groups', attributes: { name: unique('Team') } } }, token)).id;
  /** Rows of the write table with that summary, whatever the organization: proves nothing was written. */
  const stored = async (summary: string) => (await api.runtime.dataSource.query('SELECT id FROM incident_action_items WHERE summary = $1', [summary])).length;

  test('an item is created and listed under its incident (uuid or slug), read, changed and deleted at its own path, each change announced', async () => {
    const incident = await newIncident();
    const userId = await api.addUser(org.organizationId, { roleKind: 'admin' });
    const personal = await api.issueApiKey(org.organizationId, { kind: 'personal', userId });
    const team = await newTeam();
    const summary = unique('Add a disk alert');
    const res = await send('POST', itemsOf(incident.attributes.slug), item({ summary, assigned_to_user_id: userId, assigned_to_group_ids: [team.toUpperCase(), team], due_date: '2026-07-01T09:00:00Z' }), personal);
    const { id, type, attributes: a } = created(res);
    assert.equal(type, 'incident_action_items');
    assert.deepEqual(
      { incident_id: a.incident_id, summary: a.summary, kind: a.kind, priority: a.priority, status: a.status, due_date: a.due_date, groups: a.assigned_to_group_ids },
      { incident_id: incident.id, summary, kind: 'task', priority: 'medium', status: 'open', due_date: '2026-07-01T09:00:00.000Z', groups: [team] },
    );
    assert.deepEqual([a.assigned_to.id, a.created_by.id], [userId, userId], 'assignee and creator as user_flat_response');
    assert.equal(typeof a.assigned_to.email, 'string');
    assert.deepEqual((await send('GET', `/v1/action_items/${id}`)).body.data, res.body.data);
    assert.deepEqual(ids(await send('GET', itemsOf(incident.id))), [id]);

    const changes = { status: 'done', priority: 'high', kind: 'follow_up', description: 'Paged twice', assigned_to_user_id: null };
    const updated = await send('PUT', `/v1/action_items/${id}`, item({ ...changes, incident_id: (await newIncident()).id }));
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.deepEqual(updated.body.data.attributes, { ...a, ...changes, assigned_to: null, updated_at: updated.body.data.attributes.updated_at }, 'an item stays under its incident');

    const keyWithoutUser = await newItem(incident.id, {}, await api.issueApiKey(org.organizationId, { kind: 'global' }));
    assert.equal(keyWithoutUser.attributes.created_by, null, 'a key without a user creates without created_by');

    const deleted = await send('DELETE', `/v1/action_items/${id}`);
    assert.equal(deleted.status, 200);
    assert.deepEqual(deleted.body.data, updated.body.data);
    assert.equal((await send('GET', `/v1/action_items/${id}`)).status, 404);
    assert.deepEqual(ids(await send('GET', itemsOf(incident.id))), [keyWithoutUser.id]);
    assert.deepEqual(await outboxTypes(api, id), ['incident_action_item.created', 'incident_action_item.updated', 'incident_action_item.deleted']);
    const [event] = (await api.runtime.dataSource.query('SELECT event FROM outbox WHERE aggregate_id = $1 ORDER BY seq', [id])) as { event: DomainEvent }[];
    assert.deepEqual({ aggregate_type: event.event.aggregate_type, payload: event.event.payload }, { aggregate_type: 'incident_action_items', payload: { id, ...a } });
  });

  test('bad input answers 422 naming the attribute and the unknown id, and nothing is written', async () => {
    const incident = await newIncident();
    const theirTeam = await newTeam(other.token);
    const theirUser = await api.addUser(other.organizationId, { roleKind: 'admin' });
    const team = await newTeam();
    const cases: [Attributes, string[], RegExp?][] = [
      [{}, ['/data/attributes/summary']],
      [{ summary: '' }, ['/data/attributes/summary']],
      [{ summary: unique('Bad kind'), kind: 'chore' }, ['/data/attributes/kind']],
      [{ summary: unique('Bad due date'), due_date: 'next week' }, ['/data/attributes/due_date']],
      [{ summary: unique('Their user'), assigned_to_user_id: theirUser }, ['/data/attributes/assigned_to_user_id'], new RegExp(`assigned_to_user_id: ${theirUser} is not a user of this organization`)],
      [{ summary: unique('Their team'), assigned_to_group_ids: [team, theirTeam] }, ['/data/attributes/assigned_to_group_ids/1'], new RegExp(`assigned_to_group_ids\\[1\\]: ${theirTeam} is not a team`)],
      [{ summary: unique('Other incident'), incident_id: randomUUID() }, ['/data/attributes/incident_id']],
    ];
    for (const [attributes, expected, detail] of cases) {
      const res = await send('POST', itemsOf(incident.id), item(attributes));
      assert.equal(res.status, 422, `${JSON.stringify(attributes)}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(pointers(res), expected, JSON.stringify(attributes));
      if (detail) assert.match(res.body.errors[0].detail, detail);
      if (typeof attributes.summary === 'string') assert.equal(await stored(attributes.summary), 0);
    }
    const existing = await newItem(incident.id);
    const refused = await send('PUT', `/v1/action_items/${existing.id}`, item({ assigned_to_user_id: theirUser, status: 'closed' }));
    assert.equal(refused.status, 422);
    assert.deepEqual((await send('GET', `/v1/action_items/${existing.id}`)).body.data, existing);
  });

  test('the list across incidents takes the reference\'s filters, on the item and on its incident', async () => {
    const own = await api.newOrganization();
    const send = (method: string, path: string, body?: unknown) => api.request(method, path, { token: own.token, body });
    const make = async (incident: string, attributes: Attributes) => created(await send('POST', itemsOf(incident), item({ summary: unique('Item'), ...attributes }))).id;
    const started = (await newIncident({}, own.token)).id;
    const resolved = (await newIncident({ status: 'resolved' }, own.token)).id;
    const userId = await api.addUser(own.organizationId, { roleKind: 'user' });
    const a = await make(started, { kind: 'task', priority: 'high', status: 'open', due_date: '2026-01-10T00:00:00Z', assigned_to_user_id: userId });
    const b = await make(started, { kind: 'follow_up', priority: 'low', status: 'done', due_date: '2026-03-10T00:00:00Z' });
    const c = await make(resolved, { kind: 'follow_up', priority: 'medium', status: 'in_progress' });
    const list = async (query: string) => {
      const res = await send('GET', `/v1/action_items${query}`);
      assert.equal(res.status, 200, `${query}: ${JSON.stringify(res.body)}`);
      return ids(res);
    };
    assert.deepEqual(await list(''), [a, b, c], 'every incident\'s items, in creation order');
    const cases: [string, string[]][] = [
      ['?filter[kind]=follow_up', [b, c]],
      ['?filter[kind][not_eq]=follow_up', [a]],
      ['?filter[priority][in]=high,medium', [a, c]],
      ['?filter[priority][not_in]=high,medium', [b]],
      ['?filter[status][eq]=done', [b]],
      ['?filter[incident_status]=resolved', [c]],
      ['?filter[incident_status][not_eq]=resolved', [a, b]],
      ['?filter[incident_status][in]=started,mitigated', [a, b]],
      ['?filter[incident_status][not_in]=started', [c]],
      ['?filter[due_date][gt]=2026-02-01', [b]],
      ['?filter[due_date][lte]=2026-01-10T00:00:00Z', [a]],
      ['?filter[incident_created_at][gte]=2000-01-01', [a, b, c]],
      ['?filter[incident_created_at][lt]=2000-01-01', []],
      ['?filter[created_at][gt]=2000-01-01&filter[created_at][lte]=2999-01-01', [a, b, c]],
      [`?filter[incident_id]=${resolved}`, [c]],
      [`?filter[assigned_to_user_id]=${userId}`, [a]],
      ['?sort=-due_date', [a, b, c].reverse()],
    ];
    for (const [query, expected] of cases) assert.deepEqual(await list(query), expected, query);
    assert.equal((await send('GET', '/v1/action_items?filter[incident_status]=over')).status, 400);
    assert.equal((await send('GET', '/v1/action_items?filter[incident_private]=true')).status, 400, 'not a client filter');

    const first = await send('GET', '/v1/action_items?page[size]=2');
    assert.deepEqual(ids(first), [a, b]);
    assert.deepEqual(await list(`?page[size]=2&page[after]=${encodeURIComponent(first.body.meta.next_cursor)}`), [c]);
    assert.deepEqual(ids(await send('GET', `${itemsOf(started)}?filter[status][not_eq]=done`)), [a], 'the nested list takes the filters too');
  });

  test('another organization\'s incident or item answers 404 like a missing one, and nothing is written or shown', async () => {
    const theirIncident = await newIncident({}, other.token);
    const theirs = await newItem(theirIncident.id, {}, other.token);
    for (const incident of [theirIncident.id, theirIncident.attributes.slug, randomUUID()]) {
      const summary = unique('Orphan');
      for (const res of [await send('POST', itemsOf(incident), item({ summary })), await send('GET', itemsOf(incident))]) {
        assert.equal(res.status, 404, `${incident}: ${JSON.stringify(res.body)}`);
        assert.deepEqual(errorCodes(res), ['404/NOT_FOUND/Not found']);
      }
      assert.equal(await stored(summary), 0);
    }
    const path = `/v1/action_items/${theirs.id}`;
    for (const res of [await send('GET', path), await send('PUT', path, item({ summary: 'Taken over' })), await send('DELETE', path)]) {
      assert.equal(res.status, 404);
      assert.deepEqual(errorCodes(res), ['404/NOT_FOUND/Not found']);
    }
    assert.ok(!ids(await send('GET', '/v1/action_items?page[size]=100')).includes(theirs.id));
    assert.deepEqual((await send('GET', path, undefined, other.token)).body.data, theirs);
  });

  test('a private incident\'s items are invisible to a caller who may not read private incidents', async () => {
    const secret = await newIncident({ private: true });
    const hidden = await newItem(secret.id);
    const shown = await newItem((await newIncident()).id);
    const publicOnly = await publicOnlyKey(api, org);
    const attempts: [string, string, unknown?][] = [
      ['GET', itemsOf(secret.id)],
      ['GET', itemsOf(secret.attributes.slug)],
      ['POST', itemsOf(secret.id), item({ summary: unique('Sneaked in') })],
      ['GET', `/v1/action_items/${hidden.id}`],
      ['PUT', `/v1/action_items/${hidden.id}`, item({ status: 'done' })],
      ['DELETE', `/v1/action_items/${hidden.id}`],
    ];
    for (const [method, path, body] of attempts) {
      const res = await send(method, path, body, publicOnly);
      assert.equal(res.status, 404, `${method} ${path}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(errorCodes(res), ['404/NOT_FOUND/Not found']);
    }
    const theirList = ids(await send('GET', '/v1/action_items?page[size]=100', undefined, publicOnly));
    assert.ok(theirList.includes(shown.id) && !theirList.includes(hidden.id), 'the list across incidents leaves them out');
    assert.deepEqual((await send('GET', `/v1/action_items/${hidden.id}`)).body.data, hidden, 'unchanged, and seen by the owner');
    assert.ok(ids(await send('GET', '/v1/action_items?page[size]=100')).includes(hidden.id));
  });

  test('writing an item changes its incident: update on incidents, for creates and deletes too', async () => {
    const incident = await newIncident();
    const responder = await api.issueApiKey(org.organizationId, { kind: 'personal', userId: await api.addUser(org.organizationId, { roleKind: 'user' }) });
    const observer = await api.issueApiKey(org.organizationId, { kind: 'personal', userId: await api.addUser(org.organizationId, { roleKind: 'observer' }) });
    const mine = await newItem(incident.id, {}, responder);
    assert.equal((await send('DELETE', `/v1/action_items/${mine.id}`, undefined, responder)).status, 200, 'the User role deletes no incident, but deletes action items');
    const refused = await send('POST', itemsOf(incident.id), item({ summary: unique('Observed') }), observer);
    assert.equal(refused.status, 403);
    assert.match(refused.body.errors[0].detail, /may not update incidents/);
    assert.equal((await send('GET', itemsOf(incident.id), undefined, observer)).status, 200);
  });

  test('deleting an incident deletes its items, sub-status assignments and timeline links, each announced', async () => {
    const incident = await newIncident();
    const items = [(await newItem(incident.id)).id, (await newItem(incident.id)).id];
    const subStatus = created(await send('POST', '/v1/sub_statuses', { data: { type: 'sub_statuses', attributes: { name: unique('Investigating'), parent_status: 'started' } } })).id;
    const assignment = created(await send('POST', `/v1/incidents/${incident.id}/sub_statuses`, { data: { type: 'incident_sub_statuses', attributes: { sub_status_id: subStatus, assigned_at: '2026-01-01T00:00:00Z' } } })).id;
    const event = created(await send('POST', `/v1/incidents/${incident.id}/events`, { data: { type: 'incident_events', attributes: { event: 'Checkout down' } } })).id;
    const service = created(await send('POST', '/v1/services', { data: { type: 'services', attributes: { name: unique('Checkout') } } })).id;
    const functionality = created(await send('POST', '/v1/functionalities', { data: { type: 'functionalities', attributes: { name: unique('Pay') } } })).id;
    const serviceLink = created(await send('POST', `/v1/events/${event}/services`, { data: { type: 'incident_event_services', attributes: { service_id: service, status: 'major_outage' } } })).id;
    const functionalityLink = created(await send('POST', `/v1/events/${event}/functionalities`, { data: { type: 'incident_event_functionalities', attributes: { functionality_id: functionality, status: 'partial_outage' } } })).id;
    const seqBefore = Number((await api.runtime.dataSource.query('SELECT COALESCE(MAX(seq), 0) AS seq FROM outbox'))[0].seq);

    const res = await send('DELETE', `/v1/incidents/${incident.id}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const announced = (await api.runtime.dataSource.query("SELECT event FROM outbox WHERE seq > $1 AND event->>'type' NOT LIKE 'audit_log.%' ORDER BY seq", [seqBefore])) as { event: DomainEvent }[];
    assert.deepEqual(
      announced.map(({ event: e }) => `${e.type} ${e.aggregate_id}`),
      [
        ...items.map((id) => `incident_action_item.deleted ${id}`),
        `incident_sub_status.deleted ${assignment}`,
        `incident_event_service.deleted ${serviceLink}`,
        `incident_event_functionality.deleted ${functionalityLink}`,
        `incident_event.deleted ${event}`,
        `incident.deleted ${incident.id}`,
      ],
    );
    for (const path of [...items.map((id) => `/v1/action_items/${id}`), `/v1/incident_sub_statuses/${assignment}`, `/v1/incident_event_services/${serviceLink}`, `/v1/incident_event_functionalities/${functionalityLink}`]) {
      assert.equal((await send('GET', path)).status, 404, path);
    }
    assert.equal((await send('GET', `/v1/services/${service}`)).status, 200, 'the linked service stays');
  });
});
