import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { actorOf, can, CurrentCaller, forbidden, OwnedByTeam, RequirePermission, TeamOwnershipChecker, type Caller, type TeamOwnedRoute } from '@taproot/auth';
import { parseBulkDelete, parseBulkUpsert, parseResourcePayload, type FlatQuery, type ResourceObject } from '@taproot/json-api';
import {
  BulkDeleteResourcesCommand,
  BulkUpsertResourcesCommand,
  GetResourceQuery,
  ListResourcesQuery,
  warnDeprecated,
  type BulkUpsertResult,
  type HeaderReply,
} from '@taproot/resources';
import { DataSource } from 'typeorm';
import { ChangeTeamCommand, CreateTeamCommand, DeleteTeamCommand, teamDefinition } from './team-commands';
import { MEMBERSHIP_ATTRIBUTES, teamSchema } from './team.schema';
import { IdentityError, IdentityErrorCode } from '../errors';

const OWN_TEAM: TeamOwnedRoute = { table: 'groups', isTeam: true, slugs: true };

type Row = Record<string, unknown>;

/** `/v1/teams` (type `groups`), permission family `groups`; membership also needs `members` update. */
@Controller('v1/teams')
export class TeamsController {
  private readonly ownership: TeamOwnershipChecker;

  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
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
    throw new IdentityError(IdentityErrorCode.PermissionDenied, `Changing team membership (user_ids, admin_ids) needs update on members. ${error.errors[0]?.detail ?? ''}`.trim());
  }

  @Get()
  @RequirePermission('groups', 'read')
  list(@CurrentCaller() principal: Caller, @Query() query: FlatQuery) {
    return this.queries.execute(new ListResourcesQuery(teamDefinition, principal.organizationId, query));
  }

  @Post('bulk_upsert')
  @RequirePermission('groups', 'create')
  @HttpCode(200)
  async bulkUpsert(@CurrentCaller() principal: Caller, @Body() body: unknown, @Res({ passthrough: true }) reply: HeaderReply) {
    // Upsert creates and updates: both are needed (reference, bulkUpsertGroups).
    if (!can(principal.permissions, 'groups', 'update')) throw forbidden({ family: 'groups', action: 'update' }, principal, principal.permissions);
    const entities = parseBulkUpsert(body);
    this.assertMayManageMembership(principal, entities.map((e) => e.input));
    const { document, warnings }: BulkUpsertResult = await this.commands.execute(new BulkUpsertResourcesCommand(teamDefinition, principal.organizationId, actorOf(principal), entities));
    warnDeprecated(reply, warnings);
    return document;
  }

  @Post('bulk_delete')
  @RequirePermission('groups', 'delete')
  @HttpCode(200)
  bulkDelete(@CurrentCaller() principal: Caller, @Body() body: unknown) {
    return this.commands.execute(new BulkDeleteResourcesCommand(teamDefinition, principal.organizationId, actorOf(principal), parseBulkDelete(teamSchema, body)));
  }

  @Get(':id')
  @RequirePermission('groups', 'read')
  get(@CurrentCaller() principal: Caller, @Param('id') id: string, @Query() query: FlatQuery) {
    return this.queries.execute(new GetResourceQuery(teamDefinition, principal.organizationId, id, query));
  }

  @Post()
  @RequirePermission('groups', 'create')
  @HttpCode(201)
  async create(@CurrentCaller() principal: Caller, @Body() body: unknown, @Res({ passthrough: true }) reply: HeaderReply) {
    const { attributes, warnings } = parseResourcePayload(teamSchema, body, 'create');
    this.assertMayManageMembership(principal, [attributes]);
    const data: ResourceObject = await this.commands.execute(new CreateTeamCommand(principal.organizationId, actorOf(principal), attributes));
    warnDeprecated(reply, warnings);
    return { data };
  }

  @Put(':id')
  @RequirePermission('groups', 'update')
  @OwnedByTeam(OWN_TEAM)
  async update(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown, @Res({ passthrough: true }) reply: HeaderReply) {
    const { attributes, warnings } = parseResourcePayload(teamSchema, body, 'update');
    // A team key administers its own team, membership included (spec: "same permissions as a team admin").
    const ownTeam = principal.kind === 'team' && !!principal.teamId && (await this.ownership.owns(principal.organizationId, principal.teamId, OWN_TEAM, { params: { id } }));
    if (!ownTeam) this.assertMayManageMembership(principal, [attributes]);
    const data: ResourceObject = await this.commands.execute(new ChangeTeamCommand(principal.organizationId, actorOf(principal), id, attributes));
    warnDeprecated(reply, warnings);
    return { data };
  }

  @Delete(':id')
  @RequirePermission('groups', 'delete')
  async remove(@CurrentCaller() principal: Caller, @Param('id') id: string) {
    const data: ResourceObject = await this.commands.execute(new DeleteTeamCommand(principal.organizationId, actorOf(principal), id));
    return { data };
  }
}
