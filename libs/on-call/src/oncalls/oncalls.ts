import { DateTime } from 'luxon';
import type { Shift } from '../schedules/engine';

/** What `/v1/oncalls` needs of a policy, its paths and levels (their read models). */
export interface PolicyOfOncalls {
  id: string;
  name: string;
}
export interface PathOfOncalls {
  id: string;
  name: string;
  default: boolean | null;
  notification_type: 'audible' | 'quiet' | null;
  path_type: 'escalation' | 'deferral';
}
export interface LevelOfOncalls {
  escalation_policy_id: string;
  escalation_policy_path_id: string | null;
  position: number;
  notification_target_params: { id: string; type: string }[];
}

/** One on-call entry (reference: `oncall`). */
export interface Oncall {
  escalation_policy_id: string;
  escalation_policy_name: string;
  escalation_policy_path_id: string | null;
  escalation_policy_path_name: string | null;
  is_default_path: boolean | null;
  notification_type: 'audible' | 'quiet' | null;
  escalation_level: number;
  schedule_id: string | null;
  schedule_name: string | null;
  user_id: number;
  starts_at: string;
  ends_at: string;
}

export interface OncallSources {
  policies: ReadonlyMap<string, PolicyOfOncalls>;
  paths: ReadonlyMap<string, PathOfOncalls>;
  /** The primary shifts (no shadows) of each schedule a level targets, in the window. */
  shifts: ReadonlyMap<string, readonly Shift[]>;
  scheduleNames: ReadonlyMap<string, string>;
  /** The members of each team a level targets. */
  teamMembers: ReadonlyMap<string, readonly number[]>;
}

/** An entry's times as the reference's `time_zone` asks ("for response times"): the same instants, written with that zone's offset. */
export function answeredIn(entry: Oncall, zone: string | undefined): Oncall {
  if (!zone) return entry;
  const local = (iso: string) => DateTime.fromISO(iso, { zone: 'utc' }).setZone(zone).toISO()!;
  return { ...entry, starts_at: local(entry.starts_at), ends_at: local(entry.ends_at) };
}

/** How `/v1/oncalls` answers: only who is on call first at each level (`earliest`); audible paths first (`audibleFirst`, with filter[notification_types]). */
export interface OncallsOptions {
  earliest?: boolean;
  audibleFirst?: boolean;
}

const AUDIBLE_FIRST: Record<string, number> = { audible: 0, quiet: 1 };

/**
 * Who is on call at each level of each policy in a window: a user target is on call for the whole
 * window, a team target's members too, a schedule target's users for their shifts overlapping it
 * (answered whole, as the shift's own start and end). Services and chat channels page nobody in person: they list no one. A deferral
 * path's levels list no one either (the reference: oncalls of non-deferral paths; a deferral path holds alerts back, it pages nobody).
 * With `earliest`, each (policy, path, level) keeps only its entries that start first.
 */
export function oncallsOf(levels: readonly LevelOfOncalls[], sources: OncallSources, window: { from: string; to: string }, options: OncallsOptions = {}): Oncall[] {
  const entries: Oncall[] = [];
  for (const level of levels) {
    const policy = sources.policies.get(level.escalation_policy_id);
    if (!policy) continue;
    const path = level.escalation_policy_path_id ? sources.paths.get(level.escalation_policy_path_id) : undefined;
    if (path?.path_type === 'deferral') continue;
    const base = {
      escalation_policy_id: policy.id,
      escalation_policy_name: policy.name,
      escalation_policy_path_id: path?.id ?? null,
      escalation_policy_path_name: path?.name ?? null,
      is_default_path: path ? Boolean(path.default) : null,
      notification_type: path?.notification_type ?? null,
      escalation_level: level.position,
    };
    const found: Oncall[] = [];
    const whole = (userId: number) => found.push({ ...base, schedule_id: null, schedule_name: null, user_id: userId, starts_at: window.from, ends_at: window.to });
    for (const target of level.notification_target_params) {
      if (target.type === 'user') whole(Number(target.id));
      else if (target.type === 'team') (sources.teamMembers.get(target.id) ?? []).forEach(whole);
      else if (target.type === 'schedule') {
        for (const shift of sources.shifts.get(target.id) ?? []) {
          if (shift.is_shadow || shift.ends_at <= window.from || shift.starts_at >= window.to) continue;
          found.push({
            ...base,
            schedule_id: target.id,
            schedule_name: sources.scheduleNames.get(target.id) ?? null,
            user_id: shift.user_id,
            starts_at: shift.starts_at,
            ends_at: shift.ends_at,
          });
        }
      }
    }
    const first = found.reduce((min, e) => (e.starts_at < min ? e.starts_at : min), window.to);
    entries.push(...(options.earliest ? found.filter((e) => e.starts_at === first) : found));
  }
  const loudness = (e: Oncall) => (options.audibleFirst ? (AUDIBLE_FIRST[e.notification_type ?? ''] ?? 2) : 0);
  return entries.sort(
    (a, b) =>
      loudness(a) - loudness(b) ||
      a.escalation_policy_name.localeCompare(b.escalation_policy_name) ||
      a.escalation_level - b.escalation_level ||
      a.starts_at.localeCompare(b.starts_at) ||
      a.user_id - b.user_id,
  );
}
