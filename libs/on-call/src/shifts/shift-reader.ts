import { createHash } from 'node:crypto';
import type { Queryable } from '@taproot/json-api';
import type { CommitCache } from '@taproot/messaging';
import { computeShifts, type OverrideInput, type ScheduleRotationInput, type ShadowInput, type Shift } from '../schedules/engine';
import { groupBy } from '../shared/group-by';
import type { StoredRotation } from './rotation-history.projection';

/** A window of time, as instants. */
export interface Window {
  from: Date;
  to: Date;
}

/**
 * How far outside the window overrides and shadows are read: shifts are answered whole, so one
 * reaching into the window may start (or end) that far away; the longest built-in rotation is a
 * month, and custom rotations longer than this lose the overrides beyond it (docs/schedules.md).
 */
const REACH_MS = 62 * 24 * 3_600_000;

interface VersionRow {
  schedule_id: string;
  rotation_id: string;
  effective_from: Date | null;
  config: StoredRotation | null;
}

/** The engine's rotations of each schedule from their stored versions (the last one in force now, the rest its history). */
function rotationsBySchedule(rows: VersionRow[]): Map<string, ScheduleRotationInput[]> {
  const byRotation = groupBy(rows, (row) => row.rotation_id);
  const bySchedule = new Map<string, ScheduleRotationInput[]>();
  for (const [rotationId, versions] of byRotation) {
    let previous: StoredRotation | null = null;
    // A deleted rotation's null configuration keeps its last one without members: nobody from then on.
    const configs = versions.map((v) => {
      const config: StoredRotation = v.config ?? { ...(previous as StoredRotation), members: [] };
      previous = config;
      return { ...config, effective_from: v.effective_from?.toISOString() ?? null };
    });
    if (configs.length === 0 || !configs[0].schedule_rotationable_type) continue;
    const current = configs[configs.length - 1];
    const rotation: ScheduleRotationInput = { ...current, id: rotationId, history: configs.slice(0, -1) };
    const scheduleId = versions[0].schedule_id;
    const rotations = bySchedule.get(scheduleId);
    if (rotations) rotations.push(rotation);
    else bySchedule.set(scheduleId, [rotation]);
  }
  return bySchedule;
}

/**
 * The shifts of the organization's schedules `scheduleIds` overlapping the window, ordered by start:
 * three queries (shadows, then rotation versions and overrides) for every schedule at once, then
 * the engine per schedule. A schedule another one shadows is computed first (its primary shifts).
 */
export async function shiftsOfSchedules(db: Queryable, organizationId: string, scheduleIds: readonly string[], window: Window): Promise<Shift[]> {
  if (scheduleIds.length === 0) return [];
  const near = [new Date(window.from.getTime() - REACH_MS), new Date(window.to.getTime() + REACH_MS)];
  const shadows = (await db.query(
    `SELECT id, schedule_id, shadow_user_id, shadowable_type, shadowable_id, starts_at, ends_at FROM on_call_shadows_read
      WHERE organization_id = $1 AND schedule_id = ANY($2::uuid[]) AND ends_at > $3 AND starts_at < $4`,
    [organizationId, scheduleIds, ...near],
  )) as Record<string, unknown>[];
  // A shadow of another schedule copies its shifts: that schedule is read too.
  const read = [...new Set([...scheduleIds, ...shadows.filter((r) => r.shadowable_type === 'Schedule').map((r) => String(r.shadowable_id))])];
  const [versions, overrides] = (await Promise.all([
    db.query(
      `SELECT schedule_id, rotation_id, effective_from, config FROM schedule_rotation_versions
        WHERE organization_id = $1 AND schedule_id = ANY($2::uuid[]) AND (effective_from IS NULL OR effective_from < $3)
        ORDER BY rotation_id, effective_from NULLS FIRST, id`,
      [organizationId, read, window.to],
    ),
    db.query(
      `SELECT id, schedule_id, user_id, starts_at, ends_at FROM override_shifts_read
        WHERE organization_id = $1 AND schedule_id = ANY($2::uuid[]) AND ends_at > $3 AND starts_at < $4`,
      [organizationId, read, ...near],
    ),
  ])) as [VersionRow[], Record<string, unknown>[]];
  const rotations = rotationsBySchedule(versions);
  const iso = (d: unknown) => (d as Date).toISOString();
  const group = <T>(rows: Record<string, unknown>[], map: (r: Record<string, unknown>) => T) =>
    new Map([...groupBy(rows, (r) => String(r.schedule_id))].map(([scheduleId, list]) => [scheduleId, list.map(map)] as const));
  const overridesOf = group<OverrideInput>(overrides, (r) => ({ id: String(r.id), user_id: Number(r.user_id), starts_at: iso(r.starts_at), ends_at: iso(r.ends_at) }));
  const shadowsOf = group<ShadowInput>(shadows, (r) => ({
    id: String(r.id),
    shadow_user_id: Number(r.shadow_user_id),
    shadowable_type: r.shadowable_type as ShadowInput['shadowable_type'],
    shadowable_id: String(r.shadowable_id),
    starts_at: iso(r.starts_at),
    ends_at: iso(r.ends_at),
  }));
  const windowIso = { from: window.from.toISOString(), to: window.to.toISOString() };
  const primaries = new Map<string, Shift[]>();
  const primaryOf = (scheduleId: string) => {
    if (!primaries.has(scheduleId)) {
      const input = { schedule_id: scheduleId, rotations: rotations.get(scheduleId) ?? [], overrides: overridesOf.get(scheduleId) ?? [], window: windowIso };
      primaries.set(scheduleId, computeShifts(input));
    }
    return primaries.get(scheduleId)!;
  };
  const shifts: Shift[] = [];
  for (const scheduleId of scheduleIds) {
    const scheduleShadows = shadowsOf.get(scheduleId) ?? [];
    if (scheduleShadows.length === 0) {
      shifts.push(...primaryOf(scheduleId));
      continue;
    }
    const others = Object.fromEntries(
      scheduleShadows.filter((s) => s.shadowable_type === 'Schedule' && s.shadowable_id !== scheduleId).map((s) => [s.shadowable_id, primaryOf(s.shadowable_id)]),
    );
    shifts.push(
      ...computeShifts({
        schedule_id: scheduleId,
        rotations: rotations.get(scheduleId) ?? [],
        overrides: overridesOf.get(scheduleId) ?? [],
        shadows: scheduleShadows,
        other_schedule_shifts: others,
        window: windowIso,
      }),
    );
  }
  return shifts.sort((a, b) => a.starts_at.localeCompare(b.starts_at) || a.schedule_id.localeCompare(b.schedule_id));
}

