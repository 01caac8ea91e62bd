import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startTestApi, type TestApi, type TestOrganization, type TestResponse } from '../src/testing';
import { referenceValidator, sampleFromSchema, validateAgainstReference, type JsonSchema } from '../test/support/openapi-ajv';

/**
 * Incidents and their timelines against the REFERENCE document: every response Taproot gives on
 * these routes is validated against the reference's `incident_response` / `incident_list` /
 * `incident_event_response` / `incident_event_list` (or `errors_list`), and the reference's
 * request documents (`new_incident`, `update_incident`, the operations' bodies) are accepted.
 *
 * The generic harness (reference.conformance-spec.ts) does not fit: an incident has no `name`,
 * its relationship ids must name records of the organization, its times must be date-times and
 * its status must be a move the lifecycle allows. The generated documents are filled with such
 * values (`pick`); every other attribute keeps the generator's value.
 */
/**
 * Null values the reference cannot validate although it declares them nullable: `severity` is
 * `nullable` beside an `allOf` of severity_response, and in OpenAPI 3.0.3 `nullable` does not
 * relax the `allOf`. Taproot answers `severity: null` for an incident without one (as the
 * reference's `nullable` says); the check validates the rest of such a document.
 */
const NULL_GAPS = ['severity'];

function withoutNullGaps(body: unknown): unknown {
  const copy = structuredClone(body) as { data?: unknown };
  const records = Array.isArray(copy?.data) ? copy.data : copy?.data ? [copy.data] : [];
  for (const record of records as { type?: string; attributes?: Record<string, unknown> }[]) {
    if (record.type !== 'incidents' || !record.attributes) continue;
    for (const name of NULL_GAPS) if (record.attributes[name] === null) delete record.attributes[name];
  }
  return copy;
}

