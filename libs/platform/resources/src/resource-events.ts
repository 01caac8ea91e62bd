import type { AttributeDef, ResourceSchema } from '@taproot/json-api';
import { registerEventContract, type PayloadCheck } from '@taproot/messaging';
import { lifecycleEvents } from './resource-definition';

const isPlainObject = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v);

function keepsType(def: AttributeDef, value: unknown): boolean {
  switch (def.type) {
    case 'string':
    case 'date-time':
      return typeof value === 'string';
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isPlainObject(value);
  }
}

/**
 * The payload contract of events carrying a resource's snapshot, from the resource's one
 * declaration: a string `id`, and every declared attribute present in it null or of its declared
 * type. Other members are allowed (what an event adds beside the snapshot, such as
 * `previous_status`), and so are missing ones (a later version may add attributes).
 */
export function snapshotContract(schema: ResourceSchema): PayloadCheck {
  return (payload) => {
    if (typeof payload.id !== 'string' || payload.id === '') return 'id must be a string';
    for (const [name, def] of Object.entries(schema.attributes)) {
      const value = payload[name];
      if (value !== undefined && value !== null && !keepsType(def, value)) return `${name} must be ${def.type === 'integer' ? 'an' : 'a'} ${def.type}`;
    }
    return null;
  };
}

/** Registers the snapshot contract for a resource's lifecycle events and for `more` types that carry the same snapshot. */
export function registerSnapshotEvents(schema: ResourceSchema, more: readonly string[] = []): void {
  const check = snapshotContract(schema);
  for (const type of [...Object.values(lifecycleEvents(schema)), ...more]) registerEventContract(type, 1, check);
}
