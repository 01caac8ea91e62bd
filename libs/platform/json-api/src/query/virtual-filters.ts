import type { CollectionDocument } from '../document/documents';
import { isUuid } from '../resource/ids';
import type { ResourceSchema } from '../resource/resource-schema';
import { listDocument, type Queryable } from './list-document';
import { parseListQuery, type FlatQuery, type ListFilter } from './list-query';

/**
 * How a virtual list filter (`AttributeDef.virtual`) becomes a condition on a stored column
 * `target` (an id, an id list, a generated column): its values are taken as they are (another
 * name of the same list, e.g. `filter[labels]` on `label_pairs`), or, with `named`, replaced by
 * the ids of the organization's records they name (names, slugs), looked up by the context that
 * owns those records (`catalogIdsNamed`, `teamIdsNamed`).
 */
export interface VirtualFilter {
  target: string;
  named?: (db: Queryable, organizationId: string, values: string[]) => Promise<string[]>;
  /** Values that are uuids also name records by id (lower-cased, as ids are stored), without a lookup. */
  ids?: boolean;
}

/**
 * The filters of a parsed list query with each virtual one rewritten into its target (the others
 * unchanged), before `buildListSql`. A value naming nothing matches nothing: `eq`/`in` of unknown
 * names match no record, `not_eq`/`not_in` every record. The query's fingerprint (cursors) stays
 * the client's filters, so a cursor survives records being renamed while a client pages.
 */
export function rewriteVirtualFilters(
  db: Queryable,
  organizationId: string,
  filters: readonly ListFilter[],
  virtual: Readonly<Record<string, VirtualFilter>>,
): Promise<ListFilter[]> {
  return Promise.all(
    filters.map(async (f): Promise<ListFilter> => {
      if (!Object.hasOwn(virtual, f.attribute)) return f;
      const { target, named, ids } = virtual[f.attribute];
      if (!named) return { ...f, attribute: target };
      const values = f.values.map(String);
      const byId = ids ? values.filter(isUuid).map((v) => v.toLowerCase()) : [];
      return { ...f, attribute: target, values: [...new Set([...byId, ...(await named(db, organizationId, values))])] };
    }),
  );
}

/**
 * A list whose query declaration has virtual filters: parsed, its virtual filters rewritten
 * (`rewriteVirtualFilters`) beside the route's own conditions (`scope`, left out of the cursors'
 * fingerprint), run and serialized as `serializeAs`. Answers the page and the `include` asked for.
 */
export async function listWithVirtualFilters(opts: {
  db: Queryable;
  schema: ResourceSchema;
  serializeAs: ResourceSchema;
  virtual: Readonly<Record<string, VirtualFilter>>;
  query: FlatQuery;
  organizationId: string;
  cursorSecret: string;
  scope?: readonly ListFilter[];
}): Promise<{ document: CollectionDocument; include: string[] }> {
  const { db, schema, query, organizationId, cursorSecret } = opts;
  const parsed = parseListQuery(schema, query, { cursorSecret });
  const q = { ...parsed, filters: [...(opts.scope ?? []), ...(await rewriteVirtualFilters(db, organizationId, parsed.filters, opts.virtual))] };
  return { document: await listDocument({ db, schema, serializeAs: opts.serializeAs, q, query, organizationId, cursorSecret }), include: parsed.include };
}
