import { ianaZoneOf } from '@taproot/config';
import { hashToken } from '@taproot/auth';
import { userRecords } from '@taproot/identity';
import type { Queryable, ResourceObject } from '@taproot/json-api';
import type { Shift } from '../schedules/engine';
import { shiftsOfSchedules, type Window } from '../shifts/shift-reader';
import { shiftId } from '../shifts/shift-reader';
import type { FeedCalendar, FeedEvent } from './calendar-ics';

const DAY_MS = 24 * 3_600_000;
/** A feed shows the shifts from 30 days back to 90 days ahead (docs/schedules.md, Calendar feeds). */
export const FEED_DAYS = { back: 30, ahead: 90 } as const;

/** The feed's window: whole UTC days around `now`, so every fetch of one day answers the same events. */
export function feedWindow(now: Date): Window {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  return { from: new Date(today - FEED_DAYS.back * DAY_MS), to: new Date(today + FEED_DAYS.ahead * DAY_MS) };
}

/** A user as people know them: the full name, else the e-mail. */
const nameOf = (user: ResourceObject | undefined): string | undefined => (user ? String(user.attributes.full_name || user.attributes.email) : undefined);

interface FeedRow {
  organization_id: string;
  kind: 'schedule' | 'user';
  schedule_id: string | null;
  user_id: number | null;
}

interface VersionZone {
  rotation_id: string;
  effective_from: Date | null;
  time_zone: string | null;
  name: string | null;
}

/**
 * The zone of the rotation version a shift was computed with (shifts are cut where versions
 * change, so one version holds the whole shift), with the rotation's current name. A Rails zone
 * name is told as the IANA zone it denotes: the one calendar clients know (X-WR-TIMEZONE).
 */
function rotationOf(versions: VersionZone[], shift: Shift): { name: string; timeZone: string } | null {
  if (shift.rotation_id === null) return null;
  const inForce = versions.filter((v) => v.rotation_id === shift.rotation_id && (v.effective_from === null || v.effective_from.toISOString() <= shift.starts_at)).at(-1);
  return { name: inForce?.name ?? 'deleted rotation', timeZone: ianaZoneOf(inForce?.time_zone ?? 'Etc/UTC') ?? 'Etc/UTC' };
}

/**
 * The feed of a token, or null (unknown, rotated, deleted, or its schedule or user gone): the
 * feed's row, the schedules' names, their shifts in the window (`shiftsOfSchedules`, as
 * `GET /v1/shifts` computes them), the rotations' zones and the users' names. A user feed is
 * the shifts of every schedule of the organization that are that user's.
 */
export async function readFeed(db: Queryable, token: string, now: Date, host: string): Promise<FeedCalendar | null> {
  const [feed] = (await db.query('SELECT organization_id, kind, schedule_id, user_id FROM calendar_feeds WHERE token_hash = $1', [hashToken(token)])) as FeedRow[];
  if (!feed) return null;
  const org = feed.organization_id;
  const schedules = (await db.query(
    `SELECT id, name FROM schedules_read WHERE organization_id = $1 ${feed.kind === 'schedule' ? 'AND id = $2' : ''} ORDER BY created_at, id`,
    feed.kind === 'schedule' ? [org, feed.schedule_id] : [org],
  )) as { id: string; name: string }[];
  const owner = feed.user_id === null ? undefined : (await userRecords(db, org, [String(feed.user_id)])).get(String(feed.user_id));
  if (feed.kind === 'schedule' ? schedules.length === 0 : !owner) return null;
  const scheduleIds = schedules.map((s) => s.id);
  const shifts = (await shiftsOfSchedules(db, org, scheduleIds, feedWindow(now))).filter((s) => feed.user_id === null || s.user_id === feed.user_id);
  const [versions, users] = await Promise.all([
    db.query(
      `SELECT v.rotation_id, v.effective_from, v.config->>'time_zone' AS time_zone, r.name FROM schedule_rotation_versions v
         LEFT JOIN schedule_rotations_read r ON r.organization_id = v.organization_id AND r.id = v.rotation_id
        WHERE v.organization_id = $1 AND v.rotation_id = ANY($2::uuid[]) AND v.config IS NOT NULL
        ORDER BY v.rotation_id, v.effective_from NULLS FIRST, v.id`,
      [org, [...new Set(shifts.flatMap((s) => (s.rotation_id ? [s.rotation_id] : [])))]],
    ) as Promise<VersionZone[]>,
    userRecords(db, org, [...new Set(shifts.flatMap((s) => (s.shadowed_user_id === null ? [s.user_id] : [s.user_id, s.shadowed_user_id])).map(String))]),
  ]);
  const userName = (id: number) => nameOf(users.get(String(id))) ?? `user ${id}`;
  const scheduleName = new Map(schedules.map((s) => [s.id, s.name]));
  const events: FeedEvent[] = shifts.map((shift) => ({
    id: shiftId(shift),
    shift,
    names: {
      schedule: scheduleName.get(shift.schedule_id) ?? shift.schedule_id,
      user: userName(shift.user_id),
      shadowedUser: shift.shadowed_user_id === null ? null : userName(shift.shadowed_user_id),
      rotation: rotationOf(versions, shift),
    },
  }));
  const name = feed.kind === 'schedule' ? schedules[0].name : `On call: ${nameOf(owner)}`;
  return { name, host, kind: feed.kind, events };
}
