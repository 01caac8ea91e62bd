import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { CurrentPrincipal, RequirePermission, type Principal } from '@taproot/identity';
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
  async list(@CurrentPrincipal() principal: Principal, @Query() query: FlatQuery) {
    return this.reader.list(await this.access(principal), query);
  }

  @Get(':id')
  @RequirePermission('incidents', 'read')
  async get(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Query() query: FlatQuery) {
    return this.reader.get(await this.access(principal), id, query);
  }

  @Post()
  @RequirePermission('incidents', 'create')
  @HttpCode(201)
  async create(@CurrentPrincipal() principal: Principal, @Body() body: unknown) {
    const { attributes } = parseResourcePayload(incidentSchema, body, 'create');
    return single(await this.commands.execute(new CreateIncidentCommand(await this.access(principal), attributes)));
  }

  /** Historical incidents, all or none; a private item also needs create on private_incidents (docs/incidents.md). */
  @Post('import')
  @RequirePermission('incidents', 'create')
  @HttpCode(200)
  async import(@CurrentPrincipal() principal: Principal, @Body() body: unknown): Promise<IncidentImportDocument> {
    const entities = parseBulkCreate(body);
    return this.commands.execute(new ImportIncidentsCommand(await this.access(principal), entities));
  }

  @Put(':id')
  @RequirePermission('incidents', 'update')
  async update(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    const { attributes } = parseResourcePayload(incidentSchema, body, 'update');
    return this.change(principal, id, { kind: 'update', attributes });
  }

  @Delete(':id')
  @RequirePermission('incidents', 'delete')
  async remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return single(await this.commands.execute(new DeleteIncidentCommand(await this.access(principal), id)));
  }

  private async change(principal: Principal, id: string, change: IncidentChange) {
    return single(await this.commands.execute(new ChangeIncidentCommand(await this.access(principal), id, change)));
  }

  private operation(principal: Principal, id: string, operation: IncidentOperationName, body: unknown) {
    return this.change(principal, id, { kind: 'operation', operation, attributes: operationAttributes(operation, body) });
  }

  @Put(':id/mitigate')
  @RequirePermission('incidents', 'update')
  mitigate(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.operation(principal, id, 'mitigate', body);
  }

  @Put(':id/resolve')
  @RequirePermission('incidents', 'update')
  resolve(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.operation(principal, id, 'resolve', body);
  }

  @Put(':id/cancel')
  @RequirePermission('incidents', 'update')
  cancel(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.operation(principal, id, 'cancel', body);
  }

  @Put(':id/in_triage')
  @RequirePermission('incidents', 'update')
  triage(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.operation(principal, id, 'in_triage', body);
  }

  @Put(':id/restart')
  @RequirePermission('incidents', 'update')
  restart(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.operation(principal, id, 'restart', body);
  }

  @Put(':id/duplicate')
  @RequirePermission('incidents', 'update')
  duplicate(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.operation(principal, id, 'duplicate', body);
  }

  @Put(':id/unmark_as_duplicate')
  @RequirePermission('incidents', 'update')
  unmarkAsDuplicate(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.operation(principal, id, 'unmark_as_duplicate', body);
  }

  @Put(':id/detach_from_parent')
  @RequirePermission('incidents', 'update')
  detachFromParent(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.operation(principal, id, 'detach_from_parent', body);
  }

  @Post(':id/add_subscribers')
  @RequirePermission('incidents', 'update')
  @HttpCode(200)
  addSubscribers(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.operation(principal, id, 'add_subscribers', body);
  }

  @Delete(':id/remove_subscribers')
  @RequirePermission('incidents', 'update')
  removeSubscribers(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.operation(principal, id, 'remove_subscribers', body);
  }

  @Post(':id/assign_role_to_user')
  @RequirePermission('incidents', 'update')
  @HttpCode(200)
  assignRole(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.operation(principal, id, 'assign_role_to_user', body);
  }

  @Delete(':id/unassign_role_from_user')
  @RequirePermission('incidents', 'update')
  unassignRole(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.operation(principal, id, 'unassign_role_from_user', body);
  }
}
