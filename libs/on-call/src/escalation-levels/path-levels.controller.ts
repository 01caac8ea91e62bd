import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { actorOf, CurrentCaller, RequirePermission, type Caller } from '@taproot/auth';
import { isUuid, JsonApiError, parseResourcePayload } from '@taproot/json-api';
import { CreateResourceCommand, ListResourcesQuery, snapshotObject, type FlatQuery, type Snapshot } from '@taproot/resources';
import { DataSource } from 'typeorm';
import { escalationLevelDefinition as definition, escalationLevelSchema as schema } from './escalation-level.schema';

const COLLECTION = 'v1/escalation_paths/:escalation_policy_path_id/escalation_levels';

/**
 * A path's levels (reference: `/v1/escalation_paths/{escalation_policy_path_id}/escalation_levels`):
 * the levels of its policy on that path. They live under the policy, so both routes are its
 * nested collection with the path fixed: the list's links are the policy's, filtered on the path.
 */
@Controller()
export class PathLevelsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly dataSource: DataSource,
  ) {}

  @Get(COLLECTION)
  @RequirePermission('escalation_policies', 'read')
  async list(@CurrentCaller() caller: Caller, @Param('escalation_policy_path_id') pathId: string, @Query() query: FlatQuery) {
    const policyId = await this.policyOf(caller, pathId);
    return this.queries.execute(new ListResourcesQuery(definition, caller.organizationId, { ...query, 'filter[escalation_policy_path_id]': pathId }, policyId));
  }

  @Post(COLLECTION)
  @RequirePermission('escalation_policies', 'update')
  @HttpCode(201)
  async create(@CurrentCaller() caller: Caller, @Param('escalation_policy_path_id') pathId: string, @Body() body: unknown) {
    const { attributes } = parseResourcePayload(schema, body, 'create');
    const policyId = await this.policyOf(caller, pathId);
    // The path decides, as a parent does: a body naming another path is refused.
    if (attributes.escalation_policy_path_id != null && attributes.escalation_policy_path_id !== pathId) {
      throw JsonApiError.invalidAttributes([{ attribute: 'escalation_policy_path_id', detail: `escalation_policy_path_id must be ${pathId}, the path of the route, or left out` }]);
    }
    const userId = caller.userId === null ? null : String(caller.userId);
    const command = new CreateResourceCommand(definition, caller.organizationId, actorOf(caller), { ...attributes, escalation_policy_path_id: pathId }, policyId, userId);
    const snapshot: Snapshot = await this.commands.execute(command);
    return { data: snapshotObject(schema, snapshot) };
  }

  /** The policy of a path of the caller's organization; another organization's, or none, is a 404. */
  private async policyOf(caller: Caller, pathId: string): Promise<string> {
    const rows = isUuid(pathId)
      ? ((await this.dataSource.query('SELECT escalation_policy_id FROM escalation_paths WHERE organization_id = $1 AND id = $2', [caller.organizationId, pathId])) as { escalation_policy_id: string }[])
      : [];
    if (!rows.length) throw JsonApiError.notFound('escalation_paths', pathId);
    return String(rows[0].escalation_policy_id);
  }
}
