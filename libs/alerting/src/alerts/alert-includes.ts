import { type Caller } from '@taproot/auth';
import { teamRecords } from '@taproot/identity';
import type { Queryable, ResourceObject } from '@taproot/json-api';

/**
 * The incidents an alert is attached to, as the incidents context presents them to a caller:
 * only those the caller may see (a private incident needs private incidents read). Provided by
 * the incidents context under ALERT_INCIDENTS; alerting never reads incidents itself.
 */
export interface AlertIncidents {
  visible(principal: Caller, ids: readonly string[]): Promise<ResourceObject[]>;
  /** The ids of those a caller may see; `null` (a monitoring sender): public incidents only. */
  visibleIds(organizationId: string, principal: Caller | null, ids: readonly string[]): Promise<Set<string>>;
}
export const ALERT_INCIDENTS = Symbol('ALERT_INCIDENTS');

const idsOf = (alerts: readonly ResourceObject[], attribute: string) => [...new Set(alerts.flatMap((a) => (a.attributes[attribute] as string[] | null) ?? []))];

/**
 * Alerts as a caller may see them: `incident_ids` keeps only the incidents the caller may see, so
 * a private incident's id never reaches who may not read it (nor a monitoring sender, `null`).
 */
export async function asSeenBy(organizationId: string, principal: Caller | null, alerts: ResourceObject[], incidents: AlertIncidents | undefined): Promise<ResourceObject[]> {
  const ids = idsOf(alerts, 'incident_ids');
  if (ids.length === 0) return alerts;
  const visible = incidents ? await incidents.visibleIds(organizationId, principal, ids) : new Set<string>();
  return alerts.map((a) => ({ ...a, attributes: { ...a.attributes, incident_ids: ((a.attributes.incident_ids as string[] | null) ?? []).filter((id) => visible.has(id)) } }));
}

/**
 * `include` on alerts (spec, Jun 15 2026: `incidents`, `notified_users`, `responders` and `groups`
 * appear only when asked): each asked relationship gets its linkage and its records in
 * `included`. Incidents come from `incident_ids` (those the caller may see), groups from
 * `group_ids`; nothing pages yet, so `notified_users` and `responders` are empty.
 */
export async function withAlertIncludes(
  db: Queryable,
  principal: Caller,
  alerts: ResourceObject[],
  include: readonly string[],
  incidents: AlertIncidents | undefined,
): Promise<{ data: ResourceObject[]; included?: ResourceObject[] }> {
  alerts = await asSeenBy(principal.organizationId, principal, alerts, incidents);
  if (include.length === 0) return { data: alerts };
  const related = new Map<string, Map<string, ResourceObject>>();
  if (include.includes('incidents')) {
    const visible = incidents ? await incidents.visible(principal, idsOf(alerts, 'incident_ids')) : [];
    related.set('incidents', new Map(visible.map((r) => [r.id, r])));
  }
  if (include.includes('groups')) related.set('groups', await teamRecords(db, principal.organizationId, idsOf(alerts, 'group_ids')));
  const FROM: Record<string, string> = { incidents: 'incident_ids', groups: 'group_ids' };
  const data = alerts.map((alert) => {
    const relationships = Object.fromEntries(
      include.map((name) => {
        const records = related.get(name);
        const ids = records ? ((alert.attributes[FROM[name]] as string[] | null) ?? []).filter((id) => records.has(id)) : [];
        return [name, { data: ids.map((id) => ({ type: records!.get(id)!.type, id })) }];
      }),
    );
    return { ...alert, relationships };
  });
  return { data, included: [...related.values()].flatMap((records) => [...records.values()]) };
}
