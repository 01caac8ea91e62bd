import { DAY, HOUR, startOfDay, timeOfDay, weekdayOf, weekdayOfLetter, type Wall } from './local-time';
import type { RotationConfig } from './types';

/**
 * A rotation's handoffs as wall-clock times in its zone, numbered from the anchor: handoff 0 is
 * the last one at or before the anchor, so period j = [handoff(j), handoff(j + 1)) belongs to
 * member j mod n and period 0 (cut at the anchor) to the first member.
 */
export interface HandoffLattice {
  handoff(j: number): Wall;
  /** The j whose period holds `wall`, found arithmetically (no walk from the anchor). */
  indexAt(wall: Wall): number;
}

export function handoffLattice(config: RotationConfig, anchor: Wall): HandoffLattice {
  const attributes = config.schedule_rotationable_attributes;
  const time = timeOfDay(attributes.handoff_time);
  const day = startOfDay(anchor);
  switch (config.schedule_rotationable_type) {
    case 'ScheduleDailyRotation':
      return everyStep(day + time, DAY, DAY, anchor);
    case 'ScheduleWeeklyRotation':
    case 'ScheduleBiweeklyRotation': {
      const back = (weekdayOf(anchor) - weekdayOfLetter(String(attributes.handoff_day)) + 7) % 7;
      const weeks = config.schedule_rotationable_type === 'ScheduleWeeklyRotation' ? 1 : 2;
      return everyStep(day - back * DAY + time, 7 * DAY, weeks * 7 * DAY, anchor);
    }
    case 'ScheduleMonthlyRotation':
      return monthly(attributes.handoff_day, time, anchor);
    case 'ScheduleCustomRotation': {
      const length = attributes.shift_length ?? 0;
      if (!Number.isInteger(length) || length < 1) throw new RangeError(`bad shift_length ${attributes.shift_length}`);
      switch (attributes.shift_length_unit) {
        case 'hours':
          // Every `length` hours through handoff_time: 12 hours from "09:00" hands off at 09:00 and 21:00.
          return everyStep(day + time, length * HOUR, length * HOUR, anchor);
        case 'days':
          return everyStep(day + time, DAY, length * DAY, anchor);
        case 'weeks':
          return everyStep(day + time, DAY, length * 7 * DAY, anchor);
        default:
          throw new RangeError(`bad shift_length_unit ${attributes.shift_length_unit}`);
      }
    }
    default:
      throw new RangeError(`bad schedule_rotationable_type ${config.schedule_rotationable_type}`);
  }
}

/** Handoffs `step` apart from the last match of the pattern (`candidate` + k * `pattern`) at or before the anchor. */
function everyStep(candidate: Wall, pattern: number, step: number, anchor: Wall): HandoffLattice {
  const base = candidate + Math.floor((anchor - candidate) / pattern) * pattern;
  return {
    handoff: (j) => base + j * step,
    indexAt: (wall) => Math.floor((wall - base) / step),
  };
}

/** The first or last day of each month; the last day follows the month's length (28 to 31). */
function monthly(handoffDay: string | undefined, time: number, anchor: Wall): HandoffLattice {
  if (handoffDay !== 'first_day_of_month' && handoffDay !== 'last_day_of_month') throw new RangeError(`bad monthly handoff_day ${handoffDay}`);
  const last = handoffDay === 'last_day_of_month';
  // Date.UTC normalizes month overflow, and day 0 of the next month is this month's last day.
  const at = (month: number) => (last ? Date.UTC(1970, month + 1, 0) : Date.UTC(1970, month, 1)) + time;
  const monthOf = (wall: Wall) => {
    const date = new Date(wall);
    return (date.getUTCFullYear() - 1970) * 12 + date.getUTCMonth();
  };
  const indexFrom = (origin: number, wall: Wall) => {
    const month = monthOf(wall);
    return month - origin - (at(month) > wall ? 1 : 0);
  };
  const first = indexFrom(0, anchor);
  return { handoff: (j) => at(first + j), indexAt: (wall) => indexFrom(first, wall) };
}
