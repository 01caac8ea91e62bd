import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Res, type Type } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { actorOf, can, CurrentCaller, forbidden, isPermissionFamily, OwnedByTeam, RequirePermission, type Caller, type CrudAction } from '@taproot/auth';
import { collectionPath, JsonApiError, parseBulkDelete, parseBulkUpsert, parseResourcePayload, withIncludes, type SingleDocument } from '@taproot/json-api';
import { DataSource } from 'typeorm';
import { BulkDeleteResourcesCommand, BulkUpsertResourcesCommand, type BulkUpsertResult } from './resource-bulk';
import { findParent } from './resource-parent';
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

export interface HeaderReply {
  header(name: string, value: string): unknown;
}

/** Deprecated writes (a submitted `slug`) answer normally plus these headers (spec, Versioning). */
export function warnDeprecated(reply: HeaderReply, warnings: string[]): void {
  if (warnings.length === 0) return;
  reply.header('Deprecation', 'true');
  reply.header('X-API-Warn', warnings.join('; '));
}

/** A declared path as a Nest route: `/v1/incident_roles/{incident_role_id}` -> `v1/incident_roles/:incident_role_id`. */
const nestRoute = (path: string) => path.replace(/^\//, '').replace(/\{(\w+)\}/g, ':$1');

/**
 * The thin JSON:API controller of a declared resource: parse, dispatch a command or query,
 * serialize. Only the operations the declaration lists are routed, as the OpenAPI document
 * declares no other (a resource without a create has no POST); `bulk_upsert` and `bulk_delete`
 * only when it is declared with `bulk: true`. A resource declared under a parent has its
 * collection under the parent's record and its records at its own path.
 */
export function resourceController(definition: ResourceDefinition): Type<unknown> {
  const { schema } = definition;
  type Op = (typeof schema.operations)[number];
  const serves = (op: Op) => {
    if (!schema.operations.includes(op)) throw JsonApiError.of(405, 'Method not allowed', `${schema.type} does not support ${op}`);
  };
  const routed = (op: Op, route: MethodDecorator): MethodDecorator => (schema.operations.includes(op) ? route : () => undefined);
  // Each route checks its action on the resource's permission family (docs/permissions.md).
  const family = definition.permission?.family ?? (isPermissionFamily(schema.type) ? schema.type : null);
  const requires = (action: CrudAction): MethodDecorator => (family ? RequirePermission(family, action) : () => undefined);
  const reads = definition.permission?.reads;
  const requiresRead: MethodDecorator = reads ? RequirePermission(reads.family, reads.action) : requires('read');
  const writes = definition.permission?.writes;
  const access = definition.parentAccess;
  const requiresWrite = (action: 'create' | 'update' | 'delete'): MethodDecorator =>
    access?.mayWrite ? () => undefined : requires((typeof writes === 'object' ? writes[action] : writes) ?? action);
  if (access && !schema.parent) throw new Error(`${schema.type}: parentAccess needs a parent`);
  // Without conditions, the list across parents would show what the parent's routes hide.
  if (access && schema.parent?.flatList && !access.listScope) throw new Error(`${schema.type}: the list across parents needs parentAccess.listScope`);
  const teamOwned: MethodDecorator = definition.teamOwnership
    ? OwnedByTeam({ table: definition.table, teamsColumn: definition.teamOwnership.column, slugs: 'slug' in definition.schema.attributes })
    : () => undefined;
  const document = (snapshot: Snapshot): SingleDocument => ({ data: snapshotObject(schema, snapshot) });
  const aliases = schema.queryAliases ?? {};
  // The reference's other names of list parameters, as the JSON:API ones (which win when both come).
  const unaliased = (query: FlatQuery): FlatQuery =>
    Object.fromEntries(Object.entries(query).flatMap(([key, value]) => (aliases[key] ? (aliases[key] in query ? [] : [[aliases[key], value]]) : [[key, value]])));
  const collection = nestRoute(collectionPath(schema));
  const records = nestRoute(schema.path);
  // Records served under their parent's path: the path's parent must be theirs.
  const parentInPath = schema.parent !== undefined && schema.path.includes(`{${schema.parent.param}}`);
  // Under a parent, a batch is of one parent's records: its actions sit under the nested collection.
  const bulkBase = schema.parent ? collection : records;
  // The list across parents is the same list without a parent.
  const lists = schema.parent?.flatList ? [collection, records] : collection;
  // The update is served with the declared method only, as the OpenAPI document declares it.
  const UpdateRoute = schema.updateMethod === 'patch' ? Patch : Put;
  // `both`: PATCH too, served by the same update (a second route method; Nest keeps one route per method).
  const AlsoPatch: MethodDecorator = schema.updateMethod === 'both' ? routed('update', Patch(`${records}/:id`)) : () => undefined;

  @Controller()
  class JsonApiResourceController {
    constructor(
      readonly commands: CommandBus,
      readonly queries: QueryBus,
      readonly dataSource: DataSource,
    ) {}

    /**
     * The path's parent before a write's body is read: another organization's is a 404 whatever the
     * body says, as a missing one (the writer looks it up again, locked, in its transaction).
     */
    protected async parentFirst(principal: Caller, params: Record<string, string>): Promise<string | undefined> {
      const parentId = await this.parentOf(principal, params);
      if (schema.parent && !access) await findParent(this.dataSource, schema.parent, principal.organizationId, parentId!);
      return parentId;
    }

    /** The path's parent (for a resource under one), as the caller may see it: its id; a 404 otherwise. */
    protected async parentOf(caller: Caller, params: Record<string, string>): Promise<string | undefined> {
      const raw = schema.parent ? params[schema.parent.param] : undefined;
      return raw !== undefined && access ? access.find(this.dataSource, caller, raw) : raw;
    }

    /**
     * A record as the caller may see it: one whose parent is hidden from them is missing (404), and
     * so is one whose record path names its parent (`/v1/edge_connectors/{edge_connector_id}/actions/{id}`)
     * when the path names another.
     */
    private async visible(caller: Caller, id: string, query: FlatQuery = {}, params: Record<string, string> = {}): Promise<SingleDocument> {
      const found: SingleDocument = await this.queries.execute(new GetResourceQuery(definition, caller.organizationId, id, query));
      if (parentInPath && String(found.data.attributes[schema.parent!.attribute]).toLowerCase() !== String(params[schema.parent!.param]).toLowerCase()) throw JsonApiError.notFound(schema.type, id);
      if (!access) return found;
      try {
        await access.find(this.dataSource, caller, String(found.data.attributes[schema.parent!.attribute]));
      } catch (error) {
        if (error instanceof JsonApiError && error.status === 404) throw JsonApiError.notFound(schema.type, id);
        throw error;
      }
      return found;
    }

    /** A write's answer: the record, with the relationships the declaration always links (read after the commit, as a get answers them). */
    private async answer(organizationId: string, snapshot: Snapshot): Promise<SingleDocument> {
      const { data } = await withIncludes({ db: this.dataSource, organizationId }, schema, definition.includes ?? {}, [document(snapshot).data], []);
      return { data: data[0] };
    }

    /** A record the caller may see and, where the parent decides who writes, change. */
    private async writable(caller: Caller, id: string, params: Record<string, string>): Promise<void> {
      const found = await this.visible(caller, id, {}, params);
      access?.mayWrite?.(caller, String(found.data.attributes[schema.parent!.attribute]));
    }

    @routed('list', Get(lists))
    @requiresRead
    async list(@CurrentCaller() principal: Caller, @Param() params: Record<string, string>, @Query() query: FlatQuery) {
      await definition.rules?.beforeList?.(principal.organizationId, this.dataSource);
      const parentId = await this.parentOf(principal, params);
      const scope = parentId === undefined && access?.listScope ? access.listScope(principal) : [];
      return this.queries.execute(new ListResourcesQuery(definition, principal.organizationId, unaliased(query), parentId, scope));
    }

    @routed('get', Get(`${records}/:id`))
    @requiresRead
    get(@CurrentCaller() principal: Caller, @Param('id') id: string, @Query() query: FlatQuery, @Param() params: Record<string, string>) {
      return this.visible(principal, id, query, params);
    }

    @routed('create', Post(collection))
    @requiresWrite('create')
    @teamOwned
    @HttpCode(201)
    async create(
      @CurrentCaller() principal: Caller,
      @Param() params: Record<string, string>,
      @Body() body: unknown,
      @Res({ passthrough: true }) reply: HeaderReply,
    ) {
      const parentId = await this.parentFirst(principal, params);
      const { attributes, warnings } = parseResourcePayload(schema, body, 'create');
      if (parentId !== undefined) access?.mayWrite?.(principal, parentId);
      const userId = principal.userId === null ? null : String(principal.userId);
      const snapshot: Snapshot = await this.commands.execute(
        new CreateResourceCommand(definition, principal.organizationId, actorOf(principal), attributes, parentId, userId),
      );
      warnDeprecated(reply, warnings);
      return this.answer(principal.organizationId, snapshot);
    }

    @routed('update', UpdateRoute(`${records}/:id`))
    @requiresWrite('update')
    @teamOwned
    async update(
      @CurrentCaller() principal: Caller,
      @Param('id') id: string,
      @Body() body: unknown,
      @Res({ passthrough: true }) reply: HeaderReply,
      @Param() params: Record<string, string> = {},
    ) {
      const { attributes, warnings } = parseResourcePayload(schema, body, 'update');
      if (access || parentInPath) await this.writable(principal, id, params);
      const userId = principal.userId === null ? null : String(principal.userId);
      const snapshot: Snapshot = await this.commands.execute(
        new UpdateResourceCommand(definition, principal.organizationId, actorOf(principal), id, attributes, userId),
      );
      warnDeprecated(reply, warnings);
      return this.answer(principal.organizationId, snapshot);
    }

    @AlsoPatch
    @requiresWrite('update')
    @teamOwned
    patch(
      @CurrentCaller() principal: Caller,
      @Param('id') id: string,
      @Body() body: unknown,
      @Res({ passthrough: true }) reply: HeaderReply,
      @Param() params: Record<string, string>,
    ) {
      return this.update(principal, id, body, reply, params);
    }

    @routed('delete', Delete(`${records}/:id`))
    @requiresWrite('delete')
    @teamOwned
    async remove(@CurrentCaller() principal: Caller, @Param('id') id: string, @Param() params: Record<string, string>) {
      if (access || parentInPath) await this.writable(principal, id, params);
      const snapshot: Snapshot = await this.commands.execute(
        new DeleteResourceCommand(definition, principal.organizationId, actorOf(principal), id),
      );
      return document(snapshot);
    }
  }

  @Controller()
  class JsonApiBulkResourceController extends JsonApiResourceController {

    @Post(`${bulkBase}/bulk_upsert`)
    @requiresWrite('create')
    @HttpCode(200)
    async bulkUpsert(
      @CurrentCaller() principal: Caller,
      @Param() params: Record<string, string>,
      @Body() body: unknown,
      @Res({ passthrough: true }) reply: HeaderReply,
    ) {
      serves('create');
      serves('update');
      // An upsert creates and updates: it needs both (reference, bulkUpsertServices).
      if (family && !can(principal.permissions, family, 'update')) throw forbidden({ family, action: 'update' }, principal, principal.permissions);
      const parentId = await this.parentFirst(principal, params);
      const entities = parseBulkUpsert(body);
      const { document, warnings }: BulkUpsertResult = await this.commands.execute(
        new BulkUpsertResourcesCommand(definition, principal.organizationId, actorOf(principal), entities, parentId),
      );
      warnDeprecated(reply, warnings);
      return document;
    }

    @Post(`${bulkBase}/bulk_delete`)
    @requiresWrite('delete')
    @HttpCode(200)
    async bulkDelete(@CurrentCaller() principal: Caller, @Param() params: Record<string, string>, @Body() body: unknown) {
      serves('delete');
      const parentId = await this.parentFirst(principal, params);
      const mode = parseBulkDelete(schema, body);
      return this.commands.execute(new BulkDeleteResourcesCommand(definition, principal.organizationId, actorOf(principal), mode, parentId));
    }
  }

  const served = schema.bulk ? JsonApiBulkResourceController : JsonApiResourceController;
  Object.defineProperty(served, 'name', { value: `${schema.singular}Controller` });
  return served;
}
