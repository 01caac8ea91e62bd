import { existingCatalogIds } from '@taproot/catalog';
import { existingTeamIds } from '@taproot/identity';
import { existingIds } from '@taproot/json-api';
import { existingEscalationPolicyIds } from '@taproot/on-call';
import type { Row, WriteContext } from '@taproot/resources';
import { AlertingErrorCode } from '../errors';
import { parseJsonPath } from '../ingestion/json-path';
import { payloadPathOf, ROUTE_CONDITION_TYPES, ROUTE_FIELD_TYPES, ROUTE_TARGET_TYPES, type RouteCondition, type RouteDestination, type RouteRule, type RouteTargetType } from './route-alert';

/** A refused attribute (JsonApiError.invalidAttributes' item). */
export interface InvalidAttribute {
  attribute: string;
  detail: string;
  code: string;
}

/** A problem in a rule graph: `rules/0/destinations/1/target_id` as the pointer, `rules[0].destinations[1].target_id` in the detail. */
export const problem = (at: string, message: string, code = AlertingErrorCode.InvalidValue): InvalidAttribute => ({
  attribute: at,
  detail: `${at.replace(/\/(\d+)/g, '[$1]').replace(/\//g, '.')}: ${message}`,
  code,
});

const isText = (value: unknown): value is string => typeof value === 'string';
const isInteger = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value);

/** The size the spec counts for asynchronous processing: rules plus their condition groups, conditions and destinations (of a graph as sent: members may be missing). */
export function ruleGraphSize(rules: readonly RouteRule[]): number {
  const count = (list: unknown) => (Array.isArray(list) ? list.length : 0);
  return rules.reduce((n, rule) => n + 1 + count(rule.destinations) + (Array.isArray(rule.condition_groups) ? rule.condition_groups : []).reduce((m, group) => m + 1 + count(group?.conditions), 0), 0);
}

/** An item of a rule graph the write deletes (the reference's PATCH `_destroy`): the checks of the records it names skip it. */
export const isDestroyed = (item: unknown): boolean => typeof item === 'object' && item !== null && (item as Row)._destroy === true;

/** A route condition's members the reference's clients read back, in every answer (null when not sent). */
const ROUTE_CONDITION_MEMBERS = ['property_field_name', 'property_field_value', 'property_field_values', 'alert_urgency_ids', 'conditionable_type', 'conditionable_id'] as const;

/**
 * A condition as stored: its field type and operator decided (the spec makes both output-only; a
 * value sent is honoured). `operators`: those the resource takes (alert groups add `matches_existing_alert`).
 * `complete`: a route's condition, answered with every member its clients read (the hosted API's
 * SDK fails on a route whose condition lacks one), those not sent as null.
 */
export function normalizeCondition(raw: Row, at: string, problems: InvalidAttribute[], operators: readonly string[] = ROUTE_CONDITION_TYPES, complete = false): RouteCondition {
  const conditionableId = raw.conditionable_id;
  const sentType = raw.property_field_type;
  const name = raw.property_field_name;
  const fieldType = sentType ?? (conditionableId != null ? 'alert_field' : isText(name) && name.startsWith('$') ? 'payload' : 'attribute');
  if (!(ROUTE_FIELD_TYPES as readonly unknown[]).includes(fieldType)) problems.push(problem(`${at}/property_field_type`, `must be one of ${ROUTE_FIELD_TYPES.join(', ')}`));
  const conditionType = raw.property_field_condition_type ?? 'is_one_of';
  if (!(operators as readonly unknown[]).includes(conditionType)) problems.push(problem(`${at}/property_field_condition_type`, `must be one of ${operators.join(', ')}`));
  const urgencies = raw.alert_urgency_ids ?? [];
  if (!Array.isArray(urgencies) || !urgencies.every(isText)) problems.push(problem(`${at}/alert_urgency_ids`, 'must be an array of alert urgency ids'));
  const values = raw.property_field_values ?? [];
  if (!Array.isArray(values) || !values.every(isText)) problems.push(problem(`${at}/property_field_values`, 'must be an array of strings'));
  if (raw.property_field_value != null && !isText(raw.property_field_value)) problems.push(problem(`${at}/property_field_value`, 'must be a string'));
  if (fieldType === 'alert_field') {
    if (conditionableId == null) problems.push(problem(`${at}/conditionable_id`, 'is required for an alert_field condition (the alert field it reads)'));
  } else if (!isText(name) || name === '') {
    if (!(Array.isArray(urgencies) && urgencies.length)) problems.push(problem(`${at}/property_field_name`, `is required for a ${String(fieldType)} condition`));
  } else if (fieldType === 'payload') {
    try {
      parseJsonPath(payloadPathOf(name));
    } catch (error) {
      problems.push(problem(`${at}/property_field_name`, `is not a JSON Path: ${(error as Error).message}`));
    }
  }
  if (conditionType === 'matches_regex') {
    for (const pattern of [raw.property_field_value, ...(Array.isArray(values) ? values : [])].filter(isText)) {
      try {
        new RegExp(pattern);
      } catch {
        problems.push(problem(`${at}/property_field_value`, `${JSON.stringify(pattern)} is not a regular expression`));
      }
    }
  }
  // Stored as sent (members the reference does not name included), with the two output-only members decided.
  return {
    ...(complete ? Object.fromEntries(ROUTE_CONDITION_MEMBERS.map((m) => [m, m === 'conditionable_type' && fieldType === 'alert_field' ? 'AlertField' : null])) : {}),
    ...raw,
    property_field_type: fieldType as RouteCondition['property_field_type'],
    property_field_condition_type: conditionType as RouteCondition['property_field_condition_type'],
    ...(isText(conditionableId) ? { conditionable_id: conditionableId.toLowerCase() } : {}),
  } as RouteCondition;
}

