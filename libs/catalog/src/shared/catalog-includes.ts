import { byQuery, type IncludeSource, type ResourceSchema } from '@taproot/json-api';

/**
 * An include source of the records of `schema` that name the primary ones in `column` (a
 * catalog's properties and entities, an entity's values), in the order their own list answers
 * them (`order`, then id), from its read model in the caller's organization.
 */
export const namingThem = (schema: ResourceSchema, column: string, order: string): IncludeSource =>
  byQuery(schema, `SELECT ${column} AS owner_id, * FROM ${schema.readTable} WHERE organization_id = $1 AND ${column} = ANY($2::uuid[]) ORDER BY ${order}, id`);
