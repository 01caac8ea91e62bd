import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { startTestApi, type TestApi, type TestOrganization } from '../src/testing';
import { created } from './support/json-api';
import { OpenApiValidator } from './support/openapi-ajv';
import { weeklySchedule as weeklyScheduleOf } from './support/schedules';

type Attributes = Record<string, unknown>;
type ShiftObject = { id: string; type: string; attributes: Attributes; relationships?: Record<string, { data: { id: string; type: string } | null }> };
const doc = (type: string, attributes: Attributes) => ({ data: { type, attributes } });
const DAY = 24 * 3_600_000;

/** The wall-clock time of an instant in New York, as HH:MM on a weekday. */
const newYork = (iso: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso));

/**
 * `GET /v1/shifts` and `GET /v1/schedules/{id}/shifts` (issue 14): the shifts the schedule engine
 * computes from the stored rotations, members, overrides and shadows, with the reference's
 * parameters, includes and errors; another organization's schedule answers 404; a rotation's
 * change leaves the shifts that had ended before it alone.
 */
describe('shifts of schedules', () => {
  let api: TestApi;
  let org: TestOrganization;
  let other: TestOrganization;
  let alice: number;
  let bob: number;
  let carol: number;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
    other = await api.newOrganization();
    alice = await api.addUser(org.organizationId, { roleKind: 'user' });
    bob = await api.addUser(org.organizationId, { roleKind: 'user' });
    carol = await api.addUser(org.organizationId, { roleKind: 'user' });
  });
  after(() => api?.close());

  const send = (method: string, path: string, body?: unknown, token = org.token) => api.request(method, path, { token, body });
  /** A schedule with a weekly rotation handing off on Mondays at 09:00 New York time, with `members` in order. */
  const weeklySchedule = (members: number[], o = org, owner = alice) => weeklyScheduleOf(api, o.token, { members, owner });
  const shiftsOf = async (path: string): Promise<{ data: ShiftObject[]; included?: ShiftObject[]; meta: Attributes; links: Attributes }> => {
    const res = await send('GET', path);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  /** A four-week window starting a week from now: after every member was added (their version's instant). */
  const ahead = () => {
    const from = new Date(Math.ceil((Date.now() + 7 * DAY) / DAY) * DAY);
    return { from: from.toISOString(), to: new Date(from.getTime() + 28 * DAY).toISOString() };
  };

  test("a weekly rotation's shifts hand off on Mondays at 09:00 New York time, in member order, tiling the window", async () => {
    const { scheduleId, rotationId } = await weeklySchedule([alice, bob, carol]);
    const { from, to } = ahead();
    const body = await shiftsOf(`/v1/schedules/${scheduleId}/shifts?from=${from}&to=${to}&page[size]=100`);
    const shifts = body.data.map((s) => s.attributes);
    assert.ok(shifts.length >= 4 && shifts.length <= 5, `${shifts.length} shifts`);
    assert.ok(String(shifts[0].starts_at) <= from && String(shifts[shifts.length - 1].ends_at) >= to, 'the shifts cover the window (answered whole)');
    for (const [i, s] of shifts.entries()) {
      assert.deepEqual([s.schedule_id, s.rotation_id, s.is_override, s.is_shadow], [scheduleId, rotationId, false, false]);
      assert.equal(newYork(String(s.starts_at)), 'Mon 09:00', `shift ${i} starts ${String(s.starts_at)}`);
      if (i > 0) assert.equal(s.starts_at, shifts[i - 1].ends_at, 'no gap, no overlap');
    }
    const order = [alice, bob, carol];
    const firstIndex = order.indexOf(shifts[0].user_id as number);
    assert.deepEqual(
      shifts.map((s) => s.user_id),
      shifts.map((_, i) => order[(firstIndex + i) % 3]),
      'members take turns in position order',
    );
    assert.equal(body.meta.total_count, shifts.length);
    for (const s of body.data) assert.equal(s.type, 'shifts');
    const again = await shiftsOf(`/v1/schedules/${scheduleId}/shifts?from=${from}&to=${to}&page[size]=100`);
    assert.deepEqual(again.data.map((s) => s.id), body.data.map((s) => s.id), 'a shift keeps its id');
  });

  test("a rotation in a Rails-named zone is answered as sent and hands off in the IANA zone it denotes", async () => {
    const eastern = 'Eastern Time (US & Canada)';
    const { scheduleId, rotationId } = await weeklyScheduleOf(api, org.token, { members: [alice, bob], owner: alice, timeZone: eastern });
    assert.equal((await send('GET', `/v1/schedule_rotations/${rotationId}`)).body.data.attributes.time_zone, eastern);
    const { from, to } = ahead();
    const shifts = (await shiftsOf(`/v1/schedules/${scheduleId}/shifts?from=${from}&to=${to}&page[size]=100`)).data.map((s) => s.attributes);
    assert.ok(shifts.length >= 4, `${shifts.length} shifts`);
    for (const s of shifts) assert.equal(newYork(String(s.starts_at)), 'Mon 09:00', String(s.starts_at));
  });

  test('an override splits the shift it lands in; includes answer the user, the assignee and the override', async () => {
    const { scheduleId } = await weeklySchedule([alice, bob]);
    const { from, to } = ahead();
    // A Wednesday (UTC), clear of the Monday hand-offs whatever day the test runs: an override
    // across one would sit between two members' shifts.
    const start = new Date(from).getTime() + DAY;
    const wednesday = start + (((3 - new Date(start).getUTCDay()) + 7) % 7) * DAY;
    const startsAt = new Date(wednesday).toISOString();
    const endsAt = new Date(wednesday + DAY).toISOString();
    // Read first: computed shifts are cached, and the override's commit must clear them.
    assert.ok((await shiftsOf(`/v1/shifts?schedule_ids[]=${scheduleId}&from=${from}&to=${to}`)).data.every((s) => !s.attributes.is_override));
    const override = created(await send('POST', `/v1/schedules/${scheduleId}/override_shifts`, doc('shifts', { starts_at: startsAt, ends_at: endsAt, user_id: carol })));
    const body = await shiftsOf(`/v1/shifts?schedule_ids[]=${scheduleId}&from=${from}&to=${to}&include=user,assignee,shift_override&page[size]=100`);
    const shifts = body.data.map((s) => s.attributes);
    const at = shifts.findIndex((s) => s.is_override);
    assert.ok(at > 0, JSON.stringify(shifts));
    assert.deepEqual([shifts[at].starts_at, shifts[at].ends_at, shifts[at].user_id, shifts[at].rotation_id], [startsAt, endsAt, carol, null]);
    assert.equal(shifts[at - 1].ends_at, startsAt, 'the shift it landed in ends where it starts');
    assert.equal(shifts[at + 1].starts_at, endsAt, 'and resumes where it ends');
    assert.equal(shifts[at - 1].user_id, shifts[at + 1].user_id);

    // The served document describes what is answered (the fuzzer found created_at required once).
    new OpenApiValidator((await send('GET', '/v1/openapi.json')).body, 'served').assertValid('shift_list', body, 'GET /v1/shifts');
    const overrideShift = body.data[at];
    assert.deepEqual(overrideShift.relationships?.shift_override.data, { id: override.id, type: 'shift_overrides' });
    assert.deepEqual(overrideShift.relationships?.assignee.data, { id: String(carol), type: 'users' });
    const included = body.included ?? [];
    assert.ok(included.some((i) => i.type === 'users' && i.id === String(carol)));
    assert.ok(included.some((i) => i.type === 'shift_overrides' && i.id === override.id));
    for (const item of included) assert.ok(item.relationships, `${item.type} ${item.id} carries relationships`);
  });

  test("the includes the hosted API's MCP server asks for: the user's on-call role, the rotation and the schedule", async () => {
    const { scheduleId, rotationId } = await weeklySchedule([alice, bob]);
    const { from, to } = ahead();
    const body = await shiftsOf(`/v1/shifts?schedule_ids[]=${scheduleId}&from=${from}&to=${to}&include=user,on_call_role,schedule_rotation,schedule&page[size]=100`);
    const roleOf = async (user: number) => (await send('GET', `/v1/users/${user}?include=on_call_role`)).body.data.relationships.on_call_role.data;
    const roles = new Map([
      [alice, await roleOf(alice)],
      [bob, await roleOf(bob)],
    ]);
    assert.ok(roles.get(alice)?.id, 'users get an on-call role when added');
    assert.ok(body.data.length >= 4);
    for (const shift of body.data) {
      assert.deepEqual(shift.relationships?.on_call_role.data, roles.get(shift.attributes.user_id as number));
      assert.deepEqual(shift.relationships?.schedule_rotation.data, { id: rotationId, type: 'schedule_rotations' });
      assert.deepEqual(shift.relationships?.schedule.data, { id: scheduleId, type: 'schedules' });
    }
    const included = new Set((body.included ?? []).map((i) => `${i.type}/${i.id}`));
    for (const expected of [`schedule_rotations/${rotationId}`, `schedules/${scheduleId}`, `on_call_roles/${roles.get(alice)!.id}`, `users/${alice}`]) {
      assert.ok(included.has(expected), `${expected} is included`);
    }
    new OpenApiValidator((await send('GET', '/v1/openapi.json')).body, 'served').assertValid('shift_list', body, 'GET /v1/shifts');
  });

  test('filter[starts_at] ranges keep the shifts starting within them and, without from and to, are the window', async () => {
    const { scheduleId } = await weeklySchedule([alice, bob, carol]);
    const { from, to } = ahead();
    const all = (await shiftsOf(`/v1/schedules/${scheduleId}/shifts?from=${from}&to=${to}&page[size]=100`)).data.map((s) => s.attributes);
    const [second, third] = [String(all[1].starts_at), String(all[2].starts_at)];
    // As Python's isoformat() writes them (the MCP server's handoff summary): microseconds and a local offset.
    const pacific = (iso: string) => new Date(new Date(iso).getTime() - 7 * 3_600_000).toISOString().replace('Z', '000-07:00');
    const ranged = await shiftsOf(`/v1/shifts?schedule_ids[]=${scheduleId}&filter[starts_at][gte]=${encodeURIComponent(pacific(second))}&filter[starts_at][lte]=${encodeURIComponent(pacific(third))}&page[size]=50`);
    assert.deepEqual(ranged.data.map((s) => s.attributes.starts_at), [second, third]);
    const later = await shiftsOf(`/v1/schedules/${scheduleId}/shifts?from=${from}&to=${to}&filter[starts_at][gt]=${second}&filter[ends_at][lte]=${String(all[3].ends_at)}`);
    assert.deepEqual(later.data.map((s) => s.attributes.starts_at), [third, String(all[3].starts_at)]);
    for (const [query, parameter] of [
      ['filter[starts_at][gte]=yesterday', 'filter[starts_at][gte]'],
      ['filter[starts_at][eq]=2027-01-01T00:00:00Z', 'filter[starts_at][eq]'],
      ['filter[starts_at][gte]=2027-01-10T00:00:00Z&filter[starts_at][lte]=2027-01-01T00:00:00Z', 'filter[starts_at][lte]'],
      ['filter[starts_at][gte]=2027-01-01T00:00:00Z&filter[starts_at][lt]=2028-06-01T00:00:00Z', 'filter[starts_at][lt]'],
    ]) {
      const res = await send('GET', `/v1/schedules/${scheduleId}/shifts?${query}`);
      assert.equal(res.status, 400, `${query}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.errors[0].source.parameter, parameter, query);
    }
  });

  test('GET /v1/shifts filters by user, pages, and never answers another organization', async () => {
    const { scheduleId } = await weeklySchedule([alice, bob]);
    const otherOwner = await api.addUser(other.organizationId, { roleKind: 'user' });
    const foreign = await weeklySchedule([otherOwner], other, otherOwner);
    const { from, to } = ahead();
    const bobs = await shiftsOf(`/v1/shifts?user_ids[]=${bob}&schedule_ids[]=${scheduleId}&from=${from}&to=${to}`);
    assert.ok(bobs.data.length >= 2 && bobs.data.every((s) => s.attributes.user_id === bob));
    const paged = await shiftsOf(`/v1/shifts?schedule_ids[]=${scheduleId}&from=${from}&to=${to}&page[size]=2&page[number]=2`);
    assert.equal(paged.data.length, 2);
    assert.equal(paged.meta.current_page, 2);
    assert.match(String(paged.links.prev), /page%5Bnumber%5D=1/);

    assert.equal((await send('GET', `/v1/schedules/${foreign.scheduleId}/shifts`)).status, 404);
    const mixed = await shiftsOf(`/v1/shifts?schedule_ids[]=${foreign.scheduleId}&from=${from}&to=${to}`);
    assert.deepEqual(mixed.data, []);
    const all = await shiftsOf(`/v1/shifts?from=${from}&to=${to}&page[size]=100`);
    assert.ok(all.data.every((s) => s.attributes.schedule_id !== foreign.scheduleId));
  });

  test('bad parameters are a 400 naming the parameter', async () => {
    const { scheduleId } = await weeklySchedule([alice]);
    const cases: [string, string][] = [
      ['from=yesterday', 'from'],
      ['from=2027-01-10T00:00:00Z&to=2027-01-01T00:00:00Z', 'to'],
      ['from=2027-01-01T00:00:00Z&to=2028-06-01T00:00:00Z', 'to'],
      ['include=owner', 'include'],
      ['page[size]=0', 'page[size]'],
    ];
    for (const [query, parameter] of cases) {
      const res = await send('GET', `/v1/schedules/${scheduleId}/shifts?${query}`);
      assert.equal(res.status, 400, `${query}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.errors[0].source.parameter, parameter, query);
    }
    assert.equal((await send('GET', `/v1/shifts?user_ids[]=abc`)).body.errors[0].source.parameter, 'user_ids[]');
  });

  test("changing a rotation leaves the shifts that ended before the change as they were", async () => {
    const { scheduleId, rotationId } = await weeklySchedule([alice, bob]);
    // As if the rotation had been set up 60 days ago: its versions take effect that much earlier.
    await api.runtime.dataSource.query(
      "UPDATE schedule_rotation_versions SET effective_from = effective_from - interval '60 days' WHERE organization_id = $1 AND rotation_id = $2",
      [org.organizationId, rotationId],
    );
    const past = { from: new Date(Date.now() - 42 * DAY).toISOString(), to: new Date(Date.now() - 14 * DAY).toISOString() };
    const pastPath = `/v1/schedules/${scheduleId}/shifts?from=${past.from}&to=${past.to}&page[size]=100`;
    const before = (await shiftsOf(pastPath)).data.map((s) => s.attributes);
    assert.ok(before.length >= 4 && before.every((s) => s.user_id === alice || s.user_id === bob));

    // Carol joins first in line and the handoff moves to Tuesday.
    created(await send('POST', `/v1/schedule_rotations/${rotationId}/schedule_rotation_users`, doc('schedule_rotation_users', { user_id: carol, position: 0 })));
    const changed = await send(
      'PUT',
      `/v1/schedule_rotations/${rotationId}`,
      doc('schedule_rotations', { schedule_rotationable_attributes: { handoff_time: '09:00', handoff_day: 'T' } }),
    );
    assert.equal(changed.status, 200, JSON.stringify(changed.body));

    assert.deepEqual((await shiftsOf(pastPath)).data.map((s) => s.attributes), before, 'the past is unchanged');
    const { from, to } = ahead();
    const future = (await shiftsOf(`/v1/schedules/${scheduleId}/shifts?from=${from}&to=${to}&page[size]=100`)).data.map((s) => s.attributes);
    assert.ok(future.every((s) => newYork(String(s.starts_at)) === 'Tue 09:00' || s.starts_at === future[0].starts_at));
    assert.ok(future.some((s) => s.user_id === carol), 'the new member takes turns from the change on');
    const versions = await api.runtime.dataSource.query('SELECT count(*)::int AS n FROM schedule_rotation_versions WHERE organization_id = $1 AND rotation_id = $2', [
      org.organizationId,
      rotationId,
    ]);
    assert.equal(versions[0].n, 5, 'one version per change: created, two members, a third, the new handoff');
  });
});
