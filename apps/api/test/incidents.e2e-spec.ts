import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { DomainEvent } from '@taproot/messaging';
import { startTestApi, type TestApi, type TestOrganization, type TestResponse } from '../src/testing';

type Attributes = Record<string, unknown>;

const incident = (attributes: Attributes = {}) => ({ data: { type: 'incidents', attributes } });
const named = (type: string, name: string, more: Attributes = {}) => ({ data: { type, attributes: { name, ...more } } });
const ids = (res: TestResponse): string[] => res.body.data.map((d: { id: string }) => d.id);
const unique = (name: string) => `${name} ${randomUUID().slice(0, 8)}`;

describe('incidents over HTTP', () => {
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
  const create = async (attributes: Attributes = {}, token = org.token) => {
    const res = await send('POST', '/v1/incidents', incident(attributes), token);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data as { id: string; attributes: Attributes };
  };
  const taxonomy = async (path: string, type: string, name = unique(type), token = org.token) => {
    const res = await send('POST', path, named(type, name), token);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data as { id: string; attributes: Attributes };
  };
  const outbox = async (aggregateId: string): Promise<DomainEvent[]> =>
    (await api.runtime.dataSource.query('SELECT event FROM outbox WHERE aggregate_id = $1 ORDER BY seq', [aggregateId])).map((r: { event: DomainEvent }) => r.event);
  const timeline = async (id: string) => (await send('GET', `/v1/incidents/${id}/events?page[size]=100`)).body.data as { id: string; attributes: Attributes }[];

  test('create with defaults: sequential id, generated title and slug, kind normal, status started, stamped', async () => {
    const own = await api.newOrganization();
    const first = await create({}, own.token);
    const a = first.attributes;
    assert.equal(a.sequential_id, 1);
    assert.equal(a.title, 'Incident #1');
    assert.equal(a.slug, 'incident-1');
    assert.equal(a.kind, 'normal');
    assert.equal(a.status, 'started');
    assert.equal(a.private, false);
    assert.equal(a.source, 'api');
    assert.ok(a.started_at, 'a started incident has started_at');
    assert.equal(a.mitigated_at, null);
    assert.deepEqual(a.services, []);
    assert.equal(a.severity, null);
    const second = await create({ title: 'Checkout is down', summary: 'Card payments fail' }, own.token);
    assert.equal(second.attributes.sequential_id, 2);
    assert.equal(second.attributes.slug, 'checkout-is-down');
    const events = await outbox(second.id);
    assert.deepEqual(events.map((e) => [e.type, e.version, e.aggregate_type]), [['incident.created', 1, 'incidents']]);
    assert.equal(events[0].payload.title, 'Checkout is down', 'the event carries the full snapshot');
  });

  test('a submitted slug is ignored and create and update warn with Deprecation and X-API-Warn', async () => {
    const created = await send('POST', '/v1/incidents', incident({ title: 'Slugged outage', slug: 'mine' }));
    assert.equal(created.status, 201);
    assert.equal(created.body.data.attributes.slug, 'slugged-outage');
    assert.equal(created.headers.get('deprecation'), 'true');
    assert.match(created.headers.get('x-api-warn') ?? '', /slug/);
    const updated = await send('PUT', `/v1/incidents/${created.body.data.id}`, incident({ slug: 'other' }));
    assert.equal(updated.status, 200);
    assert.equal(updated.body.data.attributes.slug, 'slugged-outage');
    assert.equal(updated.headers.get('deprecation'), 'true');
    assert.equal((await send('POST', '/v1/incidents', incident({ title: 'Plain outage' }))).headers.get('deprecation'), null);
  });

  test('get by uuid and slug, update, delete; another organization gets 404', async () => {
    const created = await create({ title: unique('Search slow'), labels: { platform: 'osx' } });
    const byId = await send('GET', `/v1/incidents/${created.id}`);
    assert.equal(byId.status, 200);
    assert.deepEqual(byId.body.data, created);
    assert.deepEqual((await send('GET', `/v1/incidents/${created.attributes.slug}`)).body.data, created);
    assert.equal((await send('GET', `/v1/incidents/${created.id}`, undefined, other.token)).status, 404);
    assert.equal((await send('PUT', `/v1/incidents/${created.id}`, incident({ title: 'x' }), other.token)).status, 404);
    assert.equal((await send('PUT', `/v1/incidents/${created.id}/mitigate`, incident({}), other.token)).status, 404);
    assert.equal((await send('DELETE', `/v1/incidents/${created.id}`, undefined, other.token)).status, 404);

    const updated = await send('PUT', `/v1/incidents/${created.id}`, incident({ summary: 'Index rebuild', labels: { platform: 'linux' } }));
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.equal(updated.body.data.attributes.summary, 'Index rebuild');
    assert.deepEqual(updated.body.data.attributes.labels, { platform: 'linux' });
    assert.equal(updated.body.data.attributes.slug, created.attributes.slug, 'slugs stay');
    assert.deepEqual((await outbox(created.id)).map((e) => e.type), ['incident.created', 'incident.updated']);

    const deleted = await send('DELETE', `/v1/incidents/${created.id}`);
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.data.id, created.id);
    assert.equal((await send('GET', `/v1/incidents/${created.id}`)).status, 404);
    assert.deepEqual((await outbox(created.id)).map((e) => e.type), ['incident.created', 'incident.updated', 'incident.deleted']);
  });

  test('20 parallel creates get sequential ids 1..20 without gaps or duplicates', async () => {
    const own = await api.newOrganization();
    const results = await Promise.all(Array.from({ length: 20 }, () => send('POST', '/v1/incidents', incident({ title: 'Same title' }), own.token)));
    assert.deepEqual(results.map((r) => r.status), Array(20).fill(201));
    const sequential = results.map((r) => r.body.data.attributes.sequential_id as number).sort((x, y) => x - y);
    assert.deepEqual(sequential, Array.from({ length: 20 }, (_, i) => i + 1));
    assert.equal(new Set(results.map((r) => r.body.data.attributes.slug)).size, 20, 'slugs are unique too');
  });

  test('relationship ids must exist in the organization: 422 naming the attribute and the id; records are embedded', async () => {
    const severity = await taxonomy('/v1/severities', 'severities');
    const service = await taxonomy('/v1/services', 'services');
    const environment = await taxonomy('/v1/environments', 'environments');
    const functionality = await taxonomy('/v1/functionalities', 'functionalities');
    const cause = await taxonomy('/v1/causes', 'causes');
    const type = await taxonomy('/v1/incident_types', 'incident_types');
    const team = await taxonomy('/v1/teams', 'groups');
    const foreign = await taxonomy('/v1/services', 'services', unique('theirs'), other.token);
    const missing = randomUUID();

    const refused = await send('POST', '/v1/incidents', incident({ severity_id: missing, service_ids: [service.id, foreign.id], group_ids: ['not-a-uuid'] }));
    assert.equal(refused.status, 422);
    assert.deepEqual(
      refused.body.errors.map((e: { source: { pointer: string }; detail: string }) => [e.source.pointer, e.detail]),
      [
        ['/data/attributes/severity_id', `severity_id: ${missing} is not a severity of this organization`],
        ['/data/attributes/service_ids/1', `service_ids[1]: ${foreign.id} is not a service of this organization`],
        ['/data/attributes/group_ids/0', 'group_ids[0]: not-a-uuid is not a team of this organization'],
      ],
    );

    const created = await create({
      severity_id: severity.id,
      service_ids: [service.id],
      environment_ids: [environment.id],
      functionality_ids: [functionality.id],
      cause_ids: [cause.id],
      incident_type_ids: [type.id],
      group_ids: [team.id],
    });
    const a = created.attributes;
    assert.deepEqual(a.severity, { data: { id: severity.id, type: 'severities', attributes: severity.attributes } });
    assert.deepEqual((a.services as { data: { id: string } }[]).map((s) => s.data.id), [service.id]);
    assert.deepEqual((a.environments as { data: { id: string } }[]).map((s) => s.data.id), [environment.id]);
    assert.deepEqual((a.functionalities as { data: { id: string } }[]).map((s) => s.data.id), [functionality.id]);
    assert.deepEqual((a.incident_types as { data: { id: string } }[]).map((s) => s.data.id), [type.id]);
    assert.deepEqual((a.groups as { data: { type: string; id: string } }[]).map((s) => [s.data.type, s.data.id]), [['groups', team.id]]);
    assert.deepEqual(a.cause_ids, [cause.id]);
    // No alert exists before the alerting context: any alert id is unknown, like another organization's.
    const alert = await send('POST', '/v1/incidents', incident({ title: 'With an alert', alert_ids: [randomUUID()] }));
    assert.equal(alert.status, 422);
    assert.equal(alert.body.errors[0].source.pointer, '/data/attributes/alert_ids/0');
    assert.match(alert.body.errors[0].detail, /is not an alert of this organization/);

    const update = await send('PUT', `/v1/incidents/${created.id}`, incident({ cause_ids: [missing] }));
    assert.equal(update.status, 422);
    assert.equal(update.body.errors[0].source.pointer, '/data/attributes/cause_ids/0');

    const included = await send('GET', `/v1/incidents/${created.id}?include=causes,services,alerts`);
    assert.equal(included.status, 200);
    assert.deepEqual(included.body.included.map((r: { type: string; id: string }) => `${r.type}/${r.id}`).sort(), [`causes/${cause.id}`, `services/${service.id}`].sort());
    assert.deepEqual(included.body.data.relationships.causes, { data: [{ type: 'causes', id: cause.id }] });
    assert.equal((await send('GET', `/v1/incidents/${created.id}?include=nope`)).status, 400);
  });

  test('every status operation moves through the state machine, stamps, writes the trail and announces', async () => {
    const userId = await api.addUser(org.organizationId, { roleKind: 'admin' });
    const personal = await api.issueApiKey(org.organizationId, { kind: 'personal', userId });
    const created = await create({ title: unique('Lifecycle') });
    const op = (name: string, attributes?: Attributes, token = personal) => send('PUT', `/v1/incidents/${created.id}/${name}`, attributes ? incident(attributes) : undefined, token);

    const mitigated = await op('mitigate', { mitigation_message: 'Rolled back' });
    assert.equal(mitigated.status, 200, JSON.stringify(mitigated.body));
    let a = mitigated.body.data.attributes;
    assert.equal(a.status, 'mitigated');
    assert.ok(a.mitigated_at);
    assert.equal(a.mitigation_message, 'Rolled back');
    assert.equal(a.mitigated_by.data.id, String(userId), 'mitigated_by is the acting user');

    const resolved = await op('resolve', { resolution_message: 'Fixed' });
    a = resolved.body.data.attributes;
    assert.equal(a.status, 'resolved');
    assert.ok(a.resolved_at);
    assert.equal(a.resolution_message, 'Fixed');
    assert.equal(a.resolved_by.data.id, String(userId));

    // Forbidden: resolved incidents are restarted first; nothing changes.
    const refused = await op('mitigate', { mitigation_message: 'again' });
    assert.equal(refused.status, 422);
    assert.equal(refused.body.errors[0].detail, 'An incident that is resolved cannot be mitigated; restart it first');
    assert.deepEqual((await send('GET', `/v1/incidents/${created.id}`)).body.data, resolved.body.data, 'a refused move changes nothing');

    const restarted = await op('restart', {});
    a = restarted.body.data.attributes;
    assert.equal(a.status, 'started');
    assert.equal(a.resolved_at, null);
    assert.equal(a.mitigated_at, null);
    assert.equal(a.resolution_message, null, 'an outcome message goes with its outcome');

    const triaged = await op('in_triage');
    assert.equal(triaged.status, 200, JSON.stringify(triaged.body));
    assert.equal(triaged.body.data.attributes.status, 'in_triage');
    assert.equal(triaged.body.data.attributes.in_triage_by.data.id, String(userId));

    // An organization key without a user: *_by is null.
    const keyWithoutUser = await api.issueApiKey(org.organizationId, { kind: 'global' });
    const cancelled = await op('cancel', { cancellation_message: 'False alarm' }, keyWithoutUser);
    a = cancelled.body.data.attributes;
    assert.equal(a.status, 'cancelled');
    assert.equal(a.cancellation_message, 'False alarm');
    assert.equal(a.cancelled_by, null);

    // Repeating an operation is a no-op: 200, nothing announced.
    const before = (await outbox(created.id)).length;
    assert.equal((await op('cancel', {}, org.token)).status, 200);
    assert.equal((await outbox(created.id)).length, before);

    const types = (await outbox(created.id)).map((e) => e.type);
    assert.deepEqual(types, [
      'incident.created',
      'incident.updated', 'incident.mitigated',
      'incident.updated', 'incident.resolved',
      'incident.updated', 'incident.restarted',
      'incident.updated', 'incident.in_triage',
      'incident.updated', 'incident.cancelled',
    ]);
    const events = await timeline(created.id);
    assert.deepEqual(events.map((e) => [e.attributes.kind, e.attributes.event]), [
      ['status_change', 'Status changed from started to mitigated: Rolled back'],
      ['status_change', 'Status changed from mitigated to resolved: Fixed'],
      ['status_change', 'Status changed from resolved to started'],
      ['status_change', 'Status changed from started to in_triage'],
      ['status_change', 'Status changed from in_triage to cancelled: False alarm'],
    ]);
    const trailEvents = await api.runtime.dataSource.query("SELECT count(*)::int AS n FROM outbox WHERE event->>'type' = 'incident_event.created' AND event->'payload'->>'incident_id' = $1", [created.id]);
    assert.equal(trailEvents[0].n, 5, 'each timeline line is announced as incident_event.created');
  });

  test('setting status through PUT is the same move: same stamps, events and refusals', async () => {
    const created = await create();
    const put = (attributes: Attributes) => send('PUT', `/v1/incidents/${created.id}`, incident(attributes));
    const mitigated = await put({ status: 'mitigated', mitigation_message: 'Feature flag off' });
    assert.equal(mitigated.status, 200, JSON.stringify(mitigated.body));
    assert.ok(mitigated.body.data.attributes.mitigated_at);
    const closed = await put({ status: 'closed' });
    assert.equal(closed.status, 422);
    assert.equal(closed.body.errors[0].detail, 'An incident that is mitigated cannot be closed; resolve it first');
    assert.equal(closed.body.errors[0].source.pointer, '/data/attributes/status');
    const scheduled = await put({ status: 'in_progress', title: 'must not be stored' });
    assert.equal(scheduled.status, 422);
    assert.equal((await send('GET', `/v1/incidents/${created.id}`)).body.data.attributes.title, created.attributes.title, 'nothing changed');
    assert.deepEqual((await outbox(created.id)).map((e) => e.type), ['incident.created', 'incident.updated', 'incident.mitigated']);
    assert.deepEqual((await timeline(created.id)).map((e) => e.attributes.event), ['Status changed from started to mitigated']);
  });

  test('scheduled maintenances start scheduled and follow their own lifecycle', async () => {
    const maintenance = await create({ kind: 'scheduled', title: unique('DB upgrade') });
    assert.equal(maintenance.attributes.status, 'scheduled');
    assert.equal(maintenance.attributes.started_at, null);
    const refused = await send('PUT', `/v1/incidents/${maintenance.id}/resolve`, incident({}));
    assert.equal(refused.status, 422);
    assert.match(refused.body.errors[0].detail, /put it in progress first/);
    assert.equal((await send('PUT', `/v1/incidents/${maintenance.id}`, incident({ status: 'in_progress' }))).status, 200);
    const completed = await send('PUT', `/v1/incidents/${maintenance.id}/resolve`, incident({}));
    assert.equal(completed.body.data.attributes.status, 'completed');
    assert.deepEqual((await outbox(maintenance.id)).map((e) => e.type).slice(-2), ['incident.updated', 'incident.completed']);
    const wrong = await send('POST', '/v1/incidents', incident({ kind: 'scheduled', status: 'mitigated' }));
    assert.equal(wrong.status, 422);
    assert.equal(wrong.body.errors[0].source.pointer, '/data/attributes/status');
  });
});
