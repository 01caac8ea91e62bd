import { byQuery, defineIncludes, defineResource } from '@taproot/json-api';
import { checkReferenced, type ResourceDefinition, type Row, type WriteContext } from '@taproot/resources';
import { OnCallErrorCode } from '../errors';
import { ESCALATION_POLICY_ID, PART_OF_POLICY, pathOfPolicy, underPolicy } from '../shared/policy-parent';
import { SERVICES } from '../shared/references';
import { refuse, timeOfDayIssue, timeZoneIssues, type Issue } from '../shared/times';
import { escalationLevelDefinition, escalationLevelSchema } from '../escalation-levels/escalation-level.schema';
import { RULE, ruleIssues } from './escalation-path-rules';

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

/**
 * A path of an escalation policy (reference: `escalation_policy_path`, type `escalation_paths`):
 * an `escalation` path is followed when its rules and time restrictions match an alert; a
 * `deferral` path holds alerts back in its windows, then re-evaluates or runs another path.
 */
export const escalationPathSchema = defineResource({
  type: 'escalation_paths',
  singular: 'escalation_path',
  path: '/v1/escalation_paths',
  readTable: 'escalation_paths_read',
  defaultSort: 'position',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  parent: underPolicy('escalation_paths'),
  // The reference's include enum (listEscalationPaths, getEscalationPath), linked under the same name.
  relationships: { escalation_policy_levels: { type: 'escalation_levels', many: true } },
  attributes: {
    escalation_policy_id: ESCALATION_POLICY_ID,
    name: { type: 'string', required: true, minLength: 1, maxLength: 255, sortable: true, description: 'The name of the escalation path' },
    path_type: { type: 'string', enum: ['escalation', 'deferral'], default: 'escalation', writable: 'create', filter: ['eq'], description: 'The type of escalation path; cannot be changed after creation' },
    default: { type: 'boolean', nullable: true, alwaysStored: true, default: false, description: 'Whether this escalation path is the default path' },
    notification_type: { type: 'string', enum: ['audible', 'quiet'], default: 'audible', description: 'Notification rule type to be used' },
    match_mode: { type: 'string', enum: ['match-all-rules', 'match-any-rule'], default: 'match-all-rules', description: 'How path rules are matched' },
    position: { type: 'integer', alwaysStored: true, minimum: 0, maximum: 2_147_483_647, sortable: true, description: 'The position of this path in the paths of its policy; omitted, last' },
    initial_delay: { type: 'integer', default: 0, minimum: 0, maximum: 10080, description: 'Initial delay for escalation path in minutes. Maximum 1 week (10080).' },
    repeat: { type: 'boolean', nullable: true, default: false, description: 'Whether this path should be repeated until someone acknowledges the alert' },
    repeat_count: { type: 'integer', nullable: true, minimum: 0, maximum: 2_147_483_647, description: 'The number of times this path will be executed until someone acknowledges the alert' },
    retrigger_timeout_minutes: {
      type: 'integer',
      nullable: true,
      minimum: 1,
      maximum: 10080,
      description: "Minutes after which an alert acknowledged while paging on this path is triggered again; null: the alert urgency's (spec: paths expose retrigger_timeout_minutes)",
    },
    rules: { type: 'array', default: [], items: RULE, description: 'Escalation path conditions; the members a rule needs depend on its rule_type' },
    time_restriction_time_zone: { type: 'string', nullable: true, description: 'Time zone used for time restrictions and working_hour rules: an IANA or a Rails name, answered as sent' },
    time_restrictions: {
      type: 'array',
      default: [],
      description: 'If time restrictions are set, alerts follow this path when they arrive within the ranges and meet the rules',
      items: {
        type: 'object',
        properties: {
          start_day: { type: 'string', enum: DAYS, required: true, description: 'Day the range starts' },
          start_time: { type: 'string', required: true, description: 'Formatted as HH:MM' },
          end_day: { type: 'string', enum: DAYS, required: true, description: 'Day the range ends' },
          end_time: { type: 'string', required: true, description: 'Formatted as HH:MM' },
        },
      },
    },
    after_deferral_behavior: { type: 'string', enum: ['re_evaluate', 'execute_path'], nullable: true, description: 'What happens after a deferral path finishes (deferral paths)' },
    after_deferral_path_id: { type: 'string', nullable: true, description: 'The escalation path run after this deferral path when after_deferral_behavior is execute_path' },
  },
});

