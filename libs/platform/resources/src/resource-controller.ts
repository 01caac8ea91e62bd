import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res, type Type } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  actorOf,
  can,
  CurrentPrincipal,
  forbidden,
  isPermissionFamily,
  OwnedByTeam,
  PermissionResolver,
  RequirePermission,
  type CrudAction,
  type Principal,
} from '@taproot/identity';
import { collectionPath, JsonApiError, parseBulkDelete, parseBulkUpsert, parseResourcePayload, type SingleDocument } from '@taproot/json-api';
import { DataSource } from 'typeorm';
import { BulkDeleteResourcesCommand, BulkUpsertResourcesCommand, type BulkUpsertResult } from './resource-bulk';
import type { ResourceDefinition } from './resource-definition';
import {
  CreateResourceCommand,
  DeleteResourceCommand,
  GetResourceQuery,
  ListResourcesQuery,
  UpdateResourceCommand,
} from './resource-commands';
import type { FlatQuery } from './resource-reader';
import { snapshotObject, type Snapshot } from './resource-writer';

interface HeaderReply {
  header(name: string, value: string): unknown;
}

/** Deprecated writes (a submitted `slug`) answer normally plus these headers (spec, Versioning). */
function warn(reply: HeaderReply, warnings: string[]): void {
  if (warnings.length === 0) return;
  reply.header('Deprecation', 'true');
  reply.header('X-API-Warn', warnings.join('; '));
}

/** A declared path as a Nest route: `/v1/incident_roles/{incident_role_id}` -> `v1/incident_roles/:incident_role_id`. */
const nestRoute = (path: string) => path.replace(/^\//, '').replace(/\{(\w+)\}/g, ':$1');

/**
 * The thin JSON:API controller of a declared resource: parse, dispatch a command or query,
 * serialize. Only the operations the declaration lists are served; `bulk_upsert` and
 * `bulk_delete` only when it is declared with `bulk: true`. A resource declared under a parent
 * has its collection under the parent's record and its records at its own path.
 */
export function resourceController(definition: ResourceDefinition): Type<unknown> {
  const { schema } = definition;
  const serves = (op: (typeof schema.operations)[number]) => {
    if (!schema.operations.includes(op)) throw JsonApiError.of(405, 'Method not allowed', `${schema.type} does not support ${op}`);
  };
  // Each route checks its action on the resource's permission family (docs/permissions.md).
  const family = definition.permission?.family ?? (isPermissionFamily(schema.type) ? schema.type : null);
  const requires = (action: CrudAction): MethodDecorator => (family ? RequirePermission(family, action) : () => undefined);
  const teamOwned: MethodDecorator = definition.teamOwnership
    ? OwnedByTeam({ table: definition.table, teamsColumn: definition.teamOwnership.column })
    : () => undefined;
  const document = (snapshot: Snapshot): SingleDocument => ({ data: snapshotObject(schema, snapshot) });
  const collection = nestRoute(collectionPath(schema));
  const records = nestRoute(schema.path);
  // The list across parents is the same list without a parent.
  const lists = schema.parent?.flatList ? [collection, records] : collection;
  const parentOf = (params: Record<string, string>) => (schema.parent ? params[schema.parent.param] : undefined);

  @Controller()
  class JsonApiResourceController {
    constructor(
      readonly commands: CommandBus,
      readonly queries: QueryBus,
    ) {}

    @Get(lists)
    @requires('read')
    list(@CurrentPrincipal() principal: Principal, @Param() params: Record<string, string>, @Query() query: FlatQuery) {
      serves('list');
      return this.queries.execute(new ListResourcesQuery(definition, principal.organizationId, query, parentOf(params)));
    }

    @Get(`${records}/:id`)
    @requires('read')
    get(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
      serves('get');
      return this.queries.execute(new GetResourceQuery(definition, principal.organizationId, id));
    }

    @Post(collection)
    @requires('create')
    @teamOwned
    @HttpCode(201)
    async create(
      @CurrentPrincipal() principal: Principal,
      @Param() params: Record<string, string>,
      @Body() body: unknown,
      @Res({ passthrough: true }) reply: HeaderReply,
    ) {
      serves('create');
      const { attributes, warnings } = parseResourcePayload(schema, body, 'create');
      const snapshot: Snapshot = await this.commands.execute(
        new CreateResourceCommand(definition, principal.organizationId, actorOf(principal), attributes, parentOf(params)),
      );
      warn(reply, warnings);
      return document(snapshot);
    }

    @Put(`${records}/:id`)
    @requires('update')
    @teamOwned
    async update(
      @CurrentPrincipal() principal: Principal,
      @Param('id') id: string,
      @Body() body: unknown,
      @Res({ passthrough: true }) reply: HeaderReply,
    ) {
      serves('update');
      const { attributes, warnings } = parseResourcePayload(schema, body, 'update');
      const snapshot: Snapshot = await this.commands.execute(
        new UpdateResourceCommand(definition, principal.organizationId, actorOf(principal), id, attributes),
      );
      warn(reply, warnings);
      return document(snapshot);
    }

    @Delete(`${records}/:id`)
    @requires('delete')
    @teamOwned
    async remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
      serves('delete');
      const snapshot: Snapshot = await this.commands.execute(
        new DeleteResourceCommand(definition, principal.organizationId, actorOf(principal), id),
      );
      return document(snapshot);
    }
  }

  @Controller()
  class JsonApiBulkResourceController extends JsonApiResourceController {
    private readonly permissions: PermissionResolver;

    constructor(commands: CommandBus, queries: QueryBus, dataSource: DataSource) {
      super(commands, queries);
      this.permissions = new PermissionResolver(dataSource);
    }

    @Post(`${records}/bulk_upsert`)
    @requires('create')
    @HttpCode(200)
    async bulkUpsert(@CurrentPrincipal() principal: Principal, @Body() body: unknown, @Res({ passthrough: true }) reply: HeaderReply) {
      serves('create');
      serves('update');
      // An upsert creates and updates: it needs both (reference, bulkUpsertServices).
      if (family) {
        const granted = await this.permissions.resolve(principal);
        if (!can(granted, family, 'update')) throw forbidden({ family, action: 'update' }, principal, granted);
      }
      const entities = parseBulkUpsert(body);
      const { document, warnings }: BulkUpsertResult = await this.commands.execute(
        new BulkUpsertResourcesCommand(definition, principal.organizationId, actorOf(principal), entities),
      );
      warn(reply, warnings);
      return document;
    }

    @Post(`${records}/bulk_delete`)
    @requires('delete')
    @HttpCode(200)
    bulkDelete(@CurrentPrincipal() principal: Principal, @Body() body: unknown) {
      serves('delete');
      const mode = parseBulkDelete(schema, body);
      return this.commands.execute(new BulkDeleteResourcesCommand(definition, principal.organizationId, actorOf(principal), mode));
    }
  }

  const served = schema.bulk ? JsonApiBulkResourceController : JsonApiResourceController;
  Object.defineProperty(served, 'name', { value: `${schema.singular}Controller` });
  return served;
}
