import {
  JsonApiError,
  listDocument,
  parseInclude,
  parseListQuery,
  withIncludes,
  toResourceObject,
  type CollectionDocument,
  type IncludeSources,
  type ListFilter,
  type ResourceSchema,
  type SingleDocument,
  isUuid,
  recordKeyOf,
} from '@taproot/json-api';
import { quoteIdent } from '@taproot/persistence';
import type { DataSource } from 'typeorm';
import { findParent, nestedCollectionPath, parentScope } from './resource-parent';

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

  /**
   * `parentId`: the path's parent of a nested collection, which must exist in the organization;
   * omitted, the whole collection (a resource without parent, or the list across parents).
   * `scope`: the route's conditions beside the client's filters. `includes`: the sources of the
   * declaration's relationships (`ResourceDefinition.includes`).
   */
  async list(
    schema: ResourceSchema,
    organizationId: string,
    query: FlatQuery,
    parentId?: string,
    scope: ListFilter[] = [],
    includes: IncludeSources = {},
  ): Promise<CollectionDocument> {
    const { cursorSecret } = this;
    const nested = schema.parent && parentId !== undefined;
    const conditions = nested ? [parentScope(schema.parent!, await findParent(this.dataSource, schema.parent!, organizationId, parentId)), ...scope] : scope;
    const q = parseListQuery(schema, query, { cursorSecret, scope: conditions });
    const basePath = nested ? nestedCollectionPath(schema, parentId) : undefined;
    const document = await listDocument({ db: this.dataSource, schema, q, query, organizationId, cursorSecret, basePath });
    return { ...document, ...(await withIncludes({ db: this.dataSource, organizationId }, schema, includes, document.data, q.include)) };
  }

  /** `query`: the request's, for its `include` (validated before the record is looked up). */
  async get(schema: ResourceSchema, organizationId: string, id: string, query: FlatQuery = {}, includes: IncludeSources = {}): Promise<SingleDocument> {
    const include = parseInclude(schema, query.include);
    const key = isUuid(id) ? 'id' : recordKeyOf(schema);
    if (!key) throw JsonApiError.notFound(schema.type, id);
    const [row] = await this.dataSource.query(
      `SELECT * FROM ${quoteIdent(schema.readTable)} WHERE ${quoteIdent(key)} = $1 AND organization_id = $2`,
      [id, organizationId],
    );
    if (!row) throw JsonApiError.notFound(schema.type, id);
    const { data, included } = await withIncludes({ db: this.dataSource, organizationId }, schema, includes, [toResourceObject(schema, row)], include);
    return { data: data[0], ...(included ? { included } : {}) };
  }
}
