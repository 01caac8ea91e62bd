import { can, forbidden, type Caller } from '@taproot/auth';
import { JsonApiError, type AttributeDef, type ParentDef, type ResourceSchema } from '@taproot/json-api';
import { quoteIdent } from '@taproot/persistence';
import { findParent, type ParentAccess, type ResourceDefinition, type WriteContext } from '@taproot/resources';
import { IdentityErrorCode } from '../errors';

/** Records of a user: created and listed at `/v1/users/{user_id}/<segment>`; users' ids are integers. */
export const underUser = (segment: string): ParentDef => ({ path: '/v1/users', param: 'user_id', attribute: 'user_id', table: 'users', segment, integerIds: true, onParentDelete: 'cascade' });

/** The user a record belongs to; the path decides. */
export const USER_ID: AttributeDef = { type: 'integer', writable: false, description: 'The ID of the user' };

/**
 * A user's contact methods and notification rules are read by whoever may read users (`members`
 * read) and changed by the user themself or by whoever may change users (`members` update: the
 * seeded Owner and Admin). Another user's records are a 403 for anyone else.
 */
export const OF_USER: ParentAccess = {
  find: (db, caller, raw) => findParent(db, underUser(''), caller.organizationId, raw),
  mayWrite(caller: Caller, userId: string) {
    if (caller.userId !== Number(userId) && !can(caller.permissions, 'members', 'update')) throw forbidden({ family: 'members', action: 'update' }, caller, caller.permissions);
  },
};

/** The definition of records of a user (identity's, under `OF_USER`'s rule) stored in `table`. */
export const userRecords = (schema: ResourceSchema, table: string, rules: ResourceDefinition['rules']): ResourceDefinition => ({
  schema,
  context: 'identity',
  table,
  permission: { family: 'members' },
  parentAccess: OF_USER,
  rules,
});

/** A second record of the user with the same value of `attribute` (`caseless`: in any case): 422 naming it. */
export async function uniqueForUser(ctx: WriteContext, table: string, attribute: string, value: string, userId: unknown, id: unknown, caseless = false): Promise<void> {
  const [column, given] = caseless ? [`lower(${quoteIdent(attribute)})`, 'lower($3)'] : [quoteIdent(attribute), '$3'];
  const [taken] = await ctx.manager.query(
    `SELECT id FROM ${quoteIdent(table)} WHERE organization_id = $1 AND user_id = $2 AND ${column} = ${given} AND id IS DISTINCT FROM $4`,
    [ctx.organizationId, userId, value, id ?? null],
  );
  if (taken) throw JsonApiError.invalidAttributes([{ attribute, detail: `user ${String(userId)} already has the ${attribute} ${value}`, code: IdentityErrorCode.Taken }]);
}
