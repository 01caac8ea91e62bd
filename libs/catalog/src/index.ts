export { CatalogModule, CATALOG_RESOURCES } from './catalog.module';
export { serviceSchema, serviceDefinition } from './services/service.schema';
export { severitySchema, severityDefinition, SEVERITY_LEVELS } from './severities/severity.schema';
import { CreateSeveritiesAndServices1732300000200 } from './migrations/1732300000200-create-severities-and-services';
import { IndexWriteTablesForCreates1732300000210 } from './migrations/1732300000210-index-write-tables-for-creates';

export const CATALOG_MIGRATIONS = [CreateSeveritiesAndServices1732300000200, IndexWriteTablesForCreates1732300000210];
