import type { Caller, CrudAction, PermissionFamily } from '@taproot/auth';
import type { IncludeSources, ListFilter, Queryable, ResourceSchema } from '@taproot/json-api';
import type { DomainEvent, EventActor } from '@taproot/messaging';
import type { EntityManager } from 'typeorm';

/** Who is writing, in which organization: every command carries it. */
export interface WriteContext {
  organizationId: string;
  actor: EventActor;
  /**
   * The acting user (integer id as text) of a create or update through the generic path, for rules
   * that record who created, assigned or last changed; null for a key without a user, absent where a
   * command does not say.
   */
  userId?: string | null;
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
  permission?: {
    family: PermissionFamily;
    /**
     * The action every write route checks instead of its own: writing these records changes
     * another one (an incident's action items: `update` on incidents, as its timeline). A map
     * replaces the actions it names only: a family without `delete` (`schedule_override`:
     * create, update) withdraws an override with `update`.
     */
    writes?: CrudAction | Partial<Record<'create' | 'update' | 'delete', CrudAction>>;
    /**
     * The permission list/get check instead of `read` on the family: a family without `read`
     * (on-call `alert_sources`) is read with another one (`alerts` read).
     */
    reads?: { family: PermissionFamily; action: CrudAction };
  };
  /**
   * The array attribute (and write-table column) naming the teams that own a record: a team API
   * key may create, update and delete the records its team owns (docs/permissions.md).
   */
  teamOwnership?: { column: string };
  /**
   * Parents that some callers of the organization may not see (private incidents), decided by
   * the parent's context: such a parent answers 404 on its nested routes, its records answer 404
   * on theirs (read, changed or deleted) and are left out of the list across parents.
   */
  parentAccess?: ParentAccess;
  /**
   * Where the records of each relationship the declaration lists come from (`defineIncludes`),
   * read by the list and get routes for `include`; contexts' ports for records of another context.
   */
  includes?: IncludeSources;
  /**
   * Resources declared under this one (their `schema.parent.table` is this table), of the same
   * context: deleting a record deletes theirs first, each through the generic delete with its
   * `*.deleted` event in the same transaction (a schedule's rotations, a rotation's members), and
   * so do the records a `ChildReference` names. A function, so definitions may name each other in
   * any order.
   */
  children?: () => readonly (ResourceDefinition | ChildReference)[];
  /**
   * A bulk upsert item as the resource takes it, before it is checked as a create or update: what
   * the reference's bulk documents carry beside the attributes (catalog `fields`, merged into
   * `properties`). `current` is the record the item updates (none: it creates under `parentId`).
   */
  bulkInput?(input: Row, current: Row | undefined, ctx: WriteContext, parentId: string | null): Promise<Row>;
  /** Rules run inside the command's transaction; throw a JsonApiError to refuse. */
  rules?: {
    /** May complete or normalise the attributes (e.g. derive slug, assign position). */
    beforeCreate?(attributes: Row, ctx: WriteContext): Promise<Row> | Row;
    beforeUpdate?(current: Row, changes: Row, ctx: WriteContext): Promise<Row> | Row;
    /**
     * May refuse, or change other records first through their writers (a catalog property's
     * values on the records that hold them): the events it answers go out with the delete's.
     */
    beforeDelete?(current: Row, ctx: WriteContext): Promise<void | DomainEvent[]> | void | DomainEvent[];
    /**
     * Runs after an update, in its transaction, with the stored row and the one it replaced: may
     * change other records through their writers (a renamed stage in the templates that show its
     * name); the events it answers go out after the update's.
     */
    afterUpdate?(updated: Row, previous: Row, ctx: WriteContext): Promise<DomainEvent[]>;
    /** Runs before a list is read (a feature the organization must have); throw a JsonApiError to refuse. */
    beforeList?(organizationId: string, db: Queryable): Promise<void>;
    /**
     * Events that follow a create (`previous` null) or an update, after its lifecycle event and in
     * its transaction (an e-mail address created or changed asks for its verification).
     */
    announce?(snapshot: Row & { id: string }, previous: Row | null, ctx: WriteContext): DomainEvent[];
  };
}

/**
 * Records of another resource that name this one in `attribute` without living under it (an
 * escalation level names its path; it lives under the policy): deleted with it, each with its event.
 */
export interface ChildReference {
  definition: ResourceDefinition;
  attribute: string;
}

export interface ParentAccess {
  /**
   * The parent a route names (its id, or what else its own routes accept, such as a slug), as
   * this caller may see it: its id; a 404 otherwise. A record is visible when its parent is.
   */
  find(db: Queryable, caller: Caller, raw: string): Promise<string>;
  /**
   * Conditions on `schema.parent.attributes` that leave the records of the parents this caller
   * may not see out of the list across parents; needed when the resource serves that list.
   */
  listScope?(caller: Caller): ListFilter[];
  /**
   * Who may create, change and delete the records of a parent (a user's contact methods: the user
   * or an administrator): throws a 403 otherwise. Replaces the family's write checks.
   */
  mayWrite?(caller: Caller, parentId: string): void;
}

/** Wire names of a resource's lifecycle events, e.g. `service.created` (version 1). */
export function lifecycleEvents(schema: ResourceSchema) {
  return {
    created: `${schema.singular}.created`,
    updated: `${schema.singular}.updated`,
    deleted: `${schema.singular}.deleted`,
  } as const;
}
