import type { Shift } from '../schedules/engine';

/** A computed shift for the specs: schedule s1, rotation r1, a primary shift unless `extra` says otherwise. */
export const shift = (user_id: number, starts_at: string, ends_at: string, extra: Partial<Shift> = {}): Shift => ({
  schedule_id: 's1',
  rotation_id: 'r1',
  user_id,
  starts_at,
  ends_at,
  is_override: false,
  is_shadow: false,
  override_id: null,
  shadow_id: null,
  shadowed_user_id: null,
  ...extra,
});
