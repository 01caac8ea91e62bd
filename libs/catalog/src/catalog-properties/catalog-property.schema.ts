import { defineResource } from '@taproot/json-api';
import { managedBy, namedAndOrdered, text } from '../shared/catalog-attributes';

export const CATALOG_TYPES = ['catalog', 'cause', 'environment', 'functionality', 'incident_type', 'service', 'team'] as const;
export type CatalogTypeName = (typeof CATALOG_TYPES)[number];

/** The kinds a property's values take: text, a boolean, or a record of a catalog (`reference`: an entity of `kind_catalog_id`). */
export const PROPERTY_KINDS = ['text', 'reference', 'boolean', 'service', 'functionality', 'environment', 'group', 'cause', 'incident_type', 'user'] as const;

const { name, slug, position } = namedAndOrdered('catalog property');

/**
 * A property of a catalog (docs/catalogs.md): of a custom catalog, created and listed at
 * `/v1/catalogs/{catalog_id}/properties`, or of a built-in one (`catalog_id` null, `catalog_type`
 * naming it) at `/v1/services/properties` and the like; read, changed and deleted at
 * `/v1/catalog_properties/{id}` either way. The declaration alone (catalogs/catalog.schema.ts
 * says why); its definition is in catalog-property-definition.ts.
 */
export const catalogPropertySchema = defineResource({
  type: 'catalog_properties',
  singular: 'catalog_property',
  path: '/v1/catalog_properties',
  readTable: 'catalog_properties_read',
  defaultSort: 'position',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  parent: { path: '/v1/catalogs', param: 'catalog_id', attribute: 'catalog_id', table: 'catalogs', segment: 'properties', onParentDelete: 'cascade' },
  // The reference's include enum of the built-in catalogs' property lists; one declaration serves
  // every route of the type, so a custom catalog's property includes its catalog too. A built-in
  // catalog's property (catalog_id null) includes nothing: its linkage is null.
  relationships: { catalog: { type: 'catalogs', many: false, idAttribute: 'catalog_id' } },
  attributes: {
    catalog_id: { type: 'string', format: 'uuid', nullable: true, writable: false, description: 'The custom catalog the property belongs to; null for a built-in catalog' },
    catalog_type: { type: 'string', enum: CATALOG_TYPES, writable: 'create', filter: true, description: 'The type of catalog the property belongs to.' },
    name,
    slug,
    kind: { type: 'string', required: true, enum: PROPERTY_KINDS, filter: true, description: 'What the values of the property are' },
    kind_catalog_id: { type: 'string', format: 'uuid', nullable: true, description: 'Restricts values to items of specified catalog.' },
    multiple: { type: 'boolean', default: false, description: 'Whether the attribute accepts multiple values.' },
    required: { type: 'boolean', default: false, description: 'Whether the property is required.' },
    position,
    external_id: text('An external identifier for this catalog property. Must be unique within the scope.', { filter: true }),
    managed_by: managedBy('catalog property'),
  },
});
