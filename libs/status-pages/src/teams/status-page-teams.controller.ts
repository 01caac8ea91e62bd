import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { actorOf, CurrentCaller, RequirePermission, type Caller } from '@taproot/auth';
import { INVALID_ATTRIBUTE, JsonApiError, parseResourcePayload, type SingleDocument } from '@taproot/json-api';
import { CreateResourceCommand, DeleteResourceCommand, findParent, GetResourceQuery, ListResourcesQuery, snapshotObject, UpdateResourceCommand, type FlatQuery, type Snapshot } from '@taproot/resources';
import { DataSource } from 'typeorm';
import { StatusPagesErrorCode } from '../status-pages/status-page-errors';
import { assertOwnerOrAdmin } from './owner-or-admin';
import { statusPageGroupDefinition as definition, statusPageGroupSchema as schema } from './status-page-group.schema';

const COLLECTION = 'v1/status-pages/:status_page_id/teams';
const RECORD = `${COLLECTION}/:id`;

/**
 * The spec's update body, exactly: `data` holds `type`, `attributes` and optionally `id` (accepted
 * and ignored: the path names the record); `attributes` holds `permission_level` only. Anything
 * else is a 422 naming it; the generic parse then checks the value.
 */
function strictUpdateBody(body: unknown): void {
  const data = (body as { data?: unknown } | null)?.data;
  if (!isObject(data)) return;
  const attributes = isObject(data.attributes) ? Object.keys(data.attributes).filter((name) => name !== 'permission_level').map((name) => [`/data/attributes/${name}`, name] as const) : [];
  const members = Object.keys(data).filter((name) => !['type', 'id', 'attributes'].includes(name)).map((name) => [`/data/${name}`, name] as const);
  const refused = [...members, ...attributes];
  if (refused.length === 0) return;
  throw new JsonApiError(
    422,
    refused.map(([pointer, name]) => ({
      ...INVALID_ATTRIBUTE,
      status: String(INVALID_ATTRIBUTE.status),
      code: StatusPagesErrorCode.UnknownProperty,
      detail: `${name} is not allowed: a status page team update takes data.type, data.attributes.permission_level and optionally data.id`,
      source: { pointer },
    })),
  );
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `/v1/status-pages/{status_page_id}/teams[/{id}]` (docs/status-pages.md): the generic commands
 * and queries, with what the generic controller cannot say: a grant is named under its own page
 * (another page's grant is missing), its writes need an owner or admin role, and its update body is
 * the spec's exactly.
 */
@Controller()
export class StatusPageTeamsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly dataSource: DataSource,
  ) {}

  /** The grant `id` of the page the path names, in the caller's organization; 404 otherwise. */
  private async grant(caller: Caller, pageRaw: string, id: string): Promise<SingleDocument> {
    const pageId = await findParent(this.dataSource, schema.parent!, caller.organizationId, pageRaw);
    const found: SingleDocument = await this.queries.execute(new GetResourceQuery(definition, caller.organizationId, id));
    if (found.data.attributes.status_page_id !== pageId) throw JsonApiError.notFound(schema.type, id);
    return found;
  }

  private document(snapshot: Snapshot): SingleDocument {
    return { data: snapshotObject(schema, snapshot) };
  }

  @Get(COLLECTION)
  @RequirePermission('status_pages', 'read')
  list(@CurrentCaller() caller: Caller, @Param('status_page_id') page: string, @Query() query: FlatQuery) {
    return this.queries.execute(new ListResourcesQuery(definition, caller.organizationId, query, page));
  }

  @Get(RECORD)
  @RequirePermission('status_pages', 'read')
  get(@CurrentCaller() caller: Caller, @Param('status_page_id') page: string, @Param('id') id: string) {
    return this.grant(caller, page, id);
  }

  @Post(COLLECTION)
  @RequirePermission('status_pages', 'update')
  @HttpCode(201)
  async create(@CurrentCaller() caller: Caller, @Param('status_page_id') page: string, @Body() body: unknown) {
    await assertOwnerOrAdmin(this.dataSource, caller);
    const { attributes } = parseResourcePayload(schema, body, 'create');
    const pageId = await findParent(this.dataSource, schema.parent!, caller.organizationId, page);
    const userId = caller.userId === null ? null : String(caller.userId);
    const snapshot: Snapshot = await this.commands.execute(new CreateResourceCommand(definition, caller.organizationId, actorOf(caller), attributes, pageId, userId));
    return this.document(snapshot);
  }

  @Put(RECORD)
  @RequirePermission('status_pages', 'update')
  async update(@CurrentCaller() caller: Caller, @Param('status_page_id') page: string, @Param('id') id: string, @Body() body: unknown) {
    await assertOwnerOrAdmin(this.dataSource, caller);
    strictUpdateBody(body);
    const { attributes } = parseResourcePayload(schema, body, 'update');
    await this.grant(caller, page, id);
    const userId = caller.userId === null ? null : String(caller.userId);
    const snapshot: Snapshot = await this.commands.execute(new UpdateResourceCommand(definition, caller.organizationId, actorOf(caller), id, attributes, userId));
    return this.document(snapshot);
  }

  @Delete(RECORD)
  @RequirePermission('status_pages', 'update')
  async remove(@CurrentCaller() caller: Caller, @Param('status_page_id') page: string, @Param('id') id: string) {
    await assertOwnerOrAdmin(this.dataSource, caller);
    await this.grant(caller, page, id);
    const snapshot: Snapshot = await this.commands.execute(new DeleteResourceCommand(definition, caller.organizationId, actorOf(caller), id));
    return this.document(snapshot);
  }
}
