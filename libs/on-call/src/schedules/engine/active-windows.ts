import type { IANAZone } from 'luxon';
import { DAY, instantAt, startOfDay, timeOfDay, wallAt, weekdayOf, weekdayOfLetter } from './local-time';
import type { ActiveTime, RotationConfig } from './types';

export type Interval = [start: number, end: number];

/** The parts of [start, end) in which a rotation is active, in order, touching parts merged. */
export type ActiveParts = (start: number, end: number) => Interval[];

const WHOLE_DAY: Interval[] = [[0, DAY]];

export function activeParts(config: RotationConfig, zone: IANAZone): ActiveParts {
  const type = config.active_time_type ?? 'all_day';
  const allWeek = config.active_all_week !== false;
  if (allWeek && type === 'all_day') return (start, end) => [[start, end]];

  // Local ranges (milliseconds after the day's midnight) per weekday, 0 = Sunday.
  const byWeekday: Interval[][] = Array.from({ length: 7 }, () => []);
  const days = allWeek ? [0, 1, 2, 3, 4, 5, 6] : (config.active_days ?? []).map(weekdayOfLetter);
  for (const day of new Set(days)) {
    byWeekday[day] = type === 'all_day' ? WHOLE_DAY : ranges(type === 'same_time' ? config.active_time_attributes : timesOf(config, day));
  }

  return (start, end) => {
    const parts: Interval[] = [];
    // From the day before: its ranges may run past midnight.
    for (let day = startOfDay(wallAt(zone, start)) - DAY; day < wallAt(zone, end); day += DAY) {
      for (const [from, to] of byWeekday[weekdayOf(day)]) {
        const s = Math.max(instantAt(zone, day + from), start);
        const e = Math.min(instantAt(zone, day + to), end);
        if (s >= e) continue;
        const last = parts.at(-1);
        if (last && s <= last[1]) last[1] = Math.max(last[1], e);
        else parts.push([s, e]);
      }
    }
    return parts;
  };
}

/** A day listed as active without its own active-day record is active all day. */
function timesOf(config: RotationConfig, weekday: number): readonly ActiveTime[] | undefined {
  return config.active_day_times?.find((d) => weekdayOfLetter(d.day_name) === weekday)?.active_time_attributes ?? [{ start_time: '00:00', end_time: '24:00' }];
}

function ranges(times: readonly ActiveTime[] | undefined): Interval[] {
  return (times ?? [])
    .map(({ start_time, end_time }): Interval => {
      const from = timeOfDay(start_time);
      const to = timeOfDay(end_time);
      return [from, to > from ? to : to + DAY];
    })
    .sort((a, b) => a[0] - b[0]);
}
