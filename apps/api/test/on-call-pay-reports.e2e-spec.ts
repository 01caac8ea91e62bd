import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { startTestApi, type TestApi, type TestOrganization } from '../src/testing';
import { created, doc, errorCodes, outboxTypes, pointers, unique, type Attributes } from './support/json-api';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const at = (ms: number) => new Date(ms).toISOString();

/**
 * `/v1/on_call_pay_reports` (docs/on-call-pay-reports.md): the figures computed from a schedule
 * whose shifts are known, a daily rotation of Alice and Bob handing off at 09:00 UTC from D0
 * (ten days ahead: rotations' member changes take effect from when they are made), Carol
 * overriding six hours of Bob's first shift, Dave shadowing Alice on D0. Over D0..D2 in UTC:
 * Alice D0 09:00-D1 09:00 and D2 09:00-24:00 (39 h, 3 days), Bob D1 09:00-D2 09:00 less Carol's
 * D1 12:00-18:00 (18 h, 2 days), Carol 6 h (1 day); Dave's shadow D0 09:00-24:00 (15 h, 1 day).
 */
describe('on-call pay reports', () => {
  let api: TestApi;
  let org: TestOrganization;
  let other: TestOrganization;
  let [alice, bob, carol, dave] = [0, 0, 0, 0];
  let scheduleId: string;
  let emptyScheduleId: string;
  let overrideId: string;
  const d0 = Math.floor(Date.now() / DAY) * DAY + 10 * DAY;
  const PERIOD = { start_date: date(d0), end_date: date(d0 + 2 * DAY) };

  const send = (method: string, path: string, body?: unknown, token = org.token) => api.request(method, path, { token, body });
  const report = (attributes: Attributes, token = org.token) => send('POST', '/v1/on_call_pay_reports', doc('on_call_pay_reports', attributes), token);
  const seconds = (breakdown: { user_id: number; total_duration: number }[]) => Object.fromEntries(breakdown.map((u) => [u.user_id, u.total_duration / 3600]));

  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
    other = await api.newOrganization();
    [alice, bob, carol, dave] = await Promise.all([1, 2, 3, 4].map(() => api.addUser(org.organizationId, { roleKind: 'user' })));
    scheduleId = created(await send('POST', '/v1/schedules', doc('schedules', { name: unique('Pay'), owner_user_id: alice }))).id;
    emptyScheduleId = created(await send('POST', '/v1/schedules', doc('schedules', { name: unique('Empty'), owner_user_id: alice }))).id;
    const rotation = created(
      await send(
        'POST',
        `/v1/schedules/${scheduleId}/schedule_rotations`,
        doc('schedule_rotations', {
          name: 'Daily',
          schedule_rotationable_type: 'ScheduleDailyRotation',
          schedule_rotationable_attributes: { handoff_time: '09:00' },
          time_zone: 'Etc/UTC',
          start_time: at(d0 + 9 * HOUR),
        }),
      ),
    );
    for (const [i, user_id] of [alice, bob].entries()) created(await send('POST', `/v1/schedule_rotations/${rotation.id}/schedule_rotation_users`, doc('schedule_rotation_users', { user_id, position: i + 1 })));
    overrideId = created(
      await send('POST', `/v1/schedules/${scheduleId}/override_shifts`, doc('shifts', { user_id: carol, starts_at: at(d0 + DAY + 12 * HOUR), ends_at: at(d0 + DAY + 18 * HOUR) })),
    ).id;
    created(
      await send(
        'POST',
        `/v1/schedules/${scheduleId}/on_call_shadows`,
        doc('on_call_shadows', { shadow_user_id: dave, shadowable_type: 'User', shadowable_id: String(alice), starts_at: at(d0), ends_at: at(d0 + DAY) }),
      ),
    );
  });
  after(() => api?.close());

  test('a report is generated in its create: time on call per user, hourly pay, shadows left out', async () => {
    const res = await report({ ...PERIOD, schedule_ids: [scheduleId], hourly_rate_cents: 1000 });
    const { id, attributes: a } = created(res);
    assert.equal(a.status, 'generated');
    assert.ok(typeof a.last_generated_at === 'string' && Date.parse(a.last_generated_at) <= Date.now());
    assert.deepEqual(seconds(a.user_breakdown), { [alice]: 39, [bob]: 18, [carol]: 6 });
    assert.deepEqual([a.total_duration, a.users_count, a.total_pay_cents], [63 * 3600, 3, 63_000]);
    assert.deepEqual([a.pay_type, a.currency, a.time_zone, a.include_shadow, a.has_single_rate, a.csv_file_url], ['hourly', 'USD', 'Etc/UTC', false, true, null]);
    assert.deepEqual(await outboxTypes(api, id), ['on_call_pay_report.created']);
    const got = await send('GET', `/v1/on_call_pay_reports/${id}`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.body.data.attributes, a);
  });

  test('include_shadow counts the shadow; daily pay counts the days touched; the report zone moves the days', async () => {
    const shadowed = created(await report({ ...PERIOD, include_shadow: true, hourly_rate_cents: 1000 })).attributes;
    assert.deepEqual(seconds(shadowed.user_breakdown), { [alice]: 39, [bob]: 18, [carol]: 6, [dave]: 15 });
    assert.deepEqual([shadowed.users_count, shadowed.total_pay_cents], [4, 78_000]);
    const daily = created(await report({ ...PERIOD, pay_type: 'daily', daily_rate_cents: 5000 })).attributes;
    assert.deepEqual(
      daily.user_breakdown.map((u: Attributes) => [u.user_id, u.days_on_call]),
      [alice, bob, carol].sort((x, y) => x - y).map((u) => [u, u === alice ? 3 : u === bob ? 2 : 1]),
    );
    assert.equal(daily.total_pay_cents, 6 * 5000);
    // D0..D2 in Tokyo (UTC+9) is D0-1 15:00Z to D2 15:00Z: Alice loses D2's last 9 h.
    const tokyo = created(await report({ ...PERIOD, time_zone: 'Asia/Tokyo' })).attributes;
    assert.deepEqual(seconds(tokyo.user_breakdown), { [alice]: 30, [bob]: 18, [carol]: 6 });
    assert.equal(tokyo.total_pay_cents, 0, 'no rate, no pay');
  });

  test('PUT changes the terms and recomputes; regenerate recomputes with the current shifts', async () => {
    const { id } = created(await report({ ...PERIOD, schedule_ids: [scheduleId], hourly_rate_cents: 1000 }));
    const put = await send('PUT', `/v1/on_call_pay_reports/${id}`, doc('on_call_pay_reports', { pay_type: 'daily', daily_rate_cents: 2500, end_date: date(d0) }));
    assert.equal(put.status, 200, JSON.stringify(put.body));
    // D0 alone: Alice 15 h (09:00-24:00), one day.
    assert.deepEqual([put.body.data.attributes.total_duration, put.body.data.attributes.users_count, put.body.data.attributes.total_pay_cents], [15 * 3600, 1, 2500]);
    await send('PUT', `/v1/on_call_pay_reports/${id}`, doc('on_call_pay_reports', { pay_type: 'hourly', end_date: PERIOD.end_date }));
    assert.equal((await send('DELETE', `/v1/override_shifts/${overrideId}`)).status, 200);
    const before = (await send('GET', `/v1/on_call_pay_reports/${id}`)).body.data.attributes;
    assert.equal(before.users_count, 3, 'a report keeps its figures until regenerated');
    const regenerated = await send('POST', `/v1/on_call_pay_reports/${id}/regenerate`);
    assert.equal(regenerated.status, 200, JSON.stringify(regenerated.body));
    const a = regenerated.body.data.attributes;
    assert.deepEqual(seconds(a.user_breakdown), { [alice]: 39, [bob]: 24 });
    assert.deepEqual([a.users_count, a.total_pay_cents, a.status], [2, 63_000, 'generated']);
    assert.ok(Date.parse(a.last_generated_at) >= Date.parse(before.last_generated_at));
    assert.deepEqual(await outboxTypes(api, id), ['on_call_pay_report.created', 'on_call_pay_report.updated', 'on_call_pay_report.updated', 'on_call_pay_report.updated']);
    // Overrides and shadows are read back as they stand: restore Carol's for the other tests.
    overrideId = created(
      await send('POST', `/v1/schedules/${scheduleId}/override_shifts`, doc('shifts', { user_id: carol, starts_at: at(d0 + DAY + 12 * HOUR), ends_at: at(d0 + DAY + 18 * HOUR) })),
    ).id;
  });

  test('schedule_ids scope the report; none means every schedule of the organization', async () => {
    const empty = created(await report({ ...PERIOD, schedule_ids: [emptyScheduleId], hourly_rate_cents: 1000 })).attributes;
    assert.deepEqual([empty.total_duration, empty.users_count, empty.total_pay_cents, empty.user_breakdown], [0, 0, 0, []]);
  });

  test('the period is bounded: real dates, in order, at most 366 days; nothing is written when refused', async () => {
    const count = async () => Number((await send('GET', '/v1/on_call_pay_reports?page[size]=1')).body.meta.total_count);
    const before = await count();
    const cases: [Attributes, string, string][] = [
      [{ start_date: '2026-01-01', end_date: '2027-01-02' }, '/data/attributes/end_date', 'INVALID_TIME_RANGE'],
      [{ start_date: '2026-01-02', end_date: '2026-01-01' }, '/data/attributes/end_date', 'INVALID_TIME_RANGE'],
      [{ start_date: '2026-02-30', end_date: '2026-03-01' }, '/data/attributes/start_date', 'INVALID_PAY_REPORT'],
      [{ ...PERIOD, time_zone: 'Mars/Olympus' }, '/data/attributes/time_zone', 'INVALID_TIME_ZONE'],
      [{ ...PERIOD, currency: 'usd' }, '/data/attributes/currency', 'INVALID_PAY_REPORT'],
      [{ ...PERIOD, schedule_ids: [scheduleId, '00000000-0000-4000-8000-000000000000'] }, '/data/attributes/schedule_ids/1', 'UNKNOWN_REFERENCE'],
    ];
    for (const [attributes, pointer, code] of cases) {
      const res = await report(attributes);
      assert.equal(res.status, 422, JSON.stringify(res.body));
      assert.deepEqual(pointers(res), [pointer], JSON.stringify(res.body));
      assert.ok(errorCodes(res)[0].includes(code), JSON.stringify(res.body));
    }
    // 366 days, both ends included, is the longest period.
    created(await report({ start_date: '2028-01-01', end_date: '2028-12-31' }));
    assert.equal(await count(), before + 1);
    const { id } = created(await report(PERIOD));
    const longer = await send('PUT', `/v1/on_call_pay_reports/${id}`, doc('on_call_pay_reports', { start_date: '2020-01-01' }));
    assert.equal(longer.status, 422);
    assert.deepEqual(pointers(longer), ['/data/attributes/end_date']);
    assert.equal((await send('GET', `/v1/on_call_pay_reports/${id}`)).body.data.attributes.start_date, PERIOD.start_date);
  });

  test("another organization's report is missing; its schedules are unknown", async () => {
    const { id } = created(await report(PERIOD));
    for (const [method, path, body] of [
      ['GET', `/v1/on_call_pay_reports/${id}`],
      ['PUT', `/v1/on_call_pay_reports/${id}`, doc('on_call_pay_reports', { end_date: PERIOD.start_date })],
      ['POST', `/v1/on_call_pay_reports/${id}/regenerate`],
    ] as const) {
      assert.equal((await send(method, path, body, other.token)).status, 404, `${method} ${path}`);
    }
    assert.ok(!(await send('GET', '/v1/on_call_pay_reports?page[size]=100', undefined, other.token)).body.data.some((r: { id: string }) => r.id === id));
    const theirs = await report({ ...PERIOD, schedule_ids: [scheduleId] }, other.token);
    assert.equal(theirs.status, 422);
    assert.deepEqual(pointers(theirs), ['/data/attributes/schedule_ids/0']);
  });

  test('the list filters by status and creation time', async () => {
    const res = await send('GET', `/v1/on_call_pay_reports?filter[status]=generated&filter[created_at][gte]=${encodeURIComponent(at(Date.now() - HOUR))}&page[size]=100`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.ok(res.body.data.length > 0 && res.body.data.every((r: { attributes: Attributes }) => r.attributes.status === 'generated'));
    assert.equal((await send('GET', '/v1/on_call_pay_reports?filter[status]=processing')).body.data.length, 0);
  });
});
