import { defineIncludes } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';
import { catalogEntitySchema } from '../catalog-entities/catalog-entity.schema';
import { catalogEntityDefinition } from '../catalog-entities/catalog-entity-definition';
import { catalogPropertySchema } from '../catalog-properties/catalog-property.schema';
import { catalogPropertyDefinition } from '../catalog-properties/catalog-property-definition';
import { namingThem } from '../shared/catalog-includes';
import { catalogSchema } from './catalog.schema';

/**
 * A custom catalog (docs/catalogs.md; declared in catalog.schema.ts). Deleting one deletes
 * its entities and properties first, each with its event.
 */
export const catalogDefinition: ResourceDefinition = {
  schema: catalogSchema,
  context: 'catalog',
  table: 'catalogs',
  includes: defineIncludes(catalogSchema, {
    fields: namingThem(catalogPropertySchema, 'catalog_id', 'position, created_at'),
    entities: namingThem(catalogEntitySchema, 'catalog_id', 'position, created_at'),
  }),
  children: () => [catalogEntityDefinition, catalogPropertyDefinition],
};
