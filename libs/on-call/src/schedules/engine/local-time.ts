import { IANAZone } from 'luxon';
import type { DayLetter } from './types';

export const MINUTE = 60_000;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;

/**
 * A wall-clock date-time in some zone, as the epoch milliseconds of the same calendar date and
 * time read in UTC. Calendar arithmetic on it (add days, find a weekday) is exact: it has no DST.
 */
export type Wall = number;

const zones = new Map<string, IANAZone>();

/** The IANA zone (Luxon's, over Intl's time-zone data); an unknown name is refused. */
export function zoneOf(name = 'Etc/UTC'): IANAZone {
  let zone = zones.get(name);
  if (!zone) {
    zone = IANAZone.create(name);
    if (!zone.isValid) throw new RangeError(`unknown time zone ${JSON.stringify(name)}`);
    zones.set(name, zone);
  }
  return zone;
}

export function wallAt(zone: IANAZone, instant: number): Wall {
  return instant + zone.offset(instant) * MINUTE;
}

/**
 * The instant a wall-clock time names. A time that occurs twice (clocks set back) is the earlier
 * instant, so a repeated hour is counted once; a time that does not occur (clocks set forward) is
 * the first instant after the gap, i.e. the transition itself (02:30 on a spring-forward day that
 * skips 02:00-03:00 is 03:00). Luxon's own DateTime resolution differs on both (later instant;
 * shifted by the gap's length), so the rule is applied here over its zone offsets.
 */
export function instantAt(zone: IANAZone, wall: Wall): number {
  // Offsets a day either side are the ones before and after any transition near `wall`.
  const before = zone.offset(wall - DAY) * MINUTE;
  const after = zone.offset(wall + DAY) * MINUTE;
  const earlier = wall - Math.max(before, after);
  if (wallAt(zone, earlier) === wall) return earlier;
  const later = wall - Math.min(before, after);
  if (wallAt(zone, later) === wall) return later;
  // In the gap: the transition lies in (wall - after, wall - before]; find it by bisection.
  let lo = wall - after;
  let hi = wall - before;
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (zone.offset(mid) * MINUTE === after) hi = mid;
    else lo = mid;
  }
  return hi;
}

export function startOfDay(wall: Wall): Wall {
  return Math.floor(wall / DAY) * DAY;
}

/** 0 = Sunday ... 6 = Saturday. */
export function weekdayOf(wall: Wall): number {
  return new Date(startOfDay(wall)).getUTCDay();
}

const WEEKDAYS: Record<DayLetter, number> = { S: 0, M: 1, T: 2, W: 3, R: 4, F: 5, U: 6 };

export function weekdayOfLetter(letter: string): number {
  const day = WEEKDAYS[letter as DayLetter];
  if (day === undefined) throw new RangeError(`unknown day ${JSON.stringify(letter)}`);
  return day;
}

/**
 * A time of day of the rotation's zone as milliseconds after midnight: `HH:MM` or `HH:MM:SS` (up
 * to `24:00`). The reference's `format: time`
 * may carry an offset (`09:30:00Z`, stored as sent): the rotation's own zone decides the instant,
 * so the offset is ignored.
 */
export function timeOfDay(text: string): number {
  const match = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?$/i.exec(text);
  const ms = match ? ((Number(match[1]) * 60 + Number(match[2])) * 60 + Number(match[3] ?? 0)) * 1000 : NaN;
  if (!match || Number(match[2]) > 59 || Number(match[3] ?? 0) > 59 || !(ms <= DAY)) throw new RangeError(`bad local time ${JSON.stringify(text)}`);
  return ms;
}

export function instantOf(text: string): number {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw new RangeError(`bad date-time ${JSON.stringify(text)}`);
  return ms;
}
