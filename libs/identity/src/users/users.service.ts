import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, TAPROOT_CONFIG, type Clock, type TaprootConfig } from '@taproot/config';
import {
  JsonApiError,
  listDocument,
  toResourceObject,
  type CollectionDocument,
  type FlatQuery,
  type SingleDocument,
} from '@taproot/json-api';
import { domainEvent, topicOf, UnitOfWork, type DomainEvent } from '@taproot/messaging';
import { DataSource, type EntityManager } from 'typeorm';
import { actorOf, covers, type Caller, type Principal } from '@taproot/auth';
import { assertAssignableRoles } from '../roles/role-assignment';
import { leaveTeams } from '../teams/team-commands';
import { userSchema } from './user.schema';

export const USERS_CONTEXT = 'identity';
export const USER_EVENTS = { updated: 'user.updated', deleted: 'user.deleted' } as const;

type Row = Record<string, unknown>;

/** Integer ids only (as in the reference); anything else is a 404 like a missing user. */
export function parseUserId(id: string): number {
  if (!/^[0-9]{1,9}$/.test(id)) throw JsonApiError.notFound(userSchema.type, id);
  return Number(id);
}

/**
 * `/v1/users`: reads over `users_view` (users are created outside the event path), writes in a
 * unit of work that emits `user.updated` / `user.deleted` on `taproot.identity`.
 */
@Injectable()
export class UsersService {
  private readonly cursorSecret: string;

  constructor(
    private readonly dataSource: DataSource,
    private readonly unitOfWork: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(TAPROOT_CONFIG) config: TaprootConfig,
  ) {
    this.cursorSecret = config.cursorSecret;
  }

  list(organizationId: string, query: FlatQuery): Promise<CollectionDocument> {
    return listDocument({ db: this.dataSource, schema: userSchema, query, organizationId, cursorSecret: this.cursorSecret });
  }

  async get(organizationId: string, id: string, manager: EntityManager | DataSource = this.dataSource): Promise<SingleDocument> {
    const [row] = await manager.query('SELECT * FROM users_view WHERE id = $1 AND organization_id = $2', [parseUserId(id), organizationId]);
    if (!row) throw JsonApiError.notFound(userSchema.type, id);
    return { data: toResourceObject(userSchema, row) };
  }

  /** The caller's own user; a key that belongs to no user has none (404, docs/permissions.md). */
  async me(principal: Principal): Promise<SingleDocument> {
    if (principal.userId === null) {
      throw JsonApiError.of(404, 'Not found', 'This API key does not belong to a user, so there is no current user: use a personal API key or an OAuth token', 'NO_CURRENT_USER');
    }
    return this.get(principal.organizationId, String(principal.userId));
  }

  update(principal: Caller, id: string, attributes: Row): Promise<SingleDocument> {
    return this.unitOfWork.run(async (manager, emitter) => {
      const userId = parseUserId(id);
      const current = await this.lock(manager, principal.organizationId, id, userId);
      if ('role_id' in attributes || 'on_call_role_id' in attributes) {
        const roleId = 'role_id' in attributes ? ((attributes.role_id as string | null) ?? null) : ((current.role_id as string | null) ?? null);
        const onCallRoleId = 'on_call_role_id' in attributes ? ((attributes.on_call_role_id as string | null) ?? null) : ((current.on_call_role_id as string | null) ?? null);
        const granted = await assertAssignableRoles(manager, principal.organizationId, { roleId, onCallRoleId });
        // Nobody hands out more than they hold (the same rule as API keys).
        if ((roleId !== null || onCallRoleId !== null) && !covers(principal.permissions, granted)) {
          throw JsonApiError.of(403, 'Forbidden', 'The roles would grant this user permissions the caller does not have', 'PRIVILEGE_ESCALATION');
        }
      }
      const sets: string[] = [];
      const values: unknown[] = [];
      for (const column of ['first_name', 'last_name', 'role_id', 'on_call_role_id']) {
        if (!(column in attributes)) continue;
        values.push(attributes[column] ?? null);
        sets.push(`${column} = $${values.length}`);
      }
      const now = this.clock.now();
      values.push(now, userId, principal.organizationId);
      await manager.query(`UPDATE users SET ${[...sets, `updated_at = $${values.length - 2}`].join(', ')} WHERE id = $${values.length - 1} AND organization_id = $${values.length}`, values);
      const document = await this.get(principal.organizationId, id, manager);
      emitter.emit(topicOf(USERS_CONTEXT), [this.event(USER_EVENTS.updated, principal, document, now)]);
      return document;
    });
  }

  /**
   * Deletes the user, its API keys (they cascade) and its team memberships (each team changed
   * emits `group.updated`). The organization's last owner is kept: 409.
   */
  delete(principal: Principal, id: string): Promise<SingleDocument> {
    return this.unitOfWork.run(async (manager, emitter) => {
      const userId = parseUserId(id);
      const current = await this.lock(manager, principal.organizationId, id, userId);
      if (current.role === 'owner') {
        const [{ owners }] = await manager.query(`SELECT count(*)::int AS owners FROM users WHERE organization_id = $1 AND role = 'owner'`, [principal.organizationId]);
        if (owners <= 1) throw JsonApiError.of(409, 'Conflict', `User ${id} is the organization's only owner and cannot be deleted`, 'LAST_OWNER');
      }
      const document = await this.get(principal.organizationId, id, manager);
      const now = this.clock.now();
      const teams = await leaveTeams({ organizationId: principal.organizationId, actor: actorOf(principal), manager, now }, userId);
      await manager.query('DELETE FROM users WHERE id = $1 AND organization_id = $2', [userId, principal.organizationId]);
      const events = [this.event(USER_EVENTS.deleted, principal, document, now)];
      emitter.emit(topicOf(USERS_CONTEXT), events);
      if (teams.length) emitter.emit(topicOf(USERS_CONTEXT), teams.flatMap((team) => team.events));
      return document;
    });
  }

  private async lock(manager: EntityManager, organizationId: string, id: string, userId: number): Promise<Row> {
    const [row] = await manager.query('SELECT * FROM users WHERE id = $1 AND organization_id = $2 FOR UPDATE', [userId, organizationId]);
    if (!row) throw JsonApiError.notFound(userSchema.type, id);
    return row;
  }

  private event(type: string, principal: Principal, document: SingleDocument, now: Date): DomainEvent {
    const data = document.data as { id: string; attributes: Row };
    return domainEvent({
      type,
      organizationId: principal.organizationId,
      aggregateType: userSchema.type,
      aggregateId: data.id,
      actor: actorOf(principal),
      payload: { id: data.id, ...data.attributes },
      occurredAt: now,
    });
  }
}

