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
import type { ResourceDefinition, Row, WriteContext } from './resource-definition';
import { snapshotObject } from './resource-writer';

/** `POST <path>/bulk_upsert`: creates or updates each entity by its `external_id`. */
export class BulkUpsertResourcesCommand {
  constructor(
    readonly definition: ResourceDefinition,
    readonly organizationId: string,
    readonly actor: EventActor,
    readonly entities: readonly BulkEntity[],
  ) {}
}

/** `POST <path>/bulk_delete`: deletes by external ids, or prunes a `managed_by` source. */
export class BulkDeleteResourcesCommand {
  constructor(
    readonly definition: ResourceDefinition,
    readonly organizationId: string,
    readonly actor: EventActor,
    readonly mode: BulkDeleteMode,
  ) {}
}

export interface BulkUpsertResult {
  document: BulkUpsertDocument;
  /** Deprecation notices of the items (a submitted `slug`), sent as headers like single writes. */
  warnings: string[];
}

/** The organization's rows of the write table that match `where` (parameters from $2), locked. */
function lockRows(definition: ResourceDefinition, ctx: WriteContext, where: string, params: unknown[]): Promise<Row[]> {
  return ctx.manager.query(
    `SELECT * FROM ${quoteIdent(definition.table)} WHERE organization_id = $1 AND ${where} ORDER BY created_at, id FOR UPDATE`,
    [ctx.organizationId, ...params],
  );
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
      const warnings = new Set<string>();
      const snapshots = await eachBulkItem(c.entities, async (entity) => {
        const matches = await lockRows(c.definition, ctx, '"external_id" = $2', [entity.externalId]);
        // Nothing keeps single writes from sharing an external id; which one to update is unknowable.
        if (matches.length > 1) {
          const detail = `external_id ${JSON.stringify(entity.externalId)} is used by ${matches.length} ${schema.type}; an upsert needs at most one`;
          throw JsonApiError.invalidAttributes([{ attribute: 'external_id', detail, code: 'AMBIGUOUS' }]);
        }
        const [current] = matches;
        const parsed = parseBulkItem(schema, entity, current ? 'update' : 'create');
        parsed.warnings.forEach((w) => warnings.add(w));
        return keep(current ? await writer.update(ctx, String(current.id), parsed.attributes) : await writer.create(ctx, parsed.attributes));
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
      const { sql, params } = bulkDeleteCondition(c.mode);
      const deleted: string[] = [];
      for (const row of await lockRows(c.definition, ctx, sql, params)) {
        deleted.push(String(keep(await writer.delete(ctx, String(row.id))).external_id));
      }
      return bulkDeleteDocument(c.mode, deleted);
    });
  }
}