const timeIssues = (changes: Row): Issue[] => {
  const restrictions = Array.isArray(changes.time_restrictions) ? (changes.time_restrictions as Row[]) : [];
  const times = restrictions.flatMap((range, i) => ['start_time', 'end_time'].map((end) => timeOfDayIssue(`time_restrictions/${i}/${end}`, range[end])));
  return [...times.filter((issue): issue is Issue => issue !== null), ...timeZoneIssues(changes, ['time_restriction_time_zone'])];
};

/**
 * A deferral path says what follows it (spec: required for deferral paths). An escalation path's
 * after_deferral settings play no part; the reference accepts them there, so they are kept as sent.
 */
function deferralIssues(path: Row): Issue[] {
  const invalid = (attribute: string, detail: string): Issue => ({ attribute, detail, code: OnCallErrorCode.InvalidDeferral });
  if (path.path_type !== 'deferral') return [];
  if (path.after_deferral_behavior == null) return [invalid('after_deferral_behavior', 'after_deferral_behavior is required for a deferral path')];
  if (path.after_deferral_behavior === 'execute_path' && path.after_deferral_path_id == null) return [invalid('after_deferral_path_id', 'after_deferral_path_id is required when after_deferral_behavior is execute_path')];
  return [];
}

/** A null `default` is false on create and keeps the stored one on update; a null rule is no rule. */
function settled(sent: Row, current: Row | null): Row {
  const { default: isDefault, ...rest } = sent;
  const changes: Row = isDefault != null ? { ...rest, default: isDefault } : current ? rest : { ...rest, default: false };
  if (Array.isArray(changes.rules)) changes.rules = changes.rules.filter((rule) => rule !== null);
  return changes;
}

/** The path as it will be stored (`changes` over `current`) is checked, then what it names. */
async function checked(sent: Row, current: Row | null, ctx: WriteContext, policyId: string): Promise<Row> {
  const changes = settled(sent, current);
  const path = { ...current, ...changes };
  refuse([...ruleIssues(changes.rules), ...timeIssues(changes), ...deferralIssues(path)]);
  // A service rule's ids, named by their pointer: `rules/0/service_ids/1`.
  const services = Object.fromEntries(((Array.isArray(changes.rules) ? changes.rules : []) as Row[]).flatMap((rule, i) => (rule.rule_type === 'service' ? [[`rules/${i}/service_ids`, rule.service_ids]] : [])));
  await checkReferenced(ctx, services, Object.fromEntries(Object.keys(services).map((pointer) => [pointer, SERVICES])));
  return path.path_type === 'deferral' ? checkReferenced(ctx, changes, { after_deferral_path_id: pathOfPolicy(policyId, 'escalation') }) : changes;
}

export const escalationPathDefinition: ResourceDefinition = {
  schema: escalationPathSchema,
  context: 'on-call',
  table: 'escalation_paths',
  permission: PART_OF_POLICY,
  // Deleting a path deletes the levels on it, each with its own event.
  children: () => [{ definition: escalationLevelDefinition, attribute: 'escalation_policy_path_id' }],
  // The levels on the path, as /v1/escalation_paths/{id}/escalation_levels lists them (ids as text there, in any case).
  includes: defineIncludes(escalationPathSchema, {
    escalation_policy_levels: byQuery(
      escalationLevelSchema,
      'SELECT lower(escalation_policy_path_id) AS owner_id, * FROM escalation_levels_read WHERE organization_id = $1 AND lower(escalation_policy_path_id) = ANY($2::text[]) ORDER BY position, created_at, id',
    ),
  }),
  rules: {
    beforeCreate: (attributes, ctx) => checked(attributes, null, ctx, attributes.escalation_policy_id as string),
    beforeUpdate: (current, changes, ctx) => checked(changes, current, ctx, current.escalation_policy_id as string),
  },
};
