import { randomUUID } from 'node:crypto';
import { defineResource, existingIds, JsonApiError, type AttributeDef } from '@taproot/json-api';
import type { ResourceDefinition, Row, WriteContext } from '@taproot/resources';
import { conditionItem } from './condition-schema';
import { ROUTE_TARGET_TYPES } from './route-alert';
import { checkRuleReferences, normalizeRules, ruleGraphSize, unknownIds, unknownTeams, type InvalidAttribute } from './route-rules';
import { mergeRules, settleRules } from './rule-merge';
import { ASYNC_RULE_GRAPH_SIZE, isRuleUpdater, recordRuleUpdate, requireAdvancedRouting, routingSettingsOf, ruleRequestId } from './routing-settings';
import type { RouteRule } from './route-alert';

const str = (description: string) => ({ type: 'string' as const, description });
/** Each item of the rule graph: its id, and the reference's PATCH `_destroy` (docs/alert-routing.md, "Changing rules by id"). */
const byId = (noun: string): Record<string, AttributeDef> => ({
  id: { type: 'string', format: 'uuid', description: `The ID of the ${noun}, assigned by the server; sent to change or delete it` },
  _destroy: { type: 'boolean', description: `Set to true (with its id) to delete this ${noun}` },
});

/**
 * An alert route (reference `alert_route`, spec "Alert route"): the alerts of its sources go to the
 * destinations of the first of its rules that matches them (docs/alert-routing.md). `rules` is
 * stored whole with the route, each destination's `target_type` found from its `target_id`.
 */
export const alertRouteSchema = defineResource({
  type: 'alert_routes',
  singular: 'alert_route',
  path: '/v1/alert_routes',
  readTable: 'alert_routes_read',
  defaultSort: 'created_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  updateMethod: 'both',
  attributes: {
    name: { type: 'string', required: true, alwaysStored: true, minLength: 1, maxLength: 255, filter: true, sortable: true, searchable: true, description: 'The name of the alert route' },
    enabled: { type: 'boolean', default: true, filter: true, description: 'Whether the alert route is enabled' },
    alerts_source_ids: { type: 'array', required: true, alwaysStored: true, items: { type: 'string', format: 'uuid' }, description: 'The alert sources feeding the route' },
    owning_team_ids: { type: 'array', nullable: true, default: [], alwaysStored: true, items: { type: 'string', format: 'uuid' }, description: 'The teams owning the route' },
    rules: {
      type: 'array',
      nullable: true,
      default: [],
      alwaysStored: true,
      description: 'The routing rules, evaluated by position; the fallback rule applies when no other matches',
      items: {
        type: 'object',
        properties: {
          ...byId('rule'),
          name: str('The name of the rule'),
          // The spec: large values are accepted (JSON's safe integers).
          position: { type: 'integer', minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER, description: 'The position of the rule (evaluation order)' },
          fallback_rule: { type: 'boolean', description: 'Whether this is the fallback rule' },
          destinations: {
            type: 'array',
            items: { type: 'object', properties: { ...byId('destination'), target_id: str('The ID of the target'), target_type: { type: 'string', enum: ROUTE_TARGET_TYPES, description: 'The type of the target (found from target_id)' } } },
          },
          condition_groups: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                ...byId('condition group'),
                position: { type: 'integer', description: 'The position of the condition group' },
                conditions: { type: 'array', items: conditionItem({ nameNullable: true, extra: byId('condition') }) },
              },
            },
          },
        },
      },
    },
  },
  inputOnlyAttributes: {
    // The hosted API's Terraform provider sends a uuid. At most 100 characters: the router's longest
    // path parameter (Fastify's maxParamLength), so the status route can be asked about any id taken.
    request_id: {
      type: 'string',
      minLength: 1,
      maxLength: 100,
      description: 'The id to read where the rule update stands by (GET /v1/alert_routes/{id}/async_rule_creation_status/{request_id}); never stored on the route. Omitted: the X-Request-Id of the request',
    },
  },
});

