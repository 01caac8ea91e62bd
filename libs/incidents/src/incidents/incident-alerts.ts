import { alertSummaries, linkAlertsToIncident } from '@taproot/alerting';
import { INCIDENT_EVENTS } from '../events';
import type { Keep, Row, WriteContext } from '@taproot/resources';
import { checkReferences, label, type IncidentPlan } from './incident-changes';
import { IncidentsError, IncidentsErrorCode } from '../errors';

async function described(plan: IncidentPlan, ids: string[]): Promise<string> {
  const summaries = await alertSummaries(plan.ctx.manager, plan.ctx.organizationId, ids);
  return ids.map((id) => JSON.stringify(summaries.get(id) ?? id)).join(', ');
}

/**
 * Sets the incident's alerts to `alertIds` (already checked to be the organization's alerts): one
 * timeline line and event for those attached, one for those detached. The alerts' side follows
 * the incident's write (`linkPlannedAlerts`).
 */
export async function setAlerts(plan: IncidentPlan, alertIds: string[]): Promise<void> {
  const before = (plan.value('alert_ids') as string[] | null) ?? [];
  const attached = alertIds.filter((id) => !before.includes(id));
  const detached = before.filter((id) => !alertIds.includes(id));
  if (attached.length === 0 && detached.length === 0) return;
  plan.set('alert_ids', alertIds);
  plan.alertLinks.attached.push(...attached);
  plan.alertLinks.detached.push(...detached);
  if (attached.length) plan.record('alerts', `Alerts attached: ${await described(plan, attached)}`, INCIDENT_EVENTS.alertsAttached);
  if (detached.length) plan.record('alerts', `Alerts detached: ${await described(plan, detached)}`, INCIDENT_EVENTS.alertsDetached);
}

/** `POST /v1/incidents/{id}/alerts`: adds alerts of the organization to the incident's (422 naming an unknown one). */
export async function attachAlerts(plan: IncidentPlan, alertIds: string[]): Promise<void> {
  const before = (plan.value('alert_ids') as string[] | null) ?? [];
  const { alert_ids: checked } = await checkReferences(plan.ctx, { alert_ids: alertIds });
  return setAlerts(plan, [...new Set([...before, ...(checked as string[])])]);
}

/** `DELETE /v1/incidents/{id}/alerts/{alert_id}`: takes an attached alert away (404 when it is not attached). */
export async function detachAlert(plan: IncidentPlan, alertId: string): Promise<void> {
  const before = (plan.value('alert_ids') as string[] | null) ?? [];
  const id = alertId.toLowerCase();
  if (!before.includes(id)) throw new IncidentsError(IncidentsErrorCode.NotFound, `alert ${id} is not attached to this incident`);
  return setAlerts(plan, before.filter((attached) => attached !== id));
}

/** The alerts' side of a written incident change: their `incident_ids` and their timelines, same transaction. */
export async function linkPlannedAlerts(plan: IncidentPlan, incident: Row, keep: Keep): Promise<void> {
  await linkAlerts(plan.ctx, incident, plan.alertLinks.attached, true, keep, plan.access.userId);
  await linkAlerts(plan.ctx, incident, plan.alertLinks.detached, false, keep, plan.access.userId);
}

/** Attaches (or detaches) alerts to a stored incident row, on the alerts' side. */
export async function linkAlerts(ctx: WriteContext, incident: Row, alertIds: string[], attach: boolean, keep: Keep, userId: string | null): Promise<void> {
  if (alertIds.length === 0) return;
  await linkAlertsToIncident(ctx, { incidentId: String(incident.id), label: label(incident), userId }, alertIds, attach, keep);
}
