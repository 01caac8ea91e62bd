import { isUuid, JsonApiError, type AttributeDef } from '@taproot/json-api';
import type { Row, WriteContext } from '@taproot/resources';

/** A bulk upsert item's `fields` (reference, `bulk_upsert_*`): property values by property id, slug or external id. */
export const BULK_FIELDS: Record<string, AttributeDef> = {
  fields: {
    type: 'array',
    description: 'Property values, merged: only the properties mentioned are written. Each names its property by catalog_property_id or catalog_field_id (its id, slug or external_id).',
    items: {
      type: 'object',
      properties: {
        catalog_property_id: { type: 'string', description: 'Id, slug or external_id of the catalog property' },
        catalog_field_id: { type: 'string', description: 'Alias of catalog_property_id' },
        value: { type: 'string', required: true, description: 'The value for this property' },
      },
    },
  },
};

interface PropertyValue {
  catalog_property_id: string;
  value: string;
}

const refuse = (attribute: string, detail: string, code = 'INVALID_ATTRIBUTE') => JsonApiError.invalidAttributes([{ attribute, detail, code }]);

/**
 * A bulk item's `fields` merged into its `properties` (the item's own, else the record's): the
 * values of the properties it mentions replace theirs, the others stay. Properties are those of the
 * batch's catalog (`parentId`, custom catalogs) or of the built-in `catalogType`.
 */
export const fieldsIntoProperties =
  (catalogType: string | null) =>
  async (input: Row, current: Row | undefined, ctx: WriteContext, parentId: string | null): Promise<Row> => {
    if (!('fields' in input)) return input;
    const { fields, ...rest } = input;
    if (!Array.isArray(fields)) throw refuse('fields', 'fields must be a list of {catalog_property_id, value}');
    const properties = (await ctx.manager.query(
      `SELECT id::text, slug, external_id FROM catalog_properties WHERE organization_id = $1 AND ${catalogType ? 'catalog_id IS NULL AND catalog_type = $2' : 'catalog_id = $2'}`,
      [ctx.organizationId, catalogType ?? parentId],
    )) as { id: string; slug: string; external_id: string | null }[];
    const written: PropertyValue[] = fields.map((field: Row, i: number) => {
      const key = field?.catalog_property_id ?? field?.catalog_field_id;
      const named = field?.catalog_property_id !== undefined ? 'catalog_property_id' : 'catalog_field_id';
      if (typeof key !== 'string' || key === '') throw refuse(`fields/${i}`, `fields[${i}] needs catalog_property_id or catalog_field_id`, 'REQUIRED');
      if (typeof field.value !== 'string') throw refuse(`fields/${i}/value`, `fields[${i}].value must be a string`);
      const property = properties.find((p) => (isUuid(key) && p.id === key.toLowerCase()) || p.slug === key || p.external_id === key);
      if (!property) throw refuse(`fields/${i}/${named}`, `fields[${i}].${named}: ${JSON.stringify(key)} is no property (id, slug or external_id) of this catalog`, 'NOT_FOUND');
      return { catalog_property_id: property.id, value: field.value };
    });
    const mentioned = new Set(written.map((w) => w.catalog_property_id));
    const base = ((rest.properties ?? current?.properties ?? []) as PropertyValue[]).filter((p) => !mentioned.has(p.catalog_property_id));
    return { ...rest, properties: [...base, ...written] };
  };
