import { existingIds, isUuid, readIdsMatching, readRecords, type Queryable, type RecordsById, type ResourceObject } from '@taproot/json-api';
import { CATALOG_RESOURCES } from './catalog.module';

/**
 * What other contexts may ask of the catalog about records they refer to (an incident's
 * severity and services, ...), without reading its tables themselves.
 */
export type CatalogType = 'severities' | 'services' | 'environments' | 'functionalities' | 'causes' | 'incident_types';

function definitionOf(type: CatalogType) {
  const definition = CATALOG_RESOURCES.find((d) => d.schema.type === type);
  if (!definition) throw new Error(`the catalog has no ${type}`);
  return definition;
}

/** Which of `ids` are records of that type in the organization (write tables: a command's transaction sees its own state). */
export function existingCatalogIds(db: Queryable, organizationId: string, type: CatalogType, ids: readonly string[]): Promise<Set<string>> {
  return existingIds(db, definitionOf(type).table, organizationId, ids);
}

/**
 * Each of `values` that names a record of that type in the organization, by its id or its slug
 * (what a person types: the hosted CLI's `--services elasticsearch-prod`), to that record's id.
 * Reads the write table, so a command's transaction sees its own state; a value naming nothing is
 * left out.
 */
export async function catalogIdsByIdOrSlug(db: Queryable, organizationId: string, type: CatalogType, values: readonly string[]): Promise<Map<string, string>> {
  if (values.length === 0) return new Map();
  const rows = (await db.query(`SELECT id::text AS id, slug FROM ${definitionOf(type).table} WHERE organization_id = $1 AND (id = ANY($2::uuid[]) OR slug = ANY($3::text[]))`, [
    organizationId,
    values.filter(isUuid).map((v) => v.toLowerCase()),
    [...values],
  ])) as { id: string; slug: string }[];
  // An id names its record first; a slug that happens to look like one is found by the slug next.
  const named = (v: string) => (rows.find((r) => r.id === v.toLowerCase()) ?? rows.find((r) => r.slug === v))?.id;
  return new Map(values.flatMap((v) => [named(v)].filter((id) => id !== undefined).map((id) => [v, id] as const)));
}

/** The records with these ids, serialized as their own API answers them, by id. */
export function catalogRecords(db: Queryable, organizationId: string, type: CatalogType, ids: readonly string[]): Promise<Map<string, ResourceObject>> {
  return readRecords(db, definitionOf(type).schema, organizationId, ids);
}

/** `catalogRecords` of one type, as an include source looks records up (`byIdAttribute`). */
export const catalogRecordsOf =
  (type: CatalogType): RecordsById =>
  (db, organizationId, ids) =>
    catalogRecords(db, organizationId, type, ids);

/** Ids of the records whose name or slug is one of `values` (list filters by name). */
export function catalogIdsNamed(db: Queryable, organizationId: string, type: CatalogType, values: readonly string[], by: readonly ('name' | 'slug')[] = ['name', 'slug']): Promise<string[]> {
  return readIdsMatching(db, definitionOf(type).schema, organizationId, by, values);
}
