import { isUuid } from '../resource/ids';
import type { Queryable } from './list-document';
import type { ListFilter } from './list-query';

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
