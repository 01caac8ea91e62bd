/**
 * The hosted API's own MCP server (PyPI `rootly-mcp-server` 2.3.22, tools/mcp) against Taproot,
 * unchanged: pointed at the api by ROOTLY_BASE_URL with an all-permissions key, its write tools
 * on, offline. rootly_mcp_check.py lists its tools and calls them as a user of Taproot would (the
 * curated incident, alert and on-call tools, and the tools generated from its swagger) over the
 * organization seeded here; every call must succeed and answer the seeded or created records.
 * Tools it does not call are in its EXCUSED with the reason. tools/mcp/README.md.
 */
import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { startTestApi, type TestApi, type TestOrganization } from '../../apps/api/src/testing';
import { created, doc } from '../../apps/api/test/support/json-api';
import { weeklySchedule } from '../../apps/api/test/support/schedules';
import { installRootlyMcp, runMcpCheck, type McpCall, type McpReport } from './rootly-mcp';

type Json = Record<string, any>;

/**
 * The organization the check reads: two named responders on a weekly schedule owned by a team, a
 * started incident with its service, team, severity, environment, type and functionality, a
 * resolved one like it and an unrelated one, a commander, an alert on the incident, an imported
 * meeting recording. Answers what rootly_mcp_check.py reads (`--seed`).
 */
