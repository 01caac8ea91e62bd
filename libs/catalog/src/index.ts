export { CATALOG_CONTEXT } from './catalog.context';
export { CatalogModule, CATALOG_RESOURCES } from './catalog.module';
export { serviceSchema, serviceDefinition } from './services/service.schema';
export { severitySchema, severityDefinition, SEVERITY_LEVELS } from './severities/severity.schema';
export { environmentSchema, environmentDefinition } from './environments/environment.schema';
export { functionalitySchema, functionalityDefinition } from './functionalities/functionality.schema';
export { causeSchema, causeDefinition } from './causes/cause.schema';
export { incidentTypeSchema, incidentTypeDefinition } from './incident-types/incident-type.schema';

export { CATALOG_MIGRATIONS } from './migrations';
export { existingCatalogIds, catalogIdsByIdOrSlug, catalogRecords, catalogRecordsOf, catalogIdsNamed, type CatalogType } from './references';
export { pagingTargetsOf, type PagingTarget } from './paging-targets';
