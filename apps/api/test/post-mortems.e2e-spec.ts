import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { useApiWorld } from './support/api-world';
import { doc, errorCodes, ids, outboxEvents, pointers, unique, type Attributes } from './support/json-api';

type Json = Record<string, any>;

/** Incidents' post mortems: one per incident, read from a view, written by an upserting PUT (docs/retrospectives.md). */
describe('incident post mortems over HTTP', () => {
  const w = useApiWorld();
  const { send, create } = w;
  const newIncident = (attributes: Attributes = {}, token?: string): Promise<Json> => create('/v1/incidents', 'incidents', { title: unique('Outage'), ...attributes }, token);
  const postMortem = (attributes: Attributes) => doc('incident_post_mortems', attributes);
  const listed = async (token = w.org.token, query = '') => ids(await send('GET', `/v1/post_mortems?page[size]=100${query}`, undefined, token));
  /** A key that reads and writes retrospectives and runs incidents, but may not read private incidents. */
  const publicOnly = async (): Promise<string> => {
    const role = await create('/v1/roles', 'roles', { name: unique('Public only'), incidents_permissions: ['create', 'read', 'update'], retrospective_permissions: ['read', 'update'] });
    return w.api.issueApiKey(w.org.organizationId, { kind: 'global', roleId: role.id });
  };

  test("an incident's empty or 1,000-character title is its post mortem's, within the bounds the served document declares", async () => {
    const doc = (await send('GET', '/v1/openapi.json')).body;
    const bounds = doc.components.schemas.incident_post_mortem.properties.title as { minLength?: number; maxLength?: number };
    for (const title of ['', 'x'.repeat(1000)]) {
      const incident = await newIncident({ title });
      const answered = (await send('GET', `/v1/post_mortems/${incident.id}`)).body.data.attributes.title as string;
      assert.equal(answered, title);
      assert.ok(answered.length >= (bounds.minLength ?? 0) && answered.length <= (bounds.maxLength ?? Infinity), `${answered.length} characters against ${JSON.stringify(bounds)}`);
    }
  });

  test("a new incident's post mortem is listed and read: the incident's id and title, a draft", async () => {
    const incident = await newIncident();
    const got = await send('GET', `/v1/post_mortems/${incident.id}`);
    assert.equal(got.status, 200, JSON.stringify(got.body));
    const { data } = got.body;
    assert.deepEqual([data.id, data.type], [incident.id, 'incident_post_mortems']);
    assert.deepEqual(
      [data.attributes.title, data.attributes.status, data.attributes.content, data.attributes.show_timeline, data.attributes.show_timeline_order, data.attributes.started_at],
      [incident.attributes.title, 'draft', null, true, 'desc', incident.attributes.started_at],
    );
    assert.equal(typeof data.attributes.url, 'string');
    assert.equal((await send('GET', `/v1/post_mortems/${incident.attributes.slug}`)).body.data.id, incident.id, 'named by the incident slug too');
    assert.ok((await listed()).includes(incident.id));
    assert.deepEqual(await listed(w.org.token, '&filter[status]=published'), [], 'nothing published yet');
    // The reference's include is a free string: accepted, includes nothing.
    const included = await send('GET', `/v1/post_mortems/${incident.id}?include=incident`);
    assert.deepEqual([included.status, included.body.included ?? []], [200, []]);
    assert.equal((await send('GET', '/v1/post_mortems?include=incident')).status, 200);
  });

  test('a PUT writes the post mortem; the incident-owned timestamps sent are ignored', async () => {
    const incident = await newIncident();
    const attributes = {
      title: 'What happened to checkout',
      status: 'published',
      content: '<h1>Summary</h1>',
      show_timeline: false,
      show_timeline_tasks: true,
      show_timeline_order: 'asc',
      show_alerts_attached: false,
      show_action_items: false,
      started_at: '2020-01-01T00:00:00Z',
      mitigated_at: '2020-01-01T01:00:00Z',
      resolved_at: '2020-01-01T02:00:00Z',
    };
    const put = await send('PUT', `/v1/post_mortems/${incident.id}`, postMortem(attributes));
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const answered = put.body.data.attributes;
    assert.deepEqual(
      [answered.title, answered.status, answered.content, answered.show_timeline, answered.show_timeline_tasks, answered.show_timeline_order, answered.show_alerts_attached, answered.show_action_items],
      ['What happened to checkout', 'published', '<h1>Summary</h1>', false, true, 'asc', false, false],
    );
    assert.deepEqual([answered.started_at, answered.mitigated_at, answered.resolved_at], [incident.attributes.started_at, incident.attributes.mitigated_at, incident.attributes.resolved_at]);
    assert.notEqual(answered.started_at, '2020-01-01T00:00:00.000Z');
    assert.deepEqual((await send('GET', `/v1/post_mortems/${incident.id}`)).body.data.attributes, answered);
    assert.ok((await listed(w.org.token, '&filter[status]=published')).includes(incident.id));
    // A second PUT changes what it names and keeps the rest.
    const again = await send('PUT', `/v1/post_mortems/${incident.id}`, postMortem({ status: 'draft' }));
    assert.deepEqual([again.body.data.attributes.status, again.body.data.attributes.title, again.body.data.attributes.content], ['draft', 'What happened to checkout', '<h1>Summary</h1>']);
    const [event] = (await outboxEvents(w.api, incident.id)).filter((e) => e.type === 'incident_post_mortem.updated');
    assert.equal(event.aggregate_type, 'incident_post_mortems');
    assert.deepEqual([event.payload.id, event.payload.title, event.payload.status, event.payload.started_at], [incident.id, 'What happened to checkout', 'published', incident.attributes.started_at]);
    assert.equal((await outboxEvents(w.api, incident.id)).filter((e) => e.type === 'incident_post_mortem.updated').length, 2);
  });

  test("the list filters on the incident's services and timestamps, searches title and content, and sorts", async () => {
    const service = await create('/v1/services', 'services', { name: unique('Checkout') });
    const word = unique('zebra').replace(' ', '');
    const withService = await newIncident({ service_ids: [service.id] });
    const written = await newIncident();
    assert.equal((await send('PUT', `/v1/post_mortems/${written.id}`, postMortem({ content: `The ${word} fell over` }))).status, 200);
    assert.deepEqual(await listed(w.org.token, `&filter[service_ids]=${service.id}`), [withService.id]);
    assert.deepEqual(await listed(w.org.token, `&filter[search]=${word}`), [written.id]);
    assert.deepEqual(await listed(w.org.token, `&filter[search]=${encodeURIComponent(withService.attributes.title)}`), [withService.id]);
    const since = encodeURIComponent(withService.attributes.started_at);
    const recent = await listed(w.org.token, `&filter[started_at][gte]=${since}&filter[created_at][gte]=${encodeURIComponent(withService.attributes.created_at)}`);
    assert.deepEqual(recent, [withService.id, written.id]);
    assert.deepEqual(await listed(w.org.token, `&filter[started_at][gte]=${since}&filter[created_at][gte]=${encodeURIComponent(withService.attributes.created_at)}&sort=-created_at`), [written.id, withService.id]);
    assert.deepEqual(await listed(w.org.token, '&filter[resolved_at][lt]=2000-01-01T00:00:00Z'), []);
  });

  /** Records of the organization `token` names (a catalog's or a team), each with a unique name. */
  const records = async (path: string, type: string, count: number, token = w.org.token): Promise<Json[]> => {
    const made: Json[] = [];
    for (let i = 0; i < count; i++) made.push(await create(path, type, { name: unique(type) }, token));
    return made;
  };

  test("the list filters on the incident's severity, types, environments, functionalities, services and teams (slug, name or id), its creator and its dates", async () => {
    const [sev, sev2] = await records('/v1/severities', 'severities', 2);
    const [type] = await records('/v1/incident_types', 'incident_types', 1);
    const [environment] = await records('/v1/environments', 'environments', 1);
    const [functionality] = await records('/v1/functionalities', 'functionalities', 1);
    const [service, service2] = await records('/v1/services', 'services', 2);
    const [team, team2] = await records('/v1/teams', 'groups', 2);
    const creator = await w.api.addUser(w.org.organizationId, { roleKind: 'user' });
    const a = await newIncident({
      severity_id: sev.id,
      incident_type_ids: [type.id],
      environment_ids: [environment.id],
      functionality_ids: [functionality.id],
      service_ids: [service.id],
      group_ids: [team.id],
      user_id: String(creator),
    });
    const b = await newIncident({ severity_id: sev2.id, service_ids: [service2.id], group_ids: [team2.id] });
    const both = [a.id, b.id];
    const expect = async (query: string, wanted: string[]) => {
      const res = await send('GET', `/v1/post_mortems?page[size]=100&${query}`);
      assert.equal(res.status, 200, `${query}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(ids(res), wanted, query);
    };
    const slug = (record: Json) => record.attributes.slug as string;
    const name = (record: Json) => encodeURIComponent(record.attributes.name);

    // Severity: a slug or a name, as on incidents (never the id: filter[severity_id] is that).
    await expect(`filter[severity]=${slug(sev)}`, [a.id]);
    await expect(`filter[severity]=${name(sev2)}`, [b.id]);
    await expect(`filter[severity][in]=${slug(sev)},${slug(sev2)}`, both);
    await expect(`filter[severity]=${sev.id}`, []);
    await expect(`filter[severity_id]=${sev.id}`, [a.id]);
    await expect(`filter[severity][not_eq]=${slug(sev)}&filter[team_ids]=${team.id},${team2.id}`, [b.id]);
    // Incident types: type and types by slug or name, type_ids by id.
    await expect(`filter[type]=${slug(type)}`, [a.id]);
    await expect(`filter[types]=${name(type)}`, [a.id]);
    await expect(`filter[type_ids]=${type.id}`, [a.id]);
    await expect(`filter[environments]=${slug(environment)}`, [a.id]);
    await expect(`filter[environment_ids]=${environment.id}`, [a.id]);
    await expect(`filter[functionalities]=${name(functionality)}`, [a.id]);
    await expect(`filter[functionality_ids]=${functionality.id}`, [a.id]);
    // Comma-separated lists match any of their values.
    await expect(`filter[services]=${slug(service)},${name(service2)}`, both);
    await expect(`filter[service_ids]=${service.id},${service2.id}`, both);
    await expect(`filter[teams]=${slug(team2)}`, [b.id]);
    await expect(`filter[team_ids]=${team.id},${team2.id}`, both);
    await expect(`filter[team_ids]=${team2.id}&filter[services]=${slug(service)}`, []);
    await expect('filter[teams]=no-such-team', []);
    // The incident's creator.
    await expect(`filter[user_id]=${creator}&filter[team_ids]=${team.id},${team2.id}`, [a.id]);
    await expect(`filter[user_id]=${creator}`, [a.id]);
    // The incident's dates, and the order.
    const ours = `filter[team_ids]=${team.id},${team2.id}`;
    await expect(`${ours}&filter[created_at][lt]=${encodeURIComponent(b.attributes.created_at)}`, [a.id]);
    await expect(`${ours}&filter[created_at][gte]=${encodeURIComponent(b.attributes.created_at)}`, [b.id]);
    await expect(`${ours}&filter[created_at][gt]=2000-01-01&filter[created_at][lte]=2999-01-01`, both);
    await expect(`${ours}&sort=-created_at`, [b.id, a.id]);
    assert.equal((await send('PUT', `/v1/incidents/${b.id}/mitigate`, doc('incidents', { mitigation_message: 'Rolled back' }))).status, 200);
    await expect(`${ours}&filter[mitigated_at][gte]=2000-01-01`, [b.id]);
    await expect(`${ours}&filter[resolved_at][lte]=2999-01-01`, []);
    await expect(`${ours}&filter[started_at][gt]=2000-01-01T00:00:00Z`, both);
    // With the post mortem's own filters.
    assert.equal((await send('PUT', `/v1/post_mortems/${b.id}`, postMortem({ status: 'published' }))).status, 200);
    await expect(`${ours}&filter[status]=published`, [b.id]);
    await expect(`filter[search]=${encodeURIComponent(a.attributes.title)}&${ours}`, [a.id]);
  });

  test("filter[causes] and filter[cause_ids] match the post mortem's own causes, not its incident's", async () => {
    const [cause, cause2] = await records('/v1/causes', 'causes', 2);
    const written = await newIncident();
    const incidentOnly = await newIncident({ cause_ids: [cause.id] });
    assert.equal((await send('PUT', `/v1/post_mortems/${written.id}`, postMortem({ cause_ids: [cause.id, cause2.id] }))).status, 200);
    assert.deepEqual(await listed(w.org.token, `&filter[cause_ids]=${cause.id}`), [written.id]);
    assert.deepEqual(await listed(w.org.token, `&filter[causes]=${cause2.attributes.slug}`), [written.id]);
    assert.deepEqual(await listed(w.org.token, `&filter[causes]=${encodeURIComponent(cause.attributes.name)}`), [written.id]);
    assert.ok(!(await listed(w.org.token, `&filter[cause_ids][not_in]=${cause.id}`)).includes(written.id));
    assert.ok((await listed(w.org.token, `&filter[cause_ids][not_in]=${cause.id}`)).includes(incidentOnly.id), "the incident's causes are not the post mortem's");
  });

  test('a bad filter value, operator or name is a 400 naming the parameter and what is wrong', async () => {
    const cases: [string, string, RegExp][] = [
      ['filter[user_id]=alice', 'filter[user_id]', /expected an integer/],
      ['filter[user_id][in]=1,two', 'filter[user_id][in]', /expected an integer/],
      ['filter[created_at][gte]=yesterday', 'filter[created_at][gte]', /RFC 3339/],
      ['filter[mitigated_at][lt]=soon', 'filter[mitigated_at][lt]', /RFC 3339/],
      ['filter[status]=final', 'filter[status]', /one of draft, published/],
      ['filter[teams][gt]=platform', 'filter[teams][gt]', /not allowed for 'teams'/],
      ['filter[team_ids][gte]=1', 'filter[team_ids][gte]', /not allowed for 'team_ids'/],
      ['filter[severity][null]=true', 'filter[severity][null]', /not allowed for 'severity'/],
      ['filter[cause_ids]=not-a-uuid', 'filter[cause_ids]', /expected a uuid/],
      ['filter[nope]=1', 'filter[nope]', /Unknown filter 'nope'/],
    ];
    for (const [query, parameter, detail] of cases) {
      const res = await send('GET', `/v1/post_mortems?${query}`);
      assert.deepEqual([res.status, res.body.errors?.[0]?.source?.parameter], [400, parameter], `${query}: ${JSON.stringify(res.body)}`);
      assert.match(res.body.errors[0].detail, detail, query);
    }
  });

  test("the filters never reach another organization's records, nor a private incident's for a key that may not read them", async () => {
    const name = unique('Platform');
    const ours = await create('/v1/teams', 'groups', { name });
    const theirs = await create('/v1/teams', 'groups', { name }, w.other.token);
    const [severity] = await records('/v1/severities', 'severities', 1);
    const theirSeverity = await create('/v1/severities', 'severities', { name: severity.attributes.name }, w.other.token);
    const mine = await newIncident({ group_ids: [ours.id], severity_id: severity.id });
    const secret = await newIncident({ group_ids: [ours.id], severity_id: severity.id, private: true });
    const other = await newIncident({ group_ids: [theirs.id], severity_id: theirSeverity.id }, w.other.token);
    const byName = `&filter[teams]=${encodeURIComponent(name)}`;
    assert.deepEqual(await listed(w.org.token, byName), [mine.id, secret.id]);
    assert.deepEqual(await listed(w.org.token, `&filter[severity]=${theirSeverity.attributes.slug}`), [mine.id, secret.id], 'the same slug names our severity here');
    assert.deepEqual(await listed(w.org.token, `&filter[team_ids]=${theirs.id}`), [], "their team's id matches none of ours");
    assert.deepEqual(await listed(w.other.token, `&filter[team_ids]=${ours.id}`), []);
    assert.deepEqual(await listed(w.other.token, byName), [other.id]);
    const key = await publicOnly();
    assert.deepEqual(await listed(key, byName), [mine.id]);
    assert.deepEqual(await listed(key, `&filter[team_ids]=${ours.id}&filter[severity]=${severity.attributes.slug}`), [mine.id]);
  });

  test("the served OpenAPI document lists the reference's filters of GET /v1/post_mortems", async () => {
    const reference = ['search', 'status', 'severity', 'type', 'user_id', 'types', 'type_ids', 'environments', 'environment_ids', 'functionalities', 'functionality_ids', 'services', 'service_ids', 'teams', 'team_ids', 'causes', 'cause_ids'];
    const ranges = ['created_at', 'started_at', 'mitigated_at', 'resolved_at'].flatMap((at) => ['gt', 'gte', 'lt', 'lte'].map((op) => `filter[${at}][${op}]`));
    const openapi = await send('GET', '/v1/openapi.json');
    const served = (openapi.body.paths['/v1/post_mortems'].get.parameters as { name: string }[]).map((p) => p.name);
    assert.deepEqual([...reference.map((f) => `filter[${f}]`), ...ranges, 'sort'].filter((name) => !served.includes(name)), []);
  });

  test('a bad status is a 422 naming it, and nothing is written', async () => {
    const incident = await newIncident();
    const bad = await send('PUT', `/v1/post_mortems/${incident.id}`, postMortem({ title: 'Never stored', status: 'final' }));
    assert.equal(bad.status, 422);
    assert.deepEqual(pointers(bad), ['/data/attributes/status']);
    assert.match(bad.body.errors[0].detail, /status/);
    const unknownCause = await send('PUT', `/v1/post_mortems/${incident.id}`, postMortem({ cause_ids: ['7f1c1e9a-0d6b-4a55-9d0e-4b6f5f8f2a10'] }));
    assert.equal(unknownCause.status, 422);
    assert.deepEqual(pointers(unknownCause), ['/data/attributes/cause_ids/0']);
    const got = (await send('GET', `/v1/post_mortems/${incident.id}`)).body.data.attributes;
    assert.deepEqual([got.title, got.status, got.cause_ids], [incident.attributes.title, 'draft', null]);
    const rows = await w.api.runtime.dataSource.query('SELECT 1 FROM incident_post_mortems WHERE id = $1', [incident.id]);
    assert.equal(rows.length, 0);
    assert.deepEqual((await outboxEvents(w.api, incident.id)).filter((e) => e.type.startsWith('incident_post_mortem')), []);
  });

  test("a private incident's post mortem is missing for a key that may not read private incidents", async () => {
    const secret = await newIncident({ private: true });
    const shown = await newIncident();
    const key = await publicOnly();
    for (const [method, body] of [['GET'], ['PUT', postMortem({ title: 'Sneaked in' })]] as [string, unknown?][]) {
      const res = await send(method, `/v1/post_mortems/${secret.id}`, body, key);
      assert.equal(res.status, 404, `${method}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(errorCodes(res), ['404/NOT_FOUND/Not found']);
    }
    const theirs = await listed(key);
    assert.ok(theirs.includes(shown.id) && !theirs.includes(secret.id), 'the list leaves it out');
    assert.ok((await listed(key, '&filter[incident_private]=true')).length === 0, 'even when asked for');
    assert.equal((await send('PUT', `/v1/post_mortems/${shown.id}`, postMortem({ title: 'Theirs to write' }), key)).status, 200);
    const owner = await send('GET', `/v1/post_mortems/${secret.id}`);
    assert.deepEqual([owner.status, owner.body.data.attributes.title], [200, secret.attributes.title]);
    assert.ok((await listed()).includes(secret.id));
  });

  test("another organization's post mortem is missing: 404 on get and put, never listed", async () => {
    const theirs = await newIncident({}, w.other.token);
    assert.equal((await send('GET', `/v1/post_mortems/${theirs.id}`)).status, 404);
    const put = await send('PUT', `/v1/post_mortems/${theirs.id}`, postMortem({ title: 'Hijacked' }));
    assert.equal(put.status, 404);
    assert.ok(!(await listed()).includes(theirs.id));
    assert.equal((await send('GET', `/v1/post_mortems/${theirs.id}`, undefined, w.other.token)).body.data.attributes.title, theirs.attributes.title);
  });

  test("an incident's delete removes its post mortem", async () => {
    const incident = await newIncident();
    assert.equal((await send('PUT', `/v1/post_mortems/${incident.id}`, postMortem({ title: 'Soon gone' }))).status, 200);
    assert.equal((await send('DELETE', `/v1/incidents/${incident.id}`)).status, 200);
    assert.equal((await send('GET', `/v1/post_mortems/${incident.id}`)).status, 404);
    assert.ok(!(await listed()).includes(incident.id));
    const rows = await w.api.runtime.dataSource.query('SELECT 1 FROM incident_post_mortems WHERE id = $1', [incident.id]);
    assert.equal(rows.length, 0);
  });
});