/** A destination as stored: its id lower-cased, its `target_type` as sent (null until `checkReferences` finds it). */
export function normalizeDestination(raw: unknown, at: string, problems: InvalidAttribute[]): RouteDestination {
  const destination = (raw && typeof raw === 'object' ? raw : {}) as Row;
  if (!isText(destination.target_id)) problems.push(problem(`${at}/target_id`, 'is required'));
  const sentType = destination.target_type;
  if (sentType != null && !(ROUTE_TARGET_TYPES as readonly unknown[]).includes(sentType)) problems.push(problem(`${at}/target_type`, `must be one of ${ROUTE_TARGET_TYPES.join(', ')}`));
  return { ...destination, target_type: (sentType ?? null) as RouteTargetType, target_id: isText(destination.target_id) ? destination.target_id.toLowerCase() : '' };
}

/** The rule graph's shape checked and normalized (no database reads): the problems, and the rules as they would be stored. */
export function normalizeRules(raw: unknown): { rules: RouteRule[]; problems: InvalidAttribute[] } {
  const problems: InvalidAttribute[] = [];
  if (raw == null) return { rules: [], problems };
  if (!Array.isArray(raw)) return { rules: [], problems: [problem('rules', 'must be an array of rules')] };
  const rules = raw.map((item: unknown, i): RouteRule => {
    const at = `rules/${i}`;
    const rule = (item && typeof item === 'object' ? item : {}) as Row;
    if (!isText(rule.name) || rule.name.trim() === '') problems.push(problem(`${at}/name`, 'is required'));
    if (rule.position != null && !isInteger(rule.position)) problems.push(problem(`${at}/position`, 'must be an integer'));
    if (rule.fallback_rule != null && typeof rule.fallback_rule !== 'boolean') problems.push(problem(`${at}/fallback_rule`, 'must be a boolean'));
    const groups = Array.isArray(rule.condition_groups) ? rule.condition_groups : (problems.push(problem(`${at}/condition_groups`, 'is required (an array)')), []);
    const destinations = Array.isArray(rule.destinations) ? rule.destinations : (problems.push(problem(`${at}/destinations`, 'is required (an array)')), []);
    return {
      ...rule,
      condition_groups: groups.map((g: unknown, j) => {
        const group = (g && typeof g === 'object' ? g : {}) as Row;
        const conditions = Array.isArray(group.conditions) ? group.conditions : (problems.push(problem(`${at}/condition_groups/${j}/conditions`, 'is required (an array)')), []);
        if (group.position != null && !isInteger(group.position)) problems.push(problem(`${at}/condition_groups/${j}/position`, 'must be an integer'));
        return { ...group, conditions: conditions.map((c: unknown, k) => normalizeCondition((c && typeof c === 'object' ? c : {}) as Row, `${at}/condition_groups/${j}/conditions/${k}`, problems, ROUTE_CONDITION_TYPES, true)) };
      }),
      destinations: destinations.map((d: unknown, j) => normalizeDestination(d, `${at}/destinations/${j}`, problems)),
    } as RouteRule;
  });
  return { rules, problems };
}

/** Which kinds of record a destination can name, and where each is looked up (its owning context's port). */
const TARGET_LOOKUPS: Record<RouteTargetType, (ctx: WriteContext, ids: string[]) => Promise<Set<string>>> = {
  Service: (ctx, ids) => existingCatalogIds(ctx.manager, ctx.organizationId, 'services', ids),
  Group: (ctx, ids) => existingTeamIds(ctx.manager, ctx.organizationId, ids),
  Functionality: (ctx, ids) => existingCatalogIds(ctx.manager, ctx.organizationId, 'functionalities', ids),
  EscalationPolicy: (ctx, ids) => existingEscalationPolicyIds(ctx.manager, ctx.organizationId, ids),
};

