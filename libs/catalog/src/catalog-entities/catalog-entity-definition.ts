import { byIdAttribute, defineIncludes, recordsOf } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';
import { catalogEntityPropertyDefinition, catalogEntityPropertySchema } from '../catalog-entity-properties/catalog-entity-property.schema';
import { fieldsIntoProperties } from '../catalog-properties/bulk-fields';
import { checkPropertyValues } from '../catalog-properties/property-values';
import { catalogSchema } from '../catalogs/catalog.schema';
import { namingThem } from '../shared/catalog-includes';
import { catalogEntitySchema } from './catalog-entity.schema';

/** An entity of a custom catalog (docs/catalogs.md; declared in catalog-entity.schema.ts). */
export const catalogEntityDefinition: ResourceDefinition = {
  schema: catalogEntitySchema,
  context: 'catalog',
  table: 'catalog_entities',
  permission: { family: 'catalogs' },
  includes: defineIncludes(catalogEntitySchema, {
    catalog: byIdAttribute('catalog_id', recordsOf(catalogSchema)),
    properties: namingThem(catalogEntityPropertySchema, 'catalog_entity_id', 'created_at'),
  }),
  bulkInput: fieldsIntoProperties(null),
  children: () => [catalogEntityPropertyDefinition],
  rules: {
    async beforeCreate(attributes, ctx) {
      await checkPropertyValues(ctx, String(attributes.catalog_id), attributes.properties as PropertyValue[]);
      return attributes;
    },
    async beforeUpdate(current, changes, ctx) {
      if ('properties' in changes) await checkPropertyValues(ctx, String(current.catalog_id), changes.properties as PropertyValue[]);
      return changes;
    },
  },
};

type PropertyValue = { catalog_property_id: string; value: string };
