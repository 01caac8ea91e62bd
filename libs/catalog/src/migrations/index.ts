import { CreateSeveritiesAndServices1732300000200 } from './1732300000200-create-severities-and-services';
import { IndexWriteTablesForCreates1732300000210 } from './1732300000210-index-write-tables-for-creates';
import { CreateTaxonomy1732300000220 } from './1732300000220-create-taxonomy';
import { CreateCatalogs1732300009700 } from './1732300009700-create-catalogs';
import { CreateCatalogChecklists1732300011250 } from './1732300011250-create-catalog-checklists';

export const CATALOG_MIGRATIONS = [
  CreateSeveritiesAndServices1732300000200,
  IndexWriteTablesForCreates1732300000210,
  CreateTaxonomy1732300000220,
  CreateCatalogs1732300009700,
  CreateCatalogChecklists1732300011250,
];
