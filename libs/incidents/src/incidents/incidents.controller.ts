import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { CurrentCaller, RequirePermission, type Caller } from '@taproot/auth';
import { parseBulkCreate, parseResourcePayload, type FlatQuery, type ResourceObject } from '@taproot/json-api';
import { IncidentRoutes } from './incident-access';
import { ChangeIncidentCommand, CreateIncidentCommand, DeleteIncidentCommand, type IncidentChange } from './incident-commands';
import { ImportIncidentsCommand, type IncidentImportDocument } from './incident-import';
import { IncidentReader } from './incident-reader';
import { incidentSchema, OPERATION_BODIES, type IncidentOperationName } from './incident.schema';

/**
 * The body of an operation. Those the reference sends without attributes (`in_triage`: only
 * `data.type`; `unmark_as_duplicate`, `detach_from_parent`: no body at all) may omit them.
 */
function operationAttributes(operation: IncidentOperationName, body: unknown) {
  const data = (body as { data?: { attributes?: unknown } } | undefined)?.data;
  const schema = OPERATION_BODIES[operation];
  if (body == null || (data && data.attributes === undefined && Object.keys(schema.attributes).every((n) => !schema.attributes[n].required))) return {};
  return parseResourcePayload(schema, body, 'create').attributes;
}

const single = (data: ResourceObject) => ({ data });

/** `/v1/incidents`: CRUD and the operations, permission family `incidents` (docs/incidents.md). */
@Controller('v1/incidents')
export class IncidentsController extends IncidentRoutes {
  private readonly reader = new IncidentReader(this.dataSource, this.cursorSecret);

  @Get()
  @RequirePermission('incidents', 'read')
  async list(@CurrentCaller() principal: Caller, @Query() query: FlatQuery) {
    return this.reader.list(this.access(principal), query);
  }

  @Get(':id')
  @RequirePermission('incidents', 'read')
  async get(@CurrentCaller() principal: Caller, @Param('id') id: string, @Query() query: FlatQuery) {
    return this.reader.get(this.access(principal), id, query);
  }

  @Post()
  @RequirePermission('incidents', 'create')
  @HttpCode(201)
  async create(@CurrentCaller() principal: Caller, @Body() body: unknown) {
    const { attributes } = parseResourcePayload(incidentSchema, body, 'create');
    return single(await this.commands.execute(new CreateIncidentCommand(this.access(principal), attributes)));
  }

  /** Historical incidents, all or none; a private item also needs create on private_incidents (docs/incidents.md). */
  @Post('import')
  @RequirePermission('incidents', 'create')
  @HttpCode(200)
  async import(@CurrentCaller() principal: Caller, @Body() body: unknown): Promise<IncidentImportDocument> {
    const entities = parseBulkCreate(body);
    return this.commands.execute(new ImportIncidentsCommand(this.access(principal), entities));
  }

  @Put(':id')
  @RequirePermission('incidents', 'update')
  async update(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown) {
    const { attributes } = parseResourcePayload(incidentSchema, body, 'update');
    return this.change(principal, id, { kind: 'update', attributes });
  }

  @Delete(':id')
  @RequirePermission('incidents', 'delete')
  async remove(@CurrentCaller() principal: Caller, @Param('id') id: string) {
    return single(await this.commands.execute(new DeleteIncidentCommand(this.access(principal), id)));
  }

  private async change(principal: Caller, id: string, change: IncidentChange) {
    return single(await this.commands.execute(new ChangeIncidentCommand(this.access(principal), id, change)));
  }

  private operation(principal: Caller, id: string, operation: IncidentOperationName, body: unknown) {
    return this.change(principal, id, { kind: 'operation', operation, attributes: operationAttributes(operation, body) });
  }

  @Put(':id/mitigate')
  @RequirePermission('incidents', 'update')
  mitigate(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown) {
    return this.operation(principal, id, 'mitigate', body);
  }

  @Put(':id/resolve')
  @RequirePermission('incidents', 'update')
  resolve(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown) {
    return this.operation(principal, id, 'resolve', body);
  }

  @Put(':id/cancel')
  @RequirePermission('incidents', 'update')
  cancel(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown) {
    return this.operation(principal, id, 'cancel', body);
  }

  @Put(':id/in_triage')
  @RequirePermission('incidents', 'update')
  triage(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown) {
    return this.operation(principal, id, 'in_triage', body);
  }

  @Put(':id/restart')
  @RequirePermission('incidents', 'update')
  restart(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown) {
    return this.operation(principal, id, 'restart', body);
  }

  @Put(':id/duplicate')
  @RequirePermission('incidents', 'update')
  duplicate(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown) {
    return this.operation(principal, id, 'duplicate', body);
  }

  @Put(':id/unmark_as_duplicate')
  @RequirePermission('incidents', 'update')
  unmarkAsDuplicate(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown) {
    return this.operation(principal, id, 'unmark_as_duplicate', body);
  }

  @Put(':id/detach_from_parent')
  @RequirePermission('incidents', 'update')
  detachFromParent(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown) {
    return this.operation(principal, id, 'detach_from_parent', body);
  }

  @Post(':id/add_subscribers')
  @RequirePermission('incidents', 'update')
  @HttpCode(200)
  addSubscribers(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown) {
    return this.operation(principal, id, 'add_subscribers', body);
  }

  @Delete(':id/remove_subscribers')
  @RequirePermission('incidents', 'update')
  removeSubscribers(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown) {
    return this.operation(principal, id, 'remove_subscribers', body);
  }

  @Post(':id/assign_role_to_user')
  @RequirePermission('incidents', 'update')
  @HttpCode(200)
  assignRole(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown) {
    return this.operation(principal, id, 'assign_role_to_user', body);
  }

  @Delete(':id/unassign_role_from_user')
  @RequirePermission('incidents', 'update')
  unassignRole(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown) {
    return this.operation(principal, id, 'unassign_role_from_user', body);
  }
}
