import type { ResourceObject } from './documents';

/** The fields asked for each resource type: `fields[incidents]=title,status` (JSON:API sparse fieldsets). */
export type SparseFieldsets = ReadonlyMap<string, ReadonlySet<string>>;

const FIELDS_KEY = /^fields\[([^[\]]+)\]$/;

/**
 * The `fields[TYPE]` parameters of a parsed query string, or null when there are none. A
 * repeated parameter adds its names (the hosted API's MCP server may send one twice); an empty
 * one asks for no fields of that type.
 */
export function sparseFieldsetsOf(query: unknown): SparseFieldsets | null {
  if (typeof query !== 'object' || query === null) return null;
  let fieldsets: Map<string, Set<string>> | null = null;
  for (const [key, raw] of Object.entries(query)) {
    const type = FIELDS_KEY.exec(key)?.[1];
    if (type === undefined) continue;
    const values = (Array.isArray(raw) ? raw : [raw]).filter((v): v is string => typeof v === 'string');
    fieldsets ??= new Map();
    const names = fieldsets.get(type) ?? new Set<string>();
    for (const name of values.flatMap((v) => v.split(','))) if (name.trim()) names.add(name.trim());
    fieldsets.set(type, names);
  }
  return fieldsets;
}

function sparse(resource: ResourceObject, fieldsets: SparseFieldsets): ResourceObject {
  const names = fieldsets.get(resource.type);
  if (!names || typeof resource.attributes !== 'object' || resource.attributes === null) return resource;
  const pick = (members: Record<string, unknown>) => Object.fromEntries(Object.entries(members).filter(([name]) => names.has(name)));
  const narrowed: ResourceObject = { ...resource, attributes: pick(resource.attributes) };
  if (resource.relationships) narrowed.relationships = pick(resource.relationships);
  return narrowed;
}

/**
 * A document with only the asked-for attributes and relationships of each resource object of the
 * named types, primary and included (`id`, `type`, links and meta always stay). Names a type does
 * not have are ignored, as clients name `id` or fields of other versions. Anything that is not a
 * resource document comes back as it is.
 */
export function applySparseFieldsets<T>(document: T, fieldsets: SparseFieldsets): T {
  if (typeof document !== 'object' || document === null || !('data' in document)) return document;
  const doc = document as { data: unknown; included?: unknown };
  const apply = (value: unknown): unknown => (isResource(value) ? sparse(value, fieldsets) : value);
  const data = Array.isArray(doc.data) ? doc.data.map(apply) : apply(doc.data);
  const included = Array.isArray(doc.included) ? { included: doc.included.map(apply) } : {};
  return { ...document, data, ...included };
}

const isResource = (value: unknown): value is ResourceObject =>
  typeof value === 'object' && value !== null && typeof (value as ResourceObject).type === 'string' && 'attributes' in value;
