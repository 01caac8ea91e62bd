import { defineResource } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';
import { catalogEntityPropertyDefinition } from '../catalog-entity-properties/catalog-entity-property.schema';
import { BULK_FIELDS, fieldsIntoProperties } from '../catalog-properties/bulk-fields';
import { checkPropertyValues } from '../catalog-properties/property-values';
import { catalogProperties, managedBy, namedAndOrdered, text } from '../shared/catalog-attributes';

/**
 * An entity of a custom catalog (docs/catalogs.md): created, listed, upserted and pruned under
 * its catalog (`/v1/catalogs/{catalog_id}/entities`, `.../bulk_upsert`, `.../bulk_delete`), read,
 * changed and deleted at `/v1/catalog_entities/{id}`. Its `properties` are values of its
 * catalog's properties.
 */
export const catalogEntitySchema = defineResource({
  type: 'catalog_entities',
  singular: 'catalog_entity',
  path: '/v1/catalog_entities',
  readTable: 'catalog_entities_read',
  defaultSort: 'position',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  parent: { path: '/v1/catalogs', param: 'catalog_id', attribute: 'catalog_id', table: 'catalogs', segment: 'entities', onParentDelete: 'cascade' },
  // Catalog syncs (Backstage, Terraform) upsert and prune a catalog's entities by external_id.
  bulk: true,
  bulkItemMembers: BULK_FIELDS,
  attributes: {
    catalog_id: { type: 'string', format: 'uuid', writable: 'create', description: 'The catalog the entity belongs to' },
    ...namedAndOrdered('catalog entity'),
    external_id: text('An external identifier for this catalog entity. Must be unique within the catalog.', { filter: true }),
    backstage_id: text('The Backstage entity ID this catalog entity is linked to.', { filter: true }),
    managed_by: { ...managedBy('catalog entity'), filter: true },
    properties: catalogProperties('catalog entity', { nullable: false, default: [] }),
  },
});

export const catalogEntityDefinition: ResourceDefinition = {
  schema: catalogEntitySchema,
  context: 'catalog',
  table: 'catalog_entities',
  permission: { family: 'catalogs' },
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
