import type { PermissionFamily } from '@taproot/identity';
import type { ResourceSchema } from '@taproot/json-api';
import type { EventActor } from '@taproot/messaging';
import type { EntityManager } from 'typeorm';

/** Who is writing, in which organization: every command carries it. */
export interface WriteContext {
  organizationId: string;
  actor: EventActor;
  manager: EntityManager;
  now: Date;
}

export type Row = Record<string, unknown>;

/**
 * What a context declares about a resource so the platform can run its CRUD path: the
 * declaration, its write table, the context whose topic carries its events, and the
 * business rules that no declaration can express.
 */
export interface ResourceDefinition {
  schema: ResourceSchema;
  /** Bounded context; its events go to that context's topic. */
  context: string;
  /** Write-model table (the TypeORM entity's table). */
  table: string;
  /**
   * The permission family its routes check (list/get read, create, update, delete). Omitted:
   * the family named like the resource type, when there is one (`services`, `severities`).
   */
  permission?: { family: PermissionFamily };
  /**
   * The array attribute (and write-table column) naming the teams that own a record: a team API
   * key may create, update and delete the records its team owns (docs/permissions.md).
   */
  teamOwnership?: { column: string };
  /** Rules run inside the command's transaction; throw a JsonApiError to refuse. */
  rules?: {
    /** May complete or normalise the attributes (e.g. derive slug, assign position). */
    beforeCreate?(attributes: Row, ctx: WriteContext): Promise<Row> | Row;
    beforeUpdate?(current: Row, changes: Row, ctx: WriteContext): Promise<Row> | Row;
    beforeDelete?(current: Row, ctx: WriteContext): Promise<void> | void;
  };
}

/** Wire names of a resource's lifecycle events, e.g. `service.created` (version 1). */
export function lifecycleEvents(schema: ResourceSchema) {
  return {
    created: `${schema.singular}.created`,
    updated: `${schema.singular}.updated`,
    deleted: `${schema.singular}.deleted`,
  } as const;
}