/** Shifts are cached per schedule and week (UTC weeks from the epoch): any window is a run of them. */
const BUCKET_MS = 7 * 24 * 3_600_000;
/** What a schedule's shifts depend on: a commit of any of these clears the cache. */
export const SHIFT_INPUTS = /^(schedule|schedule_rotation|schedule_rotation_user|schedule_rotation_active_day|override_shift|on_call_shadow)\./;

/** What makes a shift itself: the same shift computed for two weeks it spans is one. */
const shiftKey = (s: Shift) => [s.schedule_id, s.rotation_id ?? s.override_id, s.shadow_id ?? '', s.user_id, s.starts_at].join('|');

/** A stable id for a computed shift: the same shift gets the same id in every answer (and feed, and coverage request). */
export function shiftId(shift: Shift): string {
  const hex = createHash('sha256').update(shiftKey(shift)).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** The longest window one computation covers: a year and a day (leap years included). */
export const MAX_SPAN_MS = 366 * 24 * 3_600_000;

/**
 * `shiftsOfSchedules` behind a cache of each schedule's shifts per week, which a commit of a
 * schedule change through this process clears (CommitCache; other replicas within its ttl).
 * Schedules are read far more often than changed (who is on call, calendars, paging), and a
 * window's shifts are the union of its weeks' (shifts come whole, so a week's are exact).
 */
export class ShiftReader {
  constructor(
    private readonly db: Queryable,
    private readonly cache: CommitCache<Shift[]>,
    private readonly now: () => number = Date.now,
  ) {}

  async shifts(organizationId: string, scheduleIds: readonly string[], window: Window): Promise<Shift[]> {
    const first = Math.floor(window.from.getTime() / BUCKET_MS);
    const last = Math.ceil(window.to.getTime() / BUCKET_MS);
    const key = (scheduleId: string, bucket: number) => `${organizationId}|${scheduleId}|${bucket}`;
    const now = this.now();
    const cold = scheduleIds.filter((id) => {
      for (let b = first; b < last; b++) if (!this.cache.get(key(id, b), now)) return true;
      return false;
    });
    const found = new Map<string, Shift[]>();
    if (cold.length) {
      const computed = await shiftsOfSchedules(this.db, organizationId, cold, { from: new Date(first * BUCKET_MS), to: new Date(last * BUCKET_MS) });
      for (const shift of computed) {
        const start = Math.max(first, Math.floor(Date.parse(shift.starts_at) / BUCKET_MS));
        const end = Math.min(last, Math.ceil(Date.parse(shift.ends_at) / BUCKET_MS));
        for (let b = start; b < end; b++) {
          const k = key(shift.schedule_id, b);
          const list = found.get(k);
          if (list) list.push(shift);
          else found.set(k, [shift]);
        }
      }
      for (const id of cold) for (let b = first; b < last; b++) this.cache.set(key(id, b), found.get(key(id, b)) ?? [], now);
    }
    const from = window.from.toISOString();
    const to = window.to.toISOString();
    const seen = new Set<string>();
    const shifts: Shift[] = [];
    for (const id of scheduleIds) {
      for (let b = first; b < last; b++) {
        for (const shift of found.get(key(id, b)) ?? this.cache.get(key(id, b), now) ?? []) {
          if (shift.ends_at <= from || shift.starts_at >= to) continue;
          const k = shiftKey(shift);
          if (seen.has(k)) continue;
          seen.add(k);
          shifts.push(shift);
        }
      }
    }
    return shifts.sort((a, b) => (a.starts_at < b.starts_at ? -1 : a.starts_at > b.starts_at ? 1 : a.schedule_id < b.schedule_id ? -1 : a.schedule_id > b.schedule_id ? 1 : 0));
  }
}
