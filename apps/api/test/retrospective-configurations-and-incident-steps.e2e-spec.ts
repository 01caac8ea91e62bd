import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { useApiWorld } from './support/api-world';
import { doc, outboxEvents, outboxTypes, pointers, unique, type Attributes } from './support/json-api';

type Json = Record<string, any>;

const DAY_MS = 86_400_000;

/** A method the resource does not serve: no route (405 where the path serves others, else 404). */
const unserved = (res: { status: number }) => assert.ok([404, 405].includes(res.status), `answered ${res.status}`);

/** Retrospective configurations: two per organization, listed, read and changed (docs/retrospectives.md). */
describe('retrospective configurations over HTTP', () => {
  const w = useApiWorld();
  const { send, create } = w;
  const configurations = async (token = w.org.token, query = ''): Promise<Json[]> => (await send('GET', `/v1/retrospective_configurations?page[size]=100${query}`, undefined, token)).body.data;
  const configuration = async (kind: string): Promise<Json> => (await configurations(w.org.token, `&filter[kind]=${kind}`))[0];
  const severity = async (token?: string): Promise<string> => (await create('/v1/severities', 'severities', { name: unique('SEV'), severity: 'critical' }, token)).id;

  test('every organization has one skip and one mandatory configuration, naming nothing; filtered by kind', async () => {
    const own = await configurations();
    assert.deepEqual(
      own.map((c) => [c.type, c.attributes.kind, c.attributes.severity_ids, c.attributes.group_ids, c.attributes.incident_type_ids]),
      [
        ['retrospective_configurations', 'skip', [], [], []],
        ['retrospective_configurations', 'mandatory', [], [], []],
      ],
    );
    const theirs = await configurations(w.other.token);
    assert.deepEqual(theirs.map((c) => c.attributes.kind), ['skip', 'mandatory']);
    assert.ok(!theirs.some((c) => own.some((o) => o.id === c.id)), "another organization's are its own");
    assert.deepEqual((await configurations(w.org.token, '&filter[kind]=mandatory')).map((c) => c.id), [own[1].id]);
    const one = await send('GET', `/v1/retrospective_configurations/${own[0].id}`);
    assert.deepEqual([one.status, one.body.data.attributes.kind], [200, 'skip']);
  });

  test('a PUT names severities, teams and incident types of the organization; kind stays; include answers them', async () => {
    const skip = await configuration('skip');
    const [sev, team, type] = [await severity(), (await create('/v1/teams', 'groups', { name: unique('Team') })).id, (await create('/v1/incident_types', 'incident_types', { name: unique('Type') })).id];
    const changed = await send('PUT', `/v1/retrospective_configurations/${skip.id}`, doc('retrospective_configurations', { kind: 'mandatory', severity_ids: [sev.toUpperCase(), sev], group_ids: [team], incident_type_ids: [type] }));
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.deepEqual(
      [changed.body.data.attributes.kind, changed.body.data.attributes.severity_ids, changed.body.data.attributes.group_ids, changed.body.data.attributes.incident_type_ids],
      ['skip', [sev], [team], [type]],
    );
    const included = await send('GET', `/v1/retrospective_configurations/${skip.id}?include=severities,groups,incident_types`);
    assert.deepEqual(included.body.included.map((r: Json) => `${r.type}:${r.id}`).sort(), [`groups:${team}`, `incident_types:${type}`, `severities:${sev}`].sort());
    assert.deepEqual(included.body.data.relationships.severities.data, [{ type: 'severities', id: sev }]);
    const listed = await send('GET', '/v1/retrospective_configurations?include=groups');
    assert.deepEqual(listed.body.included.map((r: Json) => r.id), [team]);
    const cleared = await send('PUT', `/v1/retrospective_configurations/${skip.id}`, doc('retrospective_configurations', { group_ids: null }));
    assert.deepEqual([cleared.body.data.attributes.group_ids, cleared.body.data.attributes.severity_ids], [null, [sev]]);
    assert.deepEqual(await outboxTypes(w.api, skip.id), ['retrospective_configuration.updated', 'retrospective_configuration.updated']);
  });

  test("another organization's or an unknown id in a list is a 422 naming it; nothing is written", async () => {
    const mandatory = await configuration('mandatory');
    const [own, foreign] = [await severity(), await severity(w.other.token)];
    const refused = async (attributes: Attributes, expected: string[]) => {
      const res = await send('PUT', `/v1/retrospective_configurations/${mandatory.id}`, doc('retrospective_configurations', attributes));
      assert.deepEqual([res.status, pointers(res)], [422, expected], JSON.stringify(res.body));
    };
    await refused({ severity_ids: [own, foreign] }, ['/data/attributes/severity_ids/1']);
    await refused({ group_ids: ['00000000-0000-4000-8000-000000000000'] }, ['/data/attributes/group_ids/0']);
    await refused({ incident_type_ids: [own] }, ['/data/attributes/incident_type_ids/0']);
    await refused({ severity_ids: ['not-an-id'] }, ['/data/attributes/severity_ids/0']);
    await refused({ severity_ids: 'all' }, ['/data/attributes/severity_ids']);
    assert.deepEqual((await send('GET', `/v1/retrospective_configurations/${mandatory.id}`)).body.data.attributes, mandatory.attributes);
    assert.deepEqual(await outboxTypes(w.api, mandatory.id), []);
  });

  test('configurations are neither created nor deleted; another organization\'s answer 404', async () => {
    const [skip] = await configurations();
    unserved(await send('POST', '/v1/retrospective_configurations', doc('retrospective_configurations', { severity_ids: [] })));
    unserved(await send('DELETE', `/v1/retrospective_configurations/${skip.id}`));
    assert.equal((await configurations()).length, 2);
    const theirs = (method: string, body?: unknown) => send(method, `/v1/retrospective_configurations/${skip.id}`, body, w.other.token);
    assert.equal((await theirs('GET')).status, 404);
    assert.equal((await theirs('PUT', doc('retrospective_configurations', { severity_ids: [] }))).status, 404);
    assert.ok(!(await configurations(w.other.token)).some((c) => c.id === skip.id));
    assert.equal((await send('GET', `/v1/retrospective_configurations/${skip.id}`)).body.data.attributes.kind, 'skip');
  });
});

