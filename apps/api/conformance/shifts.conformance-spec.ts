import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { startTestApi, type TestApi, type TestOrganization, type TestResponse } from '../src/testing';
import { weeklySchedule } from '../test/support/schedules';
import { validateAgainstReference } from '../test/support/openapi-ajv';

const DAY = 24 * 3_600_000;

/**
 * Shifts against the REFERENCE document: `GET /v1/shifts` (with every include value the
 * reference declares) and `GET /v1/schedules/{id}/shifts` answer `shift_list`, an override's and
 * a shadow's shifts included; a missing schedule answers `errors_list`.
 */
describe('shifts conform to the reference', () => {
  let api: TestApi;
  let org: TestOrganization;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
  });
  after(() => api?.close());

  const get = (path: string) => api.request('GET', path, { token: org.token });
  const post = (path: string, type: string, attributes: Record<string, unknown>) => api.request('POST', path, { token: org.token, body: { data: { type, attributes } } });
  const check = (res: TestResponse, status: number, schema: string, what: string) => {
    assert.equal(res.status, status, `${what}: ${JSON.stringify(res.body)}`);
    validateAgainstReference(schema, res.body, what);
  };

  test('the shift lists answer shift_list, with overrides, shadows and every include', async () => {
    const [alice, bob] = [await api.addUser(org.organizationId, { roleKind: 'user' }), await api.addUser(org.organizationId, { roleKind: 'user' })];
    const { scheduleId } = await weeklySchedule(api, org.token, { members: [alice, bob], owner: alice });
    const from = Math.ceil((Date.now() + 7 * DAY) / DAY) * DAY;
    const at = (days: number) => new Date(from + days * DAY).toISOString();
    assert.equal((await post(`/v1/schedules/${scheduleId}/override_shifts`, 'shifts', { starts_at: at(2), ends_at: at(3), user_id: bob })).status, 201);
    const shadow = await post(`/v1/schedules/${scheduleId}/on_call_shadows`, 'on_call_shadows', { shadowable_type: 'User', shadowable_id: String(alice), shadow_user_id: bob, starts_at: at(0), ends_at: at(14) });
    assert.equal(shadow.status, 201, JSON.stringify(shadow.body));

    const window = `from=${at(0)}&to=${at(21)}`;
    const all = await get(`/v1/shifts?${window}&include=shift_override,user,assignee,shift_shadow&page[size]=100`);
    check(all, 200, 'shift_list', 'GET /v1/shifts');
    const shifts = all.body.data as { attributes: { is_override: boolean; is_shadow: boolean } }[];
    assert.ok(shifts.some((s) => s.attributes.is_override) && shifts.some((s) => s.attributes.is_shadow), 'an override and a shadow among them');
    assert.ok(all.body.included.length > 0);

    check(await get(`/v1/schedules/${scheduleId}/shifts?${window}`), 200, 'shift_list', `GET /v1/schedules/${scheduleId}/shifts`);
    check(await get(`/v1/schedules/00000000-0000-4000-8000-000000000000/shifts`), 404, 'errors_list', 'a missing schedule');
  });
});
