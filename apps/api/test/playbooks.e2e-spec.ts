import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { useApiWorld } from './support/api-world';
import { created, doc, ids, outboxTypes, pointers, unique, type Attributes } from './support/json-api';

type Json = Record<string, any>;

const NOWHERE = '00000000-0000-4000-8000-000000000000';

/** Playbooks, the records they name, and their tasks (docs/playbooks.md). */
describe('playbooks over HTTP', () => {
  const w = useApiWorld();
  const { send } = w;
  const make = async (path: string, type: string, attributes: Attributes, token?: string): Promise<string> => (await w.create(path, type, attributes, token)).id;
  /** One record of each kind a playbook names, in the organization of `token`. */
  const related = async (token?: string): Promise<Record<string, string>> => ({
    severity_ids: await make('/v1/severities', 'severities', { name: unique('SEV'), severity: 'critical' }, token),
    environment_ids: await make('/v1/environments', 'environments', { name: unique('Production') }, token),
    functionality_ids: await make('/v1/functionalities', 'functionalities', { name: unique('Checkout') }, token),
    service_ids: await make('/v1/services', 'services', { name: unique('Payments') }, token),
    group_ids: await make('/v1/teams', 'groups', { name: unique('SRE') }, token),
    incident_type_ids: await make('/v1/incident_types', 'incident_types', { name: unique('Outage') }, token),
  });
  const newPlaybook = async (attributes: Attributes = {}, token?: string): Promise<Json> => created(await send('POST', '/v1/playbooks', doc('playbooks', { title: unique('Database failover'), ...attributes }), token));
  const newTask = async (playbookId: string, attributes: Attributes = {}, token?: string): Promise<Json> =>
    created(await send('POST', `/v1/playbooks/${playbookId}/playbook_tasks`, doc('playbook_tasks', { task: unique('Page the DBA'), ...attributes }), token));
  const tasksOf = async (playbookId: string): Promise<string[]> => ids(await send('GET', `/v1/playbooks/${playbookId}/playbook_tasks?page[size]=100`));
  const count = async (): Promise<number> => (await send('GET', '/v1/playbooks?page[size]=1')).body.meta.total_count;

  test('a playbook: created naming records of the organization, read with include, listed, changed and deleted', async () => {
    const named = await related();
    const playbook = await newPlaybook({ title: 'Database failover', summary: 'Promote the replica', external_url: 'https://wiki.example.com/failover', ...Object.fromEntries(Object.entries(named).map(([k, v]) => [k, [v]])) });
    for (const [attribute, id] of Object.entries(named)) assert.deepEqual(playbook.attributes[attribute], [id], attribute);
    assert.deepEqual([playbook.attributes.summary, playbook.attributes.external_url], ['Promote the replica', 'https://wiki.example.com/failover']);
    const bare = await newPlaybook({ title: 'Bare' });
    assert.deepEqual([bare.attributes.severity_ids, bare.attributes.summary], [[], null]);

    const got = await send('GET', `/v1/playbooks/${playbook.id}?include=severities,groups,incident_types,causes`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.body.data.relationships.severities.data, [{ type: 'severities', id: named.severity_ids }]);
    assert.deepEqual(got.body.data.relationships.causes.data, []);
    assert.deepEqual(got.body.included.map((r: Json) => r.type).sort(), ['groups', 'incident_types', 'severities']);
    const listed = await send('GET', '/v1/playbooks?include=services&page[size]=100');
    assert.ok(ids(listed).includes(playbook.id));
    assert.ok(listed.body.included.some((r: Json) => r.id === named.service_ids));
    assert.deepEqual(ids(await send('GET', `/v1/playbooks?filter[service_ids]=${named.service_ids}`)), [playbook.id]);

    const changed = await send('PUT', `/v1/playbooks/${playbook.id}`, doc('playbooks', { summary: 'Promote the standby', severity_ids: [], group_ids: null }));
    assert.deepEqual([changed.status, changed.body.data.attributes.summary, changed.body.data.attributes.severity_ids, changed.body.data.attributes.group_ids], [200, 'Promote the standby', [], null]);
    assert.deepEqual(changed.body.data.attributes.service_ids, [named.service_ids]);
    assert.equal((await send('DELETE', `/v1/playbooks/${playbook.id}`)).status, 200);
    assert.equal((await send('GET', `/v1/playbooks/${playbook.id}`)).status, 404);
    assert.deepEqual(await outboxTypes(w.api, playbook.id), ['playbook.created', 'playbook.updated', 'playbook.deleted']);
  });

  test("every relation names records of the organization: unknown or another organization's ids are a 422 naming the attribute, nothing written", async () => {
    const mine = await related();
    const theirs = await related(w.other.token);
    const playbook = await newPlaybook();
    const before = await count();
    for (const attribute of Object.keys(mine)) {
      const foreign = await send('POST', '/v1/playbooks', doc('playbooks', { title: unique('Bad'), [attribute]: [mine[attribute], theirs[attribute]] }));
      assert.deepEqual([foreign.status, pointers(foreign)], [422, [`/data/attributes/${attribute}/1`]], attribute);
      assert.match(foreign.body.errors[0].detail, new RegExp(`^${attribute}\\[1\\]: `));
      const unknown = await send('PUT', `/v1/playbooks/${playbook.id}`, doc('playbooks', { [attribute]: [NOWHERE] }));
      assert.deepEqual([unknown.status, pointers(unknown)], [422, [`/data/attributes/${attribute}/0`]], attribute);
    }
    const untitled = await send('POST', '/v1/playbooks', doc('playbooks', { summary: 'no title' }));
    assert.deepEqual([untitled.status, pointers(untitled)], [422, ['/data/attributes/title']]);
    const empty = await send('POST', '/v1/playbooks', doc('playbooks', { title: '' }));
    assert.deepEqual([empty.status, pointers(empty)], [422, ['/data/attributes/title']]);
    assert.equal(await count(), before);
    assert.deepEqual((await send('GET', `/v1/playbooks/${playbook.id}`)).body.data.attributes.severity_ids, []);
  });

  test('tasks: under their playbook, ordered by position, at /v1/playbook_tasks/{id}; bad input is a 422', async () => {
    const [playbook, another] = [await newPlaybook(), await newPlaybook()];
    const first = await newTask(playbook.id, { task: 'Freeze deploys', description: 'In #deploys' });
    const second = await newTask(playbook.id);
    const elsewhere = await newTask(another.id);
    assert.deepEqual([first.attributes.playbook_id, first.attributes.description, second.attributes.position > first.attributes.position], [playbook.id, 'In #deploys', true]);
    assert.deepEqual(await tasksOf(playbook.id), [first.id, second.id]);
    assert.deepEqual(await tasksOf(another.id), [elsewhere.id]);
    const moved = await send('PUT', `/v1/playbook_tasks/${first.id}`, doc('playbook_tasks', { position: second.attributes.position + 1, task: 'Freeze all deploys' }));
    assert.deepEqual([moved.status, moved.body.data.attributes.task, moved.body.data.attributes.playbook_id], [200, 'Freeze all deploys', playbook.id]);
    assert.deepEqual(await tasksOf(playbook.id), [second.id, first.id]);
    assert.equal((await send('GET', `/v1/playbook_tasks/${first.id}`)).body.data.attributes.task, 'Freeze all deploys');

    for (const [attributes, pointer] of [
      [{ description: 'no task' }, 'task'],
      [{ task: '' }, 'task'],
      [{ task: 'x', position: -1 }, 'position'],
    ] as [Attributes, string][]) {
      const res = await send('POST', `/v1/playbooks/${playbook.id}/playbook_tasks`, doc('playbook_tasks', attributes));
      assert.deepEqual([res.status, pointers(res)], [422, [`/data/attributes/${pointer}`]]);
    }
    assert.equal((await send('POST', `/v1/playbooks/${NOWHERE}/playbook_tasks`, doc('playbook_tasks', { task: 'x' }))).status, 404);
    assert.equal((await send('GET', `/v1/playbooks/${NOWHERE}/playbook_tasks`)).status, 404);
    assert.deepEqual(await tasksOf(playbook.id), [second.id, first.id]);
    assert.equal((await send('DELETE', `/v1/playbook_tasks/${second.id}`)).status, 200);
    assert.deepEqual(await tasksOf(playbook.id), [first.id]);
    assert.deepEqual(await outboxTypes(w.api, first.id), ['playbook_task.created', 'playbook_task.updated']);
  });

  test("a playbook's delete deletes its tasks first, each with its event", async () => {
    const playbook = await newPlaybook();
    const tasks = [await newTask(playbook.id), await newTask(playbook.id)];
    const kept = await newTask((await newPlaybook()).id);
    assert.equal((await send('DELETE', `/v1/playbooks/${playbook.id}`)).status, 200);
    for (const task of tasks) {
      assert.equal((await send('GET', `/v1/playbook_tasks/${task.id}`)).status, 404);
      assert.deepEqual(await outboxTypes(w.api, task.id), ['playbook_task.created', 'playbook_task.deleted']);
    }
    assert.equal((await send('GET', `/v1/playbook_tasks/${kept.id}`)).status, 200);
    assert.deepEqual(await outboxTypes(w.api, playbook.id), ['playbook.created', 'playbook.deleted']);
  });

  test('a caller without the playbooks permission family is refused (403); a read-only one reads', async () => {
    const playbook = await newPlaybook();
    const task = await newTask(playbook.id);
    const keyWith = async (permissions: Attributes) =>
      w.api.issueApiKey(w.org.organizationId, { kind: 'global', roleId: await make('/v1/roles', 'roles', { name: unique('Limited'), ...permissions }) });
    const without = await keyWith({ incidents_permissions: ['create', 'read', 'update', 'delete'] });
    for (const [method, path, body] of [
      ['GET', '/v1/playbooks'],
      ['GET', `/v1/playbooks/${playbook.id}`],
      ['POST', '/v1/playbooks', doc('playbooks', { title: 'x' })],
      ['PUT', `/v1/playbooks/${playbook.id}`, doc('playbooks', { title: 'x' })],
      ['DELETE', `/v1/playbooks/${playbook.id}`],
      ['GET', `/v1/playbooks/${playbook.id}/playbook_tasks`],
      ['POST', `/v1/playbooks/${playbook.id}/playbook_tasks`, doc('playbook_tasks', { task: 'x' })],
      ['GET', `/v1/playbook_tasks/${task.id}`],
      ['PUT', `/v1/playbook_tasks/${task.id}`, doc('playbook_tasks', { task: 'x' })],
      ['DELETE', `/v1/playbook_tasks/${task.id}`],
    ] as [string, string, unknown?][]) {
      assert.equal((await send(method, path, body, without)).status, 403, `${method} ${path}`);
    }
    const reader = await keyWith({ playbooks_permissions: ['read'] });
    assert.equal((await send('GET', `/v1/playbook_tasks/${task.id}`, undefined, reader)).status, 200);
    assert.equal((await send('POST', `/v1/playbooks/${playbook.id}/playbook_tasks`, doc('playbook_tasks', { task: 'x' }), reader)).status, 403);
    assert.deepEqual(await tasksOf(playbook.id), [task.id]);
  });

  test("another organization's playbooks and tasks answer 404 and never show in its lists", async () => {
    const playbook = await newPlaybook();
    const task = await newTask(playbook.id);
    const theirs = (method: string, path: string, body?: unknown) => send(method, path, body, w.other.token);
    for (const [path, id] of [['playbooks', playbook.id], ['playbook_tasks', task.id]]) {
      assert.equal((await theirs('GET', `/v1/${path}/${id}`)).status, 404, path);
      assert.equal((await theirs('PUT', `/v1/${path}/${id}`, doc(path, {}))).status, 404, path);
      assert.equal((await theirs('DELETE', `/v1/${path}/${id}`)).status, 404, path);
    }
    assert.equal((await theirs('GET', `/v1/playbooks/${playbook.id}/playbook_tasks`)).status, 404);
    assert.equal((await theirs('POST', `/v1/playbooks/${playbook.id}/playbook_tasks`, doc('playbook_tasks', { task: 'x' }))).status, 404);
    assert.ok(!ids(await theirs('GET', '/v1/playbooks?page[size]=100')).includes(playbook.id));
    assert.deepEqual(await tasksOf(playbook.id), [task.id]);
  });
});
