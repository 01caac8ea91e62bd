import type { ResourceDefinition } from '@taproot/resources';
import { catalogEntityChecklistSchema } from './catalog-entity-checklist.schema';

/** Entity checklists (catalog-entity-checklist.schema.ts): read with the catalogs permission; written by a template's trigger only. */
export const catalogEntityChecklistDefinition: ResourceDefinition = {
  schema: catalogEntityChecklistSchema,
  context: 'catalog',
  table: 'catalog_entity_checklists',
  permission: { family: 'catalogs' },
};
