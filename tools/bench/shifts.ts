/**
 * Section `shifts` of `npm run bench` (issue 14), two ratios in one run:
 *   1. `GET /v1/shifts` for 30 days over 50 schedules (3 rotations of 8 members each, an override
 *      a week) vs a plain list of the same number of rows: `GET /v1/services` of an organization
 *      holding as many services as the window has shifts, same page size, same stack and pool.
 *      Both answer a page of PAGE rows with the total count; the shifts one computes every shift
 *      of the window to order and count them. Ratio of p50 latencies (<= 2.0).
 *   2. The engine alone (computeShifts) on one of those schedules: time per shift of a 365-day
 *      window vs of a 7-day window (<= 1.2), medians of repeated calls.
 * The schedules are made over HTTP, as a client would (members, rotation versions included).
 * See docs/benchmarks.md.
 */
import type { DataSource } from 'typeorm';
import { performance } from 'node:perf_hooks';
import { OperatorUsers } from '@taproot/identity';
import { computeShifts, shiftsOfSchedules, type ScheduleInput } from '@taproot/on-call';
import { createResource, getJson, load, median, progress, qs, ratio, ratioRow, round, type LoadResult, type SummaryRow } from './harness';

export const SHIFTS_MEASURE = 'GET /v1/shifts, 30 days over 50 schedules / plain list of as many rows, p50';
export const MAX_SHIFTS_RATIO = 2.0;
export const SHIFT_SPAN_MEASURE = 'engine: per shift, 365-day window / 7-day window';
export const MAX_SPAN_RATIO = 1.2;

const SCHEDULES = 50;
const MEMBERS = 8;
const PAGE = 100;
const DAY = 24 * 3_600_000;
/** Three kinds of rotation in three zones, so handoffs cross different DST rules. */
const ROTATIONS = [
  { name: 'Weekly New York', schedule_rotationable_type: 'ScheduleWeeklyRotation', schedule_rotationable_attributes: { handoff_time: '09:00', handoff_day: 'M' }, time_zone: 'America/New_York' },
  { name: 'Daily London', schedule_rotationable_type: 'ScheduleDailyRotation', schedule_rotationable_attributes: { handoff_time: '08:00' }, time_zone: 'Europe/London' },
  {
    name: 'Twelve hours Kolkata',
    schedule_rotationable_type: 'ScheduleCustomRotation',
    schedule_rotationable_attributes: { handoff_time: '07:30', shift_length: 12, shift_length_unit: 'hours' },
    time_zone: 'Asia/Kolkata',
  },
];

export interface ShiftsBench {
  totalShifts: number;
  shifts: LoadResult;
  plain: LoadResult;
  engine: { shifts7: number; shifts365: number; usPerShift7: number; usPerShift365: number };
  /** The uncached computation of the whole window (three queries and the engine for 50 schedules), median ms. */
  coldMs: number;
}

/** Median time of `fn` over `rounds` calls, in ms. */
function timed(rounds: number, fn: () => unknown): number {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  return median(times);
}

