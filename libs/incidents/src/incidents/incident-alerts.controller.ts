import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { alertSchema, asSeenBy, withAlertIncludes } from '@taproot/alerting';
import { can, CurrentCaller, forbidden, RequirePermission, type Caller } from '@taproot/auth';
import { defineResource, JsonApiError, listDocument, parseListQuery, parseResourcePayload, readRecords, type FlatQuery, type ResourceObject } from '@taproot/json-api';
import { findIncident, IncidentRoutes, type IncidentAccess } from './incident-access';
import { AttachAlertsToIncidentCommand, DetachAlertFromIncidentCommand } from './commands';
import { incidentsSeenWith } from './incidents-of-alerts';

/** The body of `POST /v1/incidents/{id}/alerts` (reference `attach_alert`). */
export const attachAlertSchema = defineResource({
  type: 'alerts',
  singular: 'attach_alert',
  path: '/v1/incidents/{incident_id}/alerts',
  readTable: 'alerts_read',
  defaultSort: 'created_at',
  operations: [],
  attributes: {
    alert_ids: { type: 'array', items: { type: 'string' }, required: true, description: 'Alert Id to attach to the incident' },
  },
});

/** Every route answers alerts: the caller must also read alerts (403 before anything changes). */
function mayReadAlerts(access: IncidentAccess): IncidentAccess {
  if (!can(access.permissions, 'alerts', 'read')) throw forbidden({ family: 'alerts', action: 'read' }, access.principal, access.permissions);
  return access;
}

/**
 * `/v1/incidents/{incident_id}/alerts`: the alerts attached to an incident, attaching more and
 * detaching one (docs/alerts.md, Alerts on incidents). The incident must be visible to the caller
 * (404 otherwise, private ones included), and every route also needs alerts read. Attach and detach are
 * changes of the incident (incidents update) through the incident change handler every incident
 * change shares: the incident's `alert_ids`, its timeline and the alerts' own side, in one transaction.
 */
@Controller('v1/incidents/:incident_id/alerts')
export class IncidentAlertsController extends IncidentRoutes {
  @Get()
  @RequirePermission('incidents', 'read')
  async list(@CurrentCaller() principal: Caller, @Param('incident_id') incidentId: string, @Query() query: FlatQuery) {
    return this.alertsOf(mayReadAlerts(this.access(principal)), incidentId, query);
  }

  /** One attached alert; 404 when it is not attached to the incident. */
  @Get(':alert_id')
  @RequirePermission('incidents', 'read')
  async get(@CurrentCaller() principal: Caller, @Param('incident_id') incidentId: string, @Param('alert_id') alertId: string) {
    const access = mayReadAlerts(this.access(principal));
    const incident = await findIncident(this.dataSource, 'incidents_read', access, incidentId);
    const attached = ((incident.alert_ids as string[] | null) ?? []).includes(alertId.toLowerCase());
    const alert = attached ? (await readRecords(this.dataSource, alertSchema, access.organizationId, [alertId])).get(alertId.toLowerCase()) : undefined;
    if (!alert) throw JsonApiError.notFound('alerts', alertId);
    return { data: (await asSeenBy(access.organizationId, access.principal, [alert], incidentsSeenWith(this.dataSource, access)))[0] };
  }

  /** 200 with the incident's alerts after the attachment (reference `attachAlert`). */
  @Post()
  @RequirePermission('incidents', 'update')
  @HttpCode(200)
  async attach(@CurrentCaller() principal: Caller, @Param('incident_id') incidentId: string, @Body() body: unknown) {
    const { attributes } = parseResourcePayload(attachAlertSchema, body, 'create');
    const access = mayReadAlerts(this.access(principal));
    const incident: ResourceObject = await this.commands.execute(new AttachAlertsToIncidentCommand(access, incidentId, (attributes.alert_ids as string[]).map(String)));
    return this.alertsOf(access, incident.id, {});
  }

  /** 200 with the incident's alerts left; 404 when the alert is not attached to it. */
  @Delete(':alert_id')
  @RequirePermission('incidents', 'update')
  async detach(@CurrentCaller() principal: Caller, @Param('incident_id') incidentId: string, @Param('alert_id') alertId: string) {
    const access = mayReadAlerts(this.access(principal));
    const incident: ResourceObject = await this.commands.execute(new DetachAlertFromIncidentCommand(access, incidentId, alertId));
    return this.alertsOf(access, incident.id, {});
  }

  private async alertsOf(access: IncidentAccess, incidentId: string, query: FlatQuery) {
    const incident = await findIncident(this.dataSource, 'incidents_read', access, incidentId);
    const scope = [{ attribute: 'incident_ids', operator: 'eq' as const, values: [String(incident.id)], parameter: 'incident_id' }];
    const q = parseListQuery(alertSchema, query, { cursorSecret: this.cursorSecret, scope });
    const document = await listDocument({ db: this.dataSource, schema: alertSchema, q, query, organizationId: access.organizationId, cursorSecret: this.cursorSecret, basePath: `/v1/incidents/${String(incident.id)}/alerts` });
    // The reference's listIncidentAlerts takes the include values of listAlerts.
    return { ...document, ...(await withAlertIncludes(this.dataSource, access.principal, document.data, q.include, incidentsSeenWith(this.dataSource, access))) };
  }
}
