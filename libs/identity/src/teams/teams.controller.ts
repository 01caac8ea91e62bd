import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { JsonApiError, parseBulkDelete, parseBulkUpsert, parseResourcePayload, type FlatQuery } from '@taproot/json-api';
import { DataSource } from 'typeorm';
import { can, CurrentCaller, forbidden, OwnedByTeam, RequirePermission, TeamOwnershipChecker, type Caller, type TeamOwnedRoute } from '@taproot/auth';
import { MEMBERSHIP_ATTRIBUTES, teamSchema } from './team.schema';
import { TeamsService } from './teams.service';

const OWN_TEAM: TeamOwnedRoute = { table: 'groups', isTeam: true, slugs: true };

type Row = Record<string, unknown>;

/** `/v1/teams` (type `groups`), permission family `groups`; membership also needs `members` update. */
@Controller('v1/teams')
export class TeamsController {
  private readonly ownership: TeamOwnershipChecker;

  constructor(
    private readonly teams: TeamsService,
    dataSource: DataSource,
  ) {
    this.ownership = new TeamOwnershipChecker(dataSource);
  }

  /**
   * Spec, Errors: managing membership through `user_ids` / `admin_ids` needs its own permission:
   * `update` on `members`, on top of the route's `groups` permission. 403 otherwise.
   */
  private assertMayManageMembership(caller: Caller, attributes: Row[]): void {
    if (!attributes.some((a) => MEMBERSHIP_ATTRIBUTES.some((name) => name in a))) return;
    if (can(caller.permissions, 'members', 'update')) return;
    const error = forbidden({ family: 'members', action: 'update' }, caller, caller.permissions);
    throw JsonApiError.of(403, 'Forbidden', `Changing team membership (user_ids, admin_ids) needs update on members. ${error.errors[0]?.detail ?? ''}`.trim(), 'PERMISSION_DENIED');
  }

  @Get()
  @RequirePermission('groups', 'read')
  list(@CurrentCaller() principal: Caller, @Query() query: FlatQuery) {
    return this.teams.list(principal.organizationId, query);
  }

  @Post('bulk_upsert')
  @RequirePermission('groups', 'create')
  @HttpCode(200)
  async bulkUpsert(@CurrentCaller() principal: Caller, @Body() body: unknown) {
    // Upsert creates and updates: both are needed (reference, bulkUpsertGroups).
    if (!can(principal.permissions, 'groups', 'update')) throw forbidden({ family: 'groups', action: 'update' }, principal, principal.permissions);
    const entities = parseBulkUpsert(body);
    this.assertMayManageMembership(principal, entities.map((e) => e.input));
    return this.teams.bulkUpsert(principal, entities);
  }

  @Post('bulk_delete')
  @RequirePermission('groups', 'delete')
  @HttpCode(200)
  bulkDelete(@CurrentCaller() principal: Caller, @Body() body: unknown) {
    return this.teams.bulkDelete(principal, parseBulkDelete(teamSchema, body));
  }

  @Get(':id')
  @RequirePermission('groups', 'read')
  get(@CurrentCaller() principal: Caller, @Param('id') id: string) {
    return this.teams.get(principal.organizationId, id);
  }

  @Post()
  @RequirePermission('groups', 'create')
  @HttpCode(201)
  async create(@CurrentCaller() principal: Caller, @Body() body: unknown) {
    const { attributes } = parseResourcePayload(teamSchema, body, 'create');
    this.assertMayManageMembership(principal, [attributes]);
    return this.teams.create(principal, attributes);
  }

  @Put(':id')
  @RequirePermission('groups', 'update')
  @OwnedByTeam(OWN_TEAM)
  async update(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown) {
    const { attributes } = parseResourcePayload(teamSchema, body, 'update');
    // A team key administers its own team, membership included (spec: "same permissions as a team admin").
    const ownTeam = principal.kind === 'team' && !!principal.teamId && (await this.ownership.owns(principal.organizationId, principal.teamId, OWN_TEAM, { params: { id } }));
    if (!ownTeam) this.assertMayManageMembership(principal, [attributes]);
    return this.teams.update(principal, id, attributes);
  }

  @Delete(':id')
  @RequirePermission('groups', 'delete')
  remove(@CurrentCaller() principal: Caller, @Param('id') id: string) {
    return this.teams.delete(principal, id);
  }
}
