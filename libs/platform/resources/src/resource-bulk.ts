import { CommandHandler } from '@nestjs/cqrs';
import {
  bulkDeleteCondition,
  bulkDeleteDocument,
  eachBulkItem,
  JsonApiError,
  parseBulkItem,
  type BulkDeleteDocument,
  type BulkDeleteMode,
  type BulkEntity,
  type BulkUpsertDocument,
} from '@taproot/json-api';
import type { EventActor } from '@taproot/messaging';
import { quoteIdent } from '@taproot/persistence';
import { ResourceWriteHandler } from './resource-commands';
import { findParent } from './resource-parent';
import type { ResourceDefinition, Row, WriteContext } from './resource-definition';
import { snapshotObject } from './resource-writer';

/** `POST <path>/bulk_upsert`: creates or updates each entity by its `external_id`. */
export class BulkUpsertResourcesCommand {
  constructor(
    readonly definition: ResourceDefinition,
    readonly organizationId: string,
    readonly actor: EventActor,
    readonly entities: readonly BulkEntity[],
    /** The path's parent record, for a resource declared under one: the batch is of its records. */
    readonly parentId?: string,
  ) {}
}

/** `POST <path>/bulk_delete`: deletes by external ids, or prunes a `managed_by` source. */
export class BulkDeleteResourcesCommand {
  constructor(
    readonly definition: ResourceDefinition,
    readonly organizationId: string,
    readonly actor: EventActor,
    readonly mode: BulkDeleteMode,
    /** The path's parent record, for a resource declared under one: only its records are deleted. */
    readonly parentId?: string,
  ) {}
}

export interface BulkUpsertResult {
  document: BulkUpsertDocument;
  /** Deprecation notices of the items (a submitted `slug`), sent as headers like single writes. */
  warnings: string[];
}

/**
 * The organization's rows of the write table that match `where` (parameters from $3), locked;
 * of the parent `parentId` only when there is one (else $2 is null and unused).
 */
function lockRows(definition: ResourceDefinition, ctx: WriteContext, parentId: string | null, where: string, params: unknown[]): Promise<Row[]> {
  const parent = definition.schema.parent;
  const ofParent = parent ? `${quoteIdent(definition.schema.attributes[parent.attribute]?.column ?? parent.attribute)} = $2` : '$2::text IS NULL';
  return ctx.manager.query(
    `SELECT * FROM ${quoteIdent(definition.table)} WHERE organization_id = $1 AND ${ofParent} AND ${where} ORDER BY created_at, id FOR UPDATE`,
    [ctx.organizationId, parentId, ...params],
  );
}

/** The batch's parent, when the resource has one: in the organization (404 otherwise), locked until the commit. */
async function parentOfBatch(definition: ResourceDefinition, ctx: WriteContext, raw: string | undefined): Promise<string | null> {
  const { parent } = definition.schema;
  if (!parent) return null;
  if (raw === undefined) throw new Error(`${definition.schema.type} are written in bulk under their ${parent.param}`);
  return findParent(ctx.manager, parent, ctx.organizationId, raw, true);
}

/**
 * Each entity goes through the generic create or update (declaration checks, rules, events),
 * all in one transaction: one refused item fails the batch and nothing is kept.
 */
@CommandHandler(BulkUpsertResourcesCommand)
export class BulkUpsertResourcesHandler extends ResourceWriteHandler {
  execute(c: BulkUpsertResourcesCommand): Promise<BulkUpsertResult> {
    const { schema } = c.definition;
    return this.write(c, async (writer, ctx, keep) => {
      // Two batches creating the same external id would each find no record of it.
      await writer.takeTurns(ctx);
      const parentId = await parentOfBatch(c.definition, ctx, c.parentId);
      const warnings = new Set<string>();
      const snapshots = await eachBulkItem(c.entities, async (entity) => {
        const matches = await lockRows(c.definition, ctx, parentId, '"external_id" = $3', [entity.externalId]);
        // Nothing keeps single writes from sharing an external id; which one to update is unknowable.
        if (matches.length > 1) {
          const detail = `external_id ${JSON.stringify(entity.externalId)} is used by ${matches.length} ${schema.type}; an upsert needs at most one`;
          throw JsonApiError.invalidAttributes([{ attribute: 'external_id', detail, code: 'AMBIGUOUS' }]);
        }
        const [current] = matches;
        const input = c.definition.bulkInput ? await c.definition.bulkInput(entity.input, current, ctx, parentId) : entity.input;
        const parsed = parseBulkItem(schema, { ...entity, input }, current ? 'update' : 'create');
        parsed.warnings.forEach((w) => warnings.add(w));
        return keep(current ? await writer.update(ctx, String(current.id), parsed.attributes) : await writer.create(ctx, parsed.attributes, parentId ?? undefined));
      });
      return { document: { data: snapshots.map((s) => snapshotObject(schema, s)) }, warnings: [...warnings] };
    });
  }
}

/** Every selected record goes through the generic delete (its rules, its event), in one transaction. */
@CommandHandler(BulkDeleteResourcesCommand)
export class BulkDeleteResourcesHandler extends ResourceWriteHandler {
  execute(c: BulkDeleteResourcesCommand): Promise<BulkDeleteDocument> {
    return this.write(c, async (writer, ctx, keep) => {
      const parentId = await parentOfBatch(c.definition, ctx, c.parentId);
      const { sql, params } = bulkDeleteCondition(c.mode, 3);
      const deleted: string[] = [];
      for (const row of await lockRows(c.definition, ctx, parentId, sql, params)) {
        deleted.push(String(keep(await writer.delete(ctx, String(row.id))).external_id));
      }
      return bulkDeleteDocument(c.mode, deleted);
    });
  }
}