async function seed(api: TestApi, org: TestOrganization): Promise<Json> {
  const send = (method: string, path: string, body?: unknown) => api.request(method, path, { token: org.token, body });
  const ok = async (method: string, path: string, body?: unknown): Promise<Json> => {
    const res = await send(method, path, body);
    assert.ok(res.status >= 200 && res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  };
  const create = async (path: string, type: string, attributes: Json) => created(await send('POST', path, doc(type, attributes)));

  const responder = await api.addUser(org.organizationId, { roleKind: 'user', email: 'responder@example.test' });
  const second = await api.addUser(org.organizationId, { roleKind: 'user', email: 'second@example.test' });
  await ok('PUT', `/v1/users/${responder}`, doc('users', { first_name: 'Riley', last_name: 'Responder' }));
  await ok('PUT', `/v1/users/${second}`, doc('users', { first_name: 'Sam', last_name: 'Second' }));
  const me = await ok('GET', '/v1/users/me');
  const team = await create('/v1/teams', 'groups', { name: 'Platform Team' });
  const service = await create('/v1/services', 'services', { name: 'Checkout API' });
  const environment = await create('/v1/environments', 'environments', { name: 'Production' });
  const severity = await create('/v1/severities', 'severities', { name: 'SEV1', severity: 'critical', color: '#FF0000' });
  const incidentType = await create('/v1/incident_types', 'incident_types', { name: 'Customer facing' });
  const functionality = await create('/v1/functionalities', 'functionalities', { name: 'Payments' });
  const incident = await create('/v1/incidents', 'incidents', {
    title: 'Checkout database timeouts',
    summary: 'database timeout errors on checkout',
    severity_id: severity.id,
    service_ids: [service.id],
    group_ids: [team.id],
    environment_ids: [environment.id],
    incident_type_ids: [incidentType.id],
    functionality_ids: [functionality.id],
  });
  const past = await create('/v1/incidents', 'incidents', { title: 'Database connection pool exhausted on checkout', summary: 'database timeout errors, connection pool exhausted', service_ids: [service.id] });
  await ok('PUT', `/v1/incidents/${past.id}/mitigate`, doc('incidents', { mitigation_message: 'Restarted the pool' }));
  await ok('PUT', `/v1/incidents/${past.id}/resolve`, doc('incidents', { resolution_message: 'Raised the database connection pool size' }));
  const other = await create('/v1/incidents', 'incidents', { title: 'Status page banner misspelled', summary: 'cosmetic typo' });
  const commander = await create('/v1/incident_roles', 'incident_roles', { name: 'Commander', summary: 'Leads the response' });
  await ok('POST', `/v1/incidents/${incident.id}/assign_role_to_user`, doc('incidents', { incident_role_id: commander.id, user_id: String(responder) }));
  const alert = await create('/v1/alerts', 'alerts', { summary: 'Disk full on db-1', source: 'api' });
  await ok('POST', `/v1/incidents/${incident.id}/alerts`, doc('alerts', { alert_ids: [alert.id] }));
  const { scheduleId, rotationId } = await weeklySchedule(api, org.token, { members: [responder, second], owner: responder, name: 'Primary on-call' });
  const schedule = await ok('PUT', `/v1/schedules/${scheduleId}`, doc('schedules', { owner_group_ids: [team.id] }));
  const now = new Date();
  const [current] = (await send('GET', `/v1/schedules/${scheduleId}/shifts?from=${now.toISOString()}&to=${new Date(now.getTime() + 60_000).toISOString()}`)).body.data;
  assert.ok(current, 'someone is on call now');
  const recording = created(
    await send('POST', `/v1/incidents/${incident.id}/meeting_recordings/import`, {
      source: 'recall_desktop_sdk',
      recall_recording_id: '0b9f0a3e-59b4-4cde-9b0a-4c1b0d2f1e11',
      platform: 'zoom',
      transcript_summary: 'We rolled back the checkout deploy',
      word_count: 120,
      speaker_count: 2,
    }),
  );
  return {
    me: me.id,
    owner_email: me.attributes.email,
    responder: String(responder),
    second: String(second),
    responder_email: 'responder@example.test',
    second_email: 'second@example.test',
    responder_name: 'Riley Responder',
    team: team.id,
    team_name: team.attributes.name,
    service: service.id,
    service_slug: service.attributes.slug,
    environment: environment.id,
    severity: severity.id,
    severity_slug: severity.attributes.slug,
    incident_type: incidentType.id,
    functionality: functionality.id,
    incident: incident.id,
    incident_title: incident.attributes.title,
    incident_number: incident.attributes.sequential_id,
    past_incident: past.id,
    past_title: past.attributes.title,
    other_incident: other.id,
    alert: alert.id,
    alert_short_id: alert.attributes.short_id,
    alert_summary: alert.attributes.summary,
    schedule: scheduleId,
    schedule_name: schedule.attributes.name,
    rotation: rotationId,
    on_call_now: String(current.relationships?.user?.data?.id ?? current.attributes.user_id),
    recording: recording.id,
    recording_summary: recording.attributes.transcript_summary,
  };
}

function describeCall(call: McpCall): string {
  const lines = [`${call.tool} ${JSON.stringify(call.arguments)}`];
  if (call.error) lines.push(`    error: ${call.error}`);
  if (call.missing?.length) lines.push(`    answer lacks: ${call.missing.join(', ')}`);
  if (call.present?.length) lines.push(`    answer has (filtered out): ${call.present.join(', ')}`);
  if (call.excerpt) lines.push(`    answer: ${call.excerpt.slice(0, 600)}`);
  return lines.join('\n');
}

describe("the hosted API's MCP server (rootly-mcp-server) against Taproot", () => {
  let api: TestApi | undefined;
  let report: McpReport;

  before(async () => {
    const python = await installRootlyMcp();
    api = await startTestApi({
      // A few hundred requests in seconds: no abuse to limit.
      env: { RATE_LIMIT_READS_PER_MINUTE: '100000', RATE_LIMIT_WRITES_PER_MINUTE: '100000' },
    });
    const org = await api.newOrganization();
    report = await runMcpCheck({ python, baseUrl: api.url, token: org.token, seed: await seed(api, org) });
  }, 900_000);

  after(async () => {
    await api?.close();
  });

  test('every tool the server lists is called, or excused in rootly_mcp_check.py with its reason', () => {
    const listed = new Set(report.server.tools);
    const called = new Set(report.calls.map((c) => c.tool));
    assert.ok(listed.has('search_incidents') && listed.has('create_incident') && listed.has('list_services'), `the write tools and the generated ones are listed: ${[...listed].join(', ')}`);
    assert.deepEqual(report.not_called, [], `listed tools the check neither calls nor excuses:\n${report.not_called.map((t) => `    ${t}`).join('\n')}`);
    const stale = Object.keys(report.excused).filter((t) => !listed.has(t) || called.has(t));
    assert.deepEqual(stale, [], `excused tools that are not listed or are called now (drop them from EXCUSED): ${stale.join(', ')}`);
    const unlisted = [...called].filter((t) => !listed.has(t));
    assert.deepEqual(unlisted, [], `tools called but not listed: ${unlisted.join(', ')}`);
  });

  test('every call succeeds and answers the seeded or created records it names', () => {
    const failing = report.calls.filter((c) => c.is_error !== false || c.error || c.missing?.length || c.present?.length);
    assert.equal(failing.length, 0, `${failing.length} of ${report.calls.length} tool calls failed:\n\n${failing.map(describeCall).join('\n\n')}`);
    const unchecked = [...new Set(report.calls.map((c) => c.tool))].filter((tool) => report.calls.every((c) => c.tool !== tool || c.expected.length === 0));
    assert.deepEqual(unchecked, [], `tools no call of which names what its answer must contain: ${unchecked.join(', ')}`);
    const resources = report.resources.filter((r) => r.error || r.missing?.length);
    assert.deepEqual(resources, [], 'every resource read answers what it names');
    assert.deepEqual(report.setup, [], 'the records no tool creates were created with plain HTTP');
  });
});
