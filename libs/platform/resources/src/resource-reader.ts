import {
  JsonApiError,
  listDocument,
  toResourceObject,
  type CollectionDocument,
  type ResourceSchema,
  type SingleDocument,
  isUuid,
} from '@taproot/json-api';
import { quoteIdent } from '@taproot/persistence';
import type { DataSource } from 'typeorm';

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

  list(schema: ResourceSchema, organizationId: string, query: FlatQuery): Promise<CollectionDocument> {
    return listDocument({ db: this.dataSource, schema, query, organizationId, cursorSecret: this.cursorSecret });
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
