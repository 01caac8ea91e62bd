import { Inject, Injectable } from '@nestjs/common';
import { CommandHandler, QueryHandler } from '@nestjs/cqrs';
import { CLOCK, TAPROOT_CONFIG, type Clock, type TaprootConfig } from '@taproot/config';
import { isUuid, JsonApiError, type CollectionDocument, type FlatQuery, type SingleDocument } from '@taproot/json-api';
import { domainEvent, type DomainEvent } from '@taproot/messaging';
import { ResourceWriteHandler, type ResourceDefinition, type Snapshot } from '@taproot/resources';
import { PG_ERRORS, pgErrorCode } from '@taproot/persistence';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { actorOf, covers, generateApiKeyToken, hashToken, tokenPrefix, type Caller, type Principal } from '@taproot/auth';
import { assertAssignableRoles } from '../roles/role-assignment';
import { ApiKeyReader } from './api-key-reader';
import { graceEnd, invalidAttribute, parseExpiry, scopeOfNewKey } from './api-key-rules';
import {
  apiKeySchema,
  DEFAULT_GRACE_PERIOD_MINUTES,
  DEFAULT_ROTATION_LIFETIME_DAYS,
  toStoredKind,
  toWireKind,
  type ApiKeyKind,
} from './api-key.schema';
import { IdentityError, IdentityErrorCode } from '../errors';


export const API_KEY_EVENTS = {
  created: 'api_key.created',
  updated: 'api_key.updated',
  deleted: 'api_key.deleted',
  rotated: 'api_key.rotated',
} as const;

type Row = Record<string, unknown>;

/** A key as reads and events show it: the reference's `api_key` attributes and the id. */
export interface ApiKeySnapshot {
  id: string;
  name: string;
  description: string | null;
  kind: ApiKeyKind;
  expires_at: string | null;
  grace_period_ends_at: string | null;
  last_used_at: string | null;
  role_id: string | null;
  on_call_role_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface ApiKeyResult {
  snapshot: ApiKeySnapshot;
  /** Only from create and rotate: the one time the token is shown. */
  token?: string;
}

const iso = (value: unknown): string | null => (value instanceof Date ? value.toISOString() : ((value as string | null) ?? null));

function snapshotOf(row: Row): ApiKeySnapshot {
  return {
    id: String(row.id),
    name: row.name as string,
    description: (row.description as string | null) ?? null,
    kind: toWireKind(row.kind as string),
    expires_at: iso(row.expires_at),
    grace_period_ends_at: iso(row.grace_period_ends_at),
    last_used_at: iso(row.last_used_at),
    role_id: (row.role_id as string | null) ?? null,
    on_call_role_id: (row.on_call_role_id as string | null) ?? null,
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}

/**
 * The event of a change: the snapshot plus the key's scope (`user_id`, `group_id`). Built from
 * named fields only, so no token, hash or prefix can reach the outbox.
 */
function eventOf(type: string, principal: Principal, row: Row, now: Date): DomainEvent {
  const snapshot = snapshotOf(row);
  return domainEvent({
    type,
    organizationId: principal.organizationId,
    aggregateType: apiKeySchema.type,
    aggregateId: snapshot.id,
    actor: actorOf(principal),
    payload: { ...snapshot, user_id: (row.user_id as number | null) ?? null, group_id: (row.group_id as string | null) ?? null },
    occurredAt: now,
  });
}

export function apiKeyDocument(result: ApiKeyResult): SingleDocument {
  const { id, ...attributes } = result.snapshot;
  return { data: { id, type: apiKeySchema.type, attributes: result.token === undefined ? attributes : { ...attributes, token: result.token } } };
}


/** A live key of the caller's organization, locked for the change; anything else is a 404. */
async function loadForUpdate(manager: EntityManager, organizationId: string, id: string): Promise<Row> {
  if (!isUuid(id)) throw JsonApiError.notFound(apiKeySchema.type, id);
  const [row] = await manager.query(
    'SELECT * FROM api_keys WHERE id = $1 AND organization_id = $2 AND revoked_at IS NULL FOR UPDATE',
    [id, organizationId],
  );
  if (!row) throw JsonApiError.notFound(apiKeySchema.type, id);
  return row;
}

/** A name taken in the key's kind and scope is the client's error (reference: names are unique there). */
async function uniqueName<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const constraint = (error as { driverError?: { constraint?: string }; constraint?: string }).driverError?.constraint;
    if (pgErrorCode(error) === PG_ERRORS.uniqueViolation && constraint === 'api_keys_name_in_scope') {
      throw invalidAttribute('name', 'name is already used by another API key of this kind and scope', IdentityErrorCode.NameTaken);
    }
    throw error;
  }
}