describe('incidents conform to the reference', () => {
  let api: TestApi;
  let org: TestOrganization;
  const refs: Record<string, string> = {};
  let userId = '';
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
    for (const [path, type, attribute] of [
      ['/v1/severities', 'severities', 'severity_id'],
      ['/v1/services', 'services', 'service_ids'],
      ['/v1/environments', 'environments', 'environment_ids'],
      ['/v1/functionalities', 'functionalities', 'functionality_ids'],
      ['/v1/causes', 'causes', 'cause_ids'],
      ['/v1/incident_types', 'incident_types', 'incident_type_ids'],
      ['/v1/teams', 'groups', 'group_ids'],
    ]) {
      const res = await send('POST', path, { data: { type, attributes: { name: `${type} ${randomUUID().slice(0, 8)}` } } });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      refs[attribute] = res.body.data.id;
    }
    userId = String(await api.addUser(org.organizationId, { roleKind: 'admin' }));
  });
  after(() => api?.close());

  const send = (method: string, path: string, body?: unknown) => api.request(method, path, { token: org.token, body });
  const check = (res: TestResponse, status: number, schema: string, what: string) => {
    assert.equal(res.status, status, `${what}: ${JSON.stringify(res.body)}`);
    validateAgainstReference(schema, withoutNullGaps(res.body), what);
  };

  /** A reference-valid request document of `schemaName`, with values Taproot can store. */
  const document = (schemaName: string, values: Record<string, unknown> = {}, options: { nulls?: boolean } = {}) => {
    const ref = referenceValidator();
    const doc = sampleFromSchema(ref, ref.schema(schemaName), {
      ...options,
      pick: (pointer: string, schema: JsonSchema) => {
        const m = /^\/data\/attributes\/([^/]+)$/.exec(pointer);
        if (!m) return undefined;
        const name = m[1];
        if (Object.hasOwn(values, name)) return values[name];
        if (options.nulls && schema.nullable === true) return undefined;
        if (Object.hasOwn(refs, name)) return name.endsWith('_ids') ? [refs[name]] : refs[name];
        if (name.endsWith('_at') || name.startsWith('scheduled_')) return '2026-01-02T03:04:05.000Z';
        if (name === 'muted_service_ids') return [refs.service_ids];
        // No alert exists yet (alerting is a later issue): an alert id would be refused as unknown.
        if (name === 'alert_ids') return [];
        if (name === 'user_id') return userId;
        return undefined;
      },
    });
    ref.assertValid(schemaName, doc, `generated ${schemaName}`);
    return doc;
  };
  // Links between incidents must name existing ones; the lifecycle decides the status (tested elsewhere).
  const plain = { parent_incident_id: null, duplicate_incident_id: null, kind: 'normal', status: 'started', private: false };

  test('a new_incident with every reference attribute is accepted (201) and every read answers incident_response', async () => {
    const created = await send('POST', '/v1/incidents', document('new_incident', plain));
    check(created, 201, 'incident_response', 'POST /v1/incidents');
    const a = created.body.data.attributes;
    assert.equal(a.severity.data.id, refs.severity_id);
    assert.equal(a.services[0].data.id, refs.service_ids);
    check(await send('GET', `/v1/incidents/${created.body.data.id}`), 200, 'incident_response', 'GET /v1/incidents/{id}');
    check(await send('GET', `/v1/incidents/${a.slug}?include=services,causes,groups,subscribers,events,alerts`), 200, 'incident_response', 'GET by slug with include');
  });

  test('nullable attributes null, and only the required ones, are accepted', async () => {
    check(await send('POST', '/v1/incidents', document('new_incident', { kind: null, private: null, status: 'started' }, { nulls: true })), 201, 'incident_response', 'POST with nulls');
    check(await send('POST', '/v1/incidents', { data: { type: 'incidents', attributes: {} } }), 201, 'incident_response', 'POST with no attribute (title generated)');
  });

  test('every kind and status the reference lists is accepted where the lifecycle allows it', async () => {
    const ref = referenceValidator();
    const attributes = (ref.resolve((ref.resolve(ref.schema('new_incident')).properties as Record<string, JsonSchema>).data).properties as Record<string, JsonSchema>).attributes;
    const props = ref.resolve(attributes).properties as Record<string, JsonSchema>;
    for (const kind of props.kind.enum as string[]) {
      const res = await send('POST', '/v1/incidents', { data: { type: 'incidents', attributes: { kind } } });
      check(res, 201, 'incident_response', `POST kind=${kind}`);
    }
    for (const status of props.status.enum as string[]) {
      const kind = ['scheduled', 'in_progress', 'completed'].includes(status) ? 'scheduled' : 'normal';
      check(await send('POST', '/v1/incidents', { data: { type: 'incidents', attributes: { kind, status } } }), 201, 'incident_response', `POST status=${status}`);
    }
  });

  test('update_incident documents and every operation answer incident_response', async () => {
    const created = await send('POST', '/v1/incidents', { data: { type: 'incidents', attributes: { title: 'ops' } } });
    const id = created.body.data.id;
    const other = (await send('POST', '/v1/incidents', { data: { type: 'incidents', attributes: {} } })).body.data.id;
    check(await send('PUT', `/v1/incidents/${id}`, document('update_incident', { ...plain, status: null, private: null, kind: null })), 200, 'incident_response', 'PUT every attribute');
    check(await send('PUT', `/v1/incidents/${id}`, document('update_incident', { status: null, private: null, kind: null }, { nulls: true })), 200, 'incident_response', 'PUT nulls');
    check(await send('PUT', `/v1/incidents/${id}`, { data: { type: 'incidents', attributes: {} } }), 200, 'incident_response', 'PUT nothing');
    const role = (await send('POST', '/v1/incident_roles', { data: { type: 'incident_roles', attributes: { name: `Lead ${randomUUID().slice(0, 8)}` } } })).body.data.id;
    const steps: [string, string, unknown][] = [
      ['PUT', 'mitigate', document('mitigate_incident')],
      ['PUT', 'resolve', document('resolve_incident')],
      ['PUT', 'restart', document('restart_incident')],
      ['PUT', 'in_triage', document('in_triage_incident')],
      ['PUT', 'cancel', document('cancel_incident')],
      ['PUT', 'restart', { data: { type: 'incidents' } }],
      ['PUT', 'duplicate', { data: { type: 'incidents', attributes: { duplicate_incident_id: other, resolution_message: 'same' } } }],
      ['PUT', 'unmark_as_duplicate', undefined],
      ['POST', 'add_subscribers', document('add_subscribers', { user_ids: [userId] })],
      ['DELETE', 'remove_subscribers', document('remove_subscribers', { user_ids: [userId] })],
      ['POST', 'assign_role_to_user', document('assign_role_to_user', { incident_role_id: role, user_id: userId })],
      ['DELETE', 'unassign_role_from_user', document('unassign_role_from_user', { incident_role_id: role, user_id: userId })],
    ];
    for (const [method, op, body] of steps) check(await send(method, `/v1/incidents/${id}/${op}`, body), 200, 'incident_response', `${method} ${op}`);
    await send('PUT', `/v1/incidents/${id}`, { data: { type: 'incidents', attributes: { parent_incident_id: other } } });
    check(await send('PUT', `/v1/incidents/${id}/detach_from_parent`), 200, 'incident_response', 'PUT detach_from_parent');
    check(await send('PUT', `/v1/incidents/${id}/detach_from_parent`), 422, 'errors_list', 'detach without a parent');
    check(await send('PUT', `/v1/incidents/${id}/mitigate`, { data: { type: 'incidents', attributes: { mitigation_message: 1 } } }), 422, 'errors_list', 'a wrongly typed message');
    check(await send('DELETE', `/v1/incidents/${id}`), 200, 'incident_response', 'DELETE');
    check(await send('GET', `/v1/incidents/${id}`), 404, 'errors_list', 'GET after DELETE');
  });

  test('lists answer incident_list: pages, cursors, filters, include', async () => {
    for (let i = 0; i < 3; i++) await send('POST', '/v1/incidents', document('new_incident', plain));
    check(await send('GET', '/v1/incidents'), 200, 'incident_list', 'GET /v1/incidents');
    const page = await send('GET', '/v1/incidents?page[size]=2&page[number]=2&include=services,environments');
    check(page, 200, 'incident_list', 'page 2 with include');
    const first = await send('GET', '/v1/incidents?page[size]=2');
    check(await send('GET', `/v1/incidents?page[size]=2&page[after]=${encodeURIComponent(first.body.meta.next_cursor)}`), 200, 'incident_list', 'cursor page');
    check(await send('GET', '/v1/incidents?filter[status]=started&filter[services]=none&filter[labels]=a:b'), 200, 'incident_list', 'filtered to nothing');
    check(await send('GET', '/v1/incidents?filter[created_at][gte]=tomorrow'), 400, 'errors_list', 'a malformed date filter');
  });

  test('every filter the reference declares for GET /v1/incidents is served (200, incident_list)', async () => {
    // Custom fields do not exist yet (docs/incidents.md): their filter is the one not served.
    const NOT_SERVED = /^filter\[custom_field_selected_option_ids\]/;
    const list = referenceValidator().document.paths['/v1/incidents'].get as { parameters: { name: string }[] };
    const params = list.parameters.map((p) => p.name);
    const filters = params.filter((name) => name.startsWith('filter[') && !NOT_SERVED.test(name));
    assert.ok(filters.length > 100, `the reference declares ${filters.length} incident filters`);
    const valueOf = (name: string): string => {
      const attribute = /^filter\[([^\]]+)\]/.exec(name)![1];
      const many = /\[(in|not_in)\]$/.test(name);
      const one = (() => {
        if (attribute.endsWith('_at')) return '2026-01-01T00:00:00Z';
        if (attribute.endsWith('_ids') || attribute === 'severity_id') return randomUUID();
        const values: Record<string, string> = { status: 'started', kind: 'normal', private: 'false', user_id: '1', sequential_id: '1', labels: 'team:payments' };
        return values[attribute] ?? 'anything';
      })();
      return many ? `${one},${one}` : one;
    };
    const refused: string[] = [];
    for (const name of filters) {
      const res = await send('GET', `/v1/incidents?${encodeURIComponent(name)}=${encodeURIComponent(valueOf(name))}`);
      if (res.status !== 200) refused.push(`${name} -> ${res.status} ${JSON.stringify(res.body.errors?.[0]?.detail ?? '')}`);
      else validateAgainstReference('incident_list', withoutNullGaps(res.body), `GET /v1/incidents?${name}`);
    }
    assert.deepEqual(refused, []);
  });

  test('timeline events answer incident_event_response and incident_event_list', async () => {
    const id = (await send('POST', '/v1/incidents', { data: { type: 'incidents', attributes: {} } })).body.data.id;
    const created = await send('POST', `/v1/incidents/${id}/events`, document('new_incident_event'));
    check(created, 201, 'incident_event_response', 'POST /v1/incidents/{id}/events');
    const eventId = created.body.data.id;
    await send('PUT', `/v1/incidents/${id}/mitigate`, { data: { type: 'incidents', attributes: {} } });
    check(await send('GET', `/v1/incidents/${id}/events`), 200, 'incident_event_list', 'GET /v1/incidents/{id}/events');
    check(await send('GET', `/v1/events/${eventId}`), 200, 'incident_event_response', 'GET /v1/events/{id}');
    check(await send('PUT', `/v1/events/${eventId}`, document('update_incident_event', { visibility: 'internal' })), 200, 'incident_event_response', 'PUT /v1/events/{id}');
    check(await send('DELETE', `/v1/events/${eventId}`), 200, 'incident_event_response', 'DELETE /v1/events/{id}');
    check(await send('GET', `/v1/events/${eventId}`), 404, 'errors_list', 'GET after DELETE');
    check(await send('POST', `/v1/incidents/${id}/events`, { data: { type: 'incident_events', attributes: {} } }), 422, 'errors_list', 'POST without event');
  });
});
