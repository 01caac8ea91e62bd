import { conditionHolds, type RouteCondition, type RouteConditionType, type RoutedAlert } from '../alert-routes/route-alert';

/** How a rule's conditions combine (the spec's `match-all-rules`; `match-any-rule` as escalation paths take it). */
export const RETRIGGER_MATCH_MODES = ['match-all-rules', 'match-any-rule'] as const;
export type RetriggerMatchMode = (typeof RETRIGGER_MATCH_MODES)[number];
/** What a condition reads of the alert. */
export const RETRIGGER_CONDITION_KINDS = ['urgency', 'source', 'service', 'payload', 'alert_field'] as const;
export type RetriggerConditionKind = (typeof RETRIGGER_CONDITION_KINDS)[number];

export interface RetriggerCondition {
  kind: RetriggerConditionKind;
  operator: RouteConditionType;
  record_ids?: string[] | null;
  values?: string[] | null;
  property_field_name?: string | null;
}

export interface RetriggerRule {
  id: string;
  match_mode: RetriggerMatchMode;
  /** Minutes after the alert was acknowledged or resolved during which a repeat re-triggers it; null: no limit. */
  timeout_minutes: number | null;
  position: number;
  conditions: RetriggerCondition[];
}

/**
 * A re-trigger condition as the alert routes' condition, so both evaluate the same way:
 * urgency and source/service ids read attributes the caller puts on the RoutedAlert
 * (`alert_urgency` is the urgency id; `alert_source_id`, `service_ids`).
 */
export function asRouteCondition(condition: RetriggerCondition): RouteCondition {
  const operands = { property_field_condition_type: condition.operator, property_field_values: condition.values ?? [] };
  switch (condition.kind) {
    case 'urgency':
      return { ...operands, property_field_type: 'attribute', property_field_name: 'alert_urgency', property_field_values: condition.record_ids ?? [] };
    case 'source':
      // record_ids name alert sources; values name source types (`datadog`, `generic_webhook`, ...).
      return condition.record_ids?.length
        ? { ...operands, property_field_type: 'attribute', property_field_name: 'alert_source_id', property_field_values: condition.record_ids }
        : { ...operands, property_field_type: 'attribute', property_field_name: 'source' };
    case 'service':
      return { ...operands, property_field_type: 'attribute', property_field_name: 'service_ids', property_field_values: condition.record_ids ?? [] };
    case 'payload':
      return { ...operands, property_field_type: 'payload', property_field_name: condition.property_field_name ?? '' };
    case 'alert_field':
      return { ...operands, property_field_type: 'alert_field', conditionable_type: 'AlertField', conditionable_id: condition.record_ids?.[0] ?? null };
  }
}

/** Whether a rule's conditions hold for the alert per its match mode; a rule without conditions matches every alert. */
export function retriggerRuleMatches(rule: RetriggerRule, alert: RoutedAlert): boolean {
  if (rule.conditions.length === 0) return true;
  const holds = (c: RetriggerCondition) => conditionHolds(asRouteCondition(c), alert);
  return rule.match_mode === 'match-any-rule' ? rule.conditions.some(holds) : rule.conditions.every(holds);
}

/**
 * The rule that re-triggers an acknowledged or resolved alert firing again at `firedAt`: the first
 * by position whose conditions hold and whose timeout, counted from when the alert was acknowledged
 * or resolved (`settledAt`), has not passed. Null: the repeat is treated as before (no rule).
 */
export function findRetriggerRule(rules: readonly RetriggerRule[], alert: RoutedAlert, settledAt: Date, firedAt: Date): RetriggerRule | null {
  const elapsed = firedAt.getTime() - settledAt.getTime();
  const ordered = [...rules].sort((a, b) => a.position - b.position);
  return ordered.find((rule) => (rule.timeout_minutes === null || elapsed <= rule.timeout_minutes * 60_000) && retriggerRuleMatches(rule, alert)) ?? null;
}
