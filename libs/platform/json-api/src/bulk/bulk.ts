import type { ResourceObject } from '../document/documents';
import { JsonApiError, type ErrorObject } from '../errors/json-api-error';
import { attributeJsonSchema, attributesSchema, type JsonSchema } from '../resource/json-schema';
import { parseResourcePayload, type ParsedPayload, type PayloadMode } from '../resource/payload';
import type { ResourceSchema } from '../resource/resource-schema';

/**
 * `bulk_upsert` and `bulk_delete` of a resource declared with `bulk: true` (spec: services,
 * functionalities, environments, teams, catalog entities): the request documents, their limit,
 * the per-item errors and the rows a delete selects. Whoever writes (the generic resource path,
 * teams) runs a whole batch in one transaction.
 */

/** Entities or external ids one request may carry (reference: "Max 100 per request"). */
export const BULK_LIMIT = 100;

/** Records managed in the web UI are never pruned by a sync (reference, `bulk_destroy_*`). */
const UNPRUNABLE = ['web', 'admin_web'];

/** One item of `entities`; `Key` is `string | null` where the batch's `external_id` is optional. */
export interface BulkEntity<Key extends string | null = string> {
  /** Position in `entities`: the item's errors point below `/entities/<index>`. */
  index: number;
  externalId: Key;
  /** The entity as sent, `external_id` included; parsed once it is known to create or update. */
  input: Record<string, unknown>;
}

export type BulkDeleteMode = { externalIds: string[] } | { managedBy: string; keep: string[] };

export interface BulkUpsertDocument {
  data: ResourceObject[];
}

