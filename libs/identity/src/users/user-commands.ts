import { CommandHandler } from '@nestjs/cqrs';
import { covers, type PermissionSet } from '@taproot/auth';
import { JsonApiError, toResourceObject, type Queryable, type ResourceObject } from '@taproot/json-api';
import { domainEvent, type EventActor } from '@taproot/messaging';
import { lifecycleEvents, ResourceWriteHandler, type ResourceDefinition, type Row, type WriteContext, type WriteResult } from '@taproot/resources';
import { USER_INCLUDES } from '../includes';
import { assertAssignableRoles } from '../roles/role-assignment';
import { USER_ROLE_KINDS } from '../roles/system-roles';
import { leaveTeams } from '../teams/team-commands';
import { userSchema } from './user.schema';
import { IdentityError, IdentityErrorCode } from '../errors';

/**
 * Users: the organization's owner and applications' service users are created with them (no
 * event); people are added (`taproot user add`, SCIM), changed and deleted by the commands below
 * on identity's topic. The generic writer cannot write them: their ids are integers and their
 * snapshot is the view's row (full names), not the table's.
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
function userWritten(ctx: WriteContext, kind: 'created' | 'updated' | 'deleted', user: ResourceObject): WriteResult {
  const snapshot = { id: user.id, ...user.attributes };
  const type = lifecycleEvents(userSchema)[kind];
  return {
    snapshot,
    events: [domainEvent({ type, organizationId: ctx.organizationId, aggregateType: userSchema.type, aggregateId: user.id, actor: ctx.actor, payload: snapshot, occurredAt: ctx.now })],
  };
}

/** The unique indexes of users, as what they make a second user clash on. */
const UNIQUE_USER_COLUMNS: Record<string, string> = { users_email: 'email', users_external_id: 'external_id' };

/** A second user with the same e-mail (or SCIM externalId) in the organization: 409 naming it. */
async function uniqueUser<T>(attributes: Row, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const e = error as { driverError?: { constraint?: string }; constraint?: string };
    const column = UNIQUE_USER_COLUMNS[e.driverError?.constraint ?? e.constraint ?? ''];
    if (column === undefined) throw error;
    throw new IdentityError(IdentityErrorCode.UserTaken, `A user with ${column} ${JSON.stringify(attributes[column])} already exists in this organization`, `/data/attributes/${column}`);
  }
}

export interface MemberRoles {
  /** The incident response role's kind (`users.role`): owner, admin, user, observer, no_access or custom. */
  kind: string;
  roleId: string;
  onCallRoleId: string;
}

/**
 * The roles of a new member: `role` names one of the organization's incident response roles (its
 * id, slug or name, case-insensitive); none gives the seeded User role, the everyday responder's
 * (docs/permissions.md). The on-call role follows the kind (owner and admin: on-call Admin;
 * custom: on-call User). An unknown name is a 422 on `role` listing the known ones.
 */
export async function memberRoles(db: Queryable, organizationId: string, role: string | null): Promise<MemberRoles> {
  const roles = (await db.query('SELECT id::text AS id, slug, name, system_role FROM roles WHERE organization_id = $1 ORDER BY created_at, id', [organizationId])) as Row[];
  const wanted = role?.toLowerCase();
  const found = roles.find((r) => (wanted === undefined ? r.system_role === 'user' : [r.id, r.slug, String(r.name).toLowerCase()].includes(wanted)));
  if (!found) {
    const known = roles.map((r) => String(r.name)).join(', ');
    const detail = role === null ? 'The organization has no User role (it was deleted): name a role' : `role ${JSON.stringify(role)} is not a role of this organization (its roles: ${known})`;
    throw JsonApiError.invalidAttributes([{ attribute: 'role', detail, code: IdentityErrorCode.UnknownRole }]);
  }
  const kind = String(found.system_role);
  const onCallKind = USER_ROLE_KINDS[kind]?.onCallRole ?? 'user';
  const [onCall] = (await db.query('SELECT id::text AS id FROM on_call_roles WHERE organization_id = $1 AND system_role = $2 ORDER BY created_at LIMIT 1', [organizationId, onCallKind])) as Row[];
  if (!onCall) throw JsonApiError.invalidAttributes([{ attribute: 'role', detail: `The organization has no on-call role of kind ${onCallKind} for a ${kind} role`, code: IdentityErrorCode.UnknownRole }]);
  return { kind, roleId: String(found.id), onCallRoleId: String(onCall.id) };
}

/** A person joins the organization: `user.created`. E-mail unique in the organization (409). */
export class AddUserCommand {
  readonly definition = userDefinition;
  constructor(
    readonly organizationId: string,
    readonly actor: EventActor,
    readonly attributes: { email: string; first_name?: string | null; last_name?: string | null; external_id?: string | null },
    /** From `memberRoles` (decided by whoever adds: the operator's `--role`, the User role otherwise). */
    readonly roles: MemberRoles,
  ) {}
}

/** Names and role assignment (`update_user`); e-mail and external id for provisioning (SCIM). */
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

@CommandHandler(AddUserCommand)
export class AddUserHandler extends ResourceWriteHandler {
  execute(c: AddUserCommand): Promise<ResourceObject> {
    return this.write(c, async (_writer, ctx, keep) => {
      const { email, first_name = null, last_name = null, external_id = null } = c.attributes;
      const name = [first_name, last_name].filter(Boolean).join(' ') || null;
      const [{ id }] = await uniqueUser(c.attributes, () =>
        ctx.manager.query(
          `INSERT INTO users (organization_id, email, name, first_name, last_name, external_id, role, role_id, on_call_role_id, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10) RETURNING id`,
          [ctx.organizationId, email, name, first_name, last_name, external_id, c.roles.kind, c.roles.roleId, c.roles.onCallRoleId, ctx.now],
        ),
      );
      const user = await findUser(ctx.manager, ctx.organizationId, String(id));
      keep(userWritten(ctx, 'created', user));
      return user;
    });
  }
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
      for (const column of ['email', 'first_name', 'last_name', 'external_id', 'role_id', 'on_call_role_id']) {
        if (!(column in attributes)) continue;
        values.push(attributes[column] ?? null);
        sets.push(`${column} = $${values.length}`);
      }
      values.push(ctx.now, current.id, ctx.organizationId);
      await uniqueUser(attributes, () =>
        ctx.manager.query(`UPDATE users SET ${[...sets, `updated_at = $${values.length - 2}`].join(', ')} WHERE id = $${values.length - 1} AND organization_id = $${values.length}`, values),
      );
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

export const USER_HANDLERS = [AddUserHandler, ChangeUserHandler, DeleteUserHandler];
