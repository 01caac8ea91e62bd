export { CatalogModule, CATALOG_RESOURCES } from './catalog.module';
export { serviceSchema, serviceDefinition } from './services/service.schema';
export { severitySchema, severityDefinition, SEVERITY_LEVELS } from './severities/severity.schema';
export { environmentSchema, environmentDefinition } from './environments/environment.schema';
export { functionalitySchema, functionalityDefinition } from './functionalities/functionality.schema';
export { causeSchema, causeDefinition } from './causes/cause.schema';
export { incidentTypeSchema, incidentTypeDefinition } from './incident-types/incident-type.schema';
import { CreateSeveritiesAndServices1732300000200 } from './migrations/1732300000200-create-severities-and-services';
import { IndexWriteTablesForCreates1732300000210 } from './migrations/1732300000210-index-write-tables-for-creates';
import { CreateTaxonomy1732300000220 } from './migrations/1732300000220-create-taxonomy';

export const CATALOG_MIGRATIONS = [
  CreateSeveritiesAndServices1732300000200,
  IndexWriteTablesForCreates1732300000210,
  CreateTaxonomy1732300000220,
];
export { existingCatalogIds, catalogRecords, catalogIdsNamed, type CatalogType } from './references';
