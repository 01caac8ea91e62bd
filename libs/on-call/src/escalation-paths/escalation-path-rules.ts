import type { AttributeDef } from '@taproot/json-api';
import type { Row } from '@taproot/resources';
import { OnCallErrorCode } from '../errors';
import { timeOfDayIssue, timeZoneIssues, type Issue } from '../shared/times';

const MATCHES = ['is', 'is_not', 'contains', 'does_not_contain', 'contains_key', 'does_not_contain_key', 'starts_with', 'does_not_start_with', 'matches', 'does_not_match', 'is_one_of', 'is_not_one_of'] as const;

/**
 * The reference's rule shapes (a `oneOf` on `rule_type`): the members each type requires and the
 * operators it takes. One declared item holds every member; this table says which go together.
 */
const RULE_TYPES: Record<string, { required: readonly string[]; operators?: readonly string[] }> = {
  alert_urgency: { required: ['urgency_ids'] },
  working_hour: { required: ['within_working_hour'] },
  json_path: { required: ['json_path', 'operator'], operators: [...MATCHES, 'is_set', 'is_not_set'] },
  field: { required: ['fieldable_type', 'fieldable_id', 'operator'], operators: [...MATCHES, 'is_empty', 'is_not_empty'] },
  service: { required: ['service_ids'] },
  deferral_window: { required: ['time_zone', 'time_blocks'] },
  source: { required: ['operator', 'values'], operators: ['is', 'is_not', 'is_one_of', 'is_not_one_of'] },
  related_incidents: { required: ['operator'], operators: ['is_set', 'is_not_set'] },
};

const ids = (description: string): AttributeDef => ({ type: 'array', items: { type: 'string' }, description });
const flag = (day: string): AttributeDef => ({ type: 'boolean', description: `Deferred on ${day}` });

/** The declared item of `rules`: every rule type's members, checked together by `ruleIssues`. */
export const RULE: AttributeDef['items'] = {
  type: 'object',
  properties: {
    rule_type: { type: 'string', enum: Object.keys(RULE_TYPES), required: true, description: 'The type of the escalation path rule' },
    urgency_ids: ids('Alert urgency ids for which this escalation path should be used (alert_urgency)'),
    within_working_hour: { type: 'boolean', description: 'Whether the path is used within working hours (working_hour)' },
    json_path: { type: 'string', description: 'JSON path to extract value from payload (json_path)' },
    operator: { type: 'string', description: 'How the value is matched; the operators depend on rule_type' },
    value: { type: 'string', nullable: true, description: 'Value with which JSON path value should be matched (json_path)' },
    values: ids('Values to match against (json_path, field, source)'),
    fieldable_type: { type: 'string', description: 'The type of the fieldable, e.g. AlertField (field)' },
    fieldable_id: { type: 'string', description: 'The ID of the alert field (field)' },
    service_ids: ids('Service ids for which this escalation path should be used (service)'),
    time_zone: { type: 'string', description: 'Time zone of the deferral window (deferral_window): an IANA or a Rails name, answered as sent' },
    time_blocks: {
      type: 'array',
      description: 'Time windows during which alerts are deferred (deferral_window)',
      items: {
        type: 'object',
        properties: {
          all_day: { type: 'boolean', description: 'The whole day' },
          start_time: { type: 'string', description: 'Formatted as HH:MM' },
          end_time: { type: 'string', description: 'Formatted as HH:MM' },
          position: { type: 'integer', nullable: true, description: 'Position of the block' },
          ...Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => [day, flag(day)])),
        },
      },
    },
  },
};

const invalid = (attribute: string, detail: string): Issue => ({ attribute, detail, code: OnCallErrorCode.InvalidRule });

/** Each rule as its type wants it: its required members, an operator its type takes, times and zones. */
export function ruleIssues(rules: unknown): Issue[] {
  if (!Array.isArray(rules)) return [];
  return rules.flatMap((rule: Row, i) => {
    const shape = RULE_TYPES[rule.rule_type as string];
    const at = `rules/${i}`;
    const issues = shape.required.filter((member) => rule[member] == null).map((member) => invalid(`${at}/${member}`, `rules[${i}].${member} is required for a ${rule.rule_type} rule`));
    if (shape.operators && rule.operator != null && !shape.operators.includes(rule.operator as string)) {
      issues.push(invalid(`${at}/operator`, `rules[${i}].operator must be one of ${shape.operators.join(', ')} for a ${rule.rule_type} rule`));
    }
    if (rule.rule_type === 'deferral_window') {
      issues.push(...timeZoneIssues(rule, ['time_zone']).map((issue) => ({ ...issue, attribute: `${at}/time_zone` })));
      for (const [j, block] of ((rule.time_blocks as Row[]) ?? []).entries()) {
        for (const end of ['start_time', 'end_time']) {
          const issue = block[end] == null ? null : timeOfDayIssue(`${at}/time_blocks/${j}/${end}`, block[end]);
          if (issue) issues.push(issue);
        }
      }
    }
    return issues;
  });
}
