import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { startTestApi, type TestApi, type TestOrganization } from '../src/testing';
import { created } from './support/json-api';
import { weeklySchedule } from './support/schedules';

type Json = Record<string, any>;
const DAY = 24 * 3_600_000;
const doc = (type: string, attributes: Json) => ({ data: { type, attributes } });

/**
 * The requests of the hosted API's own MCP server (Rootly-AI-Labs/Rootly-MCP-server: its custom
 * incident, alert and on-call tools and its resources), as its source sends them: the same paths,
 * parameter spellings (an empty `include=`, `id` among sparse fieldsets, `schedule_ids[]`, Python
 * `isoformat()` times) and bodies, and the response members it reads. Pointed at Taproot, each
 * tool must get a 2xx and find what it looks for. tools/mcp/rootly-mcp.e2e-spec.ts runs the server
 * itself (PyPI `rootly-mcp-server`) and calls every tool it lists.
 */
describe("the hosted API's MCP server's requests", () => {
  let api: TestApi;
  let org: TestOrganization;
  let incident: Json;
  let userId: number;
  let scheduleId: string;
  let rotationId: string;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
    userId = await api.addUser(org.organizationId, { roleKind: 'user' });
    incident = created(await send('POST', '/v1/incidents', doc('incidents', { title: 'Checkout database timeouts', summary: 'database timeout errors on checkout' })));
    ({ scheduleId, rotationId } = await weeklySchedule(api, org.token, { members: [userId], owner: userId }));
  });
  after(() => api?.close());

  const send = (method: string, path: string, body?: unknown) => api.request(method, path, { token: org.token, body });
  const ok = async (method: string, path: string, body?: unknown): Promise<Json> => {
    const res = await send(method, path, body);
    assert.ok(res.status >= 200 && res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  /** The page members its pagination loops read. */
  const assertPaged = (body: Json) => {
    for (const key of ['current_page', 'next_page', 'prev_page', 'total_pages', 'total_count']) assert.ok(key in body.meta, `meta.${key}`);
  };

  test('search_incidents, list_incidents, find_related_incidents, suggest_solutions and the incidents resource', async () => {
    const search = await ok('GET', '/v1/incidents?page[size]=10&page[number]=1&include=&fields[incidents]=id,title,summary,status,created_at,updated_at,url,started_at,retrospective_progress_status&filter[search]=database');
    assert.deepEqual(search.data.map((d: Json) => d.id), [incident.id]);
    assert.equal(search.data[0].attributes.title, 'Checkout database timeouts');
    assertPaged(search);
    const since = new Date(Date.now() - DAY).toISOString();
    const listed = await ok(
      'GET',
      `/v1/incidents?fields[incidents]=id,sequential_id,title,summary,status,severity,created_at,updated_at,url,started_at,resolved_at,retrospective_progress_status&include=&sort=-created_at&page[size]=25&page[number]=1&filter[status]=started&filter[started_at][gte]=${since}`,
    );
    assert.deepEqual(listed.data.map((d: Json) => d.id), [incident.id]);
    assertPaged(listed);
    const related = await ok('GET', '/v1/incidents?include=&page[size]=100&page[number]=1&fields[incidents]=id,title,summary,status,created_at,url&filter[status]=started&filter[search]=timeout');
    assert.equal(related.data.length, 1);
    const resource = await ok('GET', '/v1/incidents?page[size]=10&page[number]=1&include=&fields[incidents]=id,title,status');
    assert.deepEqual(Object.keys(resource.data[0].attributes).sort(), ['status', 'title']);
  });

  test('an incident named INC-<n> is resolved by filter[sequential_id], then read with its roles', async () => {
    const n = incident.attributes.sequential_id;
    const found = await ok('GET', `/v1/incidents?filter[sequential_id]=${n}&page[size]=1&fields[incidents]=id,sequential_id`);
    assert.equal(found.data[0].attributes.sequential_id, n);
    assert.equal(typeof found.data[0].id, 'string');
    const role = created(await send('POST', '/v1/incident_roles', doc('incident_roles', { name: 'Commander', summary: 'Leads the response' })));
    await ok('POST', `/v1/incidents/${incident.id}/assign_role_to_user`, doc('incidents', { incident_role_id: role.id, user_id: String(userId) }));
    const withRoles = await ok('GET', `/v1/incidents/${incident.id}?include=roles`);
    const assignment = (withRoles.included as Json[]).find((i) => i.type === 'incident_role_assignments')!;
    assert.equal(assignment.attributes.incident_role.data.attributes.name, 'Commander');
    assert.equal(assignment.attributes.user.data.id, String(userId));
    assert.ok(assignment.attributes.user.data.attributes.email);
  });

  test('create_incident and updateIncident (PUT without data.id)', async () => {
    const made = await ok('POST', '/v1/incidents', doc('incidents', { title: 'Made by the MCP server', summary: 's', service_ids: [], group_ids: [], environment_ids: [], incident_type_ids: [] }));
    const updated = await ok('PUT', `/v1/incidents/${made.data.id}`, doc('incidents', { retrospective_progress_status: 'active', summary: 'Updated by the MCP server' }));
    assert.deepEqual([updated.data.attributes.retrospective_progress_status, updated.data.attributes.summary], ['active', 'Updated by the MCP server']);
  });

  test('get_shift_incidents', async () => {
    const until = new Date(Date.now() + DAY).toISOString();
    const body = await ok(
      'GET',
      `/v1/incidents?page[size]=100&sort=-created_at&fields[incidents]=title,status,started_at,resolved_at,created_at,summary,customer_impact_summary,mitigation,severity,url&filter[started_at][lte]=${until}&filter[status]=started&page[number]=1`,
    );
    assert.ok(body.data.some((d: Json) => d.id === incident.id));
    assert.ok('total_pages' in body.meta);
  });

  test('get_alert_by_short_id, and the alert list its older versions scan', async () => {
    const alert = created(await send('POST', '/v1/alerts', doc('alerts', { summary: 'Disk full on db-1', source: 'api' })));
    const byShortId = await ok('GET', `/v1/alerts/${alert.attributes.short_id}`);
    assert.equal(byShortId.data.attributes.summary, 'Disk full on db-1');
    const scanned = await ok('GET', '/v1/alerts?page[number]=1&page[size]=100&fields[alerts]=id,summary,status,started_at,ended_at,short_id,source,description,noise,alert_urgency_id,url,created_at');
    assert.ok(scanned.data.some((d: Json) => d.attributes.short_id === alert.attributes.short_id));
    assertPaged(scanned);
  });

  test("the on-call tools' lookups, shifts and handoff window", async () => {
    for (const path of ['/v1/users', '/v1/schedules', '/v1/teams']) assertPaged(await ok('GET', `${path}?page[size]=100&page[number]=1`));
    const me = await ok('GET', '/v1/users/me');
    assert.equal(typeof me.data.id, 'string');

    const day = new Date(Date.now() + 14 * DAY).toISOString().slice(0, 10);
    // list_shifts
    const listed = await ok('GET', `/v1/shifts?from=${day}T00:00:00Z&to=${day}T23:59:59Z&include=user,on_call_role,schedule_rotation&schedule_ids[]=${scheduleId}&schedule_ids[]=${scheduleId}`);
    assert.equal(listed.data.length, 1);
    assert.equal(listed.data[0].relationships.user.data.id, String(userId));
    assert.equal(listed.data[0].relationships.schedule_rotation.data.id, rotationId);
    assert.ok((listed.included as Json[]).some((i) => i.type === 'users' && i.id === String(userId)));
    assert.ok((listed.included as Json[]).some((i) => i.type === 'on_call_roles'));
    // get_schedule_shifts, the on-call status resource (times without a zone)
    await ok('GET', `/v1/schedules/${scheduleId}/shifts?from=${day}T00:00:00Z&to=${day}T23:59:59Z`);
    await ok('GET', `/v1/schedules/${scheduleId}/shifts?from=${day}T00:00:00&to=${day}T23:59:59`);
    // get_oncall_shift_metrics: date-only bounds, users and schedules, four includes, no page parameters
    const metrics = await ok('GET', `/v1/shifts?from=${day}&to=${day}T23:59:59Z&schedule_ids[]=${scheduleId}&user_ids[]=${userId}&include=user,shift_override,on_call_role,schedule_rotation`);
    assert.equal(metrics.data[0].attributes.user_id, userId);
    // get_oncall_handoff_summary: the window as filter[starts_at], Python isoformat() with an offset
    const now = new Date();
    const local = (at: Date) => new Date(at.getTime() - 7 * 3_600_000).toISOString().replace('Z', '123-07:00');
    const handoff = await ok(
      'GET',
      `/v1/shifts?schedule_ids[]=${scheduleId}&filter[starts_at][gte]=${encodeURIComponent(local(new Date(now.getTime() - DAY)))}&filter[starts_at][lte]=${encodeURIComponent(local(new Date(now.getTime() + 7 * DAY)))}&include=user,on_call_role&page[size]=50`,
    );
    for (const shift of handoff.data) {
      const starts = Date.parse(shift.attributes.starts_at);
      assert.ok(starts >= now.getTime() - DAY - 1000 && starts <= now.getTime() + 7 * DAY, shift.attributes.starts_at);
    }
    // create_override_recommendation: the schedule's rotations and their members, from relationships (no include)
    const schedule = await ok('GET', `/v1/schedules/${scheduleId}`);
    assert.deepEqual(schedule.data.relationships.schedule_rotations.data, [{ type: 'schedule_rotations', id: rotationId }]);
    assert.equal(schedule.included, undefined, 'linkage only: nothing included unasked');
    const members = await ok('GET', `/v1/schedule_rotations/${rotationId}/schedule_rotation_users?page[size]=100`);
    assert.deepEqual(members.data.map((m: Json) => m.relationships.user.data), [{ type: 'users', id: String(userId) }]);
  });
});
