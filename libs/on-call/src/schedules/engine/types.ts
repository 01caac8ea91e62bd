/**
 * Input and output of the schedule engine (docs/schedules.md). Attribute names are the
 * reference's (schedule_rotation, schedule_rotation_user, schedule_rotation_active_day,
 * override_shift, on_call_shadow, shift), so the HTTP resources hand their records over as they
 * are. Instants are RFC 3339 strings; local times are "HH:MM" (or "HH:MM:SS") in the rotation's
 * IANA zone. User ids are integers as in the reference.
 */

/**
 * The reference's day letters, in its enum's order Sunday to Saturday: S(unday) M T W R(Thursday)
 * F (Sat)U(rday), as the rotation resources read them too.
 */
export type DayLetter = 'S' | 'M' | 'T' | 'W' | 'R' | 'F' | 'U';

export type ScheduleRotationableType =
  | 'ScheduleDailyRotation'
  | 'ScheduleWeeklyRotation'
  | 'ScheduleBiweeklyRotation'
  | 'ScheduleMonthlyRotation'
  | 'ScheduleCustomRotation';

/** The union of the reference's four `schedule_rotationable_attributes` shapes. */
export interface ScheduleRotationableAttributes {
  handoff_time: string;
  /** Weekly and biweekly: a day letter; monthly: `first_day_of_month` or `last_day_of_month`. */
  handoff_day?: DayLetter | 'first_day_of_month' | 'last_day_of_month';
  /** Custom rotations only. */
  shift_length?: number;
  shift_length_unit?: 'hours' | 'days' | 'weeks';
}

export interface ActiveTime {
  start_time: string;
  /** At or before `start_time`: the range ends on the next day ("22:00"–"06:00", "00:00"–"00:00"). */
  end_time: string;
}

/** A schedule_rotation_user. Members take turns in ascending `position`. */
export interface RotationMember {
  user_id: number;
  position: number;
}

/** A schedule_rotation_active_day: the active times of one day when `active_time_type` is `custom`. */
export interface RotationActiveDay {
  day_name: DayLetter;
  active_time_attributes: readonly ActiveTime[];
}

/** Everything about a rotation that decides its shifts; one of these per version. */
export interface RotationConfig {
  /** IANA zone the handoffs and active times are wall-clock times in; default `Etc/UTC`. */
  time_zone?: string;
  schedule_rotationable_type: ScheduleRotationableType;
  schedule_rotationable_attributes: ScheduleRotationableAttributes;
  /** No shift before it; also the anchor of the turn order (docs/schedules.md). */
  start_time?: string | null;
  /** No shift after it. */
  end_time?: string | null;
  /** Default true; false: only `active_days`. */
  active_all_week?: boolean;
  active_days?: readonly DayLetter[];
  /** Default `all_day`; `same_time`: `active_time_attributes` on every active day; `custom`: `active_day_times`. */
  active_time_type?: 'all_day' | 'same_time' | 'custom';
  active_time_attributes?: readonly ActiveTime[];
  active_day_times?: readonly RotationActiveDay[];
  members: readonly RotationMember[];
}

/** An earlier configuration of a rotation, in force from `effective_from` (null: from the beginning). */
export interface RotationVersion extends RotationConfig {
  effective_from: string | null;
}

/**
 * A schedule_rotation with its members and active days. Its own configuration is in force from
 * `effective_from` (null or absent: from the beginning); `history` holds the configurations it
 * replaced, so a change never rewrites shifts that ended before it took effect.
 */
export interface ScheduleRotationInput extends RotationConfig {
  id: string;
  position: number;
  effective_from?: string | null;
  history?: readonly RotationVersion[];
}

/** An override_shift: `user_id` is on call instead of every rotation for [starts_at, ends_at). */
export interface OverrideInput {
  id: string;
  user_id: number;
  starts_at: string;
  ends_at: string;
}

/** An on_call_shadow: `shadow_user_id` mirrors a user's or a schedule's shifts for [starts_at, ends_at). */
export interface ShadowInput {
  id: string;
  shadow_user_id: number;
  shadowable_type: 'User' | 'Schedule';
  shadowable_id: string;
  starts_at: string;
  ends_at: string;
}

export interface ScheduleInput {
  schedule_id: string;
  rotations: readonly ScheduleRotationInput[];
  /** Every override that overlaps a shift reaching into the window; passing all of them is always right. */
  overrides?: readonly OverrideInput[];
  shadows?: readonly ShadowInput[];
  /** The shifts of other schedules that shadows name (`shadowable_type` `Schedule`), by schedule id. */
  other_schedule_shifts?: Readonly<Record<string, readonly Shift[]>>;
  /** Shifts that overlap [from, to) are returned whole. */
  window: { from: string; to: string };
}

/** What the reference's `shift` serves, plus the records a shift came from. */
export interface Shift {
  schedule_id: string;
  /** null for an override. */
  rotation_id: string | null;
  user_id: number;
  /** RFC 3339, UTC, milliseconds. */
  starts_at: string;
  ends_at: string;
  is_override: boolean;
  is_shadow: boolean;
  override_id: string | null;
  shadow_id: string | null;
  /** A shadow shift's mirrored user. */
  shadowed_user_id: number | null;
}
