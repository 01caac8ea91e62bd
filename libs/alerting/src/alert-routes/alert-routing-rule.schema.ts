import { defineResource, existingIds, JsonApiError } from '@taproot/json-api';
import type { ResourceDefinition, Row, WriteContext } from '@taproot/resources';
import { AlertingErrorCode } from '../errors';
import { conditionItem } from './condition-schema';
import { ROUTE_TARGET_TYPES, type AlertRoute, type RouteCondition } from './route-alert';
import { checkReferences, normalizeCondition, normalizeDestination, problem, unknownTeams, type InvalidAttribute } from './route-rules';

const CONDITION_TYPES = ['all', 'any'] as const;

// The reference's routing rule condition: attribute or payload, five members.
const conditionItems = conditionItem({
  fieldTypes: ['attribute', 'payload'],
  members: ['property_field_type', 'property_field_name', 'property_field_condition_type', 'property_field_value', 'property_field_values'],
});

/**
 * An alert routing rule (reference `alert_routing_rule`): the older form of routing, one rule of one
 * source with one destination, evaluated beside the routes (docs/alert-routing.md, "Precedence").
 * Evaluation reads it as the routes' condition groups derived from `conditions` and
 * `condition_type` (all: one group; any: a group per condition); `condition_groups`, which the
 * reference's request does not take, is answered as written: empty (the hosted API's Terraform
 * provider, which sends none, would see derived groups as drift).
 */
export const alertRoutingRuleSchema = defineResource({
  type: 'alert_routing_rules',
  singular: 'alert_routing_rule',
  path: '/v1/alert_routing_rules',
  readTable: 'alert_routing_rules_read',
  defaultSort: 'position',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  attributes: {
    name: { type: 'string', required: true, alwaysStored: true, minLength: 1, maxLength: 255, filter: true, sortable: true, searchable: true, description: 'The name of the alert routing rule' },
    enabled: { type: 'boolean', default: true, filter: true, description: 'Whether the alert routing rule is enabled' },
    alerts_source_id: { type: 'string', required: true, format: 'uuid', filter: true, description: 'The alert source whose alerts the rule routes' },
    position: { type: 'integer', nullable: true, alwaysStored: true, minimum: 0, maximum: 2147483647, sortable: true, description: 'The position of the rule among its source’s (evaluation order); left out, last' },
    condition_type: { type: 'string', enum: CONDITION_TYPES, default: 'all', description: 'all: every condition must hold; any: one' },
    conditions: { type: 'array', nullable: true, default: [], alwaysStored: true, items: conditionItems, description: 'The conditions of the rule' },
    condition_groups: { type: 'array', writable: false, alwaysStored: true, items: { type: 'object' }, description: 'Condition groups as written: none (the rule is evaluated by conditions and condition_type)' },
    destination: {
      type: 'object',
      required: true,
      properties: { target_id: { type: 'string', description: 'The ID of the target' }, target_type: { type: 'string', enum: ROUTE_TARGET_TYPES, description: 'The type of the target' } },
      description: 'Where the matching alerts go',
    },
    owning_team_ids: { type: 'array', nullable: true, default: [], alwaysStored: true, items: { type: 'string', format: 'uuid' }, description: 'The teams owning the rule' },
  },
});

/** The groups the routes' evaluation reads: all of the conditions in one group, or any of them, a group each. */
const groupsOf = (conditions: RouteCondition[], type: string) => (type === 'any' ? conditions.map((c, i) => ({ position: i + 1, conditions: [c] })) : [{ position: 1, conditions }]);

async function checked(ctx: WriteContext, current: Row | null, input: Row): Promise<Row> {
  const attributes: Row = { ...input };
  for (const name of ['owning_team_ids', 'conditions']) if (name in attributes && attributes[name] === null) attributes[name] = [];
  const problems: InvalidAttribute[] = [];
  if (attributes.alerts_source_id != null && !(await existingIds(ctx.manager, 'alert_sources', ctx.organizationId, [String(attributes.alerts_source_id)])).has(String(attributes.alerts_source_id).toLowerCase())) {
    problems.push(problem('alerts_source_id', `${String(attributes.alerts_source_id)} is not an alert source of this organization`, AlertingErrorCode.UnknownReference));
  }
  const teams = Array.isArray(attributes.owning_team_ids) ? (attributes.owning_team_ids as string[]).map((id) => String(id).toLowerCase()) : [];
  problems.push(...(await unknownTeams(ctx, 'owning_team_ids', teams)));
  const conditions = ((attributes.conditions ?? current?.conditions ?? []) as Row[]).map((c, i) => normalizeCondition(c, `conditions/${i}`, problems));
  const destination = 'destination' in attributes ? normalizeDestination(attributes.destination, 'destination', problems) : null;
  if (problems.length === 0) problems.push(...(await checkReferences(ctx, destination ? [{ item: destination, at: 'destination' }] : [], conditions.map((item, i) => ({ item, at: `conditions/${i}` })))));
  if (problems.length) throw JsonApiError.invalidAttributes(problems);
  if ('conditions' in attributes) attributes.conditions = conditions;
  if (destination) attributes.destination = destination;
  if (teams.length || 'owning_team_ids' in attributes) attributes.owning_team_ids = [...new Set(teams)];
  return attributes;
}

export const alertRoutingRuleDefinition: ResourceDefinition = {
  schema: alertRoutingRuleSchema,
  context: 'alerting',
  table: 'alert_routing_rules',
  permission: { family: 'alert_routing_rules' },
  rules: {
    beforeCreate: (input, ctx) => checked(ctx, null, input),
    beforeUpdate: (current, input, ctx) => checked(ctx, current, input),
  },
};

/** A source's enabled routing rules as one route (first match by position), evaluated with the routes. */
export function routeOfRoutingRules(sourceId: string, rules: readonly Row[]): AlertRoute {
  return {
    id: `routing_rules:${sourceId}`,
    enabled: true,
    alerts_source_ids: [sourceId],
    rules: rules
      .filter((r) => r.enabled !== false)
      .map((r) => ({ name: String(r.name), position: Number(r.position), condition_groups: groupsOf(r.conditions as RouteCondition[], String(r.condition_type)), destinations: [r.destination as AlertRoute['rules'][number]['destinations'][number]] })),
  };
}
