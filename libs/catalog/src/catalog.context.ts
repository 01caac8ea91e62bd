import { registerSnapshotEvents } from '@taproot/resources';
import type { ContextDescriptor } from '@taproot/runtime';
import { BUILT_IN_CATALOG_PROPERTIES_OPENAPI } from './catalog-properties/built-in-catalog-properties.openapi';
import { CatalogModule, CATALOG_RESOURCES } from './catalog.module';
import { CATALOG_CHECKLISTS_OPENAPI } from './checklists/catalog-checklists.openapi';
import { CATALOG_MIGRATIONS } from './migrations';

export const CATALOG_CONTEXT: ContextDescriptor = {
  name: 'catalog',
  module: CatalogModule,
  migrations: CATALOG_MIGRATIONS,
  resources: CATALOG_RESOURCES.map((d) => d.schema),
  openapi: {
    schemas: CATALOG_CHECKLISTS_OPENAPI.schemas,
    paths: { ...BUILT_IN_CATALOG_PROPERTIES_OPENAPI.paths, ...CATALOG_CHECKLISTS_OPENAPI.paths },
  },
  // The catalog publishes its resources' lifecycle events only, each carrying the record's snapshot.
  registerEventContracts: () => CATALOG_RESOURCES.forEach((d) => registerSnapshotEvents(d.schema)),
};
