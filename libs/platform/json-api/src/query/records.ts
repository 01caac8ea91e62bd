import { toResourceObject, type ResourceObject } from '../document/documents';
import { isIntegerId, isUuid } from '../resource/ids';
import type { ResourceSchema } from '../resource/resource-schema';
import type { Queryable } from './list-document';
import { quoteIdent } from './list-sql';

/** How a table's ids look: uuids, or the integer ids of users. */
export type IdKind = 'uuid' | 'integer';

/** The ids that can name a record of that kind, deduplicated; others name nothing (no SQL cast error). */
function wellFormed(ids: readonly string[], kind: IdKind): string[] {
  const valid = ids.filter((id) => (kind === 'uuid' ? isUuid(id) : isIntegerId(id)));
  return [...new Set(kind === 'uuid' ? valid.map((id) => id.toLowerCase()) : valid)];
}

const castOf = (kind: IdKind) => (kind === 'uuid' ? 'uuid[]' : 'int[]');

/**
 * Which of `ids` are records of `table` in the organization, as text. Reads the table it is given:
 * a write table when a command validates references inside its transaction.
 */
export async function existingIds(db: Queryable, table: string, organizationId: string, ids: readonly string[], kind: IdKind = 'uuid'): Promise<Set<string>> {
  const wanted = wellFormed(ids, kind);
  if (wanted.length === 0) return new Set();
  const rows = (await db.query(`SELECT id::text AS id FROM ${quoteIdent(table)} WHERE organization_id = $1 AND id = ANY($2::${castOf(kind)})`, [
    organizationId,
    wanted,
  ])) as { id: string }[];
  return new Set(rows.map((r) => r.id));
}

/** The records of `schema`'s read model with these ids in the organization, serialized, by id. */
export async function readRecords(db: Queryable, schema: ResourceSchema, organizationId: string, ids: readonly string[], kind: IdKind = 'uuid'): Promise<Map<string, ResourceObject>> {
  const wanted = wellFormed(ids, kind);
  if (wanted.length === 0) return new Map();
  const rows = (await db.query(`SELECT * FROM ${quoteIdent(schema.readTable)} WHERE organization_id = $1 AND id = ANY($2::${castOf(kind)})`, [
    organizationId,
    wanted,
  ])) as Record<string, unknown>[];
  return new Map(rows.map((row) => [String(row.id), toResourceObject(schema, row)]));
}

/** Ids of the read model's records one of whose `columns` (e.g. name, slug) equals one of `values`. */
export async function readIdsMatching(db: Queryable, schema: ResourceSchema, organizationId: string, columns: readonly string[], values: readonly string[]): Promise<string[]> {
  if (values.length === 0 || columns.length === 0) return [];
  const matches = columns.map((c) => `${quoteIdent(c)} = ANY($2::text[])`).join(' OR ');
  const rows = (await db.query(`SELECT id::text AS id FROM ${quoteIdent(schema.readTable)} WHERE organization_id = $1 AND (${matches})`, [
    organizationId,
    [...values],
  ])) as { id: string }[];
  return rows.map((r) => r.id);
}