/** Where in the write a destination or a condition sits (the pointer its problems name). */
export interface Placed<T> {
  item: T;
  at: string;
}

/**
 * Destinations and conditions checked against the organization's records: each destination's
 * record found (its `target_type` filled in: the spec makes it output-only; one sent must match),
 * each condition's urgencies and alert field. Mutates the destinations with the types found.
 */
export async function checkReferences(ctx: WriteContext, destinations: Placed<RouteDestination>[], conditions: Placed<RouteCondition>[]): Promise<InvalidAttribute[]> {
  const problems: InvalidAttribute[] = [];
  const ids = [...new Set(destinations.map(({ item }) => item.target_id).filter(Boolean))];
  const found = new Map<RouteTargetType, Set<string>>();
  for (const type of ROUTE_TARGET_TYPES) found.set(type, ids.length ? await TARGET_LOOKUPS[type](ctx, ids) : new Set());
  for (const { item: d, at } of destinations) {
    if (!d.target_id) continue;
    const type = ROUTE_TARGET_TYPES.find((t) => (d.target_type == null || d.target_type === t) && found.get(t)!.has(d.target_id));
    if (type) d.target_type = type;
    else problems.push(problem(`${at}/target_id`, `${d.target_id} is not ${d.target_type ? `a ${d.target_type}` : 'a service, team, functionality or escalation policy'} of this organization`, AlertingErrorCode.UnknownReference));
  }
  const urgencies = await existingIds(ctx.manager, 'alert_urgencies', ctx.organizationId, conditions.flatMap(({ item }) => item.alert_urgency_ids ?? []));
  const fields = await existingIds(ctx.manager, 'alert_fields', ctx.organizationId, conditions.flatMap(({ item }) => (item.conditionable_id ? [item.conditionable_id] : [])));
  for (const { item: c, at } of conditions) {
    for (const [n, id] of (c.alert_urgency_ids ?? []).entries()) {
      if (!urgencies.has(id.toLowerCase())) problems.push(problem(`${at}/alert_urgency_ids/${n}`, `${id} is not an alert urgency of this organization`, AlertingErrorCode.UnknownAlertUrgency));
    }
    if (c.conditionable_id && !fields.has(c.conditionable_id)) problems.push(problem(`${at}/conditionable_id`, `${c.conditionable_id} is not an alert field of this organization`, AlertingErrorCode.UnknownReference));
  }
  return problems;
}

/** Each id of `ids` (the attribute `name`) must be found by `existing`: a problem for each that is not. */
export async function unknownIds(name: string, ids: unknown, noun: string, existing: (ids: string[]) => Promise<Set<string>>): Promise<InvalidAttribute[]> {
  const list = Array.isArray(ids) ? ids.map((id) => String(id).toLowerCase()) : [];
  const found = await existing(list);
  return list.flatMap((id, i) => (found.has(id) ? [] : [problem(`${name}/${i}`, `${id} is not ${noun} of this organization`, AlertingErrorCode.UnknownReference)]));
}

/** Owning teams (`owning_team_ids`, `owner_group_ids`): each a team of the organization. */
export const unknownTeams = (ctx: WriteContext, name: string, ids: unknown) => unknownIds(name, ids, 'a team', (list) => existingTeamIds(ctx.manager, ctx.organizationId, list));

/** A route's rule graph checked against the organization's records (`checkReferences`). */
export function checkRuleReferences(ctx: WriteContext, rules: RouteRule[]): Promise<InvalidAttribute[]> {
  // Placed before the deleted items are left out, so each pointer names the item's place in the write.
  const kept = <T>(items: Placed<T>[]) => items.filter(({ item }) => !isDestroyed(item));
  const placedRules = kept(rules.map((item, i) => ({ item, at: `rules/${i}` })));
  const destinations = placedRules.flatMap(({ item: rule, at }) => kept(rule.destinations.map((item, j) => ({ item, at: `${at}/destinations/${j}` }))));
  const groups = placedRules.flatMap(({ item: rule, at }) => kept(rule.condition_groups.map((item, j) => ({ item, at: `${at}/condition_groups/${j}` }))));
  const conditions = groups.flatMap(({ item: group, at }) => kept(group.conditions.map((item, k) => ({ item, at: `${at}/conditions/${k}` }))));
  return checkReferences(ctx, destinations, conditions);
}
