import { existingIds, readIdsMatching, readRecords, type Queryable, type ResourceObject } from '@taproot/json-api';
import { onCallRoleSchema } from './roles/role.schema';
import { teamSchema } from './teams/team.schema';
import { roleOfUsers } from './users/user-roles';
import { userSchema } from './users/user.schema';

/**
 * What contexts may ask of identity about the users and teams their records refer to (an
 * incident's subscribers, its teams), without reading identity's tables themselves. User ids are
 * integers, given and answered as text.
 */

/** Which of `ids` are users of the organization. */
export function existingUserIds(db: Queryable, organizationId: string, ids: readonly string[]): Promise<Set<string>> {
  return existingIds(db, 'users', organizationId, ids, 'integer');
}

/** The users with these ids, serialized as `/v1/users` answers them, by id. */
export function userRecords(db: Queryable, organizationId: string, ids: readonly string[]): Promise<Map<string, ResourceObject>> {
  return readRecords(db, userSchema, organizationId, ids, 'integer');
}

const ON_CALL_ROLE_OF_USERS = roleOfUsers(onCallRoleSchema, 'on_call_role_id');

/**
 * The on-call role of each of the users `userIds` that has one, serialized as `/v1/on_call_roles`
 * answers it, by user id (a shift's `on_call_role`: its user's).
 */
export async function onCallRolesOfUsers(db: Queryable, organizationId: string, userIds: readonly string[]): Promise<Map<string, ResourceObject>> {
  const found = await ON_CALL_ROLE_OF_USERS({ db, organizationId }, userIds.map((id) => ({ id, type: 'users', attributes: {} })));
  return new Map([...found].flatMap(([userId, [role]]) => (role ? [[userId, role] as const] : [])));
}

/** Which of `ids` are teams (`groups`) of the organization (write table: a command sees its own transaction). */
export function existingTeamIds(db: Queryable, organizationId: string, ids: readonly string[]): Promise<Set<string>> {
  return existingIds(db, 'groups', organizationId, ids);
}

/** Ids of every team of the organization, oldest first (a catalog checklist covering all teams; write table). */
export async function teamIdsOf(db: Queryable, organizationId: string): Promise<string[]> {
  const rows = (await db.query('SELECT id::text AS id FROM groups WHERE organization_id = $1 ORDER BY created_at, id', [organizationId])) as { id: string }[];
  return rows.map((r) => r.id);
}

/** The teams with these ids, serialized as `/v1/teams` answers them, by id. */
export function teamRecords(db: Queryable, organizationId: string, ids: readonly string[]): Promise<Map<string, ResourceObject>> {
  return readRecords(db, teamSchema, organizationId, ids);
}

/** Ids of the teams whose name or slug is one of `values` (list filters by team name). */
export function teamIdsNamed(db: Queryable, organizationId: string, values: readonly string[], by: readonly ('name' | 'slug')[] = ['name', 'slug']): Promise<string[]> {
  return readIdsMatching(db, teamSchema, organizationId, by, values);
}
