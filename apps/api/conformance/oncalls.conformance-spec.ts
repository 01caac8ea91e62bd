import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { startTestApi, type TestApi, type TestOrganization } from '../src/testing';
import { weeklySchedule } from '../test/support/schedules';
import { validateAgainstReference } from '../test/support/openapi-ajv';

/** `GET /v1/oncalls` against the REFERENCE document: `oncall_list`, with every include the reference declares. */
describe('on-calls conform to the reference', () => {
  let api: TestApi;
  let org: TestOrganization;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
  });
  after(() => api?.close());

  test('a schedule level and a user level answer oncall_list', async () => {
    const post = (path: string, type: string, attributes: Record<string, unknown>) => api.request('POST', path, { token: org.token, body: { data: { type, attributes } } });
    const user = await api.addUser(org.organizationId, { roleKind: 'user' });
    const { scheduleId } = await weeklySchedule(api, org.token, { members: [user], owner: user });
    const policy = (await post('/v1/escalation_policies', 'escalation_policies', { name: 'Conformance' })).body.data.id;
    await post(`/v1/escalation_policies/${policy}/escalation_paths`, 'escalation_paths', { name: 'Default', default: true });
    await post(`/v1/escalation_policies/${policy}/escalation_levels`, 'escalation_levels', { delay: 0, notification_target_params: [{ id: scheduleId, type: 'schedule' }, { id: String(user), type: 'user' }] });
    const since = new Date(Date.now() + 8 * 24 * 3_600_000).toISOString();
    const res = await api.request('GET', `/v1/oncalls?since=${since}&include=user,schedule,escalation_policy`, { token: org.token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.ok(res.body.data.length >= 2);
    validateAgainstReference('oncall_list', res.body, 'GET /v1/oncalls');
  });
});