export async function benchShifts(ds: DataSource, url: string, organizationId: string, token: string, plainOrg: { organizationId: string; token: string }): Promise<ShiftsBench> {
  const users = new OperatorUsers(ds);
  const members: number[] = [];
  for (let i = 0; i < MEMBERS; i++) members.push(Number((await users.add(organizationId, { email: `oncall-${i}@bench.test`, name: `On call ${i}`, role: null })).user_id));
  // The window starts tomorrow: every member joined (a rotation version) before it.
  const from = new Date(Math.ceil((Date.now() + DAY) / DAY) * DAY);
  const to = new Date(from.getTime() + 30 * DAY);
  progress(`shifts: ${SCHEDULES} schedules of ${ROTATIONS.length} rotations x ${MEMBERS} members, weekly overrides, over HTTP`);
  for (let s = 0; s < SCHEDULES; s++) {
    const scheduleId = (await createResource(url, token, '/v1/schedules', 'schedules', { name: `Schedule ${s}`, owner_user_id: members[0] })).id;
    for (const rotation of ROTATIONS) {
      const rotationId = (await createResource(url, token, `/v1/schedules/${scheduleId}/schedule_rotations`, 'schedule_rotations', rotation)).id;
      for (let position = 0; position < MEMBERS; position++) {
        // Each schedule's turn order starts elsewhere, as real teams' do.
        await createResource(url, token, `/v1/schedule_rotations/${rotationId}/schedule_rotation_users`, 'schedule_rotation_users', { user_id: members[(position + s) % MEMBERS], position: position + 1 });
      }
    }
    for (let week = 0; week < 5; week++) {
      const startsAt = new Date(from.getTime() + week * 7 * DAY + ((s % 7) + 1) * DAY);
      await createResource(url, token, `/v1/schedules/${scheduleId}/override_shifts`, 'shifts', { starts_at: startsAt.toISOString(), ends_at: new Date(startsAt.getTime() + 4 * 3_600_000).toISOString(), user_id: members[(s + week) % MEMBERS] });
    }
    if ((s + 1) % 10 === 0) progress(`shifts: ${s + 1} schedules made`);
  }
  const window = { from: from.toISOString(), to: to.toISOString() };
  const path = `/v1/shifts?${qs({ from: window.from, to: window.to, 'page[size]': PAGE })}`;
  const first = await getJson(`${url}${path}`, token);
  if (first.status !== 200) throw new Error(`GET ${path} answered ${first.status}`);
  const totalShifts = Number(first.body.meta.total_count);
  progress(`shifts: ${totalShifts} shifts in the window; seeding as many services for the plain list`);
  await ds.query(
    `WITH made AS (
       INSERT INTO services (id, organization_id, name, slug, position, created_at, updated_at)
       SELECT gen_random_uuid(), $1, 'Plain ' || n, 'plain-' || n, n, now(), now() FROM generate_series(1, $2) AS n RETURNING *)
     INSERT INTO services_read (id, organization_id, name, slug, position, created_at, updated_at) SELECT id, organization_id, name, slug, position, created_at, updated_at FROM made`,
    [plainOrg.organizationId, totalShifts],
  );
  const shifts = await load({ label: `GET /v1/shifts (${totalShifts} shifts)`, url, path, headers: { authorization: `Bearer ${token}` } });
  const plain = await load({ label: `GET /v1/services (${totalShifts} rows)`, url, path: `/v1/services?${qs({ 'page[size]': PAGE })}`, headers: { authorization: `Bearer ${plainOrg.token}` } });

  // What a request costs when the cache is cold (the first after a change, or after the ttl).
  const scheduleIds = ((await ds.query('SELECT id FROM schedules_read WHERE organization_id = $1', [organizationId])) as { id: string }[]).map((r) => r.id);
  const colds: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    await shiftsOfSchedules(ds, organizationId, scheduleIds, { from, to });
    colds.push(performance.now() - t);
  }
  const coldMs = round(median(colds), 1);
  progress(`shifts: uncached computation of the window: ${coldMs} ms (median of 5)`);

  // The engine on one schedule, from the rotations the api stored (its versions) and overrides.
  const [schedule] = await ds.query('SELECT id FROM schedules_read WHERE organization_id = $1 ORDER BY created_at LIMIT 1', [organizationId]);
  const versions: { rotation_id: string; config: Record<string, unknown> }[] = await ds.query(
    'SELECT DISTINCT ON (rotation_id) rotation_id, config FROM schedule_rotation_versions WHERE organization_id = $1 AND schedule_id = $2 ORDER BY rotation_id, id DESC',
    [organizationId, schedule.id],
  );
  const input = (days: number): ScheduleInput => ({
    schedule_id: schedule.id,
    rotations: versions.map((v) => ({ ...(v.config as unknown as ScheduleInput['rotations'][number]), id: v.rotation_id })),
    overrides: [],
    window: { from: window.from, to: new Date(from.getTime() + days * DAY).toISOString() },
  });
  const week = input(7);
  const year = input(365);
  const shifts7 = computeShifts(week).length;
  const shifts365 = computeShifts(year).length;
  const ms7 = timed(400, () => computeShifts(week));
  const ms365 = timed(20, () => computeShifts(year));
  const engine = { shifts7, shifts365, usPerShift7: round((ms7 * 1000) / shifts7, 2), usPerShift365: round((ms365 * 1000) / shifts365, 2) };
  progress(`shifts: engine ${engine.usPerShift7} µs/shift over 7 days (${shifts7}), ${engine.usPerShift365} µs/shift over 365 days (${shifts365})`);
  return { totalShifts, shifts, plain, engine, coldMs };
}

export function shiftsRows(b: ShiftsBench): SummaryRow[] {
  return [
    ratioRow(SHIFTS_MEASURE, `${b.shifts.latencyMs.p50} ms`, `${b.plain.latencyMs.p50} ms`, ratio(b.shifts.latencyMs.p50, b.plain.latencyMs.p50), '<=', MAX_SHIFTS_RATIO),
    // Not a ratio: one caller alone against a p50 under CONNECTIONS callers would flatter it.
    { ...ratioRow('shifts of the window uncached (after a change or the ttl), one caller alone', `${b.coldMs} ms`, '', null), ratioText: '' },
    ratioRow(SHIFT_SPAN_MEASURE, `${b.engine.usPerShift365} µs`, `${b.engine.usPerShift7} µs`, ratio(b.engine.usPerShift365, b.engine.usPerShift7), '<=', MAX_SPAN_RATIO),
  ];
}
