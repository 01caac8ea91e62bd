import { activeParts } from './active-windows';
import { instantAt, instantOf, wallAt, zoneOf } from './local-time';
import { outsideOverrides, overrideParts, type OverridePart } from './overrides';
import { handoffLattice } from './rotation-periods';
import type { RotationConfig, ScheduleInput, ScheduleRotationInput, ShadowInput, Shift } from './types';

/** A shift in milliseconds, with its place in the output order. */
interface Part {
  start: number;
  end: number;
  /** 0 overrides, then rotations by position, then shadows. */
  rank: number;
  shift: Omit<Shift, 'starts_at' | 'ends_at'>;
}

/**
 * The shifts of a schedule that overlap the window, whole (not cut at the window), ordered by
 * start. Rules: docs/schedules.md. Work is proportional to the shifts produced: each rotation
 * jumps to the period holding the window's start and overrides are sorted once.
 */
export function computeShifts(input: ScheduleInput): Shift[] {
  const from = instantOf(input.window.from);
  const to = instantOf(input.window.to);
  if (!(from < to)) return [];

  const overrides = overrideParts(input.overrides ?? []);
  const parts: Part[] = [];
  const rotations = [...input.rotations].sort((a, b) => a.position - b.position);
  rotations.forEach((rotation, index) => {
    for (const { config, since, until } of versionsOf(rotation)) {
      rotationParts(config, since, until, from, to, (start, end, userId) => {
        // Overrides take the time of every rotation and split the shift they land in.
        for (const [s, e] of outsideOverrides(start, end, overrides)) {
          if (e > from && s < to) parts.push(primary(input.schedule_id, rotation.id, userId, s, e, index + 1));
        }
      });
    }
  });
  for (const o of overrides) {
    if (o.end > from && o.start < to) parts.push(overridePart(input.schedule_id, o));
  }
  const primaries = [...parts];
  for (const shadow of input.shadows ?? []) parts.push(...shadowParts(input, shadow, primaries, rotations.length + 1).filter((p) => p.end > from && p.start < to));

  return parts
    .sort((a, b) => a.start - b.start || a.rank - b.rank || a.end - b.end || a.shift.user_id - b.shift.user_id)
    .map(({ start, end, shift }) => ({ ...shift, starts_at: new Date(start).toISOString(), ends_at: new Date(end).toISOString() }));
}

/** Each configuration with the interval it is in force: from its effective_from until the next one's. */
function versionsOf(rotation: ScheduleRotationInput): Array<{ config: RotationConfig; since: number; until: number }> {
  const at = (effective: string | null | undefined) => (effective == null ? -Infinity : instantOf(effective));
  // A stable sort: of two versions effective at once, the rotation's own (listed last) wins.
  const versions = [...(rotation.history ?? []), rotation].map((config) => ({ config, since: at(config.effective_from) })).sort((a, b) => a.since - b.since);
  return versions.map((v, i) => ({ ...v, until: versions[i + 1]?.since ?? Infinity })).filter((v) => v.since < v.until);
}

/** The one turn order that makes every window agree: handoff 0 is at or before the anchor (docs/schedules.md). */
const EPOCH_WALL = 0; // 1970-01-01T00:00 in the rotation's zone, when it has no start_time

function rotationParts(
  config: RotationConfig,
  since: number,
  until: number,
  from: number,
  to: number,
  emit: (start: number, end: number, userId: number) => void,
): void {
  const members = [...config.members].sort((a, b) => a.position - b.position);
  if (members.length === 0) return;
  const zone = zoneOf(config.time_zone);
  const startTime = config.start_time == null ? undefined : instantOf(config.start_time);
  const first = Math.max(since, startTime ?? -Infinity);
  const last = Math.min(until, config.end_time == null ? Infinity : instantOf(config.end_time));
  const lo = Math.max(first, from);
  const hi = Math.min(last, to);
  if (lo >= hi) return;

  const lattice = handoffLattice(config, startTime === undefined ? EPOCH_WALL : wallAt(zone, startTime));
  const handoff = (j: number) => instantAt(zone, lattice.handoff(j));
  // The period holding `lo`; the wall-clock guess is off by at most one around a DST change.
  let j = lattice.indexAt(wallAt(zone, lo));
  while (handoff(j + 1) <= lo) j++;
  while (handoff(j) > lo) j--;
  const active = activeParts(config, zone);
  for (let start = handoff(j); start < hi; j++) {
    const end = handoff(j + 1);
    const member = members[((j % members.length) + members.length) % members.length];
    const a = Math.max(start, first);
    const b = Math.min(end, last);
    // A period whose handoffs fall on one instant (both in one skipped hour) is empty.
    if (a < b) for (const [s, e] of active(a, b)) emit(s, e, member.user_id);
    start = end;
  }
}

function primary(scheduleId: string, rotationId: string, userId: number, start: number, end: number, rank: number): Part {
  return {
    start,
    end,
    rank,
    shift: { schedule_id: scheduleId, rotation_id: rotationId, user_id: userId, is_override: false, is_shadow: false, override_id: null, shadow_id: null, shadowed_user_id: null },
  };
}

function overridePart(scheduleId: string, { start, end, override }: OverridePart): Part {
  return {
    start,
    end,
    rank: 0,
    shift: { schedule_id: scheduleId, rotation_id: null, user_id: override.user_id, is_override: true, is_shadow: false, override_id: override.id, shadow_id: null, shadowed_user_id: null },
  };
}

/** The shadow user mirrors the shadowed user's (or schedule's) shifts, overrides included, within the shadow's interval. */
function shadowParts(input: ScheduleInput, shadow: ShadowInput, primaries: readonly Part[], rank: number): Part[] {
  const start = instantOf(shadow.starts_at);
  const end = instantOf(shadow.ends_at);
  const mirrored: ReadonlyArray<{ start: number; end: number; shift: Pick<Shift, 'rotation_id' | 'user_id'> }> =
    shadow.shadowable_type === 'User'
      ? primaries.filter((p) => String(p.shift.user_id) === shadow.shadowable_id)
      : shadow.shadowable_id === input.schedule_id
        ? primaries
        : (input.other_schedule_shifts?.[shadow.shadowable_id] ?? [])
            .filter((s) => !s.is_shadow)
            .map((shift) => ({ start: instantOf(shift.starts_at), end: instantOf(shift.ends_at), shift }));
  const parts: Part[] = [];
  for (const m of mirrored) {
    const s = Math.max(m.start, start);
    const e = Math.min(m.end, end);
    if (s >= e) continue;
    parts.push({
      start: s,
      end: e,
      rank,
      shift: {
        schedule_id: input.schedule_id,
        rotation_id: m.shift.rotation_id,
        user_id: shadow.shadow_user_id,
        is_override: false,
        is_shadow: true,
        override_id: null,
        shadow_id: shadow.id,
        shadowed_user_id: m.shift.user_id,
      },
    });
  }
  return parts;
}
