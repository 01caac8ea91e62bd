import { Body, Controller, Get, HttpCode, Inject, Optional, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { TAPROOT_CONFIG, type TaprootConfig } from '@taproot/config';
import { catalogIdsNamed } from '@taproot/catalog';
import { actorOf, AlertCreationLimit, can, CurrentCaller, forbidden, RequirePermission, type Caller } from '@taproot/auth';
import { teamIdsNamed } from '@taproot/identity';
import {
  listWithVirtualFilters,
  parseInclude,
  parseOperationPayload,
  parseResourcePayload,
  type FlatQuery,
  type ResourceObject,
  type VirtualFilter,
} from '@taproot/json-api';
import { ResourceReader } from '@taproot/resources';
import { DataSource } from 'typeorm';
import type { PagingOrder } from '../paging/paging-schedule';
import type { AlertAccess, AlertCreated, Resolution } from './alert-writes';
import {
  AcknowledgeAlertCommand,
  CreateAlertCommand,
  EscalateAlertCommand,
  ResolveAlertCommand,
  SnoozeAlertCommand,
  UpdateAlertCommand,
  type AlertChangeCommand,
} from './commands';
import { ALERT_INCIDENTS, asSeenBy, withAlertIncludes, type AlertIncidents } from './alert-includes';
import { ALERT_INCIDENT_RESOLVER, type AlertIncidentResolver } from './alert-incident-resolver';
import { alertListSchema, alertSchema, escalateAlertSchema, resolveAlertSchema, type ALERT_LIST_FILTERS } from './alert.schema';

const accessOf = (principal: Caller): AlertAccess => ({
  organizationId: principal.organizationId,
  actor: actorOf(principal),
  userId: principal.userId === null ? null : String(principal.userId),
});

/**
 * How the list's filters on services, groups and environments (ids, slugs or names) and labels
 * (`key:value`) become conditions on the stored lists (docs/alerts.md).
 */
const LIST_FILTERS: Record<keyof typeof ALERT_LIST_FILTERS, VirtualFilter> = {
  services: { target: 'service_ids', ids: true, named: (db, organizationId, values) => catalogIdsNamed(db, organizationId, 'services', values) },
  environments: { target: 'environment_ids', ids: true, named: (db, organizationId, values) => catalogIdsNamed(db, organizationId, 'environments', values) },
  groups: { target: 'group_ids', ids: true, named: (db, organizationId, values) => teamIdsNamed(db, organizationId, values) },
  labels: { target: 'label_pairs' },
};

/** An operation's `data.attributes` (the body is optional: acknowledge and escalate may have none). */
function operationAttributes(body: unknown): Record<string, unknown> {
  const attributes = (body as { data?: { attributes?: unknown } } | undefined)?.data?.attributes;
  return attributes !== null && typeof attributes === 'object' && !Array.isArray(attributes) ? (attributes as Record<string, unknown>) : {};
}

/** `escalate_alert`: the policy to escalate to and its level (reference: both optional). */
function pagingOrderOf(body: unknown): PagingOrder {
  const { escalation_policy_id: policyId, escalation_policy_level: level } = parseOperationPayload(escalateAlertSchema, body);
  return { ...(policyId == null ? {} : { policyId: policyId as string }), ...(level == null ? {} : { level: level as number }) };
}

/** `resolve_alert`: how it was resolved, and whether its incidents go with it (reference: both optional). */
function resolutionOf(body: unknown): Resolution {
  const { resolution_message: message, resolve_related_incidents: related } = parseOperationPayload(resolveAlertSchema, body);
  return { message: (message as string | null | undefined) ?? null, relatedIncidents: related === true };
}

/** `/v1/alerts`: create (deduplicated, rate limited), read, update and the lifecycle operations; permission family `alerts` (docs/alerts.md). */
@Controller('v1/alerts')
export class AlertsController {
  private readonly reader: ResourceReader;
  private readonly cursorSecret: string;
  constructor(
    private readonly commands: CommandBus,
    private readonly dataSource: DataSource,
    @Inject(TAPROOT_CONFIG) config: TaprootConfig,
    /** Spec, Limits: 50 alerts a minute per API key, on the shared sliding-window store of the rate limits. */
    private readonly creationLimit: AlertCreationLimit,
    /** The incidents context's presentation of attached incidents (absent: none are included). */
    @Optional() @Inject(ALERT_INCIDENTS) private readonly incidents?: AlertIncidents,
    /** The incidents context's resolving of attached incidents (`resolve_related_incidents`). */
    @Optional() @Inject(ALERT_INCIDENT_RESOLVER) private readonly incidentResolver?: AlertIncidentResolver,
  ) {
    this.cursorSecret = config.cursorSecret;
    this.reader = new ResourceReader(dataSource, config.cursorSecret);
  }

  @Get()
  @RequirePermission('alerts', 'read')
  async list(@CurrentCaller() principal: Caller, @Query() query: FlatQuery) {
    const { dataSource: db, cursorSecret } = this;
    const { document, include } = await listWithVirtualFilters({ db, schema: alertListSchema, serializeAs: alertSchema, virtual: LIST_FILTERS, query, organizationId: principal.organizationId, cursorSecret });
    return { ...document, ...(await withAlertIncludes(db, principal, document.data, include, this.incidents)) };
  }

  @Get(':id')
  @RequirePermission('alerts', 'read')
  async get(@CurrentCaller() principal: Caller, @Param('id') id: string, @Query() query: FlatQuery) {
    const include = parseInclude(alertSchema, query.include);
    const { data } = await this.reader.get(alertSchema, principal.organizationId, id);
    const { data: [alert], included } = await withAlertIncludes(this.dataSource, principal, [data], include, this.incidents);
    return { data: alert, ...(included ? { included } : {}) };
  }

  /** 201 with a new alert; 200 with the unresolved alert a duplicate key was folded into. */
  @Post()
  @RequirePermission('alerts', 'create')
  async create(@CurrentCaller() principal: Caller, @Body() body: unknown, @Res({ passthrough: true }) reply: { status(code: number): unknown }) {
    const { attributes } = parseResourcePayload(alertSchema, body, 'create');
    if (principal.apiKeyId) await this.creationLimit.consume({ apiKeyId: principal.apiKeyId });
    const created: AlertCreated = await this.commands.execute(new CreateAlertCommand(accessOf(principal), attributes));
    reply.status(created.deduplicated ? 200 : 201);
    return { data: await this.seenBy(principal, created.alert) };
  }

  @Patch(':id')
  @RequirePermission('alerts', 'update')
  async update(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown) {
    const { attributes } = parseResourcePayload(alertSchema, body, 'update');
    return this.dispatch(principal, new UpdateAlertCommand(accessOf(principal), id, attributes));
  }

  /** Runs a change of the alert and answers the alert it leaves, as the caller sees it. */
  private async dispatch(principal: Caller, command: AlertChangeCommand) {
    return { data: await this.seenBy(principal, (await this.commands.execute(command)) as ResourceObject) };
  }

  private async seenBy(principal: Caller, alert: ResourceObject): Promise<ResourceObject> {
    return (await asSeenBy(principal.organizationId, principal, [alert], this.incidents))[0];
  }

  @Post(':id/acknowledge')
  @RequirePermission('alerts', 'update')
  @HttpCode(200)
  acknowledge(@CurrentCaller() principal: Caller, @Param('id') id: string) {
    return this.dispatch(principal, new AcknowledgeAlertCommand(accessOf(principal), id));
  }

  @Post(':id/resolve')
  @RequirePermission('alerts', 'update')
  @HttpCode(200)
  async resolve(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown) {
    const resolution = resolutionOf(body);
    // Checked first: a caller who may not resolve the incidents changes nothing.
    if (resolution.relatedIncidents && !can(principal.permissions, 'incidents', 'update')) throw forbidden({ family: 'incidents', action: 'update' }, principal, principal.permissions);
    const answer = await this.dispatch(principal, new ResolveAlertCommand(accessOf(principal), id, resolution));
    // Its incidents as the caller sees them (asSeenBy), each resolved by the incidents context in its own transaction.
    const incidentIds = (answer.data.attributes.incident_ids as string[] | null) ?? [];
    if (resolution.relatedIncidents && incidentIds.length && this.incidentResolver) await this.incidentResolver.resolve(principal, incidentIds, resolution.message);
    return answer;
  }

  @Post(':id/snooze')
  @RequirePermission('alerts', 'update')
  @HttpCode(200)
  snooze(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown) {
    return this.dispatch(principal, new SnoozeAlertCommand(accessOf(principal), id, operationAttributes(body).delay_minutes));
  }

  @Post(':id/escalate')
  @RequirePermission('alerts', 'update')
  @HttpCode(200)
  escalate(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown) {
    return this.dispatch(principal, new EscalateAlertCommand(accessOf(principal), id, pagingOrderOf(body)));
  }
}
