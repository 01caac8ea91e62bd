import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startTestApi, type TestApi, type TestOrganization, type TestResponse } from '../src/testing';

type Attributes = Record<string, unknown>;

const task = (attributes: Attributes) => ({ data: { type: 'incident_role_tasks', attributes } });
const ids = (res: TestResponse): string[] => res.body.data.map((d: { id: string }) => d.id);
const unique = (name: string) => `${name} ${randomUUID().slice(0, 8)}`;
const tasksOf = (roleId: string) => `/v1/incident_roles/${roleId}/incident_role_tasks`;
const pointers = (res: TestResponse) => res.body.errors.map((e: { source?: { pointer?: string } }) => e.source?.pointer);
const errorCodes = (res: TestResponse) => res.body.errors.map((e: { status: string; code: string; title: string }) => `${e.status}/${e.code}/${e.title}`);

describe('incident role tasks: nested under their role, read and changed at their own path', () => {
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
  const newRole = async (token = org.token): Promise<string> => {
    const res = await send('POST', '/v1/incident_roles', { data: { type: 'incident_roles', attributes: { name: unique('Commander') } } }, token);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data.id;
  };
  const newTask = async (roleId: string, attributes: Attributes = {}, token = org.token) => {
    const res = await send('POST', tasksOf(roleId), task({ task: unique('Open the bridge'), ...attributes }), token);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data;
  };
  /** Rows of the write table with that task text, whatever the organization: proves nothing was written. */
  const stored = async (text: string) => (await api.runtime.dataSource.query('SELECT id FROM incident_role_tasks WHERE task = $1', [text])).length;

  test('a task is created and listed under its role, and read, updated and deleted at its own path', async () => {
    const roleId = await newRole();
    const text = unique('Page the database on-call');
    const created = await send('POST', tasksOf(roleId), task({ task: text, description: 'Before anything else' }));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const { id, type, attributes: a } = created.body.data;
    assert.equal(type, 'incident_role_tasks');
    assert.deepEqual(
      { incident_role_id: a.incident_role_id, task: a.task, description: a.description, priority: a.priority },
      { incident_role_id: roleId, task: text, description: 'Before anything else', priority: 'medium' },
    );
    assert.deepEqual((await send('GET', `/v1/incident_role_tasks/${id}`)).body.data, created.body.data);
    const listed = await send('GET', tasksOf(roleId));
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body.data, [created.body.data]);
    assert.equal(listed.body.links.self, `${tasksOf(roleId)}?page%5Bnumber%5D=1&page%5Bsize%5D=20`, 'page links point under the parent');

    // update_incident_role_task has no incident_role_id: a task stays under its role.
    const otherRoleId = await newRole();
    const changes = { task: 'Page the database on-call now', description: null, priority: 'high' };
    const updated = await send('PUT', `/v1/incident_role_tasks/${id}`, task({ ...changes, incident_role_id: otherRoleId }));
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.deepEqual(updated.body.data.attributes, { ...a, ...changes, updated_at: updated.body.data.attributes.updated_at });
    assert.deepEqual(ids(await send('GET', tasksOf(otherRoleId))), []);

    const deleted = await send('DELETE', `/v1/incident_role_tasks/${id}`);
    assert.equal(deleted.status, 200);
    assert.deepEqual(deleted.body.data, updated.body.data);
    assert.equal((await send('GET', `/v1/incident_role_tasks/${id}`)).status, 404);
    assert.deepEqual((await send('GET', tasksOf(roleId))).body.data, []);
  });

  test('a list holds only its role\'s tasks, in creation order, paged under the role', async () => {
    const [first, second] = [await newRole(), await newRole()];
    const mine = [(await newTask(first)).id, (await newTask(first, { priority: 'low' })).id, (await newTask(first)).id];
    await newTask(second);
    const all = await send('GET', tasksOf(first));
    assert.deepEqual(ids(all), mine);
    assert.equal(all.body.meta.total_count, 3);
    assert.deepEqual(ids(await send('GET', `${tasksOf(first)}?filter[priority]=low`)), [mine[1]]);
    const page = await send('GET', `${tasksOf(first)}?page[size]=2`);
    assert.deepEqual(ids(page), mine.slice(0, 2));
    assert.deepEqual(ids(await send('GET', page.body.links.next)), mine.slice(2));
  });

  test('a role missing from the organization answers 404 on the collection, and nothing is written', async () => {
    const theirRole = await newRole(other.token);
    for (const roleId of [randomUUID(), 'not-a-uuid', theirRole]) {
      const text = unique('Orphan');
      const created = await send('POST', tasksOf(roleId), task({ task: text }));
      assert.equal(created.status, 404, `POST under ${roleId}: ${JSON.stringify(created.body)}`);
      assert.deepEqual(errorCodes(created), ['404/NOT_FOUND/Not found']);
      assert.equal(await stored(text), 0);
      const listed = await send('GET', tasksOf(roleId));
      assert.equal(listed.status, 404, `GET under ${roleId}`);
      assert.deepEqual(errorCodes(listed), ['404/NOT_FOUND/Not found']);
    }
  });

  test('another organization\'s task answers 404 and is not changed', async () => {
    const theirs = await newTask(await newRole(other.token), {}, other.token);
    const item = `/v1/incident_role_tasks/${theirs.id}`;
    const attempts = [send('GET', item), send('PUT', item, task({ task: 'Taken over' })), send('DELETE', item)];
    for (const res of await Promise.all(attempts)) {
      assert.equal(res.status, 404);
      assert.deepEqual(errorCodes(res), ['404/NOT_FOUND/Not found']);
    }
    assert.deepEqual((await send('GET', item, undefined, other.token)).body.data, theirs);
  });

  test('bad input answers 422 naming the attribute, and nothing is written', async () => {
    const roleId = await newRole();
    const cases: [Attributes, string][] = [
      [{}, '/data/attributes/task'],
      [{ task: '' }, '/data/attributes/task'],
      [{ task: unique('Bad priority'), priority: 'urgent' }, '/data/attributes/priority'],
      [{ task: unique('Null priority'), priority: null }, '/data/attributes/priority'],
      [{ task: unique('Unknown'), owner: 'someone' }, '/data/attributes/owner'],
      [{ task: unique('Other role'), incident_role_id: randomUUID() }, '/data/attributes/incident_role_id'],
    ];
    for (const [attributes, pointer] of cases) {
      const res = await send('POST', tasksOf(roleId), task(attributes));
      assert.equal(res.status, 422, `${JSON.stringify(attributes)}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(pointers(res), [pointer], JSON.stringify(attributes));
      if (typeof attributes.task === 'string') assert.equal(await stored(attributes.task), 0);
    }
    const existing = await newTask(roleId);
    const refused = await send('PUT', `/v1/incident_role_tasks/${existing.id}`, task({ priority: 'urgent', task: 42 }));
    assert.equal(refused.status, 422);
    assert.deepEqual(pointers(refused).sort(), ['/data/attributes/priority', '/data/attributes/task']);
    assert.deepEqual((await send('GET', `/v1/incident_role_tasks/${existing.id}`)).body.data, existing);
  });

  test('the body may name the path\'s role', async () => {
    const roleId = await newRole();
    const created = await newTask(roleId, { incident_role_id: roleId.toUpperCase() });
    assert.equal(created.attributes.incident_role_id, roleId);
  });

  test('a role with tasks is not deleted (409) until its tasks are', async () => {
    const roleId = await newRole();
    const { id } = await newTask(roleId);
    const refused = await send('DELETE', `/v1/incident_roles/${roleId}`);
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.deepEqual(errorCodes(refused), ['409/STILL_REFERENCED/Still referenced']);
    assert.match(refused.body.errors[0].detail, /incident_role_tasks/);
    assert.equal((await send('GET', `/v1/incident_roles/${roleId}`)).status, 200);
    assert.deepEqual(ids(await send('GET', tasksOf(roleId))), [id]);

    assert.equal((await send('DELETE', `/v1/incident_role_tasks/${id}`)).status, 200);
    assert.equal((await send('DELETE', `/v1/incident_roles/${roleId}`)).status, 200);
    assert.equal((await send('GET', tasksOf(roleId))).status, 404);
  });

  test('tasks check the incident_roles permission family', async () => {
    const roleId = await newRole();
    const { id } = await newTask(roleId);
    const role = await send('POST', '/v1/roles', { data: { type: 'roles', attributes: { name: unique('Reader'), incident_roles_permissions: ['read'] } } });
    assert.equal(role.status, 201, JSON.stringify(role.body));
    const reader = await api.issueApiKey(org.organizationId, { roleId: role.body.data.id });
    assert.equal((await send('GET', tasksOf(roleId), undefined, reader)).status, 200);
    assert.equal((await send('GET', `/v1/incident_role_tasks/${id}`, undefined, reader)).status, 200);
    for (const res of [
      await send('POST', tasksOf(roleId), task({ task: unique('Not allowed') }), reader),
      await send('PUT', `/v1/incident_role_tasks/${id}`, task({ priority: 'low' }), reader),
      await send('DELETE', `/v1/incident_role_tasks/${id}`, undefined, reader),
    ]) {
      assert.equal(res.status, 403);
      assert.equal(res.body.errors[0].code, 'PERMISSION_DENIED');
    }
  });
});
