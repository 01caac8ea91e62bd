import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { eventually, startTestApi, type TestApi, type TestOrganization } from '../src/testing';
import { created, errorCodes, ids, outboxTypes, pointers, unique } from './support/json-api';

type Attributes = Record<string, unknown>;
const schedule = (attributes: Attributes) => ({ data: { type: 'schedules', attributes } });

describe('schedules: CRUD, owners, settings, and what lives under them', () => {
  let api: TestApi;
  let org: TestOrganization;
  let other: TestOrganization;
  let owner: number;
  /** A personal key of `owner`: a key with a user. */
  let personal: string;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
    other = await api.newOrganization();
    owner = await api.addUser(org.organizationId, { roleKind: 'admin', onCallRoleKind: 'admin' });
    personal = await api.issueApiKey(org.organizationId, { kind: 'personal', userId: owner });
  });
  after(() => api?.close());

  const send = (method: string, path: string, body?: unknown, token = org.token) => api.request(method, path, { token, body });
  const newSchedule = async (attributes: Attributes = {}, token = org.token) => created(await send('POST', '/v1/schedules', schedule({ name: unique('Primary'), owner_user_id: owner, ...attributes }), token));

  test('a schedule is created, read, listed, updated and deleted, each change an event', async () => {
    const team = created(await send('POST', '/v1/teams', { data: { type: 'groups', attributes: { name: unique('Payments') } } }));
    const name = unique('Payments primary');
    const res = await send('POST', '/v1/schedules', schedule({ name, description: 'Weekdays', owner_user_id: owner, owner_group_ids: [team.id], slack_channel: { id: 'C1', name: 'oncall' }, shift_report_enabled: true }));
    const { id, type, attributes: a } = created(res);
    assert.equal(type, 'schedules');
    assert.deepEqual(
      { name: a.name, description: a.description, owner_user_id: a.owner_user_id, owner_group_ids: a.owner_group_ids, slack_channel: a.slack_channel, shift_report_enabled: a.shift_report_enabled },
      { name, description: 'Weekdays', owner_user_id: owner, owner_group_ids: [team.id], slack_channel: { id: 'C1', name: 'oncall' }, shift_report_enabled: true },
    );
    // Settings the reference always answers have defaults.
    assert.deepEqual(
      [a.shift_report_day_of_week, a.shift_report_time_of_day, a.shift_report_time_zone, a.sync_linear_enabled, a.shift_start_notifications_enabled],
      ['monday', '09:00', 'Etc/UTC', false, false],
    );
    assert.deepEqual((await send('GET', `/v1/schedules/${id}`)).body.data, res.body.data);
    assert.deepEqual(ids(await send('GET', `/v1/schedules?filter[name]=${encodeURIComponent(name)}`)), [id]);
    assert.deepEqual(ids(await send('GET', `/v1/schedules?filter[search]=${encodeURIComponent(name.split(' ').pop()!)}`)), [id]);

    const updated = await send('PUT', `/v1/schedules/${id}`, schedule({ name: `${name} renamed`, shift_report_time_zone: 'Europe/Paris', owner_user_id: null }));
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.equal(updated.body.data.attributes.name, `${name} renamed`);
    assert.equal(updated.body.data.attributes.shift_report_time_zone, 'Europe/Paris');
    assert.equal(updated.body.data.attributes.owner_user_id, owner, 'a null owner keeps the stored one');

    const deleted = await send('DELETE', `/v1/schedules/${id}`);
    assert.equal(deleted.status, 200);
    assert.equal((await send('GET', `/v1/schedules/${id}`)).status, 404);
    assert.deepEqual(await outboxTypes(api, id), ['schedule.created', 'schedule.updated', 'schedule.deleted']);
  });

  test('the audit log records schedule changes under the reference item type Schedule, and their rotations', async () => {
    const s = await newSchedule();
    const r = created(
      await send('POST', `/v1/schedules/${s.id}/schedule_rotations`, {
        data: { type: 'schedule_rotations', attributes: { name: 'Daily', schedule_rotationable_type: 'ScheduleDailyRotation', schedule_rotationable_attributes: { handoff_time: '09:00' } } },
      }),
    );
    await send('PUT', `/v1/schedules/${s.id}`, schedule({ description: 'Audited' }));
    // The audit log follows the writes through the bus.
    const audited = async (item: string, count: number) => {
      const rowsOf = (res: { body: { data: { attributes: Attributes }[] } }) => res.body.data.filter((d) => d.attributes.item_id === item);
      return rowsOf(await eventually(() => send('GET', '/v1/audits?sort=created_at&page[size]=100'), (res) => res.status === 200 && rowsOf(res).length >= count));
    };
    assert.deepEqual((await audited(s.id, 2)).map((d) => [d.attributes.item_type, d.attributes.event]), [['Schedule', 'create'], ['Schedule', 'update']]);
    // The reference's item types have no rotation: null, as for every kind it lacks.
    assert.deepEqual((await audited(r.id, 1)).map((d) => [d.attributes.item_type, d.attributes.event]), [[null, 'create']]);
  });

  test('the owner: left out, the calling user; a key without a user cannot be made owner (422)', async () => {
    const mine = await newSchedule({ owner_user_id: undefined }, personal);
    assert.equal(mine.attributes.owner_user_id, owner);
    const userless = await api.issueApiKey(org.organizationId, { kind: 'global', userId: null });
    const refused = await send('POST', '/v1/schedules', schedule({ name: unique('Ownerless') }), userless);
    assert.equal(refused.status, 422, JSON.stringify(refused.body));
    assert.deepEqual(pointers(refused), ['/data/attributes/owner_user_id']);
    assert.match(refused.body.errors[0].detail, /a key without a user cannot be made a schedule owner/);
    assert.equal(created(await send('POST', '/v1/schedules', schedule({ name: unique('Named owner'), owner_user_id: owner }), userless)).attributes.owner_user_id, owner, 'a key without a user may name an owner');
    const cleared = await send('PUT', `/v1/schedules/${mine.id}`, schedule({ owner_user_id: null }), userless);
    assert.equal(cleared.body.data.attributes.owner_user_id, owner);
  });

  test('Slack-only settings are forced to false without a slack_channel (reference)', async () => {
    const s = await newSchedule({ shift_report_enabled: true, include_shadows_in_slack_notifications: true, sync_linear_enabled: true });
    assert.deepEqual([s.attributes.shift_report_enabled, s.attributes.include_shadows_in_slack_notifications, s.attributes.sync_linear_enabled], [false, false, true]);
    const nulls = await send('PUT', `/v1/schedules/${s.id}`, schedule({ shift_report_day_of_week: null, shift_report_time_zone: null, sync_linear_enabled: null }));
    assert.deepEqual([nulls.body.data.attributes.shift_report_day_of_week, nulls.body.data.attributes.shift_report_time_zone, nulls.body.data.attributes.sync_linear_enabled], ['monday', 'Etc/UTC', false]);
  });

  test('bad input answers 422 naming the attribute, and nothing is written', async () => {
    const cases: [Attributes, string][] = [
      [{ name: '' }, '/data/attributes/name'],
      [{ owner_user_id: 987654 }, '/data/attributes/owner_user_id'],
      [{ owner_group_ids: [randomUUID()] }, '/data/attributes/owner_group_ids/0'],
      [{ shift_report_time_zone: 'Mars/Olympus' }, '/data/attributes/shift_report_time_zone'],
      [{ shift_report_time_of_day: '25:00' }, '/data/attributes/shift_report_time_of_day'],
      [{ shift_report_day_of_week: 'someday' }, '/data/attributes/shift_report_day_of_week'],
      [{ color: 'red' }, '/data/attributes/color'],
    ];
    for (const [attributes, pointer] of cases) {
      const name = unique('Refused');
      const res = await send('POST', '/v1/schedules', schedule({ name, owner_user_id: owner, ...attributes }));
      assert.equal(res.status, 422, `${JSON.stringify(attributes)}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(pointers(res), [pointer]);
      assert.equal((await api.runtime.dataSource.query('SELECT 1 FROM schedules WHERE name = $1', [name])).length, 0);
    }
    const otherUser = await api.addUser(other.organizationId, { roleKind: 'user' });
    const theirs = await send('POST', '/v1/schedules', schedule({ name: unique('Theirs'), owner_user_id: otherUser }));
    assert.deepEqual(pointers(theirs), ['/data/attributes/owner_user_id'], "another organization's user is unknown here");
  });

  test("another organization's schedule answers 404 and is not changed", async () => {
    const theirOwner = await api.addUser(other.organizationId, { roleKind: 'user' });
    const theirs = created(await send('POST', '/v1/schedules', schedule({ name: unique('Theirs'), owner_user_id: theirOwner }), other.token));
    const item = `/v1/schedules/${theirs.id}`;
    for (const res of [await send('GET', item), await send('PUT', item, schedule({ name: 'Taken' })), await send('DELETE', item)]) {
      assert.equal(res.status, 404);
      assert.deepEqual(errorCodes(res), ['404/NOT_FOUND/Not found']);
    }
    assert.ok(!ids(await send('GET', '/v1/schedules')).includes(theirs.id));
    assert.deepEqual((await send('GET', item, undefined, other.token)).body.data, theirs);
  });

  test('deleting a schedule deletes its rotations (with their members and active days), overrides and shadows, each with its event', async () => {
    const s = await newSchedule();
    const rotation = created(
      await send('POST', `/v1/schedules/${s.id}/schedule_rotations`, {
        data: { type: 'schedule_rotations', attributes: { name: 'Weekly', schedule_rotationable_type: 'ScheduleWeeklyRotation', schedule_rotationable_attributes: { handoff_time: '09:00', handoff_day: 'M' } } },
      }),
    );
    const member = created(await send('POST', `/v1/schedule_rotations/${rotation.id}/schedule_rotation_users`, { data: { type: 'schedule_rotation_users', attributes: { user_id: owner } } }));
    const day = created(
      await send('POST', `/v1/schedule_rotations/${rotation.id}/schedule_rotation_active_days`, {
        data: { type: 'schedule_rotation_active_days', attributes: { day_name: 'M', active_time_attributes: [{ start_time: '09:00', end_time: '17:00' }] } },
      }),
    );
    const override = created(
      await send('POST', `/v1/schedules/${s.id}/override_shifts`, { data: { type: 'shifts', attributes: { user_id: owner, starts_at: '2026-12-01T09:00:00Z', ends_at: '2026-12-01T17:00:00Z' } } }),
    );
    const shadow = created(
      await send('POST', `/v1/schedules/${s.id}/on_call_shadows`, {
        data: { type: 'on_call_shadows', attributes: { shadowable_type: 'User', shadowable_id: String(owner), shadow_user_id: owner, starts_at: '2026-12-01T09:00:00Z', ends_at: '2026-12-02T09:00:00Z' } },
      }),
    );
    const deleted = await send('DELETE', `/v1/schedules/${s.id}`);
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    for (const [path, record, event] of [
      ['/v1/schedule_rotations', rotation, 'schedule_rotation.deleted'],
      ['/v1/schedule_rotation_users', member, 'schedule_rotation_user.deleted'],
      ['/v1/schedule_rotation_active_days', day, 'schedule_rotation_active_day.deleted'],
      ['/v1/override_shifts', override, 'override_shift.deleted'],
      ['/v1/on_call_shadows', shadow, 'on_call_shadow.deleted'],
    ] as const) {
      assert.equal((await send('GET', `${path}/${record.id}`)).status, 404, path);
      assert.equal((await outboxTypes(api, record.id)).at(-1), event);
    }
    // Children first, in one transaction: the schedule's own event comes last.
    const seqs = (await api.runtime.dataSource.query(
      "SELECT event->>'type' AS type FROM outbox WHERE aggregate_id = ANY($1) AND event->>'type' LIKE '%.deleted' ORDER BY seq",
      [[s.id, rotation.id, member.id, day.id, override.id, shadow.id]],
    )) as { type: string }[];
    assert.equal(seqs.at(-1)?.type, 'schedule.deleted');
    assert.deepEqual(seqs.slice(0, 3).map((r) => r.type), ['schedule_rotation_user.deleted', 'schedule_rotation_active_day.deleted', 'schedule_rotation.deleted']);
  });
});