/**
 * Organization-wide keys act with the roles they are given (none: full access). Each role must
 * be one of the organization's, and the caller must already hold everything the new key would
 * grant: a key can never mint a stronger one. Team keys never create organization keys.
 */
async function assertMayGrant(manager: EntityManager, principal: Caller, attributes: Record<string, unknown>): Promise<void> {
  if (principal.kind === 'team') {
    throw new IdentityError(IdentityErrorCode.Forbidden, 'A team API key cannot create an organization API key');
  }
  const granted = await assertAssignableRoles(manager, principal.organizationId, {
    roleId: (attributes.role_id as string | null | undefined) ?? null,
    onCallRoleId: (attributes.on_call_role_id as string | null | undefined) ?? null,
  });
  if (!covers(principal.permissions, granted) && !(await isOwner(manager, principal))) {
    throw new IdentityError(IdentityErrorCode.PrivilegeEscalation, 'The new key would hold permissions the caller does not have');
  }
}

/** A team key acts for a team of its own organization (ids compared as text: any string is safe). */
async function assertTeamOfOrganization(manager: EntityManager, organizationId: string, groupId: string): Promise<void> {
  const [team] = await manager.query('SELECT 1 FROM groups WHERE organization_id = $1 AND id::text = $2', [organizationId, groupId]);
  if (!team) throw JsonApiError.invalidAttributes([{ attribute: 'group_id', detail: `group_id ${groupId} is not a team of this organization` }]);
}

/** The organization's owner may hand out full access; nobody else holds more than their roles. */
async function isOwner(manager: EntityManager, principal: Principal): Promise<boolean> {
  if (principal.userId === null) return false;
  const [user] = await manager.query('SELECT role FROM users WHERE id = $1 AND organization_id = $2', [principal.userId, principal.organizationId]);
  return user?.role === 'owner';
}

export class CreateApiKeyCommand {
  constructor(
    readonly principal: Caller,
    /** Validated by `parseResourcePayload(newApiKeySchema, ..., 'create')`. */
    readonly attributes: Row,
  ) {}
}

export class UpdateApiKeyCommand {
  constructor(
    readonly principal: Caller,
    readonly id: string,
    /** `name`, `description`, `expires_at`, validated by the controller. */
    readonly attributes: Row,
  ) {}
}

export class DeleteApiKeyCommand {
  constructor(
    readonly principal: Caller,
    readonly id: string,
  ) {}
}

export class RotateApiKeyCommand {
  constructor(
    readonly principal: Caller,
    readonly id: string,
    /** `expires_at`, `grace_period_minutes`, validated by `parseResourcePayload(rotateApiKeySchema, ...)`. */
    readonly attributes: Row,
  ) {}
}

export class ListApiKeysQuery {
  constructor(
    readonly organizationId: string,
    readonly query: FlatQuery,
  ) {}
}

export class GetApiKeyQuery {
  constructor(
    readonly organizationId: string,
    readonly id: string,
  ) {}
}

/** API keys on the one write path; they have no read model of their own (reads go to `api_keys`). */
export const apiKeyDefinition: ResourceDefinition = { schema: apiKeySchema, context: 'identity', table: 'api_keys' };

