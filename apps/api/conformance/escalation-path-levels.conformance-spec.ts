import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startTestApi, type TestApi, type TestOrganization, type TestResponse } from '../src/testing';
import { validateAgainstReference } from '../test/support/openapi-ajv';

/**
 * A path's levels against the REFERENCE document (createEscalationLevelPaths,
 * listEscalationLevelsPaths: routes of their own beside the generic level routes that
 * reference.conformance-spec.ts walks): a reference-valid `new_escalation_policy_level` is
 * accepted and answers `escalation_policy_level_response`, the list `escalation_policy_level_list`,
 * a missing path `errors_list`.
 */
describe("a path's escalation levels conform to the reference", () => {
  let api: TestApi;
  let org: TestOrganization;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
  });
  after(() => api?.close());

  const send = (method: string, url: string, type?: string, attributes?: Record<string, unknown>) =>
    api.request(method, url, { token: org.token, body: type ? { data: { type, attributes } } : undefined });
  const check = (res: TestResponse, status: number, schema: string, what: string) => {
    assert.equal(res.status, status, `${what}: ${JSON.stringify(res.body)}`);
    validateAgainstReference(schema, res.body, what);
  };

  test('create and list under a path answer the level documents; a missing path answers errors_list', async () => {
    const policy = (await send('POST', '/v1/escalation_policies', 'escalation_policies', { name: `Policy ${randomUUID()}` })).body.data.id;
    const path = (await send('POST', `/v1/escalation_policies/${policy}/escalation_paths`, 'escalation_paths', { name: 'Primary' })).body.data.id;
    const user = await api.addUser(org.organizationId, { roleKind: 'user' });
    const attributes = {
      position: 1,
      delay: 5,
      escalation_policy_path_id: path,
      notification_target_params: [{ id: String(user), type: 'user', team_members: null }],
      paging_strategy_configuration_strategy: 'random',
      paging_strategy_configuration_schedule_strategy: 'everyone',
    };
    validateAgainstReference('new_escalation_policy_level', { data: { type: 'escalation_levels', attributes } }, 'the request');
    check(await send('POST', `/v1/escalation_paths/${path}/escalation_levels`, 'escalation_levels', attributes), 201, 'escalation_policy_level_response', 'POST a path level');
    check(await send('GET', `/v1/escalation_paths/${path}/escalation_levels`), 200, 'escalation_policy_level_list', 'GET a path levels');
    check(await send('GET', `/v1/escalation_paths/${randomUUID()}/escalation_levels`), 404, 'errors_list', 'GET a missing path levels');
    check(await send('POST', `/v1/escalation_paths/${path}/escalation_levels`, 'escalation_levels', { position: 2 }), 422, 'errors_list', 'POST without targets');
  });
});
