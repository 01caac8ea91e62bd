import { randomUUID } from 'node:crypto';
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
 * Keeps a route's new rules to be saved after the answer, under the request's id (a client's
 * `X-Request-Id`, kept by the API, else the one it generated and answers in `X-Request-Id`): the
 * status is read at `GET /v1/alert_routes/{id}/rule_updates/{request_id}`. A request id used again
 * replaces its earlier update.
 */
export async function deferRuleUpdate(ctx: WriteContext, routeId: string, rules: unknown): Promise<string> {
  const requestId = currentRequestMetadata()?.request_id ?? randomUUID();
  await ctx.manager.query(
    `INSERT INTO alert_route_rule_updates (organization_id, request_id, alert_route_id, rules, status, created_at) VALUES ($1, $2, $3, $4, 'pending', $5)
     ON CONFLICT (organization_id, request_id) DO UPDATE SET alert_route_id = EXCLUDED.alert_route_id, rules = EXCLUDED.rules, status = 'pending', errors = '[]', created_at = EXCLUDED.created_at, completed_at = NULL`,
    [ctx.organizationId, requestId, routeId, JSON.stringify(rules), ctx.now],
  );
  return requestId;
}
