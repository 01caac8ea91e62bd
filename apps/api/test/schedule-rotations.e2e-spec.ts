import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startTestApi, type TestApi, type TestOrganization } from '../src/testing';
import { created, errorCodes, ids, outboxTypes, pointers, unique } from './support/json-api';

type Attributes = Record<string, unknown>;
const doc = (type: string, attributes: Attributes) => ({ data: { type, attributes } });
const rotation = (attributes: Attributes) => doc('schedule_rotations', attributes);
const weekly = { schedule_rotationable_type: 'ScheduleWeeklyRotation', schedule_rotationable_attributes: { handoff_time: '09:00', handoff_day: 'M' } };

describe('schedule rotations, their members and active days', () => {
  let api: TestApi;
  let org: TestOrganization;
  let other: TestOrganization;
  let alice: number;
  let bob: number;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
    other = await api.newOrganization();
    alice = await api.addUser(org.organizationId, { roleKind: 'user' });
    bob = await api.addUser(org.organizationId, { roleKind: 'user' });
  });
  after(() => api?.close());

  const send = (method: string, path: string, body?: unknown, token = org.token) => api.request(method, path, { token, body });
  const newSchedule = async (o: TestOrganization = org) => {
    const owner = o === org ? alice : await api.addUser(o.organizationId, { roleKind: 'user' });
    return created(await send('POST', '/v1/schedules', doc('schedules', { name: unique('Primary'), owner_user_id: owner }), o.token)).id as string;
  };
  const rotationsOf = (scheduleId: string) => `/v1/schedules/${scheduleId}/schedule_rotations`;
  const newRotation = async (scheduleId: string, attributes: Attributes = {}, token = org.token) =>
    created(await send('POST', rotationsOf(scheduleId), rotation({ name: unique('Rotation'), ...weekly, ...attributes }), token));
  const usersOf = (rotationId: string) => `/v1/schedule_rotations/${rotationId}/schedule_rotation_users`;
  const daysOf = (rotationId: string) => `/v1/schedule_rotations/${rotationId}/schedule_rotation_active_days`;

  test('a rotation is created and listed under its schedule, in position order, and read, updated and deleted at its own path', async () => {
    const scheduleId = await newSchedule();
    const res = await send(
      'POST',
      rotationsOf(scheduleId),
      rotation({
        name: 'Follow the sun',
        ...weekly,
        time_zone: 'America/New_York',
        start_time: '2026-12-01T00:00:00Z',
        end_time: '2027-12-01T00:00:00Z',
        active_all_week: false,
        active_days: ['M', 'T', 'W', 'R', 'F'],
        active_time_type: 'same_time',
        active_time_attributes: [{ start_time: '09:00', end_time: '17:00' }],
      }),
    );
    const first = created(res);
    assert.equal(first.type, 'schedule_rotations');
    const a = first.attributes;
    assert.deepEqual(
      [a.schedule_id, a.name, a.position, a.schedule_rotationable_type, a.schedule_rotationable_attributes, a.time_zone, a.start_time, a.end_time, a.active_all_week, a.active_days, a.active_time_type, a.active_time_attributes],
      [scheduleId, 'Follow the sun', 1, 'ScheduleWeeklyRotation', weekly.schedule_rotationable_attributes, 'America/New_York', '2026-12-01T00:00:00.000Z', '2027-12-01T00:00:00.000Z', false, ['M', 'T', 'W', 'R', 'F'], 'same_time', [{ start_time: '09:00', end_time: '17:00' }]],
    );
    const defaults = await newRotation(scheduleId, { schedule_rotationable_type: 'ScheduleDailyRotation', schedule_rotationable_attributes: { handoff_time: '08:30' } });
    assert.deepEqual([defaults.attributes.position, defaults.attributes.time_zone, defaults.attributes.active_all_week, defaults.attributes.active_time_type], [2, 'Etc/UTC', true, 'all_day']);
    const first3 = await newRotation(scheduleId, { position: 0 });
    assert.deepEqual(ids(await send('GET', rotationsOf(scheduleId))), [first3.id, first.id, defaults.id], 'ordered by position');
    assert.deepEqual(ids(await send('GET', `${rotationsOf(scheduleId)}?sort=-position`)), [defaults.id, first.id, first3.id]);
    // Positions count within a schedule.
    assert.equal((await newRotation(await newSchedule())).attributes.position, 1);

    assert.deepEqual((await send('GET', `/v1/schedule_rotations/${first.id}`)).body.data, first);
    const monthly = await send('PUT', `/v1/schedule_rotations/${first.id}`, rotation({ schedule_rotationable_type: 'ScheduleMonthlyRotation', schedule_rotationable_attributes: { handoff_time: '10:00', handoff_day: 'last_day_of_month' } }));
    assert.equal(monthly.status, 200, JSON.stringify(monthly.body));
    assert.deepEqual(monthly.body.data.attributes.schedule_rotationable_attributes, { handoff_time: '10:00', handoff_day: 'last_day_of_month' });
    const deleted = await send('DELETE', `/v1/schedule_rotations/${first.id}`);
    assert.equal(deleted.status, 200);
    assert.equal((await send('GET', `/v1/schedule_rotations/${first.id}`)).status, 404);
    assert.deepEqual(await outboxTypes(api, first.id), ['schedule_rotation.created', 'schedule_rotation.updated', 'schedule_rotation.deleted']);
  });

  test('each rotation type takes its own schedule_rotationable_attributes', async () => {
    const scheduleId = await newSchedule();
    const valid: [string, Attributes][] = [
      ['ScheduleDailyRotation', { handoff_time: '09:00' }],
      ['ScheduleWeeklyRotation', { handoff_time: '09:00', handoff_day: 'F' }],
      ['ScheduleBiweeklyRotation', { handoff_time: '09:00', handoff_day: 'S' }],
      ['ScheduleMonthlyRotation', { handoff_time: '09:00', handoff_day: 'first_day_of_month' }],
      ['ScheduleCustomRotation', { handoff_time: '00:00', shift_length: 12, shift_length_unit: 'hours' }],
    ];
    for (const [type, attributes] of valid) {
      const made = await newRotation(scheduleId, { schedule_rotationable_type: type, schedule_rotationable_attributes: attributes });
      assert.deepEqual([made.attributes.schedule_rotationable_type, made.attributes.schedule_rotationable_attributes], [type, attributes]);
    }
    // The Terraform provider sends every member, other types' null: taken as not sent.
    const nulls = { handoff_day: null, handoff_time: '10:00', shift_length: null, shift_length_unit: null };
    const daily = await newRotation(scheduleId, { schedule_rotationable_type: 'ScheduleDailyRotation', schedule_rotationable_attributes: nulls });
    assert.deepEqual(daily.attributes.schedule_rotationable_attributes, { handoff_time: '10:00' });
    // ... and reads every rotation with include=schedule_rotation_members: accepted, includes nothing.
    const read = await send('GET', `/v1/schedule_rotations/${daily.id}?include=schedule_rotation_members`);
    assert.deepEqual([read.status, read.body.included ?? []], [200, []]);
    const refused: [Attributes, string[]][] = [
      [{ schedule_rotationable_type: 'ScheduleHourlyRotation' }, ['/data/attributes/schedule_rotationable_type']],
      [{ schedule_rotationable_type: 'ScheduleWeeklyRotation', schedule_rotationable_attributes: { handoff_time: '09:00' } }, ['/data/attributes/schedule_rotationable_attributes/handoff_day']],
      [{ schedule_rotationable_type: 'ScheduleWeeklyRotation', schedule_rotationable_attributes: { handoff_time: '09:00', handoff_day: null } }, ['/data/attributes/schedule_rotationable_attributes/handoff_day']],
      [{ schedule_rotationable_type: 'ScheduleMonthlyRotation', schedule_rotationable_attributes: { handoff_time: '09:00', handoff_day: 'M' } }, ['/data/attributes/schedule_rotationable_attributes/handoff_day']],
      [{ schedule_rotationable_type: 'ScheduleDailyRotation', schedule_rotationable_attributes: { handoff_time: '09:00', shift_length: 3 } }, ['/data/attributes/schedule_rotationable_attributes/shift_length']],
      [{ schedule_rotationable_type: 'ScheduleDailyRotation', schedule_rotationable_attributes: { handoff_time: '9 am' } }, ['/data/attributes/schedule_rotationable_attributes/handoff_time']],
      [
        { schedule_rotationable_type: 'ScheduleCustomRotation', schedule_rotationable_attributes: { handoff_time: '09:00', shift_length: 0 } },
        ['/data/attributes/schedule_rotationable_attributes/shift_length', '/data/attributes/schedule_rotationable_attributes/shift_length_unit'],
      ],
      [{ schedule_rotationable_type: 'ScheduleCustomRotation', schedule_rotationable_attributes: { handoff_time: '09:00', shift_length: 2, shift_length_unit: 'months' } }, ['/data/attributes/schedule_rotationable_attributes/shift_length_unit']],
    ];
    for (const [attributes, expected] of refused) {
      const name = unique('Refused');
      const res = await send('POST', rotationsOf(scheduleId), rotation({ name, ...weekly, ...attributes }));
      assert.equal(res.status, 422, `${JSON.stringify(attributes)}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(pointers(res), expected, JSON.stringify(res.body));
      assert.equal((await api.runtime.dataSource.query('SELECT 1 FROM schedule_rotations WHERE name = $1', [name])).length, 0);
    }
    // An update that changes the type must bring the new type's attributes.
    const made = await newRotation(scheduleId);
    const retyped = await send('PUT', `/v1/schedule_rotations/${made.id}`, rotation({ schedule_rotationable_type: 'ScheduleCustomRotation' }));
    assert.equal(retyped.status, 422);
    assert.deepEqual(pointers(retyped), [
      '/data/attributes/schedule_rotationable_attributes/handoff_day',
      '/data/attributes/schedule_rotationable_attributes/shift_length',
      '/data/attributes/schedule_rotationable_attributes/shift_length_unit',
    ]);
  });

  test('bad time zones, bounds and active times answer 422 naming the attribute', async () => {
    const scheduleId = await newSchedule();
    const cases: [Attributes, string][] = [
      [{ time_zone: 'Mars/Olympus' }, '/data/attributes/time_zone'],
      [{ time_zone: '' }, '/data/attributes/time_zone'],
      [{ start_time: '2026-12-02T00:00:00Z', end_time: '2026-12-01T00:00:00Z' }, '/data/attributes/end_time'],
      [{ active_days: ['X'] }, '/data/attributes/active_days/0'],
      [{ active_time_type: 'sometimes' }, '/data/attributes/active_time_type'],
      [{ active_time_attributes: [{ start_time: '9', end_time: '17:00' }] }, '/data/attributes/active_time_attributes/0/start_time'],
      [{ active_time_attributes: [{ start_time: '09:00' }] }, '/data/attributes/active_time_attributes/0/end_time'],
      [{ name: '' }, '/data/attributes/name'],
    ];
    for (const [attributes, pointer] of cases) {
      const res = await send('POST', rotationsOf(scheduleId), rotation({ name: unique('Refused'), ...weekly, ...attributes }));
      assert.equal(res.status, 422, `${JSON.stringify(attributes)}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(pointers(res), [pointer]);
    }
    const made = await newRotation(scheduleId, { start_time: '2026-12-01T00:00:00Z' });
    const before = await send('PUT', `/v1/schedule_rotations/${made.id}`, rotation({ end_time: '2026-11-30T00:00:00Z' }));
    assert.deepEqual(pointers(before), ['/data/attributes/end_time'], 'an update is checked against the stored start');
    const zone = await send('PUT', `/v1/schedule_rotations/${made.id}`, rotation({ time_zone: 'Nowhere/Land' }));
    assert.deepEqual(pointers(zone), ['/data/attributes/time_zone']);
  });

  test('members take turns in position order; a member must be a user of the organization', async () => {
    const r = await newRotation(await newSchedule());
    const members = [];
    for (const user of [alice, bob, alice]) members.push(created(await send('POST', usersOf(r.id), doc('schedule_rotation_users', { user_id: user }))));
    assert.deepEqual(members.map((m) => [m.attributes.schedule_rotation_id, m.attributes.user_id, m.attributes.position]), [[r.id, alice, 1], [r.id, bob, 2], [r.id, alice, 3]]);
    const moved = await send('PUT', `/v1/schedule_rotation_users/${members[2].id}`, doc('schedule_rotation_users', { position: 0 }));
    assert.equal(moved.status, 200);
    assert.deepEqual(ids(await send('GET', usersOf(r.id))), [members[2].id, members[0].id, members[1].id]);
    assert.deepEqual(ids(await send('GET', `${usersOf(r.id)}?filter[user_id]=${bob}`)), [members[1].id]);
    const stranger = await api.addUser(other.organizationId, { roleKind: 'user' });
    for (const user_id of [stranger, 424242]) {
      const res = await send('POST', usersOf(r.id), doc('schedule_rotation_users', { user_id }));
      assert.equal(res.status, 422);
      assert.deepEqual(pointers(res), ['/data/attributes/user_id']);
    }
    assert.deepEqual(pointers(await send('POST', usersOf(r.id), doc('schedule_rotation_users', {}))), ['/data/attributes/user_id']);
    assert.deepEqual(pointers(await send('PUT', `/v1/schedule_rotation_users/${members[0].id}`, doc('schedule_rotation_users', { user_id: stranger }))), ['/data/attributes/user_id']);
    assert.equal((await send('DELETE', `/v1/schedule_rotation_users/${members[1].id}`)).status, 200);
    assert.deepEqual(await outboxTypes(api, members[2].id), ['schedule_rotation_user.created', 'schedule_rotation_user.updated']);
    assert.deepEqual(await outboxTypes(api, members[1].id), ['schedule_rotation_user.created', 'schedule_rotation_user.deleted']);
  });

  test('active days hold per-day windows; bad days and times answer 422', async () => {
    const r = await newRotation(await newSchedule(), { active_time_type: 'custom' });
    const monday = created(await send('POST', daysOf(r.id), doc('schedule_rotation_active_days', { day_name: 'M', active_time_attributes: [{ start_time: '09:00', end_time: '12:00' }, { start_time: '13:00', end_time: '17:00' }] })));
    assert.deepEqual([monday.attributes.schedule_rotation_id, monday.attributes.day_name, monday.attributes.active_time_attributes.length], [r.id, 'M', 2]);
    const friday = created(await send('POST', daysOf(r.id), doc('schedule_rotation_active_days', { day_name: 'F', active_time_attributes: [] })));
    assert.deepEqual(ids(await send('GET', daysOf(r.id))), [monday.id, friday.id]);
    const updated = await send('PUT', `/v1/schedule_rotation_active_days/${friday.id}`, doc('schedule_rotation_active_days', { active_time_attributes: [{ start_time: '22:00', end_time: '06:00' }] }));
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.deepEqual(updated.body.data.attributes.active_time_attributes, [{ start_time: '22:00', end_time: '06:00' }]);
    const cases: [Attributes, string][] = [
      [{ day_name: 'Monday', active_time_attributes: [] }, '/data/attributes/day_name'],
      [{ active_time_attributes: [] }, '/data/attributes/day_name'],
      [{ day_name: 'M' }, '/data/attributes/active_time_attributes'],
      [{ day_name: 'M', active_time_attributes: [{ start_time: '24:30', end_time: '12:00' }] }, '/data/attributes/active_time_attributes/0/start_time'],
    ];
    for (const [attributes, pointer] of cases) {
      const res = await send('POST', daysOf(r.id), doc('schedule_rotation_active_days', attributes));
      assert.equal(res.status, 422, `${JSON.stringify(attributes)}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(pointers(res), [pointer]);
    }
    assert.equal((await send('DELETE', `/v1/schedule_rotation_active_days/${monday.id}`)).status, 200);
    assert.deepEqual(await outboxTypes(api, monday.id), ['schedule_rotation_active_day.created', 'schedule_rotation_active_day.deleted']);
  });

  test('deleting a rotation deletes its members and active days, each with its event', async () => {
    const r = await newRotation(await newSchedule());
    const member = created(await send('POST', usersOf(r.id), doc('schedule_rotation_users', { user_id: alice })));
    const day = created(await send('POST', daysOf(r.id), doc('schedule_rotation_active_days', { day_name: 'W', active_time_attributes: [] })));
    assert.equal((await send('DELETE', `/v1/schedule_rotations/${r.id}`)).status, 200);
    assert.equal((await send('GET', `/v1/schedule_rotation_users/${member.id}`)).status, 404);
    assert.equal((await send('GET', `/v1/schedule_rotation_active_days/${day.id}`)).status, 404);
    assert.deepEqual(await outboxTypes(api, member.id), ['schedule_rotation_user.created', 'schedule_rotation_user.deleted']);
    assert.deepEqual(await outboxTypes(api, day.id), ['schedule_rotation_active_day.created', 'schedule_rotation_active_day.deleted']);
  });

  test("another organization's schedules and rotations answer 404 on every route, as parents and as records", async () => {
    const theirSchedule = await newSchedule(other);
    const theirRotation = await newRotation(theirSchedule, {}, other.token);
    const theirMember = created(await send('POST', usersOf(theirRotation.id), doc('schedule_rotation_users', { user_id: Number((await api.runtime.dataSource.query('SELECT owner_user_id FROM schedules WHERE id = $1', [theirSchedule]))[0].owner_user_id) }), other.token));
    const theirDay = created(await send('POST', daysOf(theirRotation.id), doc('schedule_rotation_active_days', { day_name: 'M', active_time_attributes: [] }), other.token));
    const attempts = [
      send('GET', rotationsOf(theirSchedule)),
      send('POST', rotationsOf(theirSchedule), rotation({ name: 'Sneaky', ...weekly })),
      send('GET', rotationsOf(randomUUID())),
      send('GET', `/v1/schedule_rotations/${theirRotation.id}`),
      send('PUT', `/v1/schedule_rotations/${theirRotation.id}`, rotation({ name: 'Taken' })),
      send('DELETE', `/v1/schedule_rotations/${theirRotation.id}`),
      send('GET', usersOf(theirRotation.id)),
      send('POST', usersOf(theirRotation.id), doc('schedule_rotation_users', { user_id: alice })),
      send('GET', `/v1/schedule_rotation_users/${theirMember.id}`),
      send('DELETE', `/v1/schedule_rotation_users/${theirMember.id}`),
      send('GET', daysOf(theirRotation.id)),
      send('POST', daysOf(theirRotation.id), doc('schedule_rotation_active_days', { day_name: 'M', active_time_attributes: [] })),
      send('PUT', `/v1/schedule_rotation_active_days/${theirDay.id}`, doc('schedule_rotation_active_days', { day_name: 'T' })),
      send('DELETE', `/v1/schedule_rotation_active_days/${theirDay.id}`),
    ];
    for (const res of await Promise.all(attempts)) {
      assert.equal(res.status, 404, JSON.stringify(res.body));
      assert.deepEqual(errorCodes(res), ['404/NOT_FOUND/Not found']);
    }
    assert.deepEqual(ids(await send('GET', usersOf(theirRotation.id), undefined, other.token)), [theirMember.id]);
    assert.equal((await send('GET', `/v1/schedule_rotations/${theirRotation.id}`, undefined, other.token)).body.data.attributes.name, theirRotation.attributes.name);
  });
});
