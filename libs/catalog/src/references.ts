import { existingIds, readIdsMatching, readRecords, type Queryable, type RecordsById, type ResourceObject } from '@taproot/json-api';
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
