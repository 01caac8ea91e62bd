import {
  buildLinksAndMeta,
  buildListSql,
  JsonApiError,
  pageFromRows,
  parseListQuery,
  toResourceObject,
  type CollectionDocument,
  type FlatQuery,
  type ListFilter,
  type SingleDocument,
} from '@taproot/json-api';
import { PG_ERRORS, pgErrorCode } from '@taproot/persistence';
import type { DataSource } from 'typeorm';
import { apiKeyListSchema, apiKeySchema } from './api-key.schema';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function booleanParameter(name: string, value: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw JsonApiError.badParameter(`filter[${name}]`, `Invalid value '${value}' for filter[${name}]: expected true or false`);
}

/**
 * Reads of `/v1/api_keys` over `api_keys_view` (live keys, no token material), scoped by the
 * organization. The same steps as the generic resource reader (which this platform lib cannot
 * import: `@taproot/resources` depends on `@taproot/identity`), plus the list's
 * clock-dependent `filter[active]` / `filter[expired]`.
 */
export class ApiKeyReader {
  constructor(
    private readonly dataSource: DataSource,
    private readonly cursorSecret: string,
  ) {}

  async list(organizationId: string, query: FlatQuery, now: Date): Promise<CollectionDocument> {
    const schema = apiKeyListSchema;
    const q = parseListQuery(schema, query, { cursorSecret: this.cursorSecret });
    // "Active" is "not expired at the clock's now"; keys without an expiry never expire.
    const extra: ListFilter[] = [];
    const expiredWanted = (name: 'active' | 'expired', expired: boolean) =>
      extra.push({
        attribute: 'expires_or_never',
        operator: expired ? 'lte' : 'gt',
        values: [now.toISOString()],
        parameter: `filter[${name}]`,
      });
    if (q.extra.active !== undefined) expiredWanted('active', !booleanParameter('active', q.extra.active));
    if (q.extra.expired !== undefined) expiredWanted('expired', booleanParameter('expired', q.extra.expired));
    const sql = buildListSql(schema, { ...q, filters: [...q.filters, ...extra] }, organizationId);
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
      // Serialized through the served declaration: filter-only columns never leave.
      return { data: page.rows.map((row) => toResourceObject(apiKeySchema, row)), links, meta };
    } catch (error) {
      if (pgErrorCode(error) === PG_ERRORS.invalidRegularExpression) {
        throw JsonApiError.badParameter('filter[search]', `filter[search] is not a valid regular expression: ${(error as Error).message}`);
      }
      throw error;
    }
  }

  async get(organizationId: string, id: string): Promise<SingleDocument> {
    if (!UUID.test(id)) throw JsonApiError.notFound(apiKeySchema.type, id);
    const [row] = await this.dataSource.query('SELECT * FROM api_keys_view WHERE id = $1 AND organization_id = $2', [id, organizationId]);
    if (!row) throw JsonApiError.notFound(apiKeySchema.type, id);
    return { data: toResourceObject(apiKeySchema, row) };
  }
}
