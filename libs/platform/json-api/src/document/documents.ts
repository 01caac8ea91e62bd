import type { ResourceSchema } from '../resource/resource-schema';

export const JSON_API_MEDIA_TYPE = 'application/vnd.api+json';

export interface ResourceObject {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, unknown>;
}

export interface SingleDocument {
  data: ResourceObject;
  included?: ResourceObject[];
}

export interface CollectionDocument {
  data: ResourceObject[];
  included?: ResourceObject[];
  links: { self: string; first: string; prev: string | null; next: string | null; last: string | null };
  meta: {
    current_page: number | null;
    next_page: number | null;
    prev_page: number | null;
    total_count: number;
    total_pages: number;
    next_cursor: string | null;
  };
}

function toWire(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : value;
}

/**
 * Serializes a read-model row through the declaration: every declared attribute appears
 * (null when absent), nothing undeclared leaks.
 */
export function toResourceObject(schema: ResourceSchema, row: Record<string, unknown>): ResourceObject {
  const attributes: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(schema.attributes)) {
    const value = row[def.column ?? name];
    if (value == null && def.omitWhenNull) continue;
    attributes[name] = value === undefined ? null : toWire(value);
  }
  return { id: String(row.id), type: schema.type, attributes };
}

export function singleDocument(schema: ResourceSchema, row: Record<string, unknown>): SingleDocument {
  return { data: toResourceObject(schema, row) };
}
