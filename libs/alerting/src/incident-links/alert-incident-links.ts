import { existingIds, type Queryable } from '@taproot/json-api';
import { ResourceWriter, type Keep, type WriteContext } from '@taproot/resources';
import { alertTrailDefinition, eventSource } from '../alerts/alert-event.schema';
import { alertDefinition } from '../alerts/alert.schema';

const alertWriter = new ResourceWriter(alertDefinition);
const trailWriter = new ResourceWriter(alertTrailDefinition);

/** Which of `ids` are alerts of the organization: incidents check their `alert_ids` with it. */
export function existingAlertIds(db: Queryable, organizationId: string, ids: readonly string[]): Promise<Set<string>> {
  return existingIds(db, 'alerts', organizationId, ids);
}

/** The summaries of the organization's alerts with these ids, for the incident timeline's lines. */
export async function alertSummaries(db: Queryable, organizationId: string, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = (await db.query('SELECT id::text AS id, summary FROM alerts WHERE organization_id = $1 AND id = ANY($2::uuid[])', [organizationId, [...ids]])) as { id: string; summary: string }[];
  return new Map(rows.map((r) => [r.id, r.summary]));
}

/** The incident alerts are attached to or detached from, as the alerts' timeline names it. */
export interface IncidentLink {
  incidentId: string;
  /** `#12 (Database down)` */
  label: string;
  /** The acting user (integer id as text); null for a key without a user. */
  userId: string | null;
}

/**
 * The alerts' side of attaching alerts to an incident or detaching them, inside the incident
 * change's transaction (docs/alerts.md, Alerts on incidents): each alert's `incident_ids` gains or
 * loses the incident (announced as `alert.updated`) and its timeline gets an `attached` or
 * `removed` event. An alert already in that state is left alone.
 */
export async function linkAlertsToIncident(ctx: WriteContext, link: IncidentLink, alertIds: readonly string[], attach: boolean, keep: Keep): Promise<void> {
  for (const id of alertIds) {
    const [row] = (await ctx.manager.query('SELECT incident_ids FROM alerts WHERE id = $1 AND organization_id = $2 FOR UPDATE', [id, ctx.organizationId])) as { incident_ids: string[] }[];
    if (!row) continue;
    const linked = row.incident_ids.includes(link.incidentId);
    if (linked === attach) continue;
    const incidentIds = attach ? [...row.incident_ids, link.incidentId] : row.incident_ids.filter((i) => i !== link.incidentId);
    keep(await alertWriter.update(ctx, id, { incident_ids: incidentIds }));
    const details = attach ? `Attached to incident ${link.label}` : `Detached from incident ${link.label}`;
    keep(await trailWriter.create(ctx, { kind: 'informational', action: attach ? 'attached' : 'removed', details, user_id: link.userId, source: eventSource(ctx.actor) }, id));
  }
}
