import { byQuery, type IncludeSource, type ResourceSchema } from '@taproot/json-api';

/**
 * A user's role of one kind, by user id (`owner_id`): the user row names it (`users_view` does
 * not show it). The `include` of users and identity's `onCallRolesOfUsers` port both read it.
 */
export const roleOfUsers = (schema: ResourceSchema, column: 'role_id' | 'on_call_role_id'): IncludeSource =>
  byQuery(
    schema,
    `SELECT u.id AS owner_id, r.* FROM users u JOIN ${schema.readTable} r ON r.organization_id = u.organization_id AND r.id = u.${column}
      WHERE u.organization_id = $1 AND u.id = ANY($2::int[])`,
  );
