import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { CurrentCaller, RequirePermission, type Caller } from '@taproot/auth';
import { JsonApiError, parseResourcePayload } from '@taproot/json-api';
import { GetResourceQuery, ListResourcesQuery, snapshotObject, type FlatQuery, type Snapshot } from '@taproot/resources';
import { CreateShiftCoverageRequestsCommand, DeleteShiftCoverageRequestCommand } from './shift-coverage-request-commands';
import { coverageRangeSchema, shiftCoverageRequestDefinition as definition, shiftCoverageRequestSchema as schema } from './shift-coverage-request.schema';

const COLLECTION = 'v1/schedules/:schedule_id/shift_coverage_requests';
const RECORDS = 'v1/shift_coverage_requests';

/**
 * Shift coverage requests (docs/schedule-resources.md): under a schedule (the reference's routes)
 * and across schedules (the spec's `GET, POST /v1/shift_coverage_requests`), records at their own
 * path. Every route needs schedules read; who may ask for which shift, and withdraw which request,
 * the commands decide. The create answers a list: a range may hold several shifts.
 */
@Controller()
export class ShiftCoverageRequestsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get(COLLECTION)
  @RequirePermission('schedules', 'read')
  listOfSchedule(@CurrentCaller() caller: Caller, @Param('schedule_id') scheduleId: string, @Query() query: FlatQuery) {
    return this.queries.execute(new ListResourcesQuery(definition, caller.organizationId, query, scheduleId));
  }

  @Get(RECORDS)
  @RequirePermission('schedules', 'read')
  list(@CurrentCaller() caller: Caller, @Query() query: FlatQuery) {
    return this.queries.execute(new ListResourcesQuery(definition, caller.organizationId, query));
  }

  @Get(`${RECORDS}/:id`)
  @RequirePermission('schedules', 'read')
  get(@CurrentCaller() caller: Caller, @Param('id') id: string, @Query() query: FlatQuery) {
    return this.queries.execute(new GetResourceQuery(definition, caller.organizationId, id, query));
  }

  @Post(COLLECTION)
  @RequirePermission('schedules', 'read')
  @HttpCode(201)
  createInSchedule(@CurrentCaller() caller: Caller, @Param('schedule_id') scheduleId: string, @Body() body: unknown) {
    const { attributes } = parseResourcePayload(coverageRangeSchema, body, 'create');
    return this.create(new CreateShiftCoverageRequestsCommand(caller, scheduleId, attributes));
  }

  /** The spec's route without a schedule in the path: the body names it. */
  @Post(RECORDS)
  @RequirePermission('schedules', 'read')
  @HttpCode(201)
  createNamingSchedule(@CurrentCaller() caller: Caller, @Body() body: unknown) {
    const { attributes } = parseResourcePayload(coverageRangeSchema, body, 'create');
    if (typeof attributes.schedule_id !== 'string') {
      throw JsonApiError.invalidAttributes([{ attribute: 'schedule_id', detail: 'schedule_id is required on POST /v1/shift_coverage_requests' }]);
    }
    return this.create(new CreateShiftCoverageRequestsCommand(caller, attributes.schedule_id, attributes));
  }

  @Delete(`${RECORDS}/:id`)
  @RequirePermission('schedules', 'read')
  async remove(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    const snapshot: Snapshot = await this.commands.execute(new DeleteShiftCoverageRequestCommand(caller, id));
    return { data: snapshotObject(schema, snapshot) };
  }

  private async create(command: CreateShiftCoverageRequestsCommand) {
    const snapshots: Snapshot[] = await this.commands.execute(command);
    return { data: snapshots.map((s) => snapshotObject(schema, s)) };
  }
}
