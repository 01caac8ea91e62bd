import type { Queryable } from '@taproot/json-api';
import type { Row } from '@taproot/resources';
import type { AlertDraft } from '../ingestion/alert-draft';
import { draftFieldValue, type BuiltInFields } from '../ingestion/alert-fields';
import { routeOfRoutingRules } from './alert-routing-rule.schema';
import { routeAlert, type AlertRoute, type RoutedAlert } from './route-alert';

/** What ingestion routes by: the source's enabled routes, and its enabled routing rules as one more route. */
export async function sourceRoutes(db: Queryable, organizationId: string, sourceId: string): Promise<AlertRoute[]> {
  const routes = (await db.query(
    'SELECT id::text, enabled, alerts_source_ids::text[] AS alerts_source_ids, rules FROM alert_routes WHERE organization_id = $1 AND enabled AND alerts_source_ids @> ARRAY[$2::uuid] ORDER BY created_at, id',
    [organizationId, sourceId],
  )) as AlertRoute[];
  const rules = (await db.query(
    'SELECT name, position, enabled, condition_type, conditions, destination FROM alert_routing_rules WHERE organization_id = $1 AND alerts_source_id = $2 AND enabled ORDER BY position, created_at, id',
    [organizationId, sourceId],
  )) as Row[];
  return rules.length ? [...routes, routeOfRoutingRules(sourceId, rules)] : routes;
}

/** What routing (and grouping) reads of a draft being ingested. */
export function routedAlertOf(source: { id: string; source_type: string }, builtIns: BuiltInFields, draft: AlertDraft, urgencyId: string | null): RoutedAlert {
  return {
    alertSourceId: source.id,
    attributes: { ...draft, source: source.source_type },
    urgencyId,
    payload: draft.data,
    fieldValues: (fieldId) => {
      const value = draftFieldValue(draft, builtIns, fieldId);
      return value === undefined || value === null ? [] : [value];
    },
  };
}

/**
 * The notification targets of an ingested alert: the one its payload or source names (kept first),
 * then every destination the routes send it to, each once (docs/alert-routing.md).
 */
export function routedTargets(routes: readonly AlertRoute[], source: { id: string; source_type: string }, builtIns: BuiltInFields, draft: AlertDraft, urgencyId: string | null): { type: string; id: string }[] {
  const named = draft.notification_target_type && draft.notification_target_id ? [{ type: draft.notification_target_type, id: draft.notification_target_id.toLowerCase() }] : [];
  if (routes.length === 0) return named;
  const destinations = routeAlert(routes, routedAlertOf(source, builtIns, draft, urgencyId));
  const targets = new Map(named.map((t) => [`${t.type}:${t.id}`, t]));
  for (const d of destinations) targets.set(`${d.target_type}:${d.target_id}`, { type: d.target_type, id: d.target_id });
  return [...targets.values()];
}
