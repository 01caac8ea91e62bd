import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { DomainEvent } from '@taproot/messaging';
import { startTestApi, type TestApi, type TestOrganization } from '../src/testing';

type Attributes = Record<string, unknown>;
type Incident = { id: string; attributes: Attributes };

const incident = (attributes: Attributes = {}) => ({ data: { type: 'incidents', attributes } });
const unique = (name: string) => `${name} ${randomUUID().slice(0, 8)}`;

describe('incident operations beyond status: duplicates, sub-incidents, subscribers, roles, privacy, timeline', () => {
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
  const create = async (attributes: Attributes = {}, token = org.token): Promise<Incident> => {
    const res = await send('POST', '/v1/incidents', incident({ title: unique('Incident'), ...attributes }), token);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data;
  };
  const get = async (id: string, token = org.token): Promise<Incident> => (await send('GET', `/v1/incidents/${id}`, undefined, token)).body.data;
  const types = async (id: string): Promise<string[]> =>
    (await api.runtime.dataSource.query('SELECT event FROM outbox WHERE aggregate_id = $1 ORDER BY seq', [id])).map((r: { event: DomainEvent }) => r.event.type);
  const trail = async (id: string): Promise<string[]> => (await send('GET', `/v1/incidents/${id}/events`)).body.data.map((e: { attributes: Attributes }) => e.attributes.event);
  const pointer = (res: { body: { errors: { source?: { pointer?: string } }[] } }) => res.body.errors[0].source?.pointer;

  test('duplicate marks and resolves; unmark keeps the status; self, cycles and other organizations are refused', async () => {
    const original = await create();
    const copy = await create();
    const marked = await send('PUT', `/v1/incidents/${copy.id}/duplicate`, incident({ duplicate_incident_id: original.id, resolution_message: 'Same outage' }));
    assert.equal(marked.status, 200, JSON.stringify(marked.body));
    assert.equal(marked.body.data.attributes.duplicate_incident_id, original.id);
    assert.equal(marked.body.data.attributes.status, 'resolved');
    assert.equal(marked.body.data.attributes.resolution_message, 'Same outage');
    assert.deepEqual((await types(copy.id)).slice(1), ['incident.updated', 'incident.marked_as_duplicate', 'incident.resolved']);
    assert.deepEqual(await trail(copy.id), [
      `Marked as a duplicate of #${String(original.attributes.sequential_id)} (${String(original.attributes.title)})`,
      'Status changed from started to resolved: Same outage',
    ]);

    const self = await send('PUT', `/v1/incidents/${original.id}/duplicate`, incident({ duplicate_incident_id: original.attributes.slug }));
    assert.equal(self.status, 422);
    assert.equal(pointer(self), '/data/attributes/duplicate_incident_id');
    const cycle = await send('PUT', `/v1/incidents/${original.id}/duplicate`, incident({ duplicate_incident_id: copy.id }));
    assert.equal(cycle.status, 422);
    assert.match(cycle.body.errors[0].detail, /no cycles/);
    const foreign = await create({}, other.token);
    const elsewhere = await send('PUT', `/v1/incidents/${original.id}/duplicate`, incident({ duplicate_incident_id: foreign.id }));
    assert.equal(elsewhere.status, 422, 'another organization\'s incident is an unknown id');
    assert.equal(pointer(elsewhere), '/data/attributes/duplicate_incident_id');
    assert.equal((await get(original.id)).attributes.status, 'started', 'refusals change nothing');

    const unmarked = await send('PUT', `/v1/incidents/${copy.id}/unmark_as_duplicate`);
    assert.equal(unmarked.status, 200, JSON.stringify(unmarked.body));
    assert.equal(unmarked.body.data.attributes.duplicate_incident_id, null);
    assert.equal(unmarked.body.data.attributes.status, 'resolved');
    assert.deepEqual((await types(copy.id)).slice(-2), ['incident.updated', 'incident.unmarked_as_duplicate']);
    const again = await send('PUT', `/v1/incidents/${copy.id}/unmark_as_duplicate`);
    assert.equal(again.status, 422);
    assert.equal(again.body.errors[0].detail, 'The incident is not marked as duplicate');
  });

  test('sub-incidents: the kind follows the parent; no self reference, no cycles; detach; deleting a parent detaches', async () => {
    const parent = await create({ kind: 'test' });
    const child = await create({ parent_incident_id: parent.attributes.slug });
    assert.equal(child.attributes.parent_incident_id, parent.id);
    assert.equal(child.attributes.kind, 'normal_sub');
    const grandchild = await create();
    const attached = await send('PUT', `/v1/incidents/${grandchild.id}`, incident({ parent_incident_id: child.id }));
    assert.equal(attached.status, 200, JSON.stringify(attached.body));
    assert.equal(attached.body.data.attributes.kind, 'normal_sub');
    assert.deepEqual((await types(grandchild.id)).slice(1), ['incident.updated', 'incident.attached_to_parent']);

    const cycle = await send('PUT', `/v1/incidents/${parent.id}`, incident({ parent_incident_id: grandchild.id }));
    assert.equal(cycle.status, 422);
    assert.equal(pointer(cycle), '/data/attributes/parent_incident_id');
    assert.match(cycle.body.errors[0].detail, /no cycles/);
    const self = await send('PUT', `/v1/incidents/${parent.id}`, incident({ parent_incident_id: parent.id }));
    assert.equal(self.status, 422);
    assert.equal((await send('POST', '/v1/incidents', incident({ parent_incident_id: randomUUID() }))).status, 422);

    const detached = await send('PUT', `/v1/incidents/${grandchild.id}/detach_from_parent`);
    assert.equal(detached.status, 200);
    assert.equal(detached.body.data.attributes.parent_incident_id, null);
    assert.equal(detached.body.data.attributes.kind, 'normal');
    assert.equal((await send('PUT', `/v1/incidents/${grandchild.id}/detach_from_parent`)).status, 422, 'an incident without a parent');

    const removed = await send('DELETE', `/v1/incidents/${parent.id}`);
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    const orphan = await get(child.id);
    assert.equal(orphan.attributes.parent_incident_id, null);
    assert.equal(orphan.attributes.kind, 'normal');
    assert.deepEqual((await types(child.id)).slice(-2), ['incident.updated', 'incident.detached_from_parent']);
  });

  test('subscribers: users of the organization, added and removed with a trail and events', async () => {
    const ann = await api.addUser(org.organizationId, { roleKind: 'user' });
    const bo = await api.addUser(org.organizationId, { roleKind: 'observer' });
    const stranger = await api.addUser(other.organizationId, { roleKind: 'user' });
    const target = await create();
    const subscribe = (user_ids: unknown[], extra: Attributes = {}) => send('POST', `/v1/incidents/${target.id}/add_subscribers`, incident({ user_ids, ...extra }));

    const refused = await subscribe([String(ann), String(stranger)]);
    assert.equal(refused.status, 422);
    assert.equal(pointer(refused), '/data/attributes/user_ids/1');
    assert.deepEqual((await get(target.id)).attributes.subscriber_ids, []);

    const added = await subscribe([String(ann), String(bo)]);
    assert.equal(added.status, 200, JSON.stringify(added.body));
    assert.deepEqual(added.body.data.attributes.subscriber_ids, [String(ann), String(bo)]);
    assert.equal((await subscribe([String(ann)])).status, 200, 'subscribing twice is a no-op');
    const included = await send('GET', `/v1/incidents/${target.id}?include=subscribers`);
    assert.deepEqual(included.body.included.map((u: { type: string; id: string }) => `${u.type}/${u.id}`).sort(), [`users/${ann}`, `users/${bo}`].sort());

    const removed = await send('DELETE', `/v1/incidents/${target.id}/remove_subscribers`, incident({ user_ids: [String(bo)] }));
    assert.equal(removed.status, 200);
    assert.deepEqual(removed.body.data.attributes.subscriber_ids, [String(ann)]);
    assert.deepEqual((await types(target.id)).slice(1), ['incident.updated', 'incident.subscribers_added', 'incident.updated', 'incident.subscribers_removed']);
    assert.deepEqual(await trail(target.id), ['Subscribed: Someone, Someone', 'Unsubscribed: Someone']);
  });

  test('roles: an incident role of the organization for a user; one holder unless multi-assignment; unassign', async () => {
    const ann = await api.addUser(org.organizationId, { roleKind: 'user' });
    const bo = await api.addUser(org.organizationId, { roleKind: 'user' });
    const role = (await send('POST', '/v1/incident_roles', { data: { type: 'incident_roles', attributes: { name: unique('Commander') } } })).body.data;
    const foreignRole = (await send('POST', '/v1/incident_roles', { data: { type: 'incident_roles', attributes: { name: unique('Scribe') } } }, other.token)).body.data;
    const target = await create();
    const assign = (incident_role_id: string, user_id: number) => send('POST', `/v1/incidents/${target.id}/assign_role_to_user`, incident({ incident_role_id, user_id: String(user_id) }));

    const unknownRole = await assign(foreignRole.id, ann);
    assert.equal(unknownRole.status, 422);
    assert.equal(pointer(unknownRole), '/data/attributes/incident_role_id');
    const unknownUser = await assign(role.id, 999999);
    assert.equal(pointer(unknownUser), '/data/attributes/user_id');

    assert.deepEqual((await assign(role.id, ann)).body.data.attributes.role_assignments, [{ incident_role_id: role.id, user_id: String(ann) }]);
    const replaced = await assign(role.id, bo);
    assert.deepEqual(replaced.body.data.attributes.role_assignments, [{ incident_role_id: role.id, user_id: String(bo) }], 'one holder at a time');
    // include=roles: the assignments, each with its role and user (the hosted API's shape).
    const included = await send('GET', `/v1/incidents/${target.id}?include=roles`);
    assert.equal(included.status, 200);
    const [assignment, ...more] = included.body.included;
    assert.equal(more.length, 0);
    assert.equal(assignment.type, 'incident_role_assignments');
    assert.equal(assignment.attributes.incident_role.data.id, role.id);
    assert.equal(assignment.attributes.incident_role.data.attributes.name, role.attributes.name);
    assert.equal(assignment.attributes.user.data.id, String(bo));
    assert.equal(assignment.relationships.incident_role.data.id, role.id);
    assert.equal(assignment.relationships.user.data.id, String(bo));
    assert.deepEqual(included.body.data.relationships.roles.data, [{ type: 'incident_role_assignments', id: assignment.id }]);
    const again = await send('GET', `/v1/incidents?include=roles&filter[search]=${encodeURIComponent(String(target.attributes.title))}`);
    assert.equal(again.body.included.find((r: { type: string }) => r.type === 'incident_role_assignments')?.id, assignment.id, 'the id is stable across reads');

    const unassigned = await send('DELETE', `/v1/incidents/${target.id}/unassign_role_from_user`, incident({ incident_role_id: role.id, user_id: String(bo) }));
    assert.equal(unassigned.status, 200);
    assert.deepEqual(unassigned.body.data.attributes.role_assignments, []);
    const events = await types(target.id);
    assert.deepEqual(events.filter((t) => t.startsWith('incident.role')), ['incident.role_assigned', 'incident.role_assigned', 'incident.role_unassigned']);
    assert.equal((await trail(target.id)).length, 3);
  });

  test('private incidents: need the permission to be made, never public again, invisible without read', async () => {
    const userId = await api.addUser(org.organizationId, { roleKind: 'user' });
    const userKey = await api.issueApiKey(org.organizationId, { kind: 'personal', userId });
    const refused = await send('POST', '/v1/incidents', incident({ private: true }), userKey);
    assert.equal(refused.status, 403, JSON.stringify(refused.body));
    const mine = await create({}, userKey);
    const made = await send('PUT', `/v1/incidents/${mine.id}`, incident({ private: true }), userKey);
    assert.equal(made.status, 403);
    assert.equal((await get(mine.id)).attributes.private, false);

    const secret = await create({ private: true });
    assert.equal(secret.attributes.private, true);
    const back = await send('PUT', `/v1/incidents/${secret.id}`, incident({ private: false }));
    assert.equal(back.status, 422);
    assert.equal(pointer(back), '/data/attributes/private');
    assert.equal((await send('PUT', `/v1/incidents/${secret.id}`, incident({ private: null, summary: 'kept private' }))).status, 200);

    await send('POST', `/v1/incidents/${secret.id}/events`, { data: { type: 'incident_events', attributes: { event: 'hidden note' } } });
    const note = (await send('GET', `/v1/incidents/${secret.id}/events`)).body.data[0];
    // A role that runs incidents but has no permission on private ones (the seeded roles all read them).
    const role = await send('POST', '/v1/roles', { data: { type: 'roles', attributes: { name: unique('Public only'), incidents_permissions: ['create', 'read', 'update', 'delete'] } } });
    assert.equal(role.status, 201, JSON.stringify(role.body));
    const publicOnly = await api.issueApiKey(org.organizationId, { kind: 'global', roleId: role.body.data.id });
    for (const [method, path] of [
      ['GET', `/v1/incidents/${secret.id}`],
      ['PUT', `/v1/incidents/${secret.id}/mitigate`],
      ['GET', `/v1/incidents/${secret.id}/events`],
      ['GET', `/v1/events/${note.id}`],
    ]) {
      const res = await send(method, path, method === 'PUT' ? incident({}) : undefined, publicOnly);
      assert.equal(res.status, 404, `${method} ${path}`);
    }
    const listed = await send('GET', `/v1/incidents?filter[sequential_id]=${String(secret.attributes.sequential_id)}`, undefined, publicOnly);
    assert.deepEqual(listed.body.data, []);
    assert.equal((await send('GET', `/v1/incidents?filter[private]=true`)).body.data.some((d: { id: string }) => d.id === secret.id), true, 'the owner sees it');
    const asDuplicate = await send('PUT', `/v1/incidents/${mine.id}/duplicate`, incident({ duplicate_incident_id: secret.id }), publicOnly);
    assert.equal(asDuplicate.status, 422, 'an invisible incident is an unknown id');
  });

  test('timeline: notes are created, read, changed and deleted; the trail is read-only; announced as incident_event.*', async () => {
    const target = await create();
    const created = await send('POST', `/v1/incidents/${target.attributes.slug}/events`, { data: { type: 'incident_events', attributes: { event: 'Paged the DBA', visibility: 'external' } } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const note = created.body.data;
    assert.equal(note.type, 'incident_events');
    assert.equal(note.attributes.kind, 'note');
    assert.equal(note.attributes.incident_id, target.id);
    assert.ok(note.attributes.occurred_at);
    assert.deepEqual((await send('GET', `/v1/events/${note.id}`)).body.data, note);
    const updated = await send('PUT', `/v1/events/${note.id}`, { data: { type: 'incident_events', attributes: { event: 'Paged the DBA again' } } });
    assert.equal(updated.body.data.attributes.event, 'Paged the DBA again');
    assert.equal((await send('GET', `/v1/events/${note.id}`, undefined, other.token)).status, 404);
    assert.equal((await send('POST', `/v1/incidents/${target.id}/events`, { data: { type: 'incident_events', attributes: { event: 'x' } } }, other.token)).status, 404);

    await send('PUT', `/v1/incidents/${target.id}/mitigate`, incident({}));
    const malformed = await send('GET', `/v1/incidents/${target.id}/events?filter[incident_id]=not-a-uuid`);
    assert.equal(malformed.status, 400, 'a malformed id in a filter is the caller\'s mistake, not a 500');
    assert.match(malformed.body.errors[0].detail, /incident_id/);
    const list = await send('GET', `/v1/incidents/${target.id}/events`);
    assert.deepEqual(list.body.data.map((e: { attributes: Attributes }) => e.attributes.kind), ['note', 'status_change']);
    const automatic = list.body.data[1];
    const edit = await send('PUT', `/v1/events/${automatic.id}`, { data: { type: 'incident_events', attributes: { event: 'rewritten' } } });
    assert.equal(edit.status, 422);
    assert.equal(edit.body.errors[0].code, 'TRAIL_IS_READ_ONLY');
    assert.equal((await send('DELETE', `/v1/events/${automatic.id}`)).status, 422);

    const deleted = await send('DELETE', `/v1/events/${note.id}`);
    assert.equal(deleted.status, 200);
    assert.equal((await send('GET', `/v1/events/${note.id}`)).status, 404);
    assert.deepEqual(await types(note.id), ['incident_event.created', 'incident_event.updated', 'incident_event.deleted']);

    // Deleting the incident deletes its timeline, each event announced.
    await send('DELETE', `/v1/incidents/${target.id}`);
    assert.equal((await send('GET', `/v1/events/${automatic.id}`)).status, 404);
    assert.deepEqual(await types(automatic.id), ['incident_event.created', 'incident_event.deleted']);
  });
});