abstract class ApiKeyChangeHandler<C extends { principal: Principal }> extends ResourceWriteHandler {
  /** One transaction: the row change and its event in the outbox (architecture rule 3). */
  execute(command: C): Promise<ApiKeyResult> {
    const { principal } = command;
    return this.write({ definition: apiKeyDefinition, organizationId: principal.organizationId, actor: actorOf(principal) }, async (_writer, ctx, keep) => {
      const { result, event } = await this.change(ctx.manager, command, ctx.now);
      const announced = eventOf(event.type, principal, event.row, ctx.now);
      keep({ snapshot: announced.payload as Snapshot, events: [announced] });
      return result;
    });
  }

  protected abstract change(manager: EntityManager, command: C, now: Date): Promise<{ result: ApiKeyResult; event: { type: string; row: Row } }>;
}

@CommandHandler(CreateApiKeyCommand)
export class CreateApiKeyHandler extends ApiKeyChangeHandler<CreateApiKeyCommand> {
  protected async change(manager: EntityManager, { principal, attributes }: CreateApiKeyCommand, now: Date) {
    const kind = attributes.kind as ApiKeyKind;
    const expiresAt = parseExpiry(attributes.expires_at, now);
    const scope = scopeOfNewKey(kind, attributes, principal);
    if (kind === 'organization') await assertMayGrant(manager, principal, attributes);
    if (scope.groupId !== null) await assertTeamOfOrganization(manager, principal.organizationId, scope.groupId);
    const token = generateApiKeyToken();
    const [row] = await uniqueName(() =>
      manager.query(
        `INSERT INTO api_keys (id, organization_id, user_id, name, description, kind, group_id, role_id, on_call_role_id,
                               created_by_user_id, token_prefix, token_hash, expires_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14)
         RETURNING *`,
        [
          randomUUID(),
          principal.organizationId,
          scope.userId,
          attributes.name,
          attributes.description ?? null,
          toStoredKind(kind),
          scope.groupId,
          scope.roleId,
          scope.onCallRoleId,
          principal.userId,
          tokenPrefix(token),
          hashToken(token),
          expiresAt,
          now,
        ],
      ),
    );
    return { result: { snapshot: snapshotOf(row), token }, event: { type: API_KEY_EVENTS.created, row } };
  }
}

@CommandHandler(UpdateApiKeyCommand)
export class UpdateApiKeyHandler extends ApiKeyChangeHandler<UpdateApiKeyCommand> {
  protected async change(manager: EntityManager, { principal, id, attributes }: UpdateApiKeyCommand, now: Date) {
    const current = await loadForUpdate(manager, principal.organizationId, id);
    const sets: string[] = [];
    const values: unknown[] = [];
    const set = (column: string, value: unknown) => {
      values.push(value);
      sets.push(`${column} = $${values.length}`);
    };
    if ('name' in attributes) set('name', attributes.name);
    if ('description' in attributes) set('description', attributes.description ?? null);
    if ('expires_at' in attributes) set('expires_at', parseExpiry(attributes.expires_at, now));
    set('updated_at', now);
    values.push(current.id, principal.organizationId);
    const [rows] = await uniqueName(() =>
      manager.query(
        `UPDATE api_keys SET ${sets.join(', ')} WHERE id = $${values.length - 1} AND organization_id = $${values.length} RETURNING *`,
        values,
      ),
    );
    const row = (rows as Row[])[0];
    return { result: { snapshot: snapshotOf(row) }, event: { type: API_KEY_EVENTS.updated, row } };
  }
}

