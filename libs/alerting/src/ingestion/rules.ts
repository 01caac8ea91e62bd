import { asText, IngestionError } from './alert-draft';
import { narrowKey } from './generic-webhook';
import { evaluateJsonPath, JsonPathError, parseJsonPath, type JsonPathStep } from './json-path';

/**
 * An alert source's rules applied to each payload item at ingestion (docs/alert-sources.md),
 * reference `alerts_source` attributes:
 * - `alert_source_urgency_rules_attributes[]` `{ json_path, operator, value, alert_urgency_id }`:
 *   the first rule whose condition holds gives the alert its urgency (`urgencyOf`);
 * - `resolution_rule_attributes` `{ enabled, condition_type, identifier_json_path,
 *   identifier_value_regex, conditions_attributes[] { field, operator, value } }`: when enabled
 *   and its conditions hold (all or any), the item resolves the alert whose deduplication key is
 *   the identifier instead of opening one (`resolutionOf`).
 * A condition compares the value at its JSON Path in the payload item (`kind: payload`, the
 * default), or the alert's value of the alert field `conditionable_id` (`kind: alert_field`: the
 * value the source's `alert_source_fields_attributes` gave it, alert-fields.ts `draftFieldValue`);
 * the resolution identifier is likewise the payload's or the field `identifier_matchable_id`'s.
 * Comparisons are exact and case-sensitive on the value's text (numbers and booleans as JSON);
 * `contains` on an array means "has an element equal to the value", on text "has the substring".
 * A path that finds nothing compares as no value: only `is_not` and `does_not_contain` hold.
 */
export const RULE_OPERATORS = ['is', 'is_not', 'contains', 'does_not_contain', 'starts_with', 'ends_with'] as const;
export type RuleOperator = (typeof RULE_OPERATORS)[number];
/** Urgency rules take the first four (reference enum); resolution conditions all six. */
const URGENCY_OPERATORS: readonly RuleOperator[] = RULE_OPERATORS.slice(0, 4);

type Kind = 'payload' | 'alert_field';

export interface UrgencyRule {
  alert_urgency_id?: string | null;
  kind?: Kind | null;
  conditionable_id?: string | null;
  json_path?: string | null;
  operator?: string | null;
  value?: string | null;
}

export interface ResolutionCondition {
  kind?: Kind | null;
  conditionable_id?: string | null;
  field?: string | null;
  operator?: string | null;
  value?: string | null;
}

export interface ResolutionRule {
  enabled?: boolean | null;
  condition_type?: 'all' | 'any' | null;
  identifier_json_path?: string | null;
  identifier_value_regex?: string | null;
  identifier_reference_kind?: Kind | null;
  identifier_matchable_id?: string | null;
  conditions_attributes?: ResolutionCondition[] | null;
}

export interface IngestionRulesConfig {
  alert_source_urgency_rules_attributes?: UrgencyRule[] | null;
  resolution_rule_attributes?: ResolutionRule | null;
}

/** Where a condition or identifier takes its value: a JSON Path of the payload, or an alert field. */
type Operand = { path: JsonPathStep[] } | { fieldId: string };

interface Condition {
  operand: Operand;
  operator: RuleOperator;
  value: string;
}

/**
 * What rules look at for one item: its payload, and the alert's value of an alert field (undefined
 * when it has none; a caller without alert fields passes none, and field conditions see no value).
 */
export interface RuleSubject {
  payload: unknown;
  field?: (fieldId: string) => unknown;
}

interface Compiled {
  urgency: { condition: Condition; urgencyId: string }[];
  resolution: { any: boolean; conditions: Condition[]; identifier: Operand; regexp: RegExp | null } | null;
}

/** Collects every problem rather than stopping at the first: the CRUD answers them all. */
class Problems {
  readonly list: IngestionError[] = [];
  add(field: string, message: string): void {
    this.list.push(new IngestionError(field, message));
  }
  path(field: string, path: unknown): JsonPathStep[] {
    if (typeof path !== 'string' || path.trim() === '') {
      this.add(field, 'a JSON Path is required');
      return [];
    }
    try {
      return parseJsonPath(path);
    } catch (error) {
      if (!(error instanceof JsonPathError)) throw error;
      this.add(field, error.message);
      return [];
    }
  }
  /** A payload path, or with kind `alert_field` the alert field `fieldId` (required). */
  operand(kind: Kind | null | undefined, pathAt: string, path: unknown, idAt: string, fieldId: unknown): Operand {
    if (kind !== 'alert_field') return { path: this.path(pathAt, path) };
    if (typeof fieldId !== 'string' || fieldId === '') this.add(idAt, 'an alert field is required when kind is alert_field');
    return { fieldId: String(fieldId ?? '').toLowerCase() };
  }
  condition(at: string, c: { kind?: Kind | null; conditionable_id?: string | null; operator?: string | null; value?: string | null }, pathField: string, path: unknown, operators: readonly RuleOperator[]): Condition {
    if (!operators.includes(c.operator as RuleOperator)) this.add(`${at}.operator`, `must be one of ${operators.join(', ')}`);
    if (typeof c.value !== 'string') this.add(`${at}.value`, 'a value is required');
    return { operand: this.operand(c.kind, `${at}.${pathField}`, path, `${at}.conditionable_id`, c.conditionable_id), operator: c.operator as RuleOperator, value: c.value ?? '' };
  }
}

