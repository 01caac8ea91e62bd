import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { JsonApiError, parseResourcePayload, type FlatQuery } from '@taproot/json-api';
import { DataSource } from 'typeorm';
import { PermissionResolver } from '../permissions/permission-resolver';
import { can } from '../permissions/permission-set';
import { forbidden } from '../permissions/permission.guard';
import { RequirePermission } from '../permissions/require-permission';
import { CurrentPrincipal } from '../principal/bearer-auth.guard';
import type { Principal } from '../principal/principal';
import { MEMBERSHIP_ATTRIBUTES, MANAGED_BY, teamSchema } from './team.schema';
import { asJsonApi, BULK_LIMIT, invalid, TeamsService } from './teams.service';

type Row = Record<string, unknown>;
const isObject = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);
const bad = (detail: string, pointer: string) => JsonApiError.of(422, 'Invalid document', detail, 'INVALID_DOCUMENT', { pointer });

/** `/v1/teams` (type `groups`), permission family `groups`; membership also needs `members` update. */
@Controller('v1/teams')
export class TeamsController {
  private readonly resolver: PermissionResolver;

  constructor(
    private readonly teams: TeamsService,
    dataSource: DataSource,
  ) {
    this.resolver = new PermissionResolver(dataSource);
  }

  /**
   * Spec, Errors: managing membership through `user_ids` / `admin_ids` needs its own permission:
   * `update` on `members`, on top of the route's `groups` permission. 403 otherwise.
   */
  private async assertMayManageMembership(principal: Principal, attributes: Row[]): Promise<void> {
    if (!attributes.some((a) => MEMBERSHIP_ATTRIBUTES.some((name) => name in a))) return;
    const permissions = await this.resolver.resolve(principal);
    if (can(permissions, 'members', 'update')) return;
    const error = forbidden({ family: 'members', action: 'update' }, principal, permissions);
    throw JsonApiError.of(403, 'Forbidden', `Changing team membership (user_ids, admin_ids) needs update on members. ${error.errors[0]?.detail ?? ''}`.trim(), 'PERMISSION_DENIED');
  }

  @Get()
  @RequirePermission('groups', 'read')
  list(@CurrentPrincipal() principal: Principal, @Query() query: FlatQuery) {
    return this.teams.list(principal.organizationId, query);
  }

  @Post('bulk_upsert')
  @RequirePermission('groups', 'create')
  @HttpCode(200)
  async bulkUpsert(@CurrentPrincipal() principal: Principal, @Body() body: unknown) {
    // Upsert creates and updates: both are needed (reference, bulkUpsertGroups).
    const permissions = await this.resolver.resolve(principal);
    if (!can(permissions, 'groups', 'update')) throw forbidden({ family: 'groups', action: 'update' }, principal, permissions);
    if (!isObject(body) || !Array.isArray(body.entities)) throw bad('The body must be an object with an entities array', '/entities');
    if (body.entities.length > BULK_LIMIT) throw bad(`At most ${BULK_LIMIT} entities per request (got ${body.entities.length})`, '/entities');
    const seen = new Map<string, number>();
    const entities = body.entities.map((entity, index) => {
      if (!isObject(entity)) throw bad(`entities[${index}] must be an object`, `/entities/${index}`);
      const externalId = entity.external_id;
      if (typeof externalId !== 'string' || externalId === '') {
        throw invalid([{ path: 'external_id', detail: 'external_id is required (the upsert key)', code: 'REQUIRED' }], `/entities/${index}`, `entities[${index}]: `);
      }
      if (seen.has(externalId)) {
        throw invalid([{ path: 'external_id', detail: `external_id ${JSON.stringify(externalId)} is also used by entities[${seen.get(externalId)}]`, code: 'DUPLICATE' }], `/entities/${index}`, `entities[${index}]: `);
      }
      seen.set(externalId, index);
      try {
        const { attributes } = parseResourcePayload(teamSchema, { data: { type: teamSchema.type, attributes: entity } }, 'update');
        return { index, attributes };
      } catch (error) {
        if (!(error instanceof JsonApiError)) throw error;
        throw new JsonApiError(
          error.status,
          error.errors.map((e) => ({
            ...e,
            detail: `entities[${index}] (external_id ${JSON.stringify(externalId)}): ${e.detail ?? e.title}`,
            source: e.source?.pointer ? { pointer: e.source.pointer.replace(/^\/data\/attributes/, `/entities/${index}`) } : e.source,
          })),
        );
      }
    });
    await this.assertMayManageMembership(principal, entities.map((e) => e.attributes));
    return this.teams.bulkUpsert(principal, entities);
  }

  @Post('bulk_delete')
  @RequirePermission('groups', 'delete')
  @HttpCode(200)
  bulkDelete(@CurrentPrincipal() principal: Principal, @Body() body: unknown) {
    if (!isObject(body)) throw bad('The body must be an object', '');
    const keys = Object.keys(body);
    if ('external_ids' in body) {
      const ids = body.external_ids;
      if (keys.length !== 1) throw bad('external_ids and managed_by are mutually exclusive', '/external_ids');
      if (!Array.isArray(ids) || ids.length === 0 || ids.length > BULK_LIMIT || !ids.every((i) => typeof i === 'string' && i !== '')) {
        throw bad(`external_ids must be a list of 1 to ${BULK_LIMIT} non-empty strings`, '/external_ids');
      }
      return this.teams.bulkDelete(principal, { externalIds: ids as string[] });
    }
    if ('managed_by' in body) {
      const allowed = MANAGED_BY.filter((m) => m !== 'web' && m !== 'admin_web');
      if (!allowed.includes(body.managed_by as (typeof allowed)[number])) throw bad(`managed_by must be one of ${allowed.join(', ')}`, '/managed_by');
      const keep = body.keep_external_ids ?? [];
      if (!Array.isArray(keep) || !keep.every((k) => typeof k === 'string')) throw bad('keep_external_ids must be a list of strings', '/keep_external_ids');
      if (keys.some((k) => k !== 'managed_by' && k !== 'keep_external_ids')) throw bad('Only managed_by and keep_external_ids are allowed with managed_by', '');
      return this.teams.bulkDelete(principal, { managedBy: body.managed_by as string, keep: keep as string[] });
    }
    throw bad('Pass exactly one of external_ids or managed_by', '');
  }

  @Get(':id')
  @RequirePermission('groups', 'read')
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.teams.get(principal.organizationId, id);
  }

  @Post()
  @RequirePermission('groups', 'create')
  @HttpCode(201)
  async create(@CurrentPrincipal() principal: Principal, @Body() body: unknown) {
    const { attributes } = parseResourcePayload(teamSchema, body, 'create');
    await this.assertMayManageMembership(principal, [attributes]);
    return asJsonApi(() => this.teams.create(principal, attributes));
  }

  @Put(':id')
  @RequirePermission('groups', 'update')
  async update(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    const { attributes } = parseResourcePayload(teamSchema, body, 'update');
    await this.assertMayManageMembership(principal, [attributes]);
    return asJsonApi(() => this.teams.update(principal, id, attributes));
  }

  @Delete(':id')
  @RequirePermission('groups', 'delete')
  remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.teams.delete(principal, id);
  }
}
