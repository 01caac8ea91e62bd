import { ianaZoneOf } from '@taproot/config';
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

/** The IANA zone (Luxon's, over Intl's time-zone data) a stored zone name denotes, IANA or Rails; an unknown name is refused. */
export function zoneOf(name = 'Etc/UTC'): IANAZone {
  let zone = zones.get(name);
  if (!zone) {
    zone = IANAZone.create(ianaZoneOf(name) ?? name);
    if (!zone.isValid) throw new RangeError(`unknown time zone ${JSON.stringify(name)}`);
    zones.set(name, zone);
  }
  return zone;
}

/**
 * A zone's offsets over one span of time: the offset at its start and each transition in it.
 * Asking Intl for an offset costs microseconds and every handoff needs several; a zone's
 * transitions are few (a couple a year), so each span's are found once per process and every
 * later offset is a lookup.
 */
interface OffsetSpan {
  start: number;
  /** Transitions in the span, in order: from `at` on, the offset is `offset` (ms). */
  changes: { at: number; offset: number }[];
  first: number;
}

const SPAN = 30 * DAY;
/** Offsets are sampled this far apart in a span: no zone changes its offset twice within it. */
const SAMPLE = 6 * HOUR;
const MAX_SPANS = 20_000;
const spans = new Map<string, OffsetSpan>();

function spanOf(zone: IANAZone, index: number): OffsetSpan {
  const key = `${zone.name}|${index}`;
  let span = spans.get(key);
  if (span) return span;
  const start = index * SPAN;
  const exact = (ms: number) => zone.offset(ms) * MINUTE;
  const first = exact(start);
  const changes: OffsetSpan['changes'] = [];
  let previous = first;
  for (let at = start + SAMPLE; at <= start + SPAN; at += SAMPLE) {
    const offset = exact(at);
    if (offset === previous) continue;
    // The transition lies in (at - SAMPLE, at]: found to the millisecond by bisection.
    let lo = at - SAMPLE;
    let hi = at;
    while (hi - lo > 1) {
      const mid = lo + Math.floor((hi - lo) / 2);
      if (exact(mid) === previous) lo = mid;
      else hi = mid;
    }
    if (hi < start + SPAN) changes.push({ at: hi, offset });
    previous = offset;
  }
  span = { start, changes, first };
  if (spans.size >= MAX_SPANS) spans.clear();
  spans.set(key, span);
  return span;
}

/** The zone's UTC offset at `instant`, in ms. */
export function offsetAt(zone: IANAZone, instant: number): number {
  const span = spanOf(zone, Math.floor(instant / SPAN));
  let offset = span.first;
  for (const change of span.changes) {
    if (change.at > instant) break;
    offset = change.offset;
  }
  return offset;
}

export function wallAt(zone: IANAZone, instant: number): Wall {
  return instant + offsetAt(zone, instant);
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
  const before = offsetAt(zone, wall - DAY);
  const after = offsetAt(zone, wall + DAY);
  const earlier = wall - Math.max(before, after);
  if (wallAt(zone, earlier) === wall) return earlier;
  const later = wall - Math.min(before, after);
  if (wallAt(zone, later) === wall) return later;
  // In the gap: the transition lies in (wall - after, wall - before]; find it by bisection.
  let lo = wall - after;
  let hi = wall - before;
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (offsetAt(zone, mid) === after) hi = mid;
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
