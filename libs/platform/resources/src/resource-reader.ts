import {
  buildLinksAndMeta,
  buildListSql,
  JsonApiError,
  pageFromRows,
  parseListQuery,
  toResourceObject,
  type CollectionDocument,
  type ResourceSchema,
  type SingleDocument,
} from '@taproot/json-api';
import { PG_ERRORS, pgErrorCode, quoteIdent } from '@taproot/persistence';
import type { DataSource } from 'typeorm';
import { isUuid } from './resource-writer';

export type FlatQuery = Record<string, string | string[] | undefined>;

/**
 * Reads a declared resource's read model: the list (filters, sorts, offset or keyset pages)
 * and single records by uuid or slug. Every query is scoped by the organization.
 */
export class ResourceReader {
  constructor(
    private readonly dataSource: DataSource,
    private readonly cursorSecret: string,
  ) {}

  async list(schema: ResourceSchema, organizationId: string, query: FlatQuery): Promise<CollectionDocument> {
    const q = parseListQuery(schema, query, { cursorSecret: this.cursorSecret });
    const sql = buildListSql(schema, q, organizationId);
    try {
      const [rows, countRows] = await Promise.all([
        this.dataSource.query(sql.dataSql, sql.dataParams) as Promise<Record<string, unknown>[]>,
        this.dataSource.query(sql.countSql, sql.countParams) as Promise<{ count: number }[]>,
      ]);
      const page = pageFromRows(schema, q, rows, { cursorSecret: this.cursorSecret });
      const { links, meta } = buildLinksAndMeta({
        basePath: schema.path,
        query,
        q,
        totalCount: countRows[0]?.count ?? 0,
        hasNext: page.hasNext,
        nextCursor: page.nextCursor,
        prevCursor: page.prevCursor,
      });
      return { data: page.rows.map((row) => toResourceObject(schema, row)), links, meta };
    } catch (error) {
      // The search pattern is compiled by Postgres; a pattern it rejects is the client's error.
      if (pgErrorCode(error) === PG_ERRORS.invalidRegularExpression) {
        throw JsonApiError.badParameter('filter[search]', `filter[search] is not a valid regular expression: ${(error as Error).message}`);
      }
      throw error;
    }
  }

  async get(schema: ResourceSchema, organizationId: string, id: string): Promise<SingleDocument> {
    const bySlug = !isUuid(id) && 'slug' in schema.attributes;
    if (!bySlug && !isUuid(id)) throw JsonApiError.notFound(schema.type, id);
    const [row] = await this.dataSource.query(
      `SELECT * FROM ${quoteIdent(schema.readTable)} WHERE ${bySlug ? '"slug"' : 'id'} = $1 AND organization_id = $2`,
      [id, organizationId],
    );
    if (!row) throw JsonApiError.notFound(schema.type, id);
    return { data: toResourceObject(schema, row) };
  }
}
