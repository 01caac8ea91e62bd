import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startTestApi, type TestApi, type TestOrganization } from '../src/testing';
import { created, errorCodes, ids, outboxTypes, pointers, unique } from './support/json-api';

type Attributes = Record<string, unknown>;
const doc = (type: string, attributes: Attributes) => ({ data: { type, attributes } });
const override = (attributes: Attributes) => doc('shifts', attributes);
const shadow = (attributes: Attributes) => doc('on_call_shadows', attributes);
const DAY = { starts_at: '2026-12-01T09:00:00Z', ends_at: '2026-12-01T17:00:00Z' };

describe('override shifts and on-call shadows of a schedule', () => {
  let api: TestApi;
  let org: TestOrganization;
  let other: TestOrganization;
  let alice: number;
  let bob: number;
  let scheduleId: string;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
    other = await api.newOrganization();
    alice = await api.addUser(org.organizationId, { roleKind: 'user', onCallRoleKind: 'user' });
    bob = await api.addUser(org.organizationId, { roleKind: 'user' });
    scheduleId = await newSchedule(org, alice);
  });
  after(() => api?.close());

  const send = (method: string, path: string, body?: unknown, token = org.token) => api.request(method, path, { token, body });
  async function newSchedule(o: TestOrganization, owner: number): Promise<string> {
    return created(await send('POST', '/v1/schedules', doc('schedules', { name: unique('Primary'), owner_user_id: owner }), o.token)).id;
  }
  const overridesOf = (id: string) => `/v1/schedules/${id}/override_shifts`;
  const shadowsOf = (id: string) => `/v1/schedules/${id}/on_call_shadows`;

  test('an override is created and listed under its schedule by start, and read, given to another user and deleted at its own path', async () => {
    const res = await send('POST', overridesOf(scheduleId), override({ user_id: alice, ...DAY }));
    const made = created(res);
    const a = made.attributes;
    assert.equal(made.type, 'shifts');
    assert.deepEqual(
      [a.schedule_id, a.rotation_id, a.starts_at, a.ends_at, a.is_override, a.user_id, a.user.data.id, a.user.data.type],
      [scheduleId, null, '2026-12-01T09:00:00.000Z', '2026-12-01T17:00:00.000Z', true, alice, String(alice), 'users'],
    );
    assert.equal(a.shift_override.data.attributes.created_by_user_id, 1, "the organization key's user created it");
    const earlier = created(await send('POST', overridesOf(scheduleId), override({ user_id: bob, starts_at: '2026-11-30T09:00:00Z', ends_at: '2026-11-30T10:00:00Z' })));
    assert.deepEqual(ids(await send('GET', overridesOf(scheduleId))), [earlier.id, made.id], 'by starts_at');
    assert.deepEqual(ids(await send('GET', `${overridesOf(scheduleId)}?filter[user_id]=${bob}`)), [earlier.id]);
    assert.deepEqual(ids(await send('GET', `${overridesOf(scheduleId)}?filter[starts_at][gte]=2026-12-01T00:00:00Z`)), [made.id]);
    assert.deepEqual((await send('GET', `/v1/override_shifts/${made.id}`)).body.data, made);

    // The reference's update gives the override to another user; its times stay.
    const given = await send('PUT', `/v1/override_shifts/${made.id}`, override({ user_id: bob, starts_at: '2030-01-01T00:00:00Z' }));
    assert.equal(given.status, 200, JSON.stringify(given.body));
    assert.deepEqual([given.body.data.attributes.user_id, given.body.data.attributes.user.data.id, given.body.data.attributes.starts_at], [bob, String(bob), a.starts_at]);
    assert.equal((await send('DELETE', `/v1/override_shifts/${made.id}`)).status, 200);
    assert.equal((await send('GET', `/v1/override_shifts/${made.id}`)).status, 404);
    assert.deepEqual(await outboxTypes(api, made.id), ['override_shift.created', 'override_shift.updated', 'override_shift.deleted']);
  });

  test('an override needs a user of the organization and an end after its start (422 naming the attribute)', async () => {
    const stranger = await api.addUser(other.organizationId, { roleKind: 'user' });
    const cases: [Attributes, string[]][] = [
      [{ starts_at: DAY.starts_at, ends_at: DAY.ends_at }, ['/data/attributes/user_id']],
      [{ user_id: stranger, ...DAY }, ['/data/attributes/user_id']],
      [{ user_id: alice, starts_at: DAY.ends_at, ends_at: DAY.starts_at }, ['/data/attributes/ends_at']],
      [{ user_id: alice, starts_at: DAY.starts_at, ends_at: DAY.starts_at }, ['/data/attributes/ends_at']],
      [{ user_id: alice, starts_at: 'tomorrow', ends_at: DAY.ends_at }, ['/data/attributes/starts_at']],
      [{ user_id: alice, starts_at: DAY.starts_at }, ['/data/attributes/ends_at']],
    ];
    for (const [attributes, expected] of cases) {
      const res = await send('POST', overridesOf(scheduleId), override(attributes));
      assert.equal(res.status, 422, `${JSON.stringify(attributes)}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(pointers(res), expected);
    }
    const wrongType = await send('POST', overridesOf(scheduleId), doc('override_shifts', { user_id: alice, ...DAY }));
    assert.deepEqual(pointers(wrongType), ['/data/type'], "the reference's type is shifts");
  });

  test('overrides follow the schedule_override permissions: the on-call User role creates, updates and withdraws them, and cannot change the schedule', async () => {
    const userKey = await api.issueApiKey(org.organizationId, { kind: 'personal', userId: alice });
    const made = created(await send('POST', overridesOf(scheduleId), override({ user_id: alice, ...DAY }), userKey));
    assert.equal(made.attributes.shift_override.data.attributes.created_by_user_id, alice);
    assert.equal((await send('GET', overridesOf(scheduleId), undefined, userKey)).status, 200);
    assert.equal((await send('PUT', `/v1/override_shifts/${made.id}`, override({ user_id: bob }), userKey)).status, 200);
    assert.equal((await send('DELETE', `/v1/override_shifts/${made.id}`, undefined, userKey)).status, 200);
    const refused = await send('PUT', `/v1/schedules/${scheduleId}`, doc('schedules', { name: 'Mine now' }), userKey);
    assert.equal(refused.status, 403);
    assert.deepEqual(errorCodes(refused), ['403/PERMISSION_DENIED/Forbidden']);
    const rotation = await send('POST', `/v1/schedules/${scheduleId}/schedule_rotations`, doc('schedule_rotations', { name: 'R', schedule_rotationable_type: 'ScheduleDailyRotation', schedule_rotationable_attributes: { handoff_time: '09:00' } }), userKey);
    assert.equal(rotation.status, 403, 'a rotation changes the schedule: update on schedules');
  });

  test('a shadow shadows a user or a schedule of the organization, with an end after its start', async () => {
    const mirrored = await newSchedule(org, bob);
    const ofUser = created(await send('POST', shadowsOf(scheduleId), shadow({ shadowable_type: 'User', shadowable_id: String(alice), shadow_user_id: bob, ...DAY })));
    const ofSchedule = created(await send('POST', shadowsOf(scheduleId), shadow({ shadowable_type: 'Schedule', shadowable_id: mirrored, shadow_user_id: bob, starts_at: '2026-11-01T00:00:00Z', ends_at: '2026-11-02T00:00:00Z' })));
    assert.equal(ofUser.type, 'on_call_shadows');
    assert.deepEqual([ofUser.attributes.schedule_id, ofUser.attributes.shadowable_type, ofUser.attributes.shadowable_id, ofUser.attributes.shadow_user_id], [scheduleId, 'User', String(alice), bob]);
    assert.deepEqual(ids(await send('GET', shadowsOf(scheduleId))), [ofSchedule.id, ofUser.id]);
    assert.deepEqual((await send('GET', `/v1/on_call_shadows/${ofUser.id}`)).body.data, ofUser);
    // update_on_call_shadow names schedule_id: a shadow stays under its schedule.
    const moved = await send('PUT', `/v1/on_call_shadows/${ofUser.id}`, shadow({ schedule_id: mirrored, ends_at: '2026-12-01T18:00:00Z' }));
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.deepEqual([moved.body.data.attributes.schedule_id, moved.body.data.attributes.ends_at], [scheduleId, '2026-12-01T18:00:00.000Z']);
    const cases: [string, Attributes, string][] = [
      ['POST', { shadowable_type: 'User', shadowable_id: '424242', shadow_user_id: bob, ...DAY }, '/data/attributes/shadowable_id'],
      ['POST', { shadowable_type: 'Schedule', shadowable_id: randomUUID(), shadow_user_id: bob, ...DAY }, '/data/attributes/shadowable_id'],
      ['POST', { shadowable_type: 'Team', shadowable_id: String(alice), shadow_user_id: bob, ...DAY }, '/data/attributes/shadowable_type'],
      ['POST', { shadowable_type: 'User', shadowable_id: String(alice), shadow_user_id: 424242, ...DAY }, '/data/attributes/shadow_user_id'],
      ['POST', { shadowable_type: 'User', shadowable_id: String(alice), shadow_user_id: bob, starts_at: DAY.ends_at, ends_at: DAY.starts_at }, '/data/attributes/ends_at'],
      ['PUT', { starts_at: '2026-12-02T00:00:00Z' }, '/data/attributes/starts_at'],
      ['PUT', { shadowable_type: 'Schedule' }, '/data/attributes/shadowable_id'],
    ];
    for (const [method, attributes, pointer] of cases) {
      const res = await send(method, method === 'POST' ? shadowsOf(scheduleId) : `/v1/on_call_shadows/${ofUser.id}`, shadow(attributes));
      assert.equal(res.status, 422, `${method} ${JSON.stringify(attributes)}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(pointers(res), [pointer]);
    }
    assert.equal((await send('DELETE', `/v1/on_call_shadows/${ofSchedule.id}`)).status, 200);
    assert.deepEqual(await outboxTypes(api, ofUser.id), ['on_call_shadow.created', 'on_call_shadow.updated']);
    assert.deepEqual(await outboxTypes(api, ofSchedule.id), ['on_call_shadow.created', 'on_call_shadow.deleted']);
  });

  test("another organization's schedule, overrides and shadows answer 404", async () => {
    const theirUser = await api.addUser(other.organizationId, { roleKind: 'user' });
    const theirSchedule = await newSchedule(other, theirUser);
    const theirOverride = created(await send('POST', overridesOf(theirSchedule), override({ user_id: theirUser, ...DAY }), other.token));
    const theirShadow = created(await send('POST', shadowsOf(theirSchedule), shadow({ shadowable_type: 'User', shadowable_id: String(theirUser), shadow_user_id: theirUser, ...DAY }), other.token));
    const attempts = [
      send('GET', overridesOf(theirSchedule)),
      send('POST', overridesOf(theirSchedule), override({ user_id: alice, ...DAY })),
      send('GET', `/v1/override_shifts/${theirOverride.id}`),
      send('PUT', `/v1/override_shifts/${theirOverride.id}`, override({ user_id: alice })),
      send('DELETE', `/v1/override_shifts/${theirOverride.id}`),
      send('GET', shadowsOf(theirSchedule)),
      send('POST', shadowsOf(theirSchedule), shadow({ shadowable_type: 'User', shadowable_id: String(alice), shadow_user_id: alice, ...DAY })),
      send('GET', `/v1/on_call_shadows/${theirShadow.id}`),
      send('PUT', `/v1/on_call_shadows/${theirShadow.id}`, shadow({ ends_at: '2026-12-03T00:00:00Z' })),
      send('DELETE', `/v1/on_call_shadows/${theirShadow.id}`),
    ];
    for (const res of await Promise.all(attempts)) {
      assert.equal(res.status, 404, JSON.stringify(res.body));
      assert.deepEqual(errorCodes(res), ['404/NOT_FOUND/Not found']);
    }
    const schedulesShadowed = await send('POST', shadowsOf(scheduleId), shadow({ shadowable_type: 'Schedule', shadowable_id: theirSchedule, shadow_user_id: alice, ...DAY }));
    assert.deepEqual(pointers(schedulesShadowed), ['/data/attributes/shadowable_id'], "another organization's schedule cannot be shadowed");
  });
});
