import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { startTestApi, type TestApi, type TestOrganization, type TestResponse } from '../src/testing';
import { errorCodes, ids, outboxTypes, pointers } from './support/json-api';
import { weeklySchedule } from './support/schedules';

type Attributes = Record<string, unknown>;
type Resource = { id: string; type: string; attributes: Attributes };
const DAY = 24 * 3_600_000;
const request = (attributes: Attributes) => ({ data: { type: 'shift_coverage_requests', attributes } });
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Shift coverage requests (issue 14): a create covers every shift of the range (of `user_id` when
 * given), one request each, under a schedule or on the spec's flat route; list (per schedule and
 * across), get and delete; coverage of another user's shift needs the override permission (422),
 * withdrawing another's request the override update (403); another organization's ids are 404;
 * bad input a 422 naming the attribute; every change is an event in the outbox.
 */
describe('shift coverage requests', () => {
  let api: TestApi;
  let org: TestOrganization;
  let other: TestOrganization;
  let alice: number;
  let bob: number;
  let carol: number;
  let dave: number;
  let aliceKey: string;
  let daveKey: string;
  before(async () => {
    api = await startTestApi();
    [org, other] = [await api.newOrganization(), await api.newOrganization()];
    alice = await api.addUser(org.organizationId, { roleKind: 'user' });
    bob = await api.addUser(org.organizationId, { roleKind: 'user' });
    carol = await api.addUser(org.organizationId, { roleKind: 'user' });
    // An on-call observer: reads schedules, may not take overrides.
    dave = await api.addUser(org.organizationId, { roleKind: 'observer' });
    aliceKey = await api.issueApiKey(org.organizationId, { kind: 'personal', userId: alice });
    daveKey = await api.issueApiKey(org.organizationId, { kind: 'personal', userId: dave });
  });
  after(() => api?.close());

  const send = (method: string, path: string, body?: unknown, token = org.token) => api.request(method, path, { token, body });
  const coverageOf = (scheduleId: string) => `/v1/schedules/${scheduleId}/shift_coverage_requests`;
  /** Two weeks starting a week from now (after the members were added), in midnight UTC: three weekly shifts. */
  const ahead = () => {
    const from = Math.ceil((Date.now() + 7 * DAY) / DAY) * DAY;
    return { starts_at: iso(from), ends_at: iso(from + 14 * DAY) };
  };
  const shiftsOf = async (scheduleId: string, range: { starts_at: string; ends_at: string }): Promise<Resource[]> => {
    const res = await send('GET', `/v1/schedules/${scheduleId}/shifts?from=${range.starts_at}&to=${range.ends_at}&page[size]=100`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data;
  };
  const createdList = (res: TestResponse): Resource[] => {
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data;
  };
  const refused = (res: TestResponse, status: number, pointer: string | undefined, code: string) => {
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.deepEqual(pointers(res), [pointer]);
    assert.match(errorCodes(res)[0], new RegExp(`^${status}/${code}/`));
  };

  test('a create covers each shift of the range, clipped to it; list, get and delete; events in the outbox', async () => {
    const { scheduleId } = await weeklySchedule(api, org.token, { members: [alice, bob], owner: alice });
    const range = ahead();
    const shifts = await shiftsOf(scheduleId, range);
    assert.equal(shifts.length, 3, 'two Monday handoffs in two weeks');

    const made = createdList(await send('POST', coverageOf(scheduleId), request(range)));
    assert.deepEqual(made.map((r) => r.attributes.shift_id), shifts.map((s) => s.id), 'one request per shift, by the shift ids of /v1/shifts');
    const me = (await send('GET', '/v1/users/me')).body.data.id;
    for (const [i, r] of made.entries()) {
      const shift = shifts[i].attributes;
      assert.equal(r.type, 'shift_coverage_requests');
      const a = r.attributes;
      assert.deepEqual(
        [a.schedule_id, a.original_shift_user_id, a.created_by_user_id, a.starts_at, a.ends_at],
        [scheduleId, shift.user_id, Number(me), i === 0 ? range.starts_at : shift.starts_at, i === 2 ? range.ends_at : shift.ends_at],
      );
      assert.deepEqual(a.shift, { ...shift });
      assert.deepEqual([(a.original_shift_user as { data: Resource }).data.id, (a.created_by_user as { data: Resource }).data.id], [String(shift.user_id), me]);
      assert.equal((a.schedule as { data: Resource }).data.id, scheduleId);
    }

    // Only bob's shifts: the middle one.
    const bobs = createdList(await send('POST', coverageOf(scheduleId), request({ ...range, user_id: bob })));
    assert.deepEqual(bobs.map((r) => r.attributes.original_shift_user_id), [bob]);

    const all = [...made, ...bobs].sort((x, y) => String(x.attributes.starts_at).localeCompare(String(y.attributes.starts_at)));
    const listed = await send('GET', coverageOf(scheduleId));
    assert.equal(listed.status, 200);
    assert.deepEqual(new Set(ids(listed)), new Set(all.map((r) => r.id)));
    assert.deepEqual(listed.body.data.map((r: Resource) => r.attributes.starts_at), all.map((r) => r.attributes.starts_at), 'by starts_at');
    assert.equal(listed.body.meta.total_count, 4);
    assert.deepEqual(ids(await send('GET', `${coverageOf(scheduleId)}?filter[original_shift_user_id]=${bob}`)).sort(), [made[1].id, bobs[0].id].sort());
    const flat = await send('GET', `/v1/shift_coverage_requests?filter[schedule_id]=${scheduleId}&page[size]=100`);
    assert.deepEqual(new Set(ids(flat)), new Set(all.map((r) => r.id)), 'the list across schedules');
    assert.deepEqual((await send('GET', `/v1/shift_coverage_requests/${made[0].id}`)).body.data, made[0]);

    const deleted = await send('DELETE', `/v1/shift_coverage_requests/${made[0].id}`);
    assert.equal(deleted.status, 200);
    assert.deepEqual(deleted.body.data, made[0]);
    assert.equal((await send('GET', `/v1/shift_coverage_requests/${made[0].id}`)).status, 404);
    assert.equal((await send('DELETE', `/v1/shift_coverage_requests/${made[0].id}`)).status, 404);
    assert.deepEqual(await outboxTypes(api, made[0].id), ['shift_coverage_request.created', 'shift_coverage_request.deleted']);
    assert.deepEqual(await outboxTypes(api, made[1].id), ['shift_coverage_request.created']);

    // Deleting the schedule withdraws its requests, each with its event.
    assert.equal((await send('DELETE', `/v1/schedules/${scheduleId}`)).status, 200);
    assert.deepEqual(await outboxTypes(api, bobs[0].id), ['shift_coverage_request.created', 'shift_coverage_request.deleted']);
  });

  test('shadow shifts are not covered: they mirror the shifts of the person on call', async () => {
    const { scheduleId } = await weeklySchedule(api, org.token, { members: [alice], owner: alice });
    const range = ahead();
    const shadow = { shadowable_type: 'User', shadowable_id: String(alice), shadow_user_id: bob, ...range };
    assert.equal((await send('POST', `/v1/schedules/${scheduleId}/on_call_shadows`, { data: { type: 'on_call_shadows', attributes: shadow } })).status, 201);
    const shifts = await shiftsOf(scheduleId, range);
    assert.ok(shifts.some((s) => s.attributes.is_shadow && s.attributes.user_id === bob), 'bob shadows alice');
    const made = createdList(await send('POST', coverageOf(scheduleId), request(range)));
    assert.deepEqual(made.map((r) => r.attributes.shift_id), shifts.filter((s) => !s.attributes.is_shadow).map((s) => s.id));
    assert.ok(made.every((r) => r.attributes.original_shift_user_id === alice));
    refused(await send('POST', coverageOf(scheduleId), request({ ...range, user_id: bob })), 422, '/data/attributes/user_id', 'NO_SHIFTS_IN_RANGE');
  });

  test('POST /v1/shift_coverage_requests names the schedule in the body', async () => {
    const { scheduleId } = await weeklySchedule(api, org.token, { members: [alice], owner: alice });
    const made = createdList(await send('POST', '/v1/shift_coverage_requests', request({ ...ahead(), schedule_id: scheduleId })));
    assert.ok(made.length >= 1 && made.every((r) => r.attributes.schedule_id === scheduleId && r.attributes.original_shift_user_id === alice));
    refused(await send('POST', '/v1/shift_coverage_requests', request(ahead())), 422, '/data/attributes/schedule_id', '[A-Z_]+');
    // Under a schedule's path, a body naming another schedule is refused.
    const elsewhere = await weeklySchedule(api, org.token, { members: [alice], owner: alice });
    refused(await send('POST', coverageOf(scheduleId), request({ ...ahead(), schedule_id: elsewhere.scheduleId })), 422, '/data/attributes/schedule_id', 'PARENT_MISMATCH');
  });

  test("anyone reading the schedule covers their own shifts; another user's needs the override permission", async () => {
    const { scheduleId } = await weeklySchedule(api, org.token, { members: [dave, bob], owner: alice });
    const range = ahead();
    const own = createdList(await send('POST', coverageOf(scheduleId), request({ ...range, user_id: dave }), daveKey));
    assert.ok(own.length >= 1 && own.every((r) => r.attributes.original_shift_user_id === dave && r.attributes.created_by_user_id === dave));
    refused(await send('POST', coverageOf(scheduleId), request({ ...range, user_id: bob }), daveKey), 422, '/data/attributes/user_id', 'OVERRIDE_PERMISSION_REQUIRED');
    // Without user_id the range holds bob's shift too.
    refused(await send('POST', coverageOf(scheduleId), request(range), daveKey), 422, '/data/attributes/user_id', 'OVERRIDE_PERMISSION_REQUIRED');
    // Alice's on-call role takes overrides: she may ask for anyone's shift.
    const forDave = createdList(await send('POST', coverageOf(scheduleId), request({ ...range, user_id: dave }), aliceKey));
    const forBob = createdList(await send('POST', coverageOf(scheduleId), request({ ...range, user_id: bob }), aliceKey));

    // Withdrawing: the requester or the covered user may; anyone else needs schedule_override update.
    assert.equal((await send('DELETE', `/v1/shift_coverage_requests/${forBob[0].id}`, undefined, daveKey)).status, 403);
    assert.equal((await send('DELETE', `/v1/shift_coverage_requests/${forDave[0].id}`, undefined, daveKey)).status, 200, 'the covered user');
    assert.equal((await send('DELETE', `/v1/shift_coverage_requests/${own[0].id}`, undefined, daveKey)).status, 200, 'the requester');
    assert.equal((await send('DELETE', `/v1/shift_coverage_requests/${forBob[0].id}`, undefined, aliceKey)).status, 200);

    // A request records who made it: a key acting for no user cannot make one.
    const keyWithoutUser = await api.issueApiKey(org.organizationId, { kind: 'global', userId: null });
    const res = await send('POST', coverageOf(scheduleId), request(range), keyWithoutUser);
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.match(errorCodes(res)[0], /^422\/REQUESTER_REQUIRED\//);
  });

  test("another organization's schedule, request or user answers as missing", async () => {
    const { scheduleId } = await weeklySchedule(api, org.token, { members: [alice], owner: alice });
    const [mine] = createdList(await send('POST', coverageOf(scheduleId), request(ahead())));
    const stranger = await api.addUser(other.organizationId, { roleKind: 'user' });
    const theirs = await weeklySchedule(api, other.token, { members: [stranger], owner: stranger });
    const [foreign] = createdList(await send('POST', coverageOf(theirs.scheduleId), request(ahead()), other.token));

    for (const [method, path, body] of [
      ['GET', coverageOf(scheduleId), undefined],
      ['POST', coverageOf(scheduleId), request(ahead())],
      ['POST', '/v1/shift_coverage_requests', request({ ...ahead(), schedule_id: scheduleId })],
      ['GET', `/v1/shift_coverage_requests/${mine.id}`, undefined],
      ['DELETE', `/v1/shift_coverage_requests/${mine.id}`, undefined],
    ] as const) {
      assert.equal((await send(method, path, body, other.token)).status, 404, `${method} ${path}`);
    }
    assert.ok(!ids(await send('GET', '/v1/shift_coverage_requests?page[size]=100')).includes(foreign.id), 'the list across schedules is the organization’s');
    refused(await send('POST', coverageOf(scheduleId), request({ ...ahead(), user_id: stranger })), 422, '/data/attributes/user_id', 'UNKNOWN_USER');
    assert.equal((await send('GET', `/v1/shift_coverage_requests/${mine.id}`)).status, 200, 'still there');
  });

  test('bad input is a 422 naming the attribute', async () => {
    const { scheduleId } = await weeklySchedule(api, org.token, { members: [alice], owner: alice });
    const { scheduleId: empty } = await weeklySchedule(api, org.token, { members: [], owner: alice });
    const range = ahead();
    const cases: [string, Attributes, string, string][] = [
      [scheduleId, { starts_at: range.ends_at, ends_at: range.starts_at }, '/data/attributes/ends_at', 'INVALID_TIME_RANGE'],
      [scheduleId, { starts_at: iso(Date.now() - 3 * DAY), ends_at: iso(Date.now() - DAY) }, '/data/attributes/ends_at', 'INVALID_TIME_RANGE'],
      [scheduleId, { starts_at: range.starts_at, ends_at: iso(Date.parse(range.starts_at) + 400 * DAY) }, '/data/attributes/ends_at', 'INVALID_TIME_RANGE'],
      [scheduleId, { ...range, user_id: carol }, '/data/attributes/user_id', 'NO_SHIFTS_IN_RANGE'],
      [scheduleId, { ...range, user_id: 987654 }, '/data/attributes/user_id', 'UNKNOWN_USER'],
      [empty, range, '/data/attributes/starts_at', 'NO_SHIFTS_IN_RANGE'],
      [scheduleId, { ends_at: range.ends_at }, '/data/attributes/starts_at', '[A-Z_]+'],
      [scheduleId, { ...range, starts_at: 'soon' }, '/data/attributes/starts_at', '[A-Z_]+'],
      [scheduleId, { ...range, shift_id: 'x' }, '/data/attributes/shift_id', 'UNKNOWN_ATTRIBUTE'],
    ];
    for (const [schedule, attributes, pointer, code] of cases) {
      refused(await send('POST', coverageOf(schedule), request(attributes)), 422, pointer, code);
    }
    assert.deepEqual(ids(await send('GET', coverageOf(scheduleId))), [], 'nothing was stored');
  });
});