@CommandHandler(DeleteApiKeyCommand)
export class DeleteApiKeyHandler extends ApiKeyChangeHandler<DeleteApiKeyCommand> {
  /** Revocation: the row stays (audit), the token stops authenticating at once, reads no longer see it. */
  protected async change(manager: EntityManager, { principal, id }: DeleteApiKeyCommand, now: Date) {
    const current = await loadForUpdate(manager, principal.organizationId, id);
    const [rows] = await manager.query(
      'UPDATE api_keys SET revoked_at = $1, updated_at = $1 WHERE id = $2 AND organization_id = $3 RETURNING *',
      [now, current.id, principal.organizationId],
    );
    const row = (rows as Row[])[0];
    return { result: { snapshot: snapshotOf(row) }, event: { type: API_KEY_EVENTS.deleted, row } };
  }
}

@CommandHandler(RotateApiKeyCommand)
export class RotateApiKeyHandler extends ApiKeyChangeHandler<RotateApiKeyCommand> {
  /**
   * Self-only (reference, rotateApiKey): the key that authenticated the request gets a new
   * token; its previous token keeps working until `grace_period_ends_at` (default 24 h, the
   * spec's figure; 0 ends it at once), never past the key's old expiry. Only one previous
   * token is kept: rotating again ends the grace of the one before.
   */
  protected async change(manager: EntityManager, { principal, id, attributes }: RotateApiKeyCommand, now: Date) {
    const current = await loadForUpdate(manager, principal.organizationId, id);
    if (principal.apiKeyId !== current.id) {
      throw new IdentityError(IdentityErrorCode.Forbidden, 'An API key can only rotate itself: authenticate with the key being rotated');
    }
    const minutes = (attributes.grace_period_minutes as number | undefined) ?? DEFAULT_GRACE_PERIOD_MINUTES;
    const expiresAt =
      attributes.expires_at === undefined || attributes.expires_at === null
        ? new Date(now.getTime() + DEFAULT_ROTATION_LIFETIME_DAYS * 86_400_000)
        : parseExpiry(attributes.expires_at, now);
    const graceEndsAt = graceEnd(now, minutes, (current.expires_at as Date | null) ?? null);
    const keepPrevious = graceEndsAt.getTime() > now.getTime();
    const token = generateApiKeyToken();
    const [rows] = await manager.query(
      `UPDATE api_keys
          SET token_prefix = $1, token_hash = $2, previous_token_prefix = $3, previous_token_hash = $4,
              grace_period_ends_at = $5, expires_at = $6, updated_at = $7
        WHERE id = $8 AND organization_id = $9
        RETURNING *`,
      [
        tokenPrefix(token),
        hashToken(token),
        keepPrevious ? current.token_prefix : null,
        keepPrevious ? current.token_hash : null,
        graceEndsAt,
        expiresAt,
        now,
        current.id,
        principal.organizationId,
      ],
    );
    const row = (rows as Row[])[0];
    return { result: { snapshot: snapshotOf(row), token }, event: { type: API_KEY_EVENTS.rotated, row } };
  }
}

@Injectable()
abstract class ApiKeyQueryHandler {
  protected readonly reader: ApiKeyReader;
  constructor(dataSource: DataSource, @Inject(TAPROOT_CONFIG) config: TaprootConfig, @Inject(CLOCK) protected readonly clock: Clock) {
    this.reader = new ApiKeyReader(dataSource, config.cursorSecret);
  }
}

@QueryHandler(ListApiKeysQuery)
export class ListApiKeysHandler extends ApiKeyQueryHandler {
  execute(q: ListApiKeysQuery): Promise<CollectionDocument> {
    return this.reader.list(q.organizationId, q.query, this.clock.now());
  }
}

@QueryHandler(GetApiKeyQuery)
export class GetApiKeyHandler extends ApiKeyQueryHandler {
  execute(q: GetApiKeyQuery): Promise<SingleDocument> {
    return this.reader.get(q.organizationId, q.id);
  }
}

export const API_KEY_HANDLERS = [
  CreateApiKeyHandler,
  UpdateApiKeyHandler,
  DeleteApiKeyHandler,
  RotateApiKeyHandler,
  ListApiKeysHandler,
  GetApiKeyHandler,
];
