import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startTestApi, type TestApi, type TestOrganization, type TestResponse } from '../src/testing';

type Attributes = Record<string, unknown>;
type Resource = { id: string; type: string; attributes: Attributes; relationships?: Record<string, { data: unknown }> };
const doc = (type: string, attributes: Attributes) => ({ data: { type, attributes } });
const unique = (name: string) => `${name} ${randomUUID().slice(0, 8)}`;

/**
 * `include` on every list and get that declares it (the reference's include enum): the asked
 * relationships on the primary data, the related records of the caller's organization in
 * `included`, each with a `relationships` object; a value the reference lists but Taproot has no
 * records for includes nothing; any other value is a 400 naming `include`.
 */
describe('include over HTTP', () => {
  let api: TestApi;
  let org: TestOrganization;
  let other: TestOrganization;
  let userId: string;
  let teamId: string;
  let serviceId: string;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
    other = await api.newOrganization();
    userId = String(await api.addUser(org.organizationId, { roleKind: 'admin', onCallRoleKind: 'user' }));
    teamId = (await make('/v1/teams', 'groups', { name: unique('Ops'), user_ids: [Number(userId)] })).id;
    serviceId = (await make('/v1/services', 'services', { name: unique('Checkout') })).id;
  });
  after(() => api?.close());

  const send = (method: string, path: string, body?: unknown, token = org.token) => api.request(method, path, { token, body });
  async function make(path: string, type: string, attributes: Attributes, token = org.token): Promise<Resource> {
    const res = await send('POST', path, doc(type, attributes), token);
    assert.equal(res.status, 201, `${path}: ${JSON.stringify(res.body)}`);
    return res.body.data;
  }
  async function read(path: string, token = org.token): Promise<TestResponse> {
    const res = await send('GET', path, undefined, token);
    assert.equal(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
    return res;
  }
  const linked = (record: Resource, name: string) => record.relationships?.[name]?.data;
  const includedOf = (res: TestResponse): Resource[] => res.body.included ?? [];
  /** Every included item has id, type, attributes and relationships (spec, line 22). */
  const assertComplete = (res: TestResponse) => {
    assert.ok(includedOf(res).length > 0, 'something is included');
    for (const item of includedOf(res)) {
      for (const member of ['id', 'type', 'attributes', 'relationships']) assert.ok(member in item, `${item.type} ${item.id} lacks ${member}`);
      assert.equal(typeof item.relationships, 'object');
    }
  };

  test('teams: include=users on the list and the get; a reference value Taproot has no records for is empty', async () => {
    const list = await read('/v1/teams?include=users,schedules');
    const team = (list.body.data as Resource[]).find((t) => t.id === teamId)!;
    assert.deepEqual(linked(team, 'users'), [{ type: 'users', id: userId }]);
    assert.deepEqual(linked(team, 'schedules'), []);
    assert.ok(includedOf(list).some((r) => r.type === 'users' && r.id === userId && typeof r.attributes.email === 'string'));
    assertComplete(list);
    const one = await read(`/v1/teams/${teamId}?include=users`);
    assert.deepEqual(linked(one.body.data, 'users'), [{ type: 'users', id: userId }]);
    assert.deepEqual(includedOf(one).map((r) => [r.type, r.id]), [['users', userId]]);
    assertComplete(one);
  });

  test('users: include=role,on_call_role,teams on the list and the get', async () => {
    const one = await read(`/v1/users/${userId}?include=role,on_call_role,teams`);
    const role = linked(one.body.data, 'role') as { type: string; id: string };
    assert.equal(role.type, 'roles');
    assert.equal((linked(one.body.data, 'on_call_role') as { type: string }).type, 'on_call_roles');
    assert.deepEqual(linked(one.body.data, 'teams'), [{ type: 'groups', id: teamId }]);
    const roleRecord = includedOf(one).find((r) => r.type === 'roles')!;
    assert.equal(roleRecord.id, role.id);
    assert.equal(roleRecord.attributes.system_role, 'admin');
    assertComplete(one);
    const list = await read('/v1/users?include=teams&page[size]=100');
    const user = (list.body.data as Resource[]).find((u) => u.id === userId)!;
    assert.deepEqual(linked(user, 'teams'), [{ type: 'groups', id: teamId }]);
    assert.ok(includedOf(list).some((r) => r.type === 'groups' && r.id === teamId));
  });

  test('incident sub-statuses: include=sub_status,assigned_by_user on the get and the list under the incident', async () => {
    const incident = await make('/v1/incidents', 'incidents', { title: unique('Outage') });
    const subStatus = await make('/v1/sub_statuses', 'sub_statuses', { name: unique('Investigating'), parent_status: 'started' });
    const assigned = await make(`/v1/incidents/${incident.id}/sub_statuses`, 'incident_sub_statuses', {
      sub_status_id: subStatus.id,
      assigned_at: '2026-02-01T10:00:00Z',
      assigned_by_user_id: Number(userId),
    });
    const one = await read(`/v1/incident_sub_statuses/${assigned.id}?include=sub_status,assigned_by_user`);
    assert.deepEqual(linked(one.body.data, 'sub_status'), { type: 'sub_statuses', id: subStatus.id });
    assert.deepEqual(linked(one.body.data, 'assigned_by_user'), { type: 'users', id: userId });
    assert.deepEqual(includedOf(one).map((r) => r.type).sort(), ['sub_statuses', 'users']);
    assertComplete(one);
    const list = await read(`/v1/incidents/${incident.id}/sub_statuses?include=sub_status`);
    assert.deepEqual(linked(list.body.data[0], 'sub_status'), { type: 'sub_statuses', id: subStatus.id });
    assert.deepEqual(includedOf(list).map((r) => r.id), [subStatus.id]);
  });

  test('alerts: services, environments and events on the list and the get; absent values accepted', async () => {
    const environment = await make('/v1/environments', 'environments', { name: unique('Production') });
    const alert = await make('/v1/alerts', 'alerts', { summary: unique('Disk full'), service_ids: [serviceId], environment_ids: [environment.id] });
    const one = await read(`/v1/alerts/${alert.id}?include=services,environments,events,heartbeat`);
    assert.deepEqual(linked(one.body.data, 'services'), [{ type: 'services', id: serviceId }]);
    assert.deepEqual(linked(one.body.data, 'environments'), [{ type: 'environments', id: environment.id }]);
    assert.ok((linked(one.body.data, 'events') as unknown[]).length > 0, 'the alert has its creation event');
    assert.equal(linked(one.body.data, 'heartbeat'), null);
    assertComplete(one);
    const list = await read(`/v1/alerts?include=services&filter[services]=${serviceId}`);
    assert.deepEqual(list.body.data.map((a: Resource) => linked(a, 'services')), [[{ type: 'services', id: serviceId }]]);
    assert.deepEqual(includedOf(list).map((r) => [r.type, r.id, r.relationships]), [['services', serviceId, {}]]);
  });

  test('incidents: the included records carry relationships too', async () => {
    const incident = await make('/v1/incidents', 'incidents', { title: unique('Outage'), service_ids: [serviceId], group_ids: [teamId] });
    const one = await read(`/v1/incidents/${incident.id}?include=services,groups`);
    assert.deepEqual(linked(one.body.data, 'services'), [{ type: 'services', id: serviceId }]);
    assert.deepEqual(includedOf(one).map((r) => [r.type, r.id, r.relationships]).sort(), [['groups', teamId, {}], ['services', serviceId, {}]]);
  });

  /** An incident with a feedback, a custom field selection, a written post mortem and an attached alert, in `token`'s organization. */
  async function incidentWithRecords(token = org.token, attributes: Attributes = {}) {
    const title = unique('Included');
    const incident = await make('/v1/incidents', 'incidents', { title, ...attributes }, token);
    const feedback = await make(`/v1/incidents/${incident.id}/feedbacks`, 'incident_feedbacks', { rating: 4, feedback: 'Smooth handoff' }, token);
    const field = await make('/v1/custom_fields', 'custom_fields', { label: unique('Region') }, token);
    const selection = await make(`/v1/incidents/${incident.id}/custom_field_selections`, 'incident_custom_field_selections', { custom_field_id: field.id, value: 'EU' }, token);
    const written = await send('PUT', `/v1/post_mortems/${incident.id}`, doc('incident_post_mortems', { title: unique('What we learned') }), token);
    assert.equal(written.status, 200, JSON.stringify(written.body));
    const alert = await make('/v1/alerts', 'alerts', { summary: unique('Disk full') }, token);
    const attached = await send('POST', `/v1/incidents/${incident.id}/alerts`, doc('alerts', { alert_ids: [alert.id] }), token);
    assert.equal(attached.status, 200, JSON.stringify(attached.body));
    return { title, incident, feedback, selection, alert };
  }
  const ANSWERED = 'include=feedbacks,custom_field_selections,incident_post_mortem,alerts';
  const byKey = (items: Resource[]) => [...items].sort((a, b) => `${a.type}/${a.id}`.localeCompare(`${b.type}/${b.id}`));
  /** A key whose role reads incidents (not private ones) and what `fields` grant besides. */
  async function keyWith(fields: Attributes): Promise<string> {
    const role = await make('/v1/roles', 'roles', { name: unique('Reader'), incidents_permissions: ['read'], ...fields });
    return api.issueApiKey(org.organizationId, { kind: 'global', roleId: role.id });
  }

  test('incidents: feedbacks, custom_field_selections, incident_post_mortem and alerts on the get and the list, as their own GETs answer them', async () => {
    const { title, incident, feedback, selection, alert } = await incidentWithRecords();
    const own = async (path: string): Promise<Resource> => {
      const { id, type, attributes } = (await read(path)).body.data as Resource;
      return { id, type, attributes, relationships: {} };
    };
    const expected = byKey([await own(`/v1/feedbacks/${feedback.id}`), await own(`/v1/incident_custom_field_selections/${selection.id}`), await own(`/v1/post_mortems/${incident.id}`), await own(`/v1/alerts/${alert.id}`)]);
    assert.deepEqual(expected.map((r) => r.type), ['alerts', 'incident_custom_field_selections', 'incident_feedbacks', 'incident_post_mortems']);
    const answers = (record: Resource, res: TestResponse) => {
      assert.deepEqual(linked(record, 'feedbacks'), [{ type: 'incident_feedbacks', id: feedback.id }]);
      assert.deepEqual(linked(record, 'custom_field_selections'), [{ type: 'incident_custom_field_selections', id: selection.id }]);
      assert.deepEqual(linked(record, 'incident_post_mortem'), { type: 'incident_post_mortems', id: incident.id });
      assert.deepEqual(linked(record, 'alerts'), [{ type: 'alerts', id: alert.id }]);
      assert.deepEqual(linked(record, 'slack_messages'), []);
      assert.deepEqual(byKey(includedOf(res)), expected);
    };
    const one = await read(`/v1/incidents/${incident.id}?${ANSWERED},slack_messages`);
    answers(one.body.data, one);
    assertComplete(one);
    const list = await read(`/v1/incidents?${ANSWERED},slack_messages&filter[search]=${encodeURIComponent(title)}`);
    assert.deepEqual(list.body.data.map((r: Resource) => r.id), [incident.id]);
    answers(list.body.data[0], list);
  });

  test("incidents: a plain read links the incident's post mortem (its id, nothing included), which GET /v1/post_mortems/{id} answers", async () => {
    const title = unique('Retro');
    const incident = await make('/v1/incidents', 'incidents', { title });
    const postMortem = { data: { type: 'incident_post_mortems', id: incident.id } };
    assert.deepEqual(incident.relationships, { incident_post_mortem: postMortem }, 'the create answers it too');
    const one = await read(`/v1/incidents/${incident.id}`);
    assert.deepEqual(one.body.data.relationships, { incident_post_mortem: postMortem });
    assert.equal(one.body.included, undefined);
    const document = await read(`/v1/post_mortems/${one.body.data.relationships.incident_post_mortem.data.id}`);
    assert.deepEqual([document.body.data.type, document.body.data.id, document.body.data.attributes.incident_id, document.body.data.attributes.title], ['incident_post_mortems', incident.id, incident.id, title]);
    const list = await read(`/v1/incidents?filter[search]=${encodeURIComponent(title)}`);
    assert.deepEqual(list.body.data.map((r: Resource) => [r.id, r.relationships]), [[incident.id, { incident_post_mortem: postMortem }]]);
    assert.equal(list.body.included, undefined);
    const withEvents = await read(`/v1/incidents/${incident.id}?include=events`);
    assert.deepEqual(withEvents.body.data.relationships.incident_post_mortem, postMortem);
    assert.ok(!includedOf(withEvents).some((r) => r.type === 'incident_post_mortems'), 'linked, not included, unless asked');
    const mitigated = await send('PUT', `/v1/incidents/${incident.id}/mitigate`, doc('incidents', { mitigation_message: 'Rolled back' }));
    assert.deepEqual([mitigated.status, mitigated.body.data.relationships], [200, { incident_post_mortem: postMortem }]);
    const deleted = await send('DELETE', `/v1/incidents/${incident.id}`);
    assert.deepEqual([deleted.status, deleted.body.data.id, deleted.body.data.relationships], [200, incident.id, undefined], 'a deleted incident links no post mortem (it went with it)');
  });

  test("incidents: another organization's feedbacks, selections, post mortems and alerts never appear, even where a stored id names one", async () => {
    const ours = await incidentWithRecords();
    const theirs = await incidentWithRecords(other.token);
    // Planted in the read models, past the writes' checks: only the includes' scoping keeps them out.
    const db = api.runtime.dataSource;
    await db.query('UPDATE incidents_read SET alert_ids = alert_ids || $2::text WHERE id = $1', [ours.incident.id, theirs.alert.id]);
    await db.query('UPDATE incident_feedbacks_read SET incident_id = $1 WHERE id = $2', [ours.incident.id, theirs.feedback.id]);
    await db.query('UPDATE incident_custom_field_selections_read SET incident_id = $1 WHERE id = $2', [ours.incident.id, theirs.selection.id]);
    for (const path of [`/v1/incidents/${ours.incident.id}?${ANSWERED}`, `/v1/incidents?${ANSWERED}&page[size]=100`]) {
      const res = await read(path);
      const text = JSON.stringify(res.body);
      for (const id of [theirs.incident.id, theirs.feedback.id, theirs.selection.id]) assert.ok(!text.includes(id), `${path} answers nothing of the other organization (${id})`);
      // The planted id is in the stored alert_ids it answers, but names nothing of this organization.
      const incident = (Array.isArray(res.body.data) ? res.body.data : [res.body.data]).find((r: Resource) => r.id === ours.incident.id);
      assert.deepEqual(linked(incident, 'alerts'), [{ type: 'alerts', id: ours.alert.id }], path);
      assert.ok(!includedOf(res).some((r) => r.id === theirs.alert.id), `${path} never includes their alert`);
      assert.ok(includedOf(res).some((r) => r.type === 'alerts' && r.id === ours.alert.id), `${path} includes our own alert`);
      assert.ok(includedOf(res).some((r) => r.type === 'incident_feedbacks' && r.id === ours.feedback.id), `${path} includes our own feedback`);
    }
  });

  test('incidents: an include never shows what the caller may not read (their permission family, private incidents)', async () => {
    const publicOne = await incidentWithRecords();
    const secret = await make('/v1/incidents', 'incidents', { title: unique('Secret'), private: true });
    assert.equal((await send('POST', `/v1/incidents/${secret.id}/alerts`, doc('alerts', { alert_ids: [publicOne.alert.id] }))).status, 200);
    assert.deepEqual(((await read(`/v1/alerts/${publicOne.alert.id}`)).body.data.attributes.incident_ids as string[]).sort(), [publicOne.incident.id, secret.id].sort());

    // Incidents only: no feedbacks, retrospectives nor alerts read. The selections are the incident's own.
    const incidentsOnly = await keyWith({});
    const limited = await read(`/v1/incidents/${publicOne.incident.id}?${ANSWERED}`, incidentsOnly);
    assert.deepEqual(linked(limited.body.data, 'feedbacks'), []);
    assert.equal(linked(limited.body.data, 'incident_post_mortem'), null);
    assert.deepEqual(linked(limited.body.data, 'alerts'), []);
    assert.deepEqual(linked(limited.body.data, 'custom_field_selections'), [{ type: 'incident_custom_field_selections', id: publicOne.selection.id }]);
    assert.deepEqual(includedOf(limited).map((r) => r.type), ['incident_custom_field_selections']);
    const plain = await read(`/v1/incidents/${publicOne.incident.id}`, incidentsOnly);
    assert.equal(plain.body.data.relationships, undefined, 'no post mortem linkage for who may not read retrospectives');
    assert.equal((await send('GET', `/v1/post_mortems/${publicOne.incident.id}`, undefined, incidentsOnly)).status, 403);

    // Every family, but not private incidents: the alert is included without the private incident's id.
    const publicOnly = await keyWith({ alerts_permissions: ['read'], retrospective_permissions: ['read'], incident_feedbacks_permissions: ['read'] });
    for (const path of [`/v1/incidents/${publicOne.incident.id}?${ANSWERED}`, `/v1/incidents?${ANSWERED}&page[size]=100`]) {
      const res = await read(path, publicOnly);
      const alert = includedOf(res).find((r) => r.type === 'alerts' && r.id === publicOne.alert.id);
      assert.deepEqual(alert?.attributes.incident_ids, [publicOne.incident.id], path);
      assert.ok(includedOf(res).some((r) => r.type === 'incident_post_mortems' && r.id === publicOne.incident.id), path);
      assert.ok(!JSON.stringify(res.body).includes(secret.id), `${path} never names the private incident`);
    }
    assert.equal((await send('GET', `/v1/incidents/${secret.id}?${ANSWERED}`, undefined, publicOnly)).status, 404);
  });

  test('a value the reference does not declare is a 400 naming include, on lists and gets', async () => {
    for (const path of [`/v1/teams?include=owners`, `/v1/teams/${teamId}?include=users,owners`, `/v1/users/${userId}?include=owners`, `/v1/alerts?include=owners`, '/v1/services?include=owners']) {
      const res = await send('GET', path);
      assert.equal(res.status, 400, `${path}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.errors[0].source?.parameter, 'include', path);
      assert.match(res.body.errors[0].detail, /'owners'/);
    }
  });

  test('another organization\'s records never appear, even where a stored id names one', async () => {
    const theirUser = String(await api.addUser(other.organizationId, { roleKind: 'user' }));
    const theirService = (await make('/v1/services', 'services', { name: unique('Theirs') }, other.token)).id;
    // Planted in the read models, past the writes' reference checks: only the includes' scoping keeps them out.
    await api.runtime.dataSource.query('UPDATE groups_read SET user_ids = user_ids || $2::int WHERE id = $1', [teamId, Number(theirUser)]);
    const alert = await make('/v1/alerts', 'alerts', { summary: unique('Mixed'), service_ids: [serviceId] });
    await api.runtime.dataSource.query('UPDATE alerts_read SET service_ids = service_ids || $2::text WHERE id = $1', [alert.id, theirService]);

    const team = await read(`/v1/teams/${teamId}?include=users`);
    assert.deepEqual(linked(team.body.data, 'users'), [{ type: 'users', id: userId }]);
    assert.ok(!includedOf(team).some((r) => r.id === theirUser));
    const theirs = await read(`/v1/users/${theirUser}?include=teams`, other.token);
    assert.deepEqual(linked(theirs.body.data, 'teams'), []);
    assert.equal(includedOf(theirs).length, 0);
    const alerts = await read(`/v1/alerts/${alert.id}?include=services`);
    assert.deepEqual(linked(alerts.body.data, 'services'), [{ type: 'services', id: serviceId }]);
    assert.ok(!includedOf(alerts).some((r) => r.id === theirService));
  });

  test('the served OpenAPI document declares each operation\'s include enum', async () => {
    const openapi = (await read('/v1/openapi.json')).body;
    const includeOf = (path: string, method = 'get') => {
      const op = openapi.paths[path][method];
      return [...(openapi.paths[path].parameters ?? []), ...(op.parameters ?? [])].find((p: { name: string }) => p.name === 'include')?.schema?.enum;
    };
    assert.deepEqual(includeOf('/v1/teams'), ['users', 'schedules', 'escalation_policies']);
    assert.deepEqual(includeOf('/v1/teams/{id}'), ['users', 'schedules', 'escalation_policies']);
    assert.ok(includeOf('/v1/users/{id}').includes('role'));
    assert.deepEqual(includeOf('/v1/incident_sub_statuses/{id}'), ['sub_status', 'assigned_by_user']);
    assert.ok(includeOf('/v1/alerts').includes('alert_urgency'));
    assert.equal(includeOf('/v1/services'), undefined);
  });
});
