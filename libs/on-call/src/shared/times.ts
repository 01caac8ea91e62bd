import { ianaZoneOf, TIME_ZONE_NAMES } from '@taproot/config';
import { JsonApiError } from '@taproot/json-api';
import type { Row } from '@taproot/resources';
import { OnCallErrorCode } from '../errors';

/** One refused attribute, as `JsonApiError.invalidAttributes` takes it. */
export interface Issue {
  attribute: string;
  detail: string;
  code: string;
}

export function refuse(issues: Issue[]): void {
  if (issues.length) throw JsonApiError.invalidAttributes(issues);
}

/** The attributes among `names` that `attributes` sets to a name denoting no time zone (`ianaZoneOf`; one that does is stored as sent). */
export function timeZoneIssues(attributes: Row, names: readonly string[]): Issue[] {
  return names
    .filter((name) => typeof attributes[name] === 'string' && ianaZoneOf(attributes[name] as string) === null)
    .map((name) => ({ attribute: name, detail: `${name} must be ${TIME_ZONE_NAMES} (got ${JSON.stringify(attributes[name])})`, code: OnCallErrorCode.InvalidTimeZone }));
}

/**
 * A wall-clock time of day: `HH:MM` or `HH:MM:SS` on 24 hours, `24:00` for the end of a day, and
 * RFC 3339's `full-time` (the reference's `format: time`: `09:30:00Z`, `09:30:00.5+02:00`), stored
 * as sent. Times of a rotation are read in its `time_zone`; an offset in one says nothing more.
 */
const TIME_OF_DAY = /^(([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?|24:00(:00)?)([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)?$/;

export function timeOfDayIssue(pointer: string, value: unknown): Issue | null {
  if (typeof value === 'string' && TIME_OF_DAY.test(value)) return null;
  return { attribute: pointer, detail: `${pointer.replace(/\//g, '.')} must be a time of day as HH:MM or HH:MM:SS (24 hours; got ${JSON.stringify(value)})`, code: OnCallErrorCode.InvalidTimeOfDay };
}

/**
 * The time windows of `attribute` (`[{ start_time, end_time }]`): each time of day given must be
 * `HH:MM`; `required` ones must be there. A window may end before it starts: it runs past midnight.
 */
export function windowIssues(attributes: Row, attribute: string, required: boolean): Issue[] {
  const windows = attributes[attribute];
  if (!Array.isArray(windows)) return [];
  const issues: Issue[] = [];
  for (const [i, window] of windows.entries()) {
    for (const end of ['start_time', 'end_time']) {
      const value = (window as Row)[end];
      if (value === undefined && !required) continue;
      const issue = timeOfDayIssue(`${attribute}/${i}/${end}`, value);
      if (issue) issues.push(issue);
    }
  }
  return issues;
}

/**
 * `ends` must be after `starts`, as they will be stored: the changes over the current record, so
 * an update moving one end is checked against the other. Null ends (open bounds) are not compared.
 */
export function orderIssues(changes: Row, current: Row | null, starts: string, ends: string): Issue[] {
  const value = (name: string) => (name in changes ? changes[name] : current?.[name]);
  const [from, to] = [value(starts), value(ends)];
  if (from == null || to == null) return [];
  if (new Date(to as string).getTime() > new Date(from as string).getTime()) return [];
  const at = ends in changes ? ends : starts;
  return [{ attribute: at, detail: `${ends} must be after ${starts} (${starts} ${new Date(from as string).toISOString()}, ${ends} ${new Date(to as string).toISOString()})`, code: OnCallErrorCode.InvalidTimeRange }];
}
