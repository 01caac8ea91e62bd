import { toResourceObject, type ResourceObject } from '../document/documents';
import type { ResourceSchema } from '../resource/resource-schema';
import type { Queryable } from './list-document';
import { readRecords } from './records';

/** What a source may read with: the database and the caller's organization (every query is scoped by it). */
export interface IncludeContext {
  db: Queryable;
  organizationId: string;
}

/**
 * The records one relationship of `include` names, for a whole page of primary records at once
 * (one query per include per page, never one per row): by primary record id, in linkage order.
 */
export type IncludeSource = (ctx: IncludeContext, records: readonly ResourceObject[]) => Promise<Map<string, ResourceObject[]>>;

/** The sources of a resource's relationships, by `include` name. */
export type IncludeSources = Readonly<Record<string, IncludeSource>>;

/** Records by id, scoped by the organization: the ports contexts publish (`userRecords`, `catalogRecords`, ...). */
export type RecordsById = (db: Queryable, organizationId: string, ids: readonly string[]) => Promise<Map<string, ResourceObject>>;

/** The port of a resource's own read model: its records by id, as its routes answer them. */
export const recordsOf =
  (schema: ResourceSchema): RecordsById =>
  (db, organizationId, ids) =>
    readRecords(db, schema, organizationId, ids);

const idsIn = (value: unknown): string[] => (value === null || value === undefined ? [] : Array.isArray(value) ? value.map(String) : [String(value)]);

/** Related records named by an attribute of the primary record (an id or a list of ids), looked up together. */
export function byIdAttribute(attribute: string, find: RecordsById): IncludeSource {
  return async ({ db, organizationId }, records) => {
    const found = await find(db, organizationId, [...new Set(records.flatMap((r) => idsIn(r.attributes[attribute])))]);
    return new Map(records.map((r) => [r.id, idsIn(r.attributes[attribute]).flatMap((id) => found.get(id) ?? [])]));
  };
}

/**
 * Related records that name the primary ones, or that a join reaches (a user's teams, an
 * incident's events), found by one query over the page: `sql` takes `$1` the organization and
 * `$2` the primary ids (text[]; cast them), and answers rows of `schema`'s read model with
 * `owner_id`, the primary record each belongs to, in the order they are to be linked.
 */
export function byQuery(schema: ResourceSchema, sql: string): IncludeSource {
  return async ({ db, organizationId }, records) => {
    const rows = (await db.query(sql, [organizationId, records.map((r) => r.id)])) as Record<string, unknown>[];
    const found = new Map<string, ResourceObject[]>(records.map((r) => [r.id, []]));
    for (const row of rows) found.get(String(row.owner_id))?.push(toResourceObject(schema, row));
    return found;
  };
}

/**
 * The sources of a declaration's relationships, checked once where they are declared: every
 * relationship Taproot has records for needs one, and none is given for a name not declared, so
 * the enum the parser and the OpenAPI document take from the declaration is what is served.
 */
export function defineIncludes(schema: ResourceSchema, sources: IncludeSources): IncludeSources {
  const relationships = schema.relationships ?? {};
  const unserved = Object.entries(relationships).find(([name, def]) => !def.absent && !Object.hasOwn(sources, name));
  if (unserved) throw new Error(`${schema.type}: include '${unserved[0]}' has no source (declare it absent if Taproot has no such records)`);
  const undeclared = Object.keys(sources).find((name) => !Object.hasOwn(relationships, name) || relationships[name].absent);
  if (undeclared) throw new Error(`${schema.type}: a source for '${undeclared}', which the declaration does not serve`);
  return sources;
}

const linkage = (r: ResourceObject) => ({ type: r.type, id: r.id });

/**
 * Adds what `include` asked for to a page of primary records: each asked relationship on every
 * record (to-many as a list, to-one as one or null; an absent one empty) and the related records
 * once each in `included`, each with a `relationships` object (spec: every included item has one).
 * A `linked` relationship is answered too, asked or not, its records included only when asked
 * (from its id attribute when it has one: no query). Without either the records are answered as
 * they are.
 */
export async function withIncludes(
  ctx: IncludeContext,
  schema: ResourceSchema,
  sources: IncludeSources,
  records: ResourceObject[],
  names: readonly string[],
): Promise<{ data: ResourceObject[]; included?: ResourceObject[] }> {
  const relationships = schema.relationships ?? {};
  const linkedOnly = Object.keys(relationships).filter((name) => relationships[name].linked && !names.includes(name));
  if (names.length === 0 && linkedOnly.length === 0) return { data: records };
  const queried = [...names.filter((name) => !relationships[name]?.absent), ...linkedOnly.filter((name) => !relationships[name].idAttribute)];
  const related = await Promise.all(
    queried.map((name) => {
      if (!Object.hasOwn(sources, name)) throw new Error(`${schema.type}: include '${name}' has no source`);
      return sources[name](ctx, records);
    }),
  );
  const byName = new Map(queried.map((name, i) => [name, related[i]]));
  const included = new Map<string, ResourceObject>();
  const data = records.map((record) => {
    const links: Record<string, unknown> = {};
    for (const name of names) {
      const found = byName.get(name)?.get(record.id) ?? [];
      for (const r of found) included.set(`${r.type}:${r.id}`, { ...r, relationships: r.relationships ?? {} });
      links[name] = { data: relationships[name].many ? found.map(linkage) : found[0] ? linkage(found[0]) : null };
    }
    for (const name of linkedOnly) {
      const { type, many, idAttribute } = relationships[name];
      const found = idAttribute ? idsIn(record.attributes[idAttribute]).map((id) => ({ type, id })) : (byName.get(name)?.get(record.id) ?? []).map(linkage);
      links[name] = { data: many ? found : (found[0] ?? null) };
    }
    return { ...record, relationships: { ...record.relationships, ...links } };
  });
  return names.length === 0 ? { data } : { data, included: [...included.values()] };
}
