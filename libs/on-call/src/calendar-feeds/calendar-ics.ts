import ical from 'ical-generator';
import { DateTime } from 'luxon';
import type { Shift } from '../schedules/engine';

/** What a shift's event names: its schedule, its user, and its rotation with that rotation's zone (null: an override). */
export interface ShiftNames {
  schedule: string;
  user: string;
  shadowedUser: string | null;
  rotation: { name: string; timeZone: string } | null;
}

/** One VEVENT: a shift, its stable id and the names it is told with. */
export interface FeedEvent {
  id: string;
  shift: Shift;
  names: ShiftNames;
}

export interface FeedCalendar {
  /** X-WR-CALNAME: the schedule's or the user's name. */
  name: string;
  /** The host part of every UID (RFC 5545 §3.8.4.7: globally unique). */
  host: string;
  /** Whose shifts these are: a user feed's summaries name the schedule only. */
  kind: 'schedule' | 'user';
  events: FeedEvent[];
}

const local = (iso: string, zone: string) => DateTime.fromISO(iso, { zone }).toFormat('ccc d LLL yyyy HH:mm');

function summaryOf({ shift, names }: FeedEvent, kind: FeedCalendar['kind']): string {
  const what = shift.is_shadow ? `Shadowing ${names.shadowedUser ?? 'on call'}` : shift.is_override ? 'On call (override)' : 'On call';
  return kind === 'schedule' ? `${names.user}: ${what}: ${names.schedule}` : `${what}: ${names.schedule}`;
}

/** The rotation and its zone, with the shift's local times there: the event's times are UTC. */
function descriptionOf({ shift, names }: FeedEvent): string {
  const who = `${names.user} (user ${shift.user_id})`;
  if (!names.rotation) return `Override in schedule ${names.schedule}: ${who}.`;
  const { name, timeZone } = names.rotation;
  return [
    `Schedule ${names.schedule}, rotation ${name} (time zone ${timeZone}): ${who}${shift.is_shadow ? ', shadowing' : ''}.`,
    `Local time in ${timeZone}: ${local(shift.starts_at, timeZone)} to ${local(shift.ends_at, timeZone)}.`,
  ].join('\n');
}

/**
 * The feed as iCalendar text (RFC 5545): one VEVENT per shift, times in UTC (`...Z`: every client
 * shows them in its own zone), the rotation's zone named in the description and in
 * `X-TAPROOT-TIME-ZONE`, and `X-WR-TIMEZONE` when every rotation of the feed has the same zone.
 * ical-generator does the escaping and line folding.
 */
export function calendarText(feed: FeedCalendar, now: Date): string {
  const calendar = ical({ name: feed.name, prodId: { company: 'Taproot', product: 'On-call', language: 'EN' }, scale: 'GREGORIAN' });
  const zones = new Set(feed.events.flatMap((e) => (e.names.rotation ? [e.names.rotation.timeZone] : [])));
  if (zones.size === 1) calendar.x([['X-WR-TIMEZONE', [...zones][0]]]);
  for (const event of feed.events) {
    const { shift, names } = event;
    calendar.createEvent({
      id: `${event.id}@${feed.host}`,
      start: new Date(shift.starts_at),
      end: new Date(shift.ends_at),
      stamp: now,
      sequence: 0,
      summary: summaryOf(event, feed.kind),
      description: descriptionOf(event),
      x: [
        ['X-TAPROOT-USER-ID', String(shift.user_id)],
        ['X-TAPROOT-SCHEDULE-ID', shift.schedule_id],
        ...(names.rotation ? ([['X-TAPROOT-TIME-ZONE', names.rotation.timeZone]] as [string, string][]) : []),
      ],
    });
  }
  return calendar.toString();
}