/**
 * The write's sources, teams and rules checked (every problem at once, 422 naming each) and
 * normalized as stored. `stored`: the route's rules the sent ones are met with (`mergeRules`);
 * null for a graph merged and checked already (a deferred update being saved).
 */
async function checked(ctx: WriteContext, input: Row, stored: RouteRule[] | null): Promise<Row> {
  const attributes: Row = { ...input };
  for (const name of ['owning_team_ids', 'rules']) if (name in attributes && attributes[name] === null) attributes[name] = [];
  const problems: InvalidAttribute[] = [];
  if ('alerts_source_ids' in attributes) problems.push(...(await unknownIds('alerts_source_ids', attributes.alerts_source_ids, 'an alert source', (ids) => existingIds(ctx.manager, 'alert_sources', ctx.organizationId, ids))));
  if ('owning_team_ids' in attributes) problems.push(...(await unknownTeams(ctx, 'owning_team_ids', attributes.owning_team_ids)));
  if ('rules' in attributes) {
    // An id naming no stored item is answered alone: what the item lacks would only repeat it.
    const unknown: InvalidAttribute[] = [];
    const sent = stored ? mergeRules(stored, attributes.rules, unknown) : attributes.rules;
    const { rules, problems: shape } = unknown.length ? { rules: [], problems: unknown } : normalizeRules(sent);
    problems.push(...shape);
    if (shape.length === 0) problems.push(...(await checkRuleReferences(ctx, rules)));
    attributes.rules = settleRules(rules);
  }
  if (problems.length) throw JsonApiError.invalidAttributes(problems);
  for (const name of ['alerts_source_ids', 'owning_team_ids']) if (Array.isArray(attributes[name])) attributes[name] = [...new Set((attributes[name] as string[]).map((id) => id.toLowerCase()))];
  return attributes;
}

export const alertRouteDefinition: ResourceDefinition = {
  schema: alertRouteSchema,
  context: 'alerting',
  table: 'alert_routes',
  // The spec's on-call scopes name alert routing rules (`oc.alert_routing_rules`): routes are their newer form.
  permission: { family: 'alert_routing_rules' },
  rules: {
    /** A create's rules are saved in the request: its rule update is recorded completed under its request id. */
    async beforeCreate({ request_id, ...input }, ctx) {
      const route = { ...(await checked(ctx, input, [])), id: randomUUID() };
      const requestId = ruleRequestId(request_id);
      if (requestId) await recordRuleUpdate(ctx, route.id, requestId, null);
      return route;
    },
    beforeList: (organizationId, db) => requireAdvancedRouting(db, organizationId),
    /**
     * An update needs the advanced alert routing feature. Its rules are checked now (a 422 names
     * every problem) and saved now, or after the answer when the organization asks for it or the
     * graph is large (docs/alert-routing.md): then the answer shows the rules as they were. Either
     * way its status is recorded under its request id.
     */
    async beforeUpdate(current, { request_id, ...input }, ctx) {
      if (isRuleUpdater(ctx.actor)) return checked(ctx, input, null);
      const settings = await routingSettingsOf(ctx.manager, ctx.organizationId);
      await requireAdvancedRouting(ctx.manager, ctx.organizationId, settings);
      const storedRules = (current.rules ?? []) as RouteRule[];
      const attributes = await checked(ctx, input, storedRules);
      // The spec's count: the rules sent and those already on the route.
      const size = ruleGraphSize(storedRules) + ruleGraphSize((input.rules ?? []) as RouteRule[]);
      // Deferred or not, the update's status is recorded under its request id (one generated for a deferred update made outside a request).
      const requestId = ruleRequestId(request_id);
      if ('rules' in attributes && (settings.asynchronous_rule_updates || size > ASYNC_RULE_GRAPH_SIZE)) {
        await recordRuleUpdate(ctx, String(current.id), requestId ?? randomUUID(), attributes.rules as unknown[]);
        delete attributes.rules;
      } else if (requestId) {
        await recordRuleUpdate(ctx, String(current.id), requestId, null);
      }
      return attributes;
    },
  },
};
