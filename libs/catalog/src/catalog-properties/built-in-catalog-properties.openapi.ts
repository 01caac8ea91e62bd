import { buildOpenApiDocument } from '@taproot/json-api';
import { BUILT_IN_CATALOGS, builtInPropertiesDefinition } from './catalog-property-definition';

/**
 * The built-in catalogs' property routes (`BuiltInCatalogPropertiesController`): the catalog
 * property declaration's list and create at each route, under the reference's operation ids.
 */
function builtInCatalogPropertiesOpenApi() {
  const schemas = BUILT_IN_CATALOGS.map((builtIn) => builtInPropertiesDefinition(builtIn).schema);
  const { paths } = buildOpenApiDocument(schemas, { title: 'built-in catalog properties', version: '1' });
  return { paths: Object.fromEntries(schemas.map((s) => [s.path, paths[s.path]])) };
}

export const BUILT_IN_CATALOG_PROPERTIES_OPENAPI = builtInCatalogPropertiesOpenApi();
