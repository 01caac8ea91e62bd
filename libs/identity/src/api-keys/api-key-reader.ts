import {
  JsonApiError,
  listDocument,
  parseListQuery,
  toResourceObject,
  type CollectionDocument,
  type FlatQuery,
  type ListFilter,
  type SingleDocument,
  isUuid,
} from '@taproot/json-api';
import type { DataSource } from 'typeorm';
import { apiKeyListSchema, apiKeySchema } from './api-key.schema';


function booleanParameter(name: string, value: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw JsonApiError.badParameter(`filter[${name}]`, `Invalid value '${value}' for filter[${name}]: expected true or false`);
}

/**
 * Reads of `/v1/api_keys` over `api_keys_view` (live keys, no token material), scoped by the
 * organization, with the list's clock-dependent `filter[active]` / `filter[expired]`.
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
    return listDocument({
      db: this.dataSource,
      schema,
      serializeAs: apiKeySchema,
      q: { ...q, filters: [...q.filters, ...extra] },
      query,
      organizationId,
      cursorSecret: this.cursorSecret,
    });
  }

  async get(organizationId: string, id: string): Promise<SingleDocument> {
    if (!isUuid(id)) throw JsonApiError.notFound(apiKeySchema.type, id);
    const [row] = await this.dataSource.query('SELECT * FROM api_keys_view WHERE id = $1 AND organization_id = $2', [id, organizationId]);
    if (!row) throw JsonApiError.notFound(apiKeySchema.type, id);
    return { data: toResourceObject(apiKeySchema, row) };
  }
}
