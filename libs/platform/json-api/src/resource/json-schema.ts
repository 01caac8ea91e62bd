import type { AttributeDef, ItemDef, ResourceSchema } from './resource-schema';

/**
 * JSON Schema derived from a resource declaration, in the OpenAPI 3.0 dialect (`nullable: true`,
 * never `type: [..., 'null']`), so the same object serves request validation (ajv) and the
 * OpenAPI document.
 */
export type JsonSchema = Record<string, unknown>;

export type AttributesMode = 'create' | 'update' | 'output';
export type InputMode = 'create' | 'update';

/** Attributes no client writes, whatever the declaration says. */
export const SERVER_OWNED_ATTRIBUTES: readonly string[] = ['id', 'created_at', 'updated_at'];

/**
 * Whether a client may set `name` in a create or update payload: writable (`'create'` only on
 * create), not derived from another attribute, not server-owned.
 */
export function isInputAttribute(name: string, def: AttributeDef, mode: InputMode): boolean {
  if (SERVER_OWNED_ATTRIBUTES.includes(name) || def.derivedFrom) return false;
  const writable = def.writable ?? true;
  return writable === true || (writable === 'create' && mode === 'create');
}

/** Integers are stored in PostgreSQL `integer` columns: a larger value is a 422, never a 500. */
export const INTEGER_RANGE = { minimum: -2147483648, maximum: 2147483647 } as const;

function scalarSchema(type: ItemDef['type'] | AttributeDef['type']): JsonSchema {
  if (type === 'integer') return { type, ...INTEGER_RANGE };
  return type === 'date-time' ? { type: 'string', format: 'date-time' } : { type };
}

function objectSchema(properties: Record<string, AttributeDef>, mode: AttributesMode): JsonSchema {
  const props: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [name, def] of Object.entries(properties)) {
    props[name] = attributeJsonSchema(def, mode);
    if (def.required) required.push(name);
  }
  return {
    type: 'object',
    properties: props,
    ...(required.length ? { required } : {}),
    // Nested objects stay open, as the reference leaves them: clients built on it may send
    // extra members (kept as sent). Only the top-level attributes are closed.
  };
}

function enumOf(values: readonly (string | number)[], nullable: boolean | undefined): unknown[] {
  // OpenAPI 3.0.3: `nullable` does not extend an `enum`; null must be listed to be accepted.
  return nullable ? [...values, null] : [...values];
}

function itemSchema(item: ItemDef, mode: AttributesMode): JsonSchema {
  if (item.type === 'object') return item.properties ? objectSchema(item.properties, mode) : { type: 'object' };
  return {
    ...scalarSchema(item.type),
    ...(item.format ? { format: item.format } : {}),
    ...(item.enum ? { enum: [...item.enum] } : {}),
  };
}

/** The JSON Schema of one attribute (or nested property). */
export function attributeJsonSchema(def: AttributeDef, mode: AttributesMode): JsonSchema {
  let schema: JsonSchema;
  switch (def.type) {
    case 'object':
      schema = def.properties ? objectSchema(def.properties, mode) : { type: 'object' };
      break;
    case 'array':
      schema = { type: 'array', ...(def.items ? { items: itemSchema(def.items, mode) } : {}) };
      if (def.minLength !== undefined) schema.minItems = def.minLength;
      if (def.maxLength !== undefined) schema.maxItems = def.maxLength;
      break;
    default:
      schema = scalarSchema(def.type);
      if (def.format) schema.format = def.format;
      if (def.minLength !== undefined) schema.minLength = def.minLength;
      if (def.maxLength !== undefined) schema.maxLength = def.maxLength;
      if (def.minimum !== undefined) schema.minimum = def.minimum;
      if (def.maximum !== undefined) schema.maximum = def.maximum;
  }
  if (def.enum) schema.enum = enumOf(def.enum, def.nullable);
  if (def.nullable) schema.nullable = true;
  if (def.description) schema.description = def.description;
  if (def.default !== undefined) schema.default = def.default;
  return schema;
}

/**
 * The `attributes` object of a resource.
 * - `create` / `update`: only what a client may write (see `isInputAttribute`), the input-only
 *   attributes too, closed with `additionalProperties: false`; `required` only in create mode.
 * - `output`: every declared attribute (never an input-only one); `required` lists the attributes always present and never
 *   null: `created_at`, `updated_at` and the non-nullable `required: true` ones (as the
 *   reference's `service` does).
 */
export function attributesSchema(schema: ResourceSchema, mode: AttributesMode): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [name, def] of Object.entries(schema.attributes)) {
    if (mode === 'output') {
      properties[name] = attributeJsonSchema(def, mode);
      const alwaysPresent = name === 'created_at' || name === 'updated_at' || def.required === true;
      if (alwaysPresent && !def.nullable) required.push(name);
    } else if (isInputAttribute(name, def, mode)) {
      properties[name] = attributeJsonSchema(def, mode);
      if (mode === 'create' && def.required) required.push(name);
    }
  }
  if (mode !== 'output') {
    for (const [name, def] of Object.entries(schema.inputOnlyAttributes ?? {})) {
      if (!isInputAttribute(name, def, mode)) continue;
      properties[name] = attributeJsonSchema(def, mode);
      if (mode === 'create' && def.required) required.push(name);
    }
  }
  return {
    type: 'object',
    properties,
    ...(required.length ? { required } : {}),
    ...(mode === 'output' ? {} : { additionalProperties: false }),
  };
}

/**
 * The request document of a create or update, shaped like the reference's `new_service` /
 * `update_service`: `data` required; `data.type` (the resource type) and `data.attributes`
 * required. `data.id` is only described for updates (it is accepted and ignored; the path
 * names the record).
 */
export function requestDocumentSchema(schema: ResourceSchema, mode: InputMode): JsonSchema {
  return {
    type: 'object',
    properties: {
      data: {
        type: 'object',
        properties: {
          type: { type: 'string', enum: [schema.type] },
          ...(mode === 'update' ? { id: { type: 'string', description: `Unique ID of the ${schema.singular}` } } : {}),
          attributes: attributesSchema(schema, mode),
        },
        required: ['type', 'attributes'],
      },
    },
    required: ['data'],
  };
}
