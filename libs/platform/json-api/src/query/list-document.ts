import type { CollectionDocument } from '../document/documents';
import { toResourceObject } from '../document/documents';
import { JsonApiError } from '../errors/json-api-error';
import type { ResourceSchema } from '../resource/resource-schema';
import { parseListQuery, type FlatQuery, type ListQuery } from './list-query';
import { buildListSql, pageFromRows } from './list-sql';
import { buildLinksAndMeta } from './pagination';

/** What a list needs of a database: any pg-style `query(sql, params)`. */
export interface Queryable {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

// PostgreSQL's invalid_regular_expression: its regex dialect refuses some patterns JS accepts.
const INVALID_REGULAR_EXPRESSION = '2201B';

/**
 * Runs a parsed list query against a read model and builds the collection document: rows and
 * count in parallel, page links and meta, serialization through `serializeAs` (the served
 * declaration; the list declaration may carry filter-only columns that never leave).
 */
export async function listDocument(opts: {
  db: Queryable;
  schema: ResourceSchema;
  serializeAs?: ResourceSchema;
  /** The parsed query when the caller adds filters of its own; parsed from `query` otherwise. */
  q?: ListQuery;
  query: FlatQuery;
  organizationId: string;
  cursorSecret: string;
  /** Where the page links point when the collection is not `schema.path` (a nested collection). */
  basePath?: string;
}): Promise<CollectionDocument> {
  const { db, schema } = opts;
  const q = opts.q ?? parseListQuery(schema, opts.query, { cursorSecret: opts.cursorSecret });
  const sql = buildListSql(schema, q, opts.organizationId);
  try {
    const [rows, countRows] = (await Promise.all([db.query(sql.dataSql, sql.dataParams), db.query(sql.countSql, sql.countParams)])) as [
      Record<string, unknown>[],
      { count: number }[],
    ];
    const page = pageFromRows(schema, q, rows, { cursorSecret: opts.cursorSecret });
    const { links, meta } = buildLinksAndMeta({
      basePath: opts.basePath ?? schema.path,
      query: opts.query,
      q,
      totalCount: countRows[0]?.count ?? 0,
      hasNext: page.hasNext,
      nextCursor: page.nextCursor,
      prevCursor: page.prevCursor,
    });
    return { data: page.rows.map((row) => toResourceObject(opts.serializeAs ?? schema, row)), links, meta };
  } catch (error) {
    if ((error as { code?: unknown })?.code === INVALID_REGULAR_EXPRESSION) {
      throw JsonApiError.badParameter('filter[search]', `filter[search] is not a valid regular expression: ${(error as Error).message}`);
    }
    throw error;
  }
}
