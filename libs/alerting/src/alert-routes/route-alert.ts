import { asText } from '../ingestion/alert-draft';
import { evaluateJsonPath } from '../ingestion/json-path';

/** The reference's condition operators (`property_field_condition_type`). */
export const ROUTE_CONDITION_TYPES = ['is_one_of', 'is_not_one_of', 'contains', 'does_not_contain', 'starts_with', 'ends_with', 'matches_regex', 'is_empty'] as const;
export type RouteConditionType = (typeof ROUTE_CONDITION_TYPES)[number];
/** Where a condition reads: an alert attribute, the payload (a JSON Path), or an alert field. */
export const ROUTE_FIELD_TYPES = ['attribute', 'payload', 'alert_field'] as const;
export type RouteFieldType = (typeof ROUTE_FIELD_TYPES)[number];
export const ROUTE_TARGET_TYPES = ['Service', 'Group', 'Functionality', 'EscalationPolicy'] as const;
export type RouteTargetType = (typeof ROUTE_TARGET_TYPES)[number];

export interface RouteCondition {
  property_field_type: RouteFieldType;
  property_field_name?: string | null;
  property_field_condition_type: RouteConditionType;
  property_field_value?: string | null;
  property_field_values?: string[] | null;
  alert_urgency_ids?: string[] | null;
  conditionable_type?: 'AlertField' | null;
  conditionable_id?: string | null;
}

export interface RouteDestination {
  target_type: RouteTargetType;
  target_id: string;
}

export interface RouteRule {
  name: string;
  position?: number | null;
  fallback_rule?: boolean | null;
  condition_groups: { position?: number | null; conditions: RouteCondition[] }[];
  destinations: RouteDestination[];
}

export interface AlertRoute {
  id: string;
  enabled: boolean;
  alerts_source_ids: string[];
  rules: RouteRule[];
}

/** What routing looks at in an alert being ingested. */
export interface RoutedAlert {
  alertSourceId: string;
  /** The alert's attributes by name (`summary`, `description`, `source`, `status`, `external_id`, ...). */
  attributes: Record<string, unknown>;
  urgencyId: string | null;
  /** The payload item the alert came from. */
  payload: unknown;
  /** The alert's values of an alert field (by the field's id). */
  fieldValues(fieldId: string): unknown[];
}

/**
 * A payload condition's JSON Path: its name, or `$.` and its name when it does not start with `$`
 * (the Terraform provider's own acceptance configuration names the payload member `monitor_id`).
 */
export const payloadPathOf = (name: string) => (name.startsWith('$') ? name : `$.${name}`);

const flat = (value: unknown): unknown[] => (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]);

/** The alert's values at a condition's property (an attribute, a payload path or an alert field); alert groups key on them too. */
export function conditionValues(condition: Pick<RouteCondition, 'property_field_type' | 'property_field_name' | 'conditionable_id'>, alert: RoutedAlert): unknown[] {
  const name = condition.property_field_name ?? '';
  switch (condition.property_field_type) {
    case 'attribute':
      // Labels compare as `key:value` text, the way they are shown.
      // The older routing rules' `alert_urgency` attribute: the alert's urgency id.
      if (name === 'alert_urgency') return flat(alert.urgencyId);
      if (name === 'labels') return flat(alert.attributes.labels).map((l) => (l && typeof l === 'object' ? `${String((l as { key?: unknown }).key)}:${asText((l as { value?: unknown }).value)}` : l));
      return flat(alert.attributes[name]);
    case 'payload':
      try {
        return flat(evaluateJsonPath(alert.payload, payloadPathOf(name)));
      } catch {
        // A path the payload cannot answer finds no value.
        return [];
      }
    case 'alert_field':
      return flat(alert.fieldValues(condition.conditionable_id ?? name));
  }
}

function regexMatches(pattern: string, text: string): boolean {
  try {
    return new RegExp(pattern).test(text);
  } catch {
    // A pattern JavaScript cannot compile matches nothing rather than stopping ingestion.
    return false;
  }
}

