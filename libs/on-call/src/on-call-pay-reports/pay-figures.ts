import type { Shift } from '../schedules/engine';
import { DAY, instantAt, zoneOf } from '../schedules/engine/local-time';

export type PayType = 'hourly' | 'daily';

/** What a report is computed from besides the shifts: its period, zones and rates (docs/on-call-pay-reports.md). */
export interface PayTerms {
  /** First and last calendar day of the period, both included (`YYYY-MM-DD`). */
  start_date: string;
  end_date: string;
  /** The zone the period's days begin and end in. */
  time_zone: string;
  /** Each user's own zone, for `use_responders_time_zone`; a user without one keeps `time_zone`. */
  user_time_zones?: ReadonlyMap<number, string>;
  pay_type: PayType;
  hourly_rate_cents: number;
  daily_rate_cents: number;
  include_shadow: boolean;
}

/** One user's line of a report. */
export interface UserPay {
  user_id: number;
  /** Seconds on call in the period, overlapping shifts (two schedules at once) counted once. */
  total_duration: number;
  /** Days of the period (in the user's zone) with any time on call. */
  days_on_call: number;
  total_pay_cents: number;
}

export interface PayFigures {
  total_duration: number;
  users_count: number;
  total_pay_cents: number;
  users: UserPay[];
}

/** The instants the period's days start at, in `zone`: one per day, then the end of the last day. */
export function dayStarts(startDate: string, endDate: string, zone: string): number[] {
  const iana = zoneOf(zone);
  const first = Date.parse(`${startDate}T00:00:00Z`);
  const last = Date.parse(`${endDate}T00:00:00Z`);
  const starts: number[] = [];
  for (let wall = first; wall <= last + DAY; wall += DAY) starts.push(instantAt(iana, wall));
  return starts;
}

/** Ranges [from, to) clipped to [lo, hi), sorted and merged: time on call once, however many shifts cover it. */
function merged(ranges: readonly [number, number][], lo: number, hi: number): [number, number][] {
  const clipped = ranges
    .map(([from, to]): [number, number] => [Math.max(from, lo), Math.min(to, hi)])
    .filter(([from, to]) => to > from)
    .sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const range of clipped) {
    const previous = out[out.length - 1];
    if (previous && range[0] <= previous[1]) previous[1] = Math.max(previous[1], range[1]);
    else out.push([...range]);
  }
  return out;
}

/** How many of the days (between consecutive `starts`) hold some of the merged ranges. */
function daysTouched(ranges: readonly [number, number][], starts: readonly number[]): number {
  let days = 0;
  let r = 0;
  for (let d = 0; d + 1 < starts.length; d++) {
    while (r < ranges.length && ranges[r][1] <= starts[d]) r++;
    if (r < ranges.length && ranges[r][0] < starts[d + 1]) days++;
  }
  return days;
}

/** Seconds × cents per hour, in cents, rounded half up (integers all the way: exact below 2^53). */
export const hourlyPay = (seconds: number, centsPerHour: number): number => Math.floor((seconds * centsPerHour * 2 + 3_600) / 7_200);

/**
 * A pay report's figures from the shifts of its schedules: per user, the time on call inside the
 * period (shadow shifts only with `include_shadow`), the days touched, and the pay (hourly: the
 * seconds at the hourly rate, rounded half up to the cent per user; daily: the days touched at the
 * daily rate); the report's totals are the users' sums.
 */
export function payFigures(shifts: readonly Shift[], terms: PayTerms): PayFigures {
  const byUser = new Map<number, [number, number][]>();
  for (const shift of shifts) {
    if (shift.is_shadow && !terms.include_shadow) continue;
    const list = byUser.get(shift.user_id) ?? [];
    list.push([Date.parse(shift.starts_at), Date.parse(shift.ends_at)]);
    byUser.set(shift.user_id, list);
  }
  const starts = new Map<string, number[]>();
  const daysIn = (zone: string) => {
    if (!starts.has(zone)) starts.set(zone, dayStarts(terms.start_date, terms.end_date, zone));
    return starts.get(zone)!;
  };
  const users: UserPay[] = [];
  for (const [userId, ranges] of [...byUser].sort((a, b) => a[0] - b[0])) {
    const days = daysIn(terms.user_time_zones?.get(userId) ?? terms.time_zone);
    const onCall = merged(ranges, days[0], days[days.length - 1]);
    if (onCall.length === 0) continue;
    const total_duration = Math.round(onCall.reduce((sum, [from, to]) => sum + (to - from), 0) / 1_000);
    const days_on_call = daysTouched(onCall, days);
    const total_pay_cents = terms.pay_type === 'hourly' ? hourlyPay(total_duration, terms.hourly_rate_cents) : days_on_call * terms.daily_rate_cents;
    users.push({ user_id: userId, total_duration, days_on_call, total_pay_cents });
  }
  const sum = (pick: (u: UserPay) => number) => users.reduce((total, u) => total + pick(u), 0);
  return { total_duration: sum((u) => u.total_duration), users_count: users.length, total_pay_cents: sum((u) => u.total_pay_cents), users };
}
