import { byIdAttribute, byQuery, defineIncludes } from '@taproot/json-api';
import { userRecords } from './references';
import { onCallRoleSchema, roleSchema } from './roles/role.schema';
import { teamSchema } from './teams/team.schema';
import { roleOfUsers } from './users/user-roles';
import { userSchema } from './users/user.schema';

/** `include` on teams: the members (`user_ids`). */
export const TEAM_INCLUDES = defineIncludes(teamSchema, { users: byIdAttribute('user_ids', userRecords) });

/** `include` on users: their roles and the teams they are members of (in the teams' order). */
export const USER_INCLUDES = defineIncludes(userSchema, {
  role: roleOfUsers(roleSchema, 'role_id'),
  on_call_role: roleOfUsers(onCallRoleSchema, 'on_call_role_id'),
  teams: byQuery(
    teamSchema,
    `SELECT m.user_id AS owner_id, g.* FROM groups_read g CROSS JOIN LATERAL unnest(g.user_ids) AS m(user_id)
      WHERE g.organization_id = $1 AND m.user_id = ANY($2::int[]) ORDER BY g.position, g.created_at, g.id`,
  ),
});
