import { existingUserIds } from '@taproot/identity';
import { isUuid, type Queryable } from '@taproot/json-api';
import type { Shift } from '../schedules/engine';
import { teamMembersOf } from '../shared/team-members';
import type { Window } from '../shifts/shift-reader';
import type { PlanLevel } from './escalation-plan';

/** Where shifts come from: the cached `ShiftReader` `/v1/oncalls` uses, or `shiftsOfSchedules` over a database. */
export interface ShiftSource {
  shifts(organizationId: string, scheduleIds: readonly string[], window: Window): Promise<Shift[]>;
}

export interface LevelRecipient {
  userId: number;
  targetType: 'User' | 'Group' | 'Schedule';
  targetId: string;
}

/** Every user of the schedules' rotations, each schedule's in rotation then member order. */
async function rotationUsers(db: Queryable, organizationId: string, scheduleIds: string[]): Promise<Map<string, number[]>> {
  if (scheduleIds.length === 0) return new Map();
  const rows = (await db.query(
    `SELECT r.schedule_id::text AS schedule_id, u.user_id FROM schedule_rotation_users_read u
       JOIN schedule_rotations_read r ON r.organization_id = u.organization_id AND r.id = u.schedule_rotation_id
      WHERE u.organization_id = $1 AND r.schedule_id::text = ANY($2::text[])
      ORDER BY r.position, r.created_at, r.id, u.position, u.created_at, u.id`,
    [organizationId, scheduleIds],
  )) as { schedule_id: string; user_id: number }[];
  const users = new Map<string, number[]>();
  for (const row of rows) users.set(row.schedule_id, [...(users.get(row.schedule_id) ?? []), Number(row.user_id)]);
  return users;
}

/**
 * Who a level's targets reach at `at`, in target order, each user once (first target kept): a
 * user target, that user; a team, its members (`admins`: its admins only; `escalate` is taken as
 * all members until the engine runs team policies); a schedule, who is on call at `at` (primary
 * shifts, as `/v1/oncalls` counts them) or, with the `everyone` strategy, every user of its
 * rotations. Services and chat channels reach no person: the engine notifies no one for them.
 * Only users of the organization are answered.
 */
export async function levelRecipients(db: Queryable, organizationId: string, level: PlanLevel, at: Date, shifts: ShiftSource): Promise<LevelRecipient[]> {
  const targets = level.notification_target_params.map((target) => ({ ...target, id: String(target.id).toLowerCase() }));
  const idsOf = (type: string) => [...new Set(targets.filter((t) => t.type === type).map((t) => t.id))];
  const everyone = level.paging_strategy_configuration_schedule_strategy === 'everyone';
  const scheduleIds = idsOf('schedule').filter(isUuid);
  // One after the other: inside the paging engine's transaction they share its one connection.
  const teams = await teamMembersOf(db, organizationId, idsOf('team'));
  const onCall = everyone ? [] : await shifts.shifts(organizationId, scheduleIds, { from: at, to: new Date(at.getTime() + 1) });
  const members = everyone ? await rotationUsers(db, organizationId, scheduleIds) : new Map<string, number[]>();
  const scheduleUsers = (scheduleId: string) => (everyone ? (members.get(scheduleId) ?? []) : onCall.filter((s) => s.schedule_id === scheduleId && !s.is_shadow).map((s) => s.user_id));

  const found: LevelRecipient[] = [];
  const reach = (userIds: readonly number[], targetType: LevelRecipient['targetType'], targetId: string) => {
    for (const userId of userIds) found.push({ userId, targetType, targetId });
  };
  for (const target of targets) {
    if (target.type === 'user') reach([Number(target.id)], 'User', target.id);
    else if (target.type === 'team') {
      const team = teams.get(target.id);
      reach((target.team_members === 'admins' ? team?.admins : team?.members) ?? [], 'Group', target.id);
    } else if (target.type === 'schedule') reach(scheduleUsers(target.id), 'Schedule', target.id);
  }
  const known = await existingUserIds(db, organizationId, [...new Set(found.map((r) => String(r.userId)))]);
  const seen = new Set<number>();
  return found.filter((r) => known.has(String(r.userId)) && !seen.has(r.userId) && seen.add(r.userId));
}
