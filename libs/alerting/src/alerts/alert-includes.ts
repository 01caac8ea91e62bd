import { type Caller } from '@taproot/auth';
import { catalogRecordsOf } from '@taproot/catalog';
import { teamRecords, userRecords } from '@taproot/identity';
import { escalationPolicySchema } from '@taproot/on-call';
import { byIdAttribute, byQuery, defineIncludes, readRecords, recordsOf, withIncludes, type IncludeSource, type IncludeSources, type Queryable, type RecordsById, type ResourceObject } from '@taproot/json-api';
import { alertGroupSchema } from '../alert-groups/alert-group.schema';
import { alertUrgencySchema } from '../alert-urgencies/alert-urgency.schema';
import { alertEventSchema } from './alert-event.schema';
import { alertSchema } from './alert.schema';

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
 * Records named by the alert's own rows (alerting's tables; the records found by `find`, users
 * through identity's `userRecords`): `sql` takes `$1` the organization and `$2` the alert ids, and
 * answers `owner_id` (the alert) and `related_id`, once per pair, in the order they are to be linked.
 */
function recordsNamedBy(sql: string, find: RecordsById): IncludeSource {
  return async ({ db, organizationId }, records) => {
    const rows = (await db.query(sql, [organizationId, records.map((r) => r.id)])) as { owner_id: string; related_id: string | number }[];
    const related = await find(db, organizationId, [...new Set(rows.map((r) => String(r.related_id)))]);
    const found = new Map<string, ResourceObject[]>(records.map((r) => [r.id, []]));
    for (const row of rows) {
      const record = related.get(String(row.related_id));
      if (record) found.get(row.owner_id)?.push(record);
    }
    return found;
  };
}

const usersNamedBy = (sql: string) => recordsNamedBy(sql, userRecords);

/** What `include` on alerts reads besides the incidents: the same for every caller. */
const SOURCES: Record<string, IncludeSource> = {
  environments: byIdAttribute('environment_ids', catalogRecordsOf('environments')),
  services: byIdAttribute('service_ids', catalogRecordsOf('services')),
  functionalities: byIdAttribute('functionality_ids', catalogRecordsOf('functionalities')),
  groups: byIdAttribute('group_ids', teamRecords),
  alert_urgency: byIdAttribute('alert_urgency_id', recordsOf(alertUrgencySchema)),
  alert_group: byIdAttribute('alert_group_id', recordsOf(alertGroupSchema)),
  // The alert's trail, oldest first (its own list's order).
  events: byQuery(alertEventSchema, 'SELECT alert_id AS owner_id, * FROM alert_events_read WHERE organization_id = $1 AND alert_id = ANY($2::uuid[]) ORDER BY created_at, id'),
  // Whom paging reached: a notification actually sent (not one pending, failed or cancelled), by the first one sent (docs/paging.md).
  notified_users: usersNamedBy(
    `SELECT alert_id AS owner_id, user_id AS related_id FROM alert_notifications WHERE organization_id = $1 AND alert_id = ANY($2::uuid[]) AND status = 'sent'
      GROUP BY alert_id, user_id ORDER BY min(sent_at), user_id`,
  ),
  // Who responded: the users who acknowledged or resolved it (a key without a user, or a sender, names nobody), by the first response.
  responders: usersNamedBy(
    `SELECT alert_id AS owner_id, user_id AS related_id FROM alert_events_read WHERE organization_id = $1 AND alert_id = ANY($2::uuid[]) AND action IN ('acknowledged', 'resolved') AND user_id IS NOT NULL
      GROUP BY alert_id, user_id ORDER BY min(created_at), user_id`,
  ),
  // The policies paging it: its tracks' (one it names, or its team's, service's or functionality's once a level fired), by the first.
  escalation_policies: recordsNamedBy(
    `SELECT alert_id AS owner_id, escalation_policy_id::text AS related_id FROM alert_paging_tracks WHERE organization_id = $1 AND alert_id = ANY($2::uuid[]) AND escalation_policy_id IS NOT NULL
      GROUP BY alert_id, escalation_policy_id ORDER BY min(created_at), escalation_policy_id`,
    recordsOf(escalationPolicySchema),
  ),
};

/**
 * The organization's alerts by id as `GET /v1/alerts/{id}` answers them to a caller (`asSeenBy`:
 * their `incident_ids` keep only the incidents it may see). The port other records include alerts
 * through (an alert group's leader and members, an incident's `include=alerts`): only alerting
 * reads its tables.
 */
export function alertRecordsSeenBy(principal: Caller | null, incidents: AlertIncidents | undefined): RecordsById {
  return async (db, organizationId, ids) => {
    const seen = await asSeenBy(organizationId, principal, [...(await readRecords(db, alertSchema, organizationId, ids)).values()], incidents);
    return new Map(seen.map((a) => [a.id, a]));
  };
}

/** The sources for one caller: the incidents are those it may see, as the incidents context presents them (none without it). */
function alertIncludes(principal: Caller, incidents: AlertIncidents | undefined): IncludeSources {
  // Related alerts (a group's leader and members) are seen as the alerts themselves are: their incident_ids filtered.
  const alerts = alertRecordsSeenBy(principal, incidents);
  return defineIncludes(alertSchema, {
    ...SOURCES,
    group_leader_alert: byIdAttribute('group_leader_alert_id', alerts),
    group_member_alerts: recordsNamedBy('SELECT group_leader_alert_id AS owner_id, id AS related_id FROM alerts_read WHERE organization_id = $1 AND group_leader_alert_id = ANY($2::uuid[]) ORDER BY created_at, id', alerts),
    incidents: byIdAttribute('incident_ids', async (_db, _organizationId, ids) => new Map((incidents && ids.length ? await incidents.visible(principal, ids) : []).map((r) => [r.id, r]))),
  });
}

/**
 * Alerts as a caller sees them (`asSeenBy`) with what `include` asked (spec, Jun 15 2026:
 * `incidents`, `notified_users`, `responders` and `groups` appear only when asked): each asked
 * relationship's linkage, its records in `included`.
 */
export async function withAlertIncludes(
  db: Queryable,
  principal: Caller,
  alerts: ResourceObject[],
  include: readonly string[],
  incidents: AlertIncidents | undefined,
): Promise<{ data: ResourceObject[]; included?: ResourceObject[] }> {
  const seen = await asSeenBy(principal.organizationId, principal, alerts, incidents);
  return withIncludes({ db, organizationId: principal.organizationId }, alertSchema, alertIncludes(principal, incidents), seen, include);
}
