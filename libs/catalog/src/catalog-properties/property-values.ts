import { isUuid, JsonApiError } from '@taproot/json-api';
import type { WriteContext } from '@taproot/resources';

interface PropertyValue {
  catalog_property_id: string;
  value: string;
}

interface Property {
  id: string;
  name: string;
  kind: string;
  kind_catalog_id: string | null;
  multiple: boolean;
  required: boolean;
}

/** The catalog's tables whose records a property of that kind names (group and user values are the identity context's, and not checked). */
const RECORD_TABLES: Record<string, string> = {
  service: 'services',
  functionality: 'functionalities',
  environment: 'environments',
  cause: 'causes',
  incident_type: 'incident_types',
  reference: 'catalog_entities',
};

const refuse = (detail: string, code = 'INVALID_ATTRIBUTE') => JsonApiError.invalidAttributes([{ attribute: 'properties', detail, code }]);

/**
 * Checks the property values of an entity of `catalogId`: each names a property of that catalog,
 * once unless the property takes `multiple` values, with a value of its kind (`true`/`false`, or
 * the id of a record of the organization the kind names); every `required` property has one.
 */
export async function checkPropertyValues(ctx: WriteContext, catalogId: string, values: readonly PropertyValue[] = []): Promise<void> {
  const properties = (await ctx.manager.query(
    'SELECT id, name, kind, kind_catalog_id, multiple, required FROM catalog_properties WHERE organization_id = $1 AND catalog_id = $2',
    [ctx.organizationId, catalogId],
  )) as Property[];
  const byId = new Map(properties.map((p) => [p.id, p]));
  const counts = new Map<string, number>();
  for (const [index, { catalog_property_id: id, value }] of values.entries()) {
    const property = byId.get(id.toLowerCase());
    if (!property) throw refuse(`properties[${index}].catalog_property_id ${id} is not a property of catalog ${catalogId}`, 'NOT_FOUND');
    counts.set(property.id, (counts.get(property.id) ?? 0) + 1);
    if (!property.multiple && counts.get(property.id)! > 1) throw refuse(`properties[${index}]: property ${property.name} takes one value (multiple is false)`);
    await checkValue(ctx, property, value, index);
  }
  const missing = properties.filter((p) => p.required && !counts.has(p.id));
  if (missing.length) throw refuse(`required properties without a value: ${missing.map((p) => p.name).join(', ')}`, 'REQUIRED');
}

async function checkValue(ctx: WriteContext, property: Property, value: string, index: number): Promise<void> {
  if (property.kind === 'boolean') {
    if (value !== 'true' && value !== 'false') throw refuse(`properties[${index}].value must be true or false for boolean property ${property.name} (got ${JSON.stringify(value)})`);
    return;
  }
  const table = RECORD_TABLES[property.kind];
  if (!table) return;
  const scope = property.kind === 'reference' ? ' AND catalog_id = $3' : '';
  const params = property.kind === 'reference' ? [ctx.organizationId, value, property.kind_catalog_id] : [ctx.organizationId, value];
  const found = isUuid(value) ? ((await ctx.manager.query(`SELECT 1 FROM ${table} WHERE organization_id = $1 AND id = $2${scope}`, params)) as unknown[]) : [];
  if (found.length === 0) throw refuse(`properties[${index}].value ${JSON.stringify(value)} is not a ${property.kind === 'reference' ? 'catalog entity of the property\'s catalog' : property.kind.replace('_', ' ')} of this organization`, 'NOT_FOUND');
}
