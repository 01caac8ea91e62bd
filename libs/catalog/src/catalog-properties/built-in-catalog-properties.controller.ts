import { Body, Controller, Get, HttpCode, Post, Query, type Type } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { actorOf, CurrentCaller, RequirePermission, type Caller } from '@taproot/auth';
import { JsonApiError, parseResourcePayload } from '@taproot/json-api';
import { CreateResourceCommand, ListResourcesQuery, snapshotObject, type FlatQuery, type Snapshot } from '@taproot/resources';
import { catalogPropertySchema } from './catalog-property.schema';
import { BUILT_IN_CATALOGS, builtInPropertiesDefinition } from './catalog-property-definition';

/**
 * `GET` and `POST <collection>/properties` of a built-in catalog (services, teams, ...): its
 * properties, `catalog_type` set by the route. Read, changed and deleted at
 * `/v1/catalog_properties/{id}` like a custom catalog's (the declaration's own controller).
 */
function builtInCatalogPropertiesController(builtIn: (typeof BUILT_IN_CATALOGS)[number]): Type<unknown> {
  const definition = builtInPropertiesDefinition(builtIn);
  const route = definition.schema.path.replace(/^\//, '');
  const ofType = { attribute: 'catalog_type', operator: 'eq' as const, values: [builtIn.catalogType], parameter: 'filter[catalog_type]' };

  @Controller()
  class BuiltInCatalogPropertiesController {
    constructor(
      readonly commands: CommandBus,
      readonly queries: QueryBus,
    ) {}

    @Get(route)
    @RequirePermission('catalogs', 'read')
    list(@CurrentCaller() caller: Caller, @Query() query: FlatQuery) {
      return this.queries.execute(new ListResourcesQuery(definition, caller.organizationId, query, undefined, [ofType]));
    }

    @Post(route)
    @RequirePermission('catalogs', 'create')
    @HttpCode(201)
    async create(@CurrentCaller() caller: Caller, @Body() body: unknown) {
      const { attributes } = parseResourcePayload(definition.schema, body, 'create');
      if (attributes.catalog_type !== undefined && attributes.catalog_type !== builtIn.catalogType) {
        throw JsonApiError.invalidAttributes([{ attribute: 'catalog_type', detail: `catalog_type must be ${builtIn.catalogType} on ${definition.schema.path} (got ${String(attributes.catalog_type)})` }]);
      }
      const userId = caller.userId === null ? null : String(caller.userId);
      const snapshot: Snapshot = await this.commands.execute(
        new CreateResourceCommand(definition, caller.organizationId, actorOf(caller), { ...attributes, catalog_type: builtIn.catalogType }, undefined, userId),
      );
      return { data: snapshotObject(catalogPropertySchema, snapshot) };
    }
  }
  Object.defineProperty(BuiltInCatalogPropertiesController, 'name', { value: `${builtIn.noun}CatalogPropertiesController` });
  return BuiltInCatalogPropertiesController;
}

export const BUILT_IN_CATALOG_PROPERTIES_CONTROLLERS = BUILT_IN_CATALOGS.map(builtInCatalogPropertiesController);