export interface BulkDeleteDocument {
  data: { deleted_external_ids: string[]; failed_external_ids: string[]; not_found_external_ids: string[] };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function invalidDocument(detail: string, pointer: string): JsonApiError {
  return JsonApiError.of(422, 'Invalid document', detail, 'INVALID_DOCUMENT', { pointer });
}

/**
 * An item's errors as the batch reports them: pointers move from `/data/attributes/...` (the
 * single-record payload the item was checked as) to `/entities/<index>/...`, details name the item.
 */
export function itemErrors(index: number, externalId: string | null, errors: readonly ErrorObject[]): ErrorObject[] {
  const item = externalId === null ? `entities[${index}]` : `entities[${index}] (external_id ${JSON.stringify(externalId)})`;
  return errors.map((e) => {
    const below = /^\/data\/attributes(\/.*)$/.exec(e.source?.pointer ?? '')?.[1] ?? '';
    return { ...e, detail: `${item}: ${e.detail ?? e.title}`, source: { pointer: `/entities/${index}${below}` } };
  });
}

function invalidKey(index: number, detail: string, code: string): JsonApiError {
  return new JsonApiError(422, itemErrors(index, null, JsonApiError.invalidAttributes([{ attribute: 'external_id', detail, code }]).errors));
}

/**
 * The `{entities: [...]}` document: at most `BULK_LIMIT` objects. An `external_id` is a
 * non-empty string no other entity of the batch uses; `missingKey` is the refusal of an entity
 * without one (null: the key is optional). Attributes are checked per item later.
 */
function parseEntities(body: unknown, missingKey: string | null): BulkEntity<string | null>[] {
  if (!isObject(body) || !Array.isArray(body.entities)) throw invalidDocument('The body must be an object with an entities array', '/entities');
  if (body.entities.length > BULK_LIMIT) throw invalidDocument(`At most ${BULK_LIMIT} entities per request (got ${body.entities.length})`, '/entities');
  const seen = new Map<string, number>();
  return body.entities.map((input: unknown, index) => {
    if (!isObject(input)) throw invalidDocument(`entities[${index}] must be an object`, `/entities/${index}`);
    const externalId = input.external_id;
    if (externalId == null && missingKey === null) return { index, externalId: null, input };
    if (typeof externalId !== 'string' || externalId === '') {
      throw missingKey === null ? invalidKey(index, 'external_id must be a non-empty string when sent', 'INVALID_ATTRIBUTE') : invalidKey(index, missingKey, 'REQUIRED');
    }
    const first = seen.get(externalId);
    if (first !== undefined) throw invalidKey(index, `external_id ${JSON.stringify(externalId)} is also used by entities[${first}]`, 'DUPLICATE');
    seen.set(externalId, index);
    return { index, externalId, input };
  });
}

/** The document of a `bulk_upsert`: every entity keyed by its `external_id`. */
export function parseBulkUpsert(body: unknown): BulkEntity[] {
  // Every entity has its key: parseEntities refuses one without.
  return parseEntities(body, 'external_id is required (the upsert key)') as BulkEntity[];
}

/** The document of a bulk create (an import): `external_id` optional, unique within the batch when sent. */
export function parseBulkCreate(body: unknown): BulkEntity<string | null>[] {
  return parseEntities(body, null);
}

/** One entity checked as the create or update payload of the resource. */
export function parseBulkItem(schema: ResourceSchema, entity: BulkEntity<string | null>, mode: PayloadMode): ParsedPayload {
  return parseResourcePayload(schema, { data: { type: schema.type, attributes: entity.input } }, mode);
}

/**
 * Runs `work` for each entity in order, inside the caller's transaction. An item refused with a
 * JsonApiError does not stop the others, so one answer lists every bad item; then the batch
 * fails as a whole (422, and the caller's transaction rolls back). Other errors end it at once.
 */
export async function eachBulkItem<T, E extends BulkEntity<string | null>>(entities: readonly E[], work: (entity: E) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  const errors: ErrorObject[] = [];
  for (const entity of entities) {
    try {
      results.push(await work(entity));
    } catch (error) {
      if (!(error instanceof JsonApiError)) throw error;
      errors.push(...itemErrors(entity.index, entity.externalId, error.errors));
    }
  }
  if (errors.length) throw new JsonApiError(422, errors);
  return results;
}

/** The `managed_by` values a prune may name: the declaration's provenances but the web UI's. */
export function prunableSources(schema: ResourceSchema): string[] {
  return (schema.attributes.managed_by?.enum ?? []).map(String).filter((m) => !UNPRUNABLE.includes(m));
}

/** `{external_ids}` deletes those records; `{managed_by, keep_external_ids}` prunes that source's others. */
export function parseBulkDelete(schema: ResourceSchema, body: unknown): BulkDeleteMode {
  if (!isObject(body)) throw invalidDocument('The body must be an object', '');
  const keys = Object.keys(body);
  if ('external_ids' in body) {
    const ids = body.external_ids;
    if (keys.length !== 1) throw invalidDocument('external_ids and managed_by are mutually exclusive', '/external_ids');
    if (!Array.isArray(ids) || ids.length === 0 || ids.length > BULK_LIMIT || !ids.every((i) => typeof i === 'string' && i !== '')) {
      throw invalidDocument(`external_ids must be a list of 1 to ${BULK_LIMIT} non-empty strings`, '/external_ids');
    }
    return { externalIds: ids as string[] };
  }
  if ('managed_by' in body) {
    const allowed = prunableSources(schema);
    if (!allowed.includes(body.managed_by as string)) throw invalidDocument(`managed_by must be one of ${allowed.join(', ')}`, '/managed_by');
    // Absent keeps nothing; an explicit null is refused rather than read as "prune every record".
    const keep = 'keep_external_ids' in body ? body.keep_external_ids : [];
    if (!Array.isArray(keep) || !keep.every((k) => typeof k === 'string')) throw invalidDocument('keep_external_ids must be a list of strings', '/keep_external_ids');
    if (keys.some((k) => k !== 'managed_by' && k !== 'keep_external_ids')) throw invalidDocument('Only managed_by and keep_external_ids are allowed with managed_by', '');
    return { managedBy: body.managed_by as string, keep: keep as string[] };
  }
  throw invalidDocument('Pass exactly one of external_ids or managed_by', '');
}

/**
 * The rows of the write table a bulk delete removes: SQL to AND with `organization_id = $1`,
 * its parameters numbered from `first` ($2). A prune never touches records without an external id.
 */
export function bulkDeleteCondition(mode: BulkDeleteMode, first = 2): { sql: string; params: unknown[] } {
  return 'externalIds' in mode
    ? { sql: `"external_id" = ANY($${first})`, params: [mode.externalIds] }
    : { sql: `"managed_by" = $${first} AND "external_id" IS NOT NULL AND NOT ("external_id" = ANY($${first + 1}))`, params: [mode.managedBy, mode.keep] };
}

/**
 * The answer of a bulk delete. `failed_external_ids` stays empty: a record that refuses its
 * deletion fails the whole batch instead (one transaction, like an upsert).
 */
export function bulkDeleteDocument(mode: BulkDeleteMode, deletedExternalIds: readonly string[]): BulkDeleteDocument {
  const deleted = [...new Set(deletedExternalIds)];
  return {
    data: {
      deleted_external_ids: deleted,
      failed_external_ids: [],
      not_found_external_ids: 'externalIds' in mode ? [...new Set(mode.externalIds)].filter((e) => !deleted.includes(e)) : [],
    },
  };
}

const strings = (description: string): JsonSchema => ({ type: 'array', items: { type: 'string' }, description });

/** A bulk request document: `entities`, at most `BULK_LIMIT`, each an `items`. */
function entitiesSchema(items: JsonSchema, description: string): JsonSchema {
  return { type: 'object', properties: { entities: { type: 'array', maxItems: BULK_LIMIT, description, items } }, required: ['entities'] };
}

/**
 * `bulk_upsert_<collection>`: an entity takes what a create takes, none required but its
 * `external_id` (a new record still needs the create's required attributes: a 422 names them).
 */
export function bulkUpsertRequestSchema(schema: ResourceSchema): JsonSchema {
  const attributes = attributesSchema(schema, 'create');
  return entitiesSchema(
    {
      ...attributes,
      properties: {
        ...(attributes.properties as Record<string, JsonSchema>),
        ...Object.fromEntries(Object.entries(schema.bulkItemMembers ?? {}).map(([name, def]) => [name, attributeJsonSchema(def, 'create')])),
        external_id: { type: 'string', minLength: 1, description: 'External identifier used as the upsert key' },
      },
      required: ['external_id'],
    },
    `Records to upsert, matched by external_id; at most ${BULK_LIMIT}, external_ids unique within the batch. Only the attributes present are written. One transaction: all succeed or all fail.`,
  );
}

/** A bulk create (`parseBulkCreate`): each entity is the create payload of `schema`'s attributes. */
export function bulkCreateRequestSchema(schema: ResourceSchema, description: string): JsonSchema {
  return entitiesSchema(attributesSchema(schema, 'create'), description);
}

/** `bulk_destroy_<collection>`: the two mutually exclusive modes. */
export function bulkDeleteRequestSchema(schema: ResourceSchema): JsonSchema {
  return {
    description: 'Exactly one of: external_ids (delete those records) or managed_by (prune the records of that source whose external_id is not kept).',
    oneOf: [
      {
        type: 'object',
        additionalProperties: false,
        properties: { external_ids: { type: 'array', minItems: 1, maxItems: BULK_LIMIT, items: { type: 'string', minLength: 1 }, description: 'External ids of the records to delete' } },
        required: ['external_ids'],
      },
      {
        type: 'object',
        additionalProperties: false,
        properties: {
          managed_by: { type: 'string', enum: prunableSources(schema), description: 'Delete the records of this source (web and admin_web are never pruned)' },
          keep_external_ids: strings('Records with these external_ids are kept'),
        },
        required: ['managed_by'],
      },
    ],
  };
}

/** `bulk_destroy_<collection>_response`. */
export const BULK_DELETE_RESPONSE_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    data: {
      type: 'object',
      properties: {
        deleted_external_ids: strings('External ids of the deleted records'),
        failed_external_ids: strings('External ids whose record refused its deletion (always empty: such a record fails the batch)'),
        not_found_external_ids: strings('External ids with no record the caller can see (external_ids mode only)'),
      },
      required: ['deleted_external_ids', 'failed_external_ids', 'not_found_external_ids'],
    },
  },
  required: ['data'],
};
