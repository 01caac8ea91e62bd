import { CommandHandler } from '@nestjs/cqrs';
import { covers, type PermissionSet } from '@taproot/auth';
import { JsonApiError, toResourceObject, type Queryable, type ResourceObject } from '@taproot/json-api';
import { domainEvent, type EventActor } from '@taproot/messaging';
import { lifecycleEvents, ResourceWriteHandler, type ResourceDefinition, type Row, type WriteContext, type WriteResult } from '@taproot/resources';
import { USER_INCLUDES } from '../includes';
import { assertAssignableRoles } from '../roles/role-assignment';
import { leaveTeams } from '../teams/team-commands';
import { userSchema } from './user.schema';
import { IdentityError, IdentityErrorCode } from '../errors';

/**
 * Users: created outside the event path (sign-up, bootstrap), read from `users_view`, changed and
 * deleted by the commands below on identity's topic. The generic writer cannot write them: their
 * ids are integers and their snapshot is the view's row (full names), not the table's.
 */
export const userDefinition: ResourceDefinition = { schema: userSchema, context: 'identity', table: 'users', includes: USER_INCLUDES };

/** Integer ids only (as in the reference); anything else is a 404 like a missing user. */
export function parseUserId(id: string): number {
  if (!/^[0-9]{1,9}$/.test(id)) throw JsonApiError.notFound(userSchema.type, id);
  return Number(id);
}

/** A user as `users_view` shows it, in the given transaction or pool; 404 when not in the organization. */
export async function findUser(db: Queryable, organizationId: string, id: string): Promise<ResourceObject> {
  const [row] = (await db.query('SELECT * FROM users_view WHERE id = $1 AND organization_id = $2', [parseUserId(id), organizationId])) as Row[];
  if (!row) throw JsonApiError.notFound(userSchema.type, id);
  return toResourceObject(userSchema, row);
}

async function lockUser(ctx: WriteContext, id: string): Promise<Row> {
  const [row] = await ctx.manager.query('SELECT * FROM users WHERE id = $1 AND organization_id = $2 FOR UPDATE', [parseUserId(id), ctx.organizationId]);
  if (!row) throw JsonApiError.notFound(userSchema.type, id);
  return row;
}

/** A user's write as the resource path keeps it: the view's row is the snapshot and the event's payload. */
function userWritten(ctx: WriteContext, kind: 'updated' | 'deleted', user: ResourceObject): WriteResult {
  const snapshot = { id: user.id, ...user.attributes };
  const type = lifecycleEvents(userSchema)[kind];
  return {
    snapshot,
    events: [domainEvent({ type, organizationId: ctx.organizationId, aggregateType: userSchema.type, aggregateId: user.id, actor: ctx.actor, payload: snapshot, occurredAt: ctx.now })],
  };
}

/** Names and role assignment (`update_user`). */
export class ChangeUserCommand {
  readonly definition = userDefinition;
  constructor(
    readonly organizationId: string,
    readonly actor: EventActor,
    /** The caller's: nobody hands out more than they hold. */
    readonly permissions: PermissionSet,
    readonly id: string,
    readonly attributes: Row,
  ) {}
}

export class DeleteUserCommand {
  readonly definition = userDefinition;
  constructor(
    readonly organizationId: string,
    readonly actor: EventActor,
    readonly id: string,
  ) {}
}

@CommandHandler(ChangeUserCommand)
export class ChangeUserHandler extends ResourceWriteHandler {
  execute(c: ChangeUserCommand): Promise<ResourceObject> {
    return this.write(c, async (_writer, ctx, keep) => {
      const current = await lockUser(ctx, c.id);
      const { attributes } = c;
      if ('role_id' in attributes || 'on_call_role_id' in attributes) {
        const roleId = 'role_id' in attributes ? ((attributes.role_id as string | null) ?? null) : ((current.role_id as string | null) ?? null);
        const onCallRoleId = 'on_call_role_id' in attributes ? ((attributes.on_call_role_id as string | null) ?? null) : ((current.on_call_role_id as string | null) ?? null);
        const granted = await assertAssignableRoles(ctx.manager, ctx.organizationId, { roleId, onCallRoleId });
        // Nobody hands out more than they hold (the same rule as API keys).
        if ((roleId !== null || onCallRoleId !== null) && !covers(c.permissions, granted)) {
          throw new IdentityError(IdentityErrorCode.PrivilegeEscalation, 'The roles would grant this user permissions the caller does not have');
        }
      }
      const sets: string[] = [];
      const values: unknown[] = [];
      for (const column of ['first_name', 'last_name', 'role_id', 'on_call_role_id']) {
        if (!(column in attributes)) continue;
        values.push(attributes[column] ?? null);
        sets.push(`${column} = $${values.length}`);
      }
      values.push(ctx.now, current.id, ctx.organizationId);
      await ctx.manager.query(`UPDATE users SET ${[...sets, `updated_at = $${values.length - 2}`].join(', ')} WHERE id = $${values.length - 1} AND organization_id = $${values.length}`, values);
      const user = await findUser(ctx.manager, ctx.organizationId, c.id);
      keep(userWritten(ctx, 'updated', user));
      return user;
    });
  }
}

@CommandHandler(DeleteUserCommand)
export class DeleteUserHandler extends ResourceWriteHandler {
  /**
   * Deletes the user, its API keys (they cascade) and its team memberships (each team changed
   * emits `group.updated`). The organization's last owner is kept: 409.
   */
  execute(c: DeleteUserCommand): Promise<ResourceObject> {
    return this.write(c, async (_writer, ctx, keep) => {
      const current = await lockUser(ctx, c.id);
      if (current.role === 'owner') {
        const [{ owners }] = await ctx.manager.query(`SELECT count(*)::int AS owners FROM users WHERE organization_id = $1 AND role = 'owner'`, [ctx.organizationId]);
        if (owners <= 1) throw new IdentityError(IdentityErrorCode.LastOwner, `User ${c.id} is the organization's only owner and cannot be deleted`);
      }
      const user = await findUser(ctx.manager, ctx.organizationId, c.id);
      const teams = await leaveTeams(ctx, parseUserId(c.id));
      await ctx.manager.query('DELETE FROM users WHERE id = $1 AND organization_id = $2', [current.id, ctx.organizationId]);
      keep(userWritten(ctx, 'deleted', user));
      teams.forEach(keep);
      return user;
    });
  }
}

export const USER_HANDLERS = [ChangeUserHandler, DeleteUserHandler];
