import { defineResource } from '@taproot/json-api';
import { BULK_FIELDS } from '../catalog-properties/bulk-fields';
import { catalogProperties, managedBy, namedAndOrdered, text } from '../shared/catalog-attributes';

/**
 * An entity of a custom catalog (docs/catalogs.md): created, listed, upserted and pruned under
 * its catalog (`/v1/catalogs/{catalog_id}/entities`, `.../bulk_upsert`, `.../bulk_delete`), read,
 * changed and deleted at `/v1/catalog_entities/{id}`. Its `properties` are values of its
 * catalog's properties. The declaration alone (catalogs/catalog.schema.ts says why); its
 * definition is in catalog-entity-definition.ts.
 */
export const catalogEntitySchema = defineResource({
  type: 'catalog_entities',
  singular: 'catalog_entity',
  path: '/v1/catalog_entities',
  readTable: 'catalog_entities_read',
  defaultSort: 'position',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  parent: { path: '/v1/catalogs', param: 'catalog_id', attribute: 'catalog_id', table: 'catalogs', segment: 'entities', onParentDelete: 'cascade' },
  // The reference's include enum: the entity's catalog, and as `properties` its deprecated value
  // records (catalog_entity_properties; the `properties` attribute stays the values it holds).
  relationships: {
    catalog: { type: 'catalogs', many: false, idAttribute: 'catalog_id' },
    properties: { type: 'catalog_entity_properties', many: true },
  },
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
