import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { CurrentCaller, RequirePermission, type Caller } from '@taproot/auth';
import { parseBulkCreate, parseOperationPayload, parseResourcePayload, type FlatQuery, type ResourceObject } from '@taproot/json-api';
import { warnDeprecated, type HeaderReply, type Row } from '@taproot/resources';
import { IncidentRoutes } from './incident-access';
import {
  AddIncidentSubscribersCommand,
  AssignIncidentRoleCommand,
  CancelIncidentCommand,
  CreateIncidentCommand,
  DeleteIncidentCommand,
  DetachIncidentFromParentCommand,
  type IncidentCommand,
  MarkIncidentAsDuplicateCommand,
  MitigateIncidentCommand,
  RemoveIncidentSubscribersCommand,
  ResolveIncidentCommand,
  RestartIncidentCommand,
  TriageIncidentCommand,
  UnassignIncidentRoleCommand,
  UnmarkIncidentAsDuplicateCommand,
  UpdateIncidentCommand,
} from './commands';
import { ImportIncidentsCommand, type IncidentImportDocument } from './incident-import';
import { IncidentReader } from './incident-reader';
import { incidentSchema, OPERATION_BODIES, type IncidentOperationName } from './incident.schema';

/**
 * The body of an operation. Those the reference sends without attributes (`in_triage`: only
 * `data.type`; `unmark_as_duplicate`, `detach_from_parent`: no body at all) may omit them.
 */
function operationAttributes(operation: IncidentOperationName, body: unknown): Row {
  return parseOperationPayload(OPERATION_BODIES[operation], body);
}

/** An outcome's message as sent: absent (undefined) leaves the stored one, null clears it. */
const messageOf = (attributes: Row, name: string) => attributes[name] as string | null | undefined;

/** The users of `add_subscribers` / `remove_subscribers`, and whether those without private access go too. */
function subscribersOf(operation: 'add_subscribers' | 'remove_subscribers', body: unknown): [string[], boolean] {
  const attributes = operationAttributes(operation, body);
  return [((attributes.user_ids as string[] | null) ?? []).map(String), attributes.remove_users_with_no_private_incident_access === true];
}

/** The role and user of `assign_role_to_user` / `unassign_role_from_user`. */
function roleOf(operation: 'assign_role_to_user' | 'unassign_role_from_user', body: unknown): [string, string] {
  const attributes = operationAttributes(operation, body);
  return [String(attributes.incident_role_id), String(attributes.user_id)];
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
  async create(@CurrentCaller() principal: Caller, @Body() body: unknown, @Res({ passthrough: true }) reply: HeaderReply) {
    const { attributes, warnings } = parseResourcePayload(incidentSchema, body, 'create');
    const document = await this.dispatch(new CreateIncidentCommand(this.access(principal), attributes));
    warnDeprecated(reply, warnings);
    return document;
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
  async update(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown, @Res({ passthrough: true }) reply: HeaderReply) {
    const { attributes, warnings } = parseResourcePayload(incidentSchema, body, 'update');
    const document = await this.dispatch(new UpdateIncidentCommand(this.access(principal), id, attributes));
    warnDeprecated(reply, warnings);
    return document;
  }

  @Delete(':id')
  @RequirePermission('incidents', 'delete')
  async remove(@CurrentCaller() principal: Caller, @Param('id') id: string) {
    // The incident as it was: its post mortem went with it, so nothing is linked.
    return single(await this.commands.execute(new DeleteIncidentCommand(this.access(principal), id)));
  }

  /** Runs a command of the incident and answers the incident it leaves, linked as its reads answer it. */
  private async dispatch(command: IncidentCommand) {
    return single(await this.reader.linked(command.access, await this.commands.execute(command)));
  }

  @Put(':id/mitigate')
  @RequirePermission('incidents', 'update')
  async mitigate(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown) {
    const message = messageOf(operationAttributes('mitigate', body), 'mitigation_message');
    return this.dispatch(new MitigateIncidentCommand(this.access(principal), id, message));
  }

  @Put(':id/resolve')
  @RequirePermission('incidents', 'update')
  async resolve(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown) {
    const message = messageOf(operationAttributes('resolve', body), 'resolution_message');
    return this.dispatch(new ResolveIncidentCommand(this.access(principal), id, message));
  }

  @Put(':id/cancel')
  @RequirePermission('incidents', 'update')
  async cancel(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown) {
    const message = messageOf(operationAttributes('cancel', body), 'cancellation_message');
    return this.dispatch(new CancelIncidentCommand(this.access(principal), id, message));
  }

  // The operations without attributes still parse their body: a malformed one is refused as before.
  @Put(':id/in_triage')
  @RequirePermission('incidents', 'update')
  async triage(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown) {
    operationAttributes('in_triage', body);
    return this.dispatch(new TriageIncidentCommand(this.access(principal), id));
  }

  @Put(':id/restart')
  @RequirePermission('incidents', 'update')
  async restart(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown) {
    operationAttributes('restart', body);
    return this.dispatch(new RestartIncidentCommand(this.access(principal), id));
  }

  @Put(':id/duplicate')
  @RequirePermission('incidents', 'update')
  async duplicate(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown) {
    const attributes = operationAttributes('duplicate', body);
    const command = new MarkIncidentAsDuplicateCommand(this.access(principal), id, String(attributes.duplicate_incident_id), messageOf(attributes, 'resolution_message'));
    return this.dispatch(command);
  }

  @Put(':id/unmark_as_duplicate')
  @RequirePermission('incidents', 'update')
  async unmarkAsDuplicate(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown) {
    operationAttributes('unmark_as_duplicate', body);
    return this.dispatch(new UnmarkIncidentAsDuplicateCommand(this.access(principal), id));
  }

  @Put(':id/detach_from_parent')
  @RequirePermission('incidents', 'update')
  async detachFromParent(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown) {
    operationAttributes('detach_from_parent', body);
    return this.dispatch(new DetachIncidentFromParentCommand(this.access(principal), id));
  }

  @Post(':id/add_subscribers')
  @RequirePermission('incidents', 'update')
  @HttpCode(200)
  async addSubscribers(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown) {
    const [userIds, withoutPrivateAccessRemoved] = subscribersOf('add_subscribers', body);
    return this.dispatch(new AddIncidentSubscribersCommand(this.access(principal), id, userIds, withoutPrivateAccessRemoved));
  }

  @Delete(':id/remove_subscribers')
  @RequirePermission('incidents', 'update')
  async removeSubscribers(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown) {
    const [userIds, withoutPrivateAccessRemoved] = subscribersOf('remove_subscribers', body);
    return this.dispatch(new RemoveIncidentSubscribersCommand(this.access(principal), id, userIds, withoutPrivateAccessRemoved));
  }

  @Post(':id/assign_role_to_user')
  @RequirePermission('incidents', 'update')
  @HttpCode(200)
  async assignRole(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown) {
    const [incidentRoleId, assigneeId] = roleOf('assign_role_to_user', body);
    return this.dispatch(new AssignIncidentRoleCommand(this.access(principal), id, incidentRoleId, assigneeId));
  }

  @Delete(':id/unassign_role_from_user')
  @RequirePermission('incidents', 'update')
  async unassignRole(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown) {
    const [incidentRoleId, assigneeId] = roleOf('unassign_role_from_user', body);
    return this.dispatch(new UnassignIncidentRoleCommand(this.access(principal), id, incidentRoleId, assigneeId));
  }
}
