import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { TAPROOT_CONFIG, type TaprootConfig } from '@taproot/config';
import { actorOf, can, forbidden, type Caller, type PermissionSet } from '@taproot/auth';
import { isUuid, JsonApiError, type Queryable } from '@taproot/json-api';
import type { EventActor } from '@taproot/messaging';
import type { ResourceDefinition, Row } from '@taproot/resources';
import { DataSource } from 'typeorm';
import { IncidentsErrorCode } from '../errors';

/** Who acts on incidents, with what they may do: every incident command and read carries it. */
export interface IncidentAccess {
  organizationId: string;
  actor: EventActor;
  /** The acting user (`*_by`, the default creator), as text; null for a key without a user. */
  userId: string | null;
  principal: Caller;
  permissions: PermissionSet;
}

export function incidentAccess(caller: Caller): IncidentAccess {
  return {
    organizationId: caller.organizationId,
    actor: actorOf(caller),
    userId: caller.userId === null ? null : String(caller.userId),
    principal: caller,
    permissions: caller.permissions,
  };
}

/** Private incidents exist only for callers who may read private incidents (docs/incidents.md). */
export const seesPrivate = (access: IncidentAccess): boolean => can(access.permissions, 'private_incidents', 'read');

/** Making an incident private (on create or update) needs that action on private incidents: the 403, or null when the caller has it. */
export function privateRefusal(access: IncidentAccess, action: 'create' | 'update'): JsonApiError | null {
  if (can(access.permissions, 'private_incidents', action)) return null;
  const error = forbidden({ family: 'private_incidents', action }, access.principal, access.permissions);
  // A JsonApiError, not an IncidentsError: the bulk import reports it per item (its errors list).
  return JsonApiError.of(403, 'Forbidden', `Making an incident private needs ${action} on private_incidents. ${error.errors[0]?.detail ?? ''}`.trim(), IncidentsErrorCode.PermissionDenied);
}

/** Throws that 403 unless the caller may make an incident private. */
export function assertMayMakePrivate(access: IncidentAccess, action: 'create' | 'update'): void {
  const refusal = privateRefusal(access, action);
  if (refusal) throw refusal;
}

/**
 * One incident of the caller's organization by uuid or slug, from `table` (the write table inside
 * a command, the read model otherwise). Another organization's incident, and a private one the
 * caller may not see, answer 404 exactly like a missing id.
 */
export async function findIncident(db: Queryable, table: 'incidents' | 'incidents_read', access: IncidentAccess, id: string, forUpdate = false): Promise<Row> {
  const rows = (await db.query(`SELECT * FROM ${table} WHERE ${isUuid(id) ? 'id' : 'slug'} = $1 AND organization_id = $2${forUpdate ? ' FOR UPDATE' : ''}`, [
    isUuid(id) ? id.toLowerCase() : id,
    access.organizationId,
  ])) as Row[];
  const row = rows[0];
  if (!row || (row.private === true && !seesPrivate(access))) throw JsonApiError.notFound('incidents', id);
  return row;
}

/**
 * The base of the incident controllers: they dispatch commands, read with the cursor secret, and
 * hand the request's caller to the private-incident rules.
 */
@Injectable()
export abstract class IncidentRoutes {
  protected readonly cursorSecret: string;

  constructor(
    protected readonly commands: CommandBus,
    protected readonly dataSource: DataSource,
    @Inject(TAPROOT_CONFIG) config: TaprootConfig,
  ) {
    this.cursorSecret = config.cursorSecret;
  }

  protected access(caller: Caller): IncidentAccess {
    return incidentAccess(caller);
  }
}

/** What every command of this context carries: the resource it writes and who acts, with what permissions. */
export abstract class IncidentsCommand {
  constructor(
    readonly definition: ResourceDefinition,
    readonly access: IncidentAccess,
  ) {}
  get organizationId(): string {
    return this.access.organizationId;
  }
  get actor(): EventActor {
    return this.access.actor;
  }
}
