import { catalogRecords, type CatalogType } from '@taproot/catalog';
import { teamRecords } from '@taproot/identity';
import type { Queryable, ResourceObject } from '@taproot/json-api';
import type { Row } from '@taproot/resources';
import { EMBEDDED, incidentSchema } from './incident.schema';

type EmbeddedName = keyof typeof EMBEDDED;
const EMBEDDED_NAMES = Object.keys(EMBEDDED) as EmbeddedName[];

const idsOf = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : []);

/** The records of one related type, by id (teams live in identity, the rest in the catalog). */
function recordsOf(db: Queryable, organizationId: string, type: (typeof EMBEDDED)[EmbeddedName]['type'], ids: string[]): Promise<Map<string, ResourceObject>> {
  return type === 'groups' ? teamRecords(db, organizationId, ids) : catalogRecords(db, organizationId, type as CatalogType, ids);
}

/**
 * Incidents as the API answers them: the stored attributes plus the related records the
 * reference embeds (`severity`, `services`, ... as `{data: ...}` documents), looked up when read,
 * one query per related type for a whole page. A related record deleted since is left out.
 */
export async function presentIncidents(db: Queryable, organizationId: string, snapshots: readonly Row[]): Promise<ResourceObject[]> {
  const related = new Map<EmbeddedName, Map<string, ResourceObject>>();
  for (const name of EMBEDDED_NAMES) {
    const { from, type } = EMBEDDED[name];
    const ids = [...new Set(snapshots.flatMap((s) => idsOf(s[from])))];
    related.set(name, ids.length ? await recordsOf(db, organizationId, type, ids) : new Map());
  }
  return snapshots.map((snapshot) => {
    const attributes: Row = {};
    for (const name of Object.keys(incidentSchema.attributes)) {
      if (!(EMBEDDED_NAMES as string[]).includes(name)) {
        const value = snapshot[name];
        attributes[name] = value instanceof Date ? value.toISOString() : (value ?? null);
        continue;
      }
      const { from, attribute } = EMBEDDED[name as EmbeddedName];
      const records = related.get(name as EmbeddedName)!;
      const documents = idsOf(snapshot[from]).flatMap((id) => (records.has(id) ? [{ data: records.get(id) }] : []));
      attributes[name] = attribute.type === 'array' ? documents : (documents[0] ?? null);
    }
    return { id: String(snapshot.id), type: incidentSchema.type, attributes };
  });
}

export async function presentIncident(db: Queryable, organizationId: string, snapshot: Row): Promise<ResourceObject> {
  return (await presentIncidents(db, organizationId, [snapshot]))[0];
}
