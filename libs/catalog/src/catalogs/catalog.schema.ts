import { defineResource } from '@taproot/json-api';
import { managedBy, namedAndOrdered, text } from '../shared/catalog-attributes';

/** The reference's icons of a catalog. */
export const CATALOG_ICONS = ['globe-alt', 'server-stack', 'users', 'user-group', 'chart-bar', 'shapes', 'light-bulb', 'cursor-arrow-ripple'] as const;

// A catalog has no public description (reference, `catalog`).
const { name, slug, description, position } = namedAndOrdered('catalog');

/**
 * A custom catalog (docs/catalogs.md): a named list of entities whose properties the catalog
 * declares. The declaration alone, its definition apart (catalog-definition.ts), as are its
 * properties' and entities': their records include each other, so each definition names the others'
 * declarations, which import no definition (no import cycle).
 */
export const catalogSchema = defineResource({
  type: 'catalogs',
  singular: 'catalog',
  path: '/v1/catalogs',
  readTable: 'catalogs_read',
  defaultSort: 'position',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  // The reference's include enum of the list (its get declares none; one declaration serves both).
  // The reference calls a catalog's properties its fields.
  relationships: {
    fields: { type: 'catalog_properties', many: true },
    entities: { type: 'catalog_entities', many: true },
  },
  attributes: {
    name,
    slug,
    description,
    // The reference answers an icon always and names no default: the first of its enum.
    icon: { type: 'string', enum: CATALOG_ICONS, default: 'globe-alt', description: 'The icon of the catalog' },
    external_id: text('An external identifier for this catalog. Must be unique within the team.', { filter: true }),
    managed_by: { ...managedBy('catalog'), filter: true },
    position,
  },
});