const POSITIVE: Record<Exclude<RouteConditionType, 'is_not_one_of' | 'does_not_contain' | 'is_empty'>, (value: unknown, operand: string) => boolean> = {
  is_one_of: (value, operand) => asText(value) === operand,
  contains: (value, operand) => asText(value)?.includes(operand) ?? false,
  starts_with: (value, operand) => asText(value)?.startsWith(operand) ?? false,
  ends_with: (value, operand) => asText(value)?.endsWith(operand) ?? false,
  matches_regex: (value, operand) => regexMatches(operand, asText(value) ?? ''),
};

/**
 * Whether one condition holds: the positive operators when some value of the alert matches some
 * operand (`property_field_value` and `property_field_values`), their negations when none does,
 * `is_empty` when there is no non-empty value; with `alert_urgency_ids`, the alert's urgency must
 * also be one of them.
 */
export function conditionHolds(condition: RouteCondition, alert: RoutedAlert): boolean {
  const urgencies = condition.alert_urgency_ids ?? [];
  // On the `alert_urgency` attribute the urgency ids are what it is compared with (so a negated operator negates them too).
  const onUrgency = condition.property_field_type === 'attribute' && condition.property_field_name === 'alert_urgency';
  if (!onUrgency && urgencies.length) {
    if (alert.urgencyId === null || !urgencies.includes(alert.urgencyId)) return false;
    // A condition on urgency alone has no field to compare.
    if (!condition.property_field_name && condition.property_field_type !== 'alert_field') return true;
  }
  const values = conditionValues(condition, alert);
  const type = condition.property_field_condition_type;
  if (type === 'is_empty') return values.every((v) => asText(v) === null || asText(v) === '');
  const operands = [condition.property_field_value, ...(condition.property_field_values ?? []), ...(onUrgency ? urgencies : [])].filter((o): o is string => typeof o === 'string');
  const positive = POSITIVE[type === 'is_not_one_of' ? 'is_one_of' : type === 'does_not_contain' ? 'contains' : type];
  const any = values.some((value) => operands.some((operand) => positive(value, operand)));
  return type === 'is_not_one_of' || type === 'does_not_contain' ? !any : any;
}

/** A rule matches when one of its condition groups holds (a group: all of its conditions); a rule without groups matches every alert. */
export function ruleMatches(rule: RouteRule, alert: RoutedAlert): boolean {
  return rule.condition_groups.length === 0 || rule.condition_groups.some((group) => group.conditions.every((c) => conditionHolds(c, alert)));
}

/** The rules in evaluation order: by position, then as listed. */
const ordered = (rules: readonly RouteRule[]) =>
  rules
    .map((rule, index) => ({ rule, index }))
    .sort((a, b) => (a.rule.position ?? 0) - (b.rule.position ?? 0) || a.index - b.index)
    .map(({ rule }) => rule);

/** Where one route sends the alert: the first matching rule's destinations, else its fallback rule's, else nowhere. */
export function routeDestinations(route: AlertRoute, alert: RoutedAlert): RouteDestination[] {
  if (!route.enabled || !route.alerts_source_ids.some((id) => id.toLowerCase() === alert.alertSourceId.toLowerCase())) return [];
  const rules = ordered(route.rules);
  const matched = rules.find((rule) => !rule.fallback_rule && ruleMatches(rule, alert)) ?? rules.find((rule) => rule.fallback_rule);
  return matched?.destinations ?? [];
}

/**
 * Where the alert routes go (docs/alert-routing.md): every enabled route fed by the alert's source
 * contributes its destinations, each destination once, in a stable order (by type, then id), so
 * the answer depends on the alert alone, never on the order routes or alerts arrive in.
 */
export function routeAlert(routes: readonly AlertRoute[], alert: RoutedAlert): RouteDestination[] {
  const found = new Map<string, RouteDestination>();
  for (const route of routes) {
    for (const d of routeDestinations(route, alert)) found.set(`${d.target_type}:${d.target_id.toLowerCase()}`, { target_type: d.target_type, target_id: d.target_id.toLowerCase() });
  }
  return [...found.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, d]) => d);
}
