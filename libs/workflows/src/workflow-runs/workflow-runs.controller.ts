import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { actorOf, CurrentCaller, RequirePermission, type Caller } from '@taproot/auth';
import { parseResourcePayload } from '@taproot/json-api';
import { CreateResourceCommand, ListResourcesQuery, snapshotObject, type FlatQuery, type Snapshot } from '@taproot/resources';
import { workflowRunDefinition, workflowRunSchema } from './workflow-run.schema';

const ROUTE = 'v1/workflows/:workflow_id/workflow_runs';

/**
 * A workflow's runs: listed and created under it, the reference's only run operations (the
 * generic controller would also route the records' get, update and delete, which it has none of).
 */
@Controller()
export class WorkflowRunsController {
  constructor(
    readonly commands: CommandBus,
    readonly queries: QueryBus,
  ) {}

  @Get(ROUTE)
  @RequirePermission('workflows', 'read')
  list(@CurrentCaller() caller: Caller, @Param('workflow_id') workflowId: string, @Query() query: FlatQuery) {
    return this.queries.execute(new ListResourcesQuery(workflowRunDefinition, caller.organizationId, query, workflowId));
  }

  @Post(ROUTE)
  @RequirePermission('workflows', 'create')
  @HttpCode(201)
  async create(@CurrentCaller() caller: Caller, @Param('workflow_id') workflowId: string, @Body() body: unknown) {
    const { attributes } = parseResourcePayload(workflowRunSchema, body, 'create');
    const userId = caller.userId === null ? null : String(caller.userId);
    const snapshot: Snapshot = await this.commands.execute(new CreateResourceCommand(workflowRunDefinition, caller.organizationId, actorOf(caller), attributes, workflowId, userId));
    return { data: snapshotObject(workflowRunSchema, snapshot) };
  }
}