function compile(config: IngestionRulesConfig, problems: Problems): Compiled {
  const urgency = (config.alert_source_urgency_rules_attributes ?? []).map((rule, i) => {
    const at = `alert_source_urgency_rules_attributes[${i}]`;
    if (typeof rule.alert_urgency_id !== 'string' || rule.alert_urgency_id === '') problems.add(`${at}.alert_urgency_id`, 'an alert urgency is required');
    return { condition: problems.condition(at, rule, 'json_path', rule.json_path, URGENCY_OPERATORS), urgencyId: rule.alert_urgency_id ?? '' };
  });
  const rule = config.resolution_rule_attributes;
  if (!rule?.enabled) return { urgency, resolution: null };
  const at = 'resolution_rule_attributes';
  const identifier = problems.operand(rule.identifier_reference_kind, `${at}.identifier_json_path`, rule.identifier_json_path, `${at}.identifier_matchable_id`, rule.identifier_matchable_id);
  let regexp: RegExp | null = null;
  if (rule.identifier_value_regex) {
    try {
      regexp = new RegExp(rule.identifier_value_regex);
    } catch (error) {
      problems.add(`${at}.identifier_value_regex`, `invalid regular expression: ${(error as Error).message}`);
    }
  }
  const list = rule.conditions_attributes ?? [];
  // An enabled rule without conditions would resolve on every item: nothing would ever open.
  if (list.length === 0) problems.add(`${at}.conditions_attributes`, 'an enabled resolution rule needs at least one condition');
  const conditions = list.map((c, i) => problems.condition(`${at}.conditions_attributes[${i}]`, c, 'field', c.field, RULE_OPERATORS));
  return { urgency, resolution: { any: rule.condition_type === 'any', conditions, identifier, regexp } };
}

/** Every problem of the source's rules (empty when they can be applied); fields are attribute paths. */
export function validateIngestionRules(config: IngestionRulesConfig): IngestionError[] {
  const problems = new Problems();
  compile(config, problems);
  return problems.list;
}

/** The compiled rules, or the first problem as an IngestionError (rules stored before they were validated). */
function compiled(config: IngestionRulesConfig): Compiled {
  const problems = new Problems();
  const result = compile(config, problems);
  if (problems.list.length) throw problems.list[0];
  return result;
}

export function holds(actual: unknown, operator: RuleOperator, value: string): boolean {
  const text = asText(actual);
  switch (operator) {
    case 'is':
      return text === value;
    case 'is_not':
      return text !== value;
    case 'contains':
      return Array.isArray(actual) ? actual.some((item) => asText(item) === value) : text !== null && text.includes(value);
    case 'does_not_contain':
      return !holds(actual, 'contains', value);
    case 'starts_with':
      return text !== null && text.startsWith(value);
    case 'ends_with':
      return text !== null && text.endsWith(value);
  }
}

const valueOf = (operand: Operand, subject: RuleSubject) => ('path' in operand ? evaluateJsonPath(subject.payload, operand.path) : subject.field?.(operand.fieldId));
const met = (c: Condition, subject: RuleSubject) => holds(valueOf(c.operand, subject), c.operator, c.value);

/** The urgency id of the first urgency rule that holds for the payload item (and its alert field values), or null (the source's default applies). */
export function urgencyOf(config: IngestionRulesConfig, payload: unknown, field?: RuleSubject['field']): string | null {
  const subject: RuleSubject = { payload, field };
  return compiled(config).urgency.find((rule) => met(rule.condition, subject))?.urgencyId ?? null;
}

/**
 * Whether the enabled resolution rule resolves this payload item: null when it does not (no rule,
 * disabled, conditions not met), else the identifier (the deduplication key of the alert to
 * resolve: the value at identifier_json_path, narrowed by identifier_value_regex's first group),
 * null when the item carries none.
 */
export function resolutionOf(config: IngestionRulesConfig, payload: unknown, field?: RuleSubject['field']): { identifier: string | null } | null {
  const rule = compiled(config).resolution;
  if (!rule) return null;
  const subject: RuleSubject = { payload, field };
  const matches = rule.any ? rule.conditions.some((c) => met(c, subject)) : rule.conditions.every((c) => met(c, subject));
  if (!matches) return null;
  return { identifier: narrowKey(asText(valueOf(rule.identifier, subject)), rule.regexp) };
}
