import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ianaZoneOf } from '@taproot/config';
import { IANAZone } from 'luxon';
import { startTestApi, type TestApi, type TestOrganization, type TestResponse } from '../src/testing';
import { referenceValidator, validateAgainstReference } from '../test/support/openapi-ajv';

type Resource = { id: string; type: string; attributes: Record<string, unknown> };

/**
 * listEscalationPolicies and getEscalationPolicy with every value of the reference's `include`
 * enum and its `filter[team_ids]` (reference.conformance-spec.ts walks the plain routes): the
 * answers are `escalation_policy_list` and `escalation_policy_response`, and each included record
 * has the attributes of its own reference schema (levels `escalation_policy_level`, paths
 * `escalation_policy_path`, teams `team`, services `service`). And every time zone name of the
 * reference's enums (Rails and IANA names) is taken where it lists them and answered as sent.
 */
describe('escalation policies with include and filter[team_ids] conform to the reference', () => {
  let api: TestApi;
  let org: TestOrganization;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
  });
  after(() => api?.close());

  const post = async (path: string, type: string, attributes: Record<string, unknown>) => {
    const res = await api.request('POST', path, { token: org.token, body: { data: { type, attributes } } });
    assert.equal(res.status, 201, `${path}: ${JSON.stringify(res.body)}`);
    return res.body.data.id as string;
  };
  const get = async (url: string) => {
    const res = await api.request('GET', url, { token: org.token });
    assert.equal(res.status, 200, `${url}: ${JSON.stringify(res.body)}`);
    return res;
  };
  const SCHEMA_OF: Record<string, string> = { escalation_levels: 'escalation_policy_level', escalation_paths: 'escalation_policy_path', groups: 'team', services: 'service' };
  const includedConform = (res: TestResponse, what: string) => {
    assert.deepEqual([...new Set((res.body.included as Resource[]).map((r) => r.type))].sort(), Object.keys(SCHEMA_OF).sort(), what);
    for (const r of res.body.included as Resource[]) validateAgainstReference(SCHEMA_OF[r.type], r.attributes, `${what}: included ${r.type} ${r.id}`);
  };

  test('every include on the list (with filter[team_ids]) and the get answers the policy documents', async () => {
    const user = await api.addUser(org.organizationId, { roleKind: 'user' });
    const team = await post('/v1/teams', 'groups', { name: `Team ${randomUUID()}` });
    const service = await post('/v1/services', 'services', { name: `Service ${randomUUID()}` });
    const policy = await post('/v1/escalation_policies', 'escalation_policies', { name: `Policy ${randomUUID()}`, group_ids: [team], service_ids: [service] });
    await post(`/v1/escalation_policies/${policy}/escalation_paths`, 'escalation_paths', { name: 'Default', default: true });
    await post(`/v1/escalation_policies/${policy}/escalation_levels`, 'escalation_levels', { delay: 0, notification_target_params: [{ id: String(user), type: 'user' }] });
    const include = 'include=escalation_policy_levels,escalation_policy_paths,groups,services';

    for (const filter of [`filter[team_ids]=${team}`, `filter[team_ids][eq]=${team}`, `filter[team_ids][in]=${team}`]) {
      const list = await get(`/v1/escalation_policies?${filter}&${include}`);
      assert.deepEqual(list.body.data.map((d: Resource) => d.id), [policy], filter);
      validateAgainstReference('escalation_policy_list', list.body, `GET /v1/escalation_policies?${filter}&include=...`);
      includedConform(list, filter);
    }
    for (const filter of [`filter[team_ids][not_eq]=${team}`, `filter[team_ids][not_in]=${team}`]) {
      const none = await get(`/v1/escalation_policies?${filter}&${include}`);
      assert.deepEqual(none.body.data, [], filter);
      validateAgainstReference('escalation_policy_list', none.body, `GET /v1/escalation_policies?${filter}`);
    }

    const one = await get(`/v1/escalation_policies/${policy}?${include}`);
    validateAgainstReference('escalation_policy_response', one.body, 'GET /v1/escalation_policies/{id}?include=...');
    includedConform(one, 'get');

    const bad = await api.request('GET', `/v1/escalation_policies/${policy}?include=owners`, { token: org.token });
    assert.equal(bad.status, 400);
    validateAgainstReference('errors_list', bad.body, 'GET /v1/escalation_policies/{id}?include=owners');
  });

  test("every time zone name of the reference's enums (Rails and IANA names) is taken on business_hours, time_restriction_time_zone and a deferral window, answered as sent, and denotes a zone Luxon knows", async () => {
    const schemas = referenceValidator().document.components?.schemas as Record<string, { properties: Record<string, { properties?: Record<string, { enum?: string[] }>; enum?: string[]; items?: { oneOf: { properties: Record<string, { enum?: string[] }> }[] } }> }>;
    const hoursZones = schemas.escalation_policy.properties.business_hours.properties!.time_zone.enum!;
    const pathZones = schemas.escalation_policy_path.properties.time_restriction_time_zone.enum!;
    const windowZones = schemas.escalation_policy_path.properties.rules.items!.oneOf.map((rule) => rule.properties.time_zone?.enum).find(Boolean)!;
    assert.ok(hoursZones.includes('International Date Line West') && hoursZones.includes('Etc/UTC'), 'the enum mixes Rails and IANA names');
    for (const zones of [pathZones, windowZones]) assert.deepEqual(zones, hoursZones);
    for (const name of hoursZones) assert.ok(IANAZone.isValidZone(ianaZoneOf(name) ?? ''), `${name} denotes no zone Luxon knows`);

    const put = async (url: string, type: string, attributes: Record<string, unknown>) => {
      const res = await api.request('PUT', url, { token: org.token, body: { data: { type, attributes } } });
      assert.equal(res.status, 200, `${url} ${JSON.stringify(attributes)}: ${JSON.stringify(res.body)}`);
      return res.body.data.attributes as Record<string, unknown>;
    };
    const policy = await post('/v1/escalation_policies', 'escalation_policies', { name: `Policy ${randomUUID()}` });
    const path = await post(`/v1/escalation_policies/${policy}/escalation_paths`, 'escalation_paths', { name: 'Nights', path_type: 'deferral', after_deferral_behavior: 're_evaluate' });
    for (const name of hoursZones) {
      const hours = { days: ['M'], start_time: '09:00', end_time: '17:00', time_zone: name };
      assert.deepEqual((await put(`/v1/escalation_policies/${policy}`, 'escalation_policies', { business_hours: hours })).business_hours, hours, name);
      const window = { rule_type: 'deferral_window', time_zone: name, time_blocks: [{ monday: true, start_time: '22:00', end_time: '06:00' }] };
      const answered = await put(`/v1/escalation_paths/${path}`, 'escalation_paths', { time_restriction_time_zone: name, rules: [window] });
      assert.deepEqual([answered.time_restriction_time_zone, answered.rules], [name, [window]], name);
    }
  });
});