/** Incidents' retrospective steps: copied from the matching process on the incident's create (docs/retrospectives.md). */
describe("incidents' retrospective steps over HTTP", () => {
  const w = useApiWorld();
  const { send, create } = w;
  const newProcess = (attributes: Attributes = {}): Promise<Json> => create('/v1/retrospective_processes', 'retrospective_processes', { name: unique('Process'), copy_from: 'starter_template', ...attributes });
  const stepsOfProcess = async (processId: string): Promise<Json[]> => (await send('GET', `/v1/retrospective_processes/${processId}/retrospective_steps?page[size]=100`)).body.data;
  const newIncident = (attributes: Attributes = {}, token?: string): Promise<Json> => create('/v1/incidents', 'incidents', { title: unique('Outage'), ...attributes }, token);
  const stepsOf = async (incidentId: string, token?: string): Promise<Json[]> => (await send('GET', `/v1/incidents/${incidentId}/retrospective_steps?page[size]=100`, undefined, token)).body.data;
  const update = (id: string, attributes: Attributes, token?: string) => send('PUT', `/v1/incident_retrospective_steps/${id}`, doc('incident_retrospective_steps', attributes), token);
  /** The organization's first process without criteria: the one for every incident no other process matches. */
  let catchAll: Promise<Json> | undefined;
  const forEveryIncident = () => (catchAll ??= newProcess({ name: unique('Every incident') }));

  test('an organization without processes gives its incidents no steps', async () => {
    const incident = await newIncident({}, w.other.token);
    assert.deepEqual(await stepsOf(incident.id, w.other.token), []);
  });

  test('a new incident gets its own copy of the steps of the process for every incident, listed under it', async () => {
    const process = await forEveryIncident();
    const sources = await stepsOfProcess(process.id);
    const before = Date.now();
    const incident = await newIncident();
    const steps = await stepsOf(incident.id);
    assert.deepEqual(
      steps.map((s) => [s.type, s.attributes.retrospective_step_id, s.attributes.incident_id, s.attributes.title, s.attributes.position, s.attributes.skippable, s.attributes.status, s.attributes.kind]),
      sources.map((s) => ['incident_retrospective_steps', s.id, incident.id, s.attributes.title, s.attributes.position, s.attributes.skippable, 'todo', null]),
    );
    // Due the process step's days after the copy.
    const due = new Date(steps[1].attributes.due_date).getTime() - sources[1].attributes.due_after_days * DAY_MS;
    assert.ok(due >= before - 1000 && due <= Date.now() + 1000, steps[1].attributes.due_date);
    const one = await send('GET', `/v1/incident_retrospective_steps/${steps[0].id}`);
    assert.deepEqual([one.status, one.body.data.attributes.title], [200, sources[0].attributes.title]);
    assert.deepEqual((await stepsOf(incident.attributes.slug)).map((s) => s.id), steps.map((s) => s.id), 'named by the incident slug too');
    assert.deepEqual(await outboxTypes(w.api, steps[0].id), ['incident_retrospective_step.created']);
  });

  test('the oldest process whose criteria match the incident is copied before the one for every incident', async () => {
    await forEveryIncident();
    const [sev, other] = [(await create('/v1/severities', 'severities', { name: unique('SEV'), severity: 'critical' })).id, (await create('/v1/severities', 'severities', { name: unique('SEV'), severity: 'low' })).id];
    const team = (await create('/v1/teams', 'groups', { name: unique('Team') })).id;
    const type = (await create('/v1/incident_types', 'incident_types', { name: unique('Type') })).id;
    const bySeverity = await newProcess({ retrospective_process_matching_criteria: { severity_ids: [sev] } });
    const byTeam = await newProcess({ retrospective_process_matching_criteria: { group_ids: [team] } });
    const byType = await newProcess({ retrospective_process_matching_criteria: { incident_type_ids: [type] } });
    const sourceOf = async (attributes: Attributes) => (await stepsOf((await newIncident(attributes)).id)).map((s) => s.attributes.retrospective_step_id);
    const stepIds = async (process: Json) => (await stepsOfProcess(process.id)).map((s) => s.id);
    assert.deepEqual(await sourceOf({ severity_id: sev }), await stepIds(bySeverity));
    assert.deepEqual(await sourceOf({ group_ids: [team] }), await stepIds(byTeam));
    assert.deepEqual(await sourceOf({ incident_type_ids: [type] }), await stepIds(byType));
    assert.deepEqual(await sourceOf({ severity_id: sev, group_ids: [team] }), await stepIds(bySeverity), 'both match: the oldest');
    assert.deepEqual(await sourceOf({ severity_id: other }), await stepIds(await forEveryIncident()), 'no criteria match: the process for every incident');
  });

  test('a PUT changes status, title, description, due date, position and skippable; bad input is a 422 naming the attribute, nothing written', async () => {
    await forEveryIncident();
    const [step] = await stepsOf((await newIncident()).id);
    const changed = await update(step.id, { status: 'in_progress', title: 'Book the room', description: 'Thursday', due_date: '2030-01-02T03:04:05Z', position: 9, skippable: true });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    const expected = { status: 'in_progress', title: 'Book the room', description: 'Thursday', due_date: '2030-01-02T03:04:05.000Z', position: 9, skippable: true };
    const picked = (attributes: Json) => Object.fromEntries(Object.keys(expected).map((k) => [k, attributes[k]]));
    assert.deepEqual(picked(changed.body.data.attributes), expected);
    const read = (await send('GET', `/v1/incident_retrospective_steps/${step.id}`)).body.data.attributes;
    assert.deepEqual(picked(read), expected);
    for (const [attributes, pointer] of [
      [{ status: 'done' }, 'status'],
      [{ skippable: 'yes' }, 'skippable'],
      [{ position: 1.5 }, 'position'],
      [{ due_date: 'tomorrow' }, 'due_date'],
      [{ title: '' }, 'title'],
      [{ retrospective_step_id: step.id, kind: 'custom', assigned_user_id: 1 }, 'assigned_user_id'],
    ] as const) {
      const res = await update(step.id, attributes);
      assert.deepEqual([res.status, pointers(res)], [422, [`/data/attributes/${pointer}`]], JSON.stringify(attributes));
    }
    assert.deepEqual((await send('GET', `/v1/incident_retrospective_steps/${step.id}`)).body.data.attributes, read);
    const events = await outboxEvents(w.api, step.id);
    assert.deepEqual(events.map((e) => e.type), ['incident_retrospective_step.created', 'incident_retrospective_step.updated']);
    assert.equal(events[1].payload.status, 'in_progress');
  });

  test('a step is skipped only when it is skippable: otherwise a 422 at status (or at skippable, unsetting it on a skipped step)', async () => {
    await forEveryIncident();
    const steps = await stepsOf((await newIncident()).id);
    const fixed = steps.find((s) => !s.attributes.skippable)!;
    const refused = await update(fixed.id, { status: 'skipped', title: 'Skipped anyway' });
    assert.deepEqual([refused.status, pointers(refused)], [422, ['/data/attributes/status']]);
    assert.deepEqual((await send('GET', `/v1/incident_retrospective_steps/${fixed.id}`)).body.data.attributes, fixed.attributes);
    const allowed = await update(fixed.id, { status: 'skipped', skippable: true });
    assert.deepEqual([allowed.status, allowed.body.data.attributes.status], [200, 'skipped']);
    const unset = await update(fixed.id, { skippable: false });
    assert.deepEqual([unset.status, pointers(unset)], [422, ['/data/attributes/skippable']]);
    assert.deepEqual([(await update(fixed.id, { status: 'todo', skippable: false })).status], [200]);
  });

  test("an incident's delete deletes its steps with their events; a process step's delete keeps the copies", async () => {
    const process = await newProcess({ name: unique('Copied') });
    const team = (await create('/v1/teams', 'groups', { name: unique('Team') })).id;
    await send('PUT', `/v1/retrospective_processes/${process.id}`, doc('retrospective_processes', { retrospective_process_matching_criteria: { group_ids: [team] } }));
    const incident = await newIncident({ group_ids: [team] });
    const [first, second] = await stepsOf(incident.id);
    assert.equal((await send('DELETE', `/v1/retrospective_steps/${first.attributes.retrospective_step_id}`)).status, 200);
    assert.equal((await send('GET', `/v1/incident_retrospective_steps/${first.id}`)).body.data.attributes.retrospective_step_id, first.attributes.retrospective_step_id);
    assert.equal((await send('DELETE', `/v1/incidents/${incident.id}`)).status, 200);
    for (const step of [first, second]) {
      assert.equal((await send('GET', `/v1/incident_retrospective_steps/${step.id}`)).status, 404);
      assert.deepEqual(await outboxTypes(w.api, step.id), ['incident_retrospective_step.created', 'incident_retrospective_step.deleted']);
    }
  });

  test("a private incident's steps are seen as it is; another organization's answer 404; no create nor delete", async () => {
    await forEveryIncident();
    const [step] = await stepsOf((await newIncident({ private: true })).id);
    const role = await create('/v1/roles', 'roles', { name: unique('Public only'), incidents_permissions: ['create', 'read', 'update'], retrospective_permissions: ['read', 'update'] });
    const publicOnly = await w.api.issueApiKey(w.org.organizationId, { kind: 'global', roleId: role.id });
    for (const token of [publicOnly, w.other.token]) {
      assert.equal((await send('GET', `/v1/incident_retrospective_steps/${step.id}`, undefined, token)).status, 404);
      assert.equal((await update(step.id, { status: 'completed' }, token)).status, 404);
      assert.equal((await send('GET', `/v1/incidents/${step.attributes.incident_id}/retrospective_steps`, undefined, token)).status, 404);
    }
    assert.equal((await send('GET', `/v1/incident_retrospective_steps/${step.id}`)).body.data.attributes.status, 'todo');
    const incident = (await newIncident()).id;
    const steps = await stepsOf(incident);
    assert.equal((await send('GET', `/v1/incident_retrospective_steps/${steps[0].id}`, undefined, publicOnly)).status, 200);
    unserved(await send('POST', `/v1/incidents/${incident}/retrospective_steps`, doc('incident_retrospective_steps', { title: 'x' })));
    unserved(await send('DELETE', `/v1/incident_retrospective_steps/${steps[0].id}`));
    assert.deepEqual((await stepsOf(incident)).map((s) => s.id), steps.map((s) => s.id));
  });
});
