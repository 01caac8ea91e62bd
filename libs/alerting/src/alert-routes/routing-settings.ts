import { JsonApiError, type Queryable } from '@taproot/json-api';
import { currentRequestMetadata, type EventActor } from '@taproot/messaging';
import type { WriteContext } from '@taproot/resources';

/**
 * Alert routing's organization settings (docs/alert-routing.md): the spec's "advanced alert
 * routing" feature, which the route list and route updates need (on unless an administrator turns
 * it off: a self-hosted deployment has every feature), and whether every rule update of a route is
 * processed asynchronously (otherwise only a large rule graph's).
 */
export interface RoutingSettings {
  advanced_alert_routing: boolean;
  asynchronous_rule_updates: boolean;
}

export const ROUTING_SETTINGS_DEFAULTS: RoutingSettings = { advanced_alert_routing: true, asynchronous_rule_updates: false };

/**
 * A rule graph larger than this (rules, condition groups, conditions and destinations, those on
 * the route counted too, as the spec counts) is saved after the answer: the spec leaves the size
 * open. 500 nodes is about 60 rules of two groups of two conditions and a destination, which
 * one transaction of the writer still saves in milliseconds; a client may always ask for more.
 */
export const ASYNC_RULE_GRAPH_SIZE = 500;

export async function routingSettingsOf(db: Queryable, organizationId: string): Promise<RoutingSettings> {
  const [row] = (await db.query('SELECT advanced_alert_routing, asynchronous_rule_updates FROM alert_routing_settings WHERE organization_id = $1', [organizationId])) as RoutingSettings[];
  return row ?? ROUTING_SETTINGS_DEFAULTS;
}

/** The route list and route updates need the advanced alert routing feature (spec, "Alert route update"). */
export async function requireAdvancedRouting(db: Queryable, organizationId: string, settings?: RoutingSettings): Promise<void> {
  if ((settings ?? (await routingSettingsOf(db, organizationId))).advanced_alert_routing) return;
  throw JsonApiError.of(403, 'Forbidden', 'Advanced alert routing is turned off for this organization (PATCH /v1/alert_routing_settings): the alert route list and route updates need it', 'ADVANCED_ALERT_ROUTING_DISABLED');
}

/** Who applies the deferred rule updates: its writes are not deferred again. */
export const RULE_UPDATER: EventActor = { kind: 'system', id: 'alert_route_rule_updates' };
export const isRuleUpdater = (actor: EventActor) => actor.kind === RULE_UPDATER.kind && actor.id === RULE_UPDATER.id;

/**
 * The id a route write's rule update is known by (docs/alert-routing.md, "Rule update status"): the
 * body's `request_id` (the hosted API's Terraform provider sends one), else the request's
 * `X-Request-Id` (a client's, kept by the API, else the one it generated and answers in
 * `X-Request-Id`); none outside a request.
 */
export function ruleRequestId(sent: unknown): string | undefined {
  return typeof sent === 'string' ? sent : (currentRequestMetadata()?.request_id ?? undefined);
}

/**
 * Records where a route's rule update stands under `requestId`, in the write's transaction:
 * `rules` to be saved after the answer (pending, saved by AlertRouteRuleUpdater), or null for a
 * write saved in the request (completed with it, so a client polling for every write it sent an
 * id with finds it). The status is read at `GET /v1/alert_routes/{id}/async_rule_creation_status/{request_id}`
 * (and `.../rule_updates/{request_id}`). A request id used again replaces its earlier update.
 */
export async function recordRuleUpdate(ctx: WriteContext, routeId: string, requestId: string, rules: unknown[] | null): Promise<void> {
  await ctx.manager.query(
    `INSERT INTO alert_route_rule_updates (organization_id, request_id, alert_route_id, rules, status, created_at, completed_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (organization_id, request_id) DO UPDATE SET alert_route_id = EXCLUDED.alert_route_id, rules = EXCLUDED.rules, status = EXCLUDED.status, errors = '[]', created_at = EXCLUDED.created_at, completed_at = EXCLUDED.completed_at`,
    [ctx.organizationId, requestId, routeId, rules && JSON.stringify(rules), rules ? 'pending' : 'completed', ctx.now, rules ? null : ctx.now],
  );
}
