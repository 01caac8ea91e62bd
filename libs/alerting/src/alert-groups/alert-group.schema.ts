import { defineResource, JsonApiError, type AttributeDef } from '@taproot/json-api';
import type { ResourceDefinition, Row, WriteContext } from '@taproot/resources';
import { ROUTE_TARGET_TYPES, type RouteCondition } from '../alert-routes/route-alert';
import { conditionItem } from '../alert-routes/condition-schema';
import { checkReferences, normalizeCondition, normalizeDestination, problem, unknownTeams, type InvalidAttribute } from '../alert-routes/route-rules';
import { parseJsonPath } from '../ingestion/json-path';
import { GROUP_CONDITION_TYPES } from './group-alerts';

const str = (description: string): AttributeDef => ({ type: 'string', description });

/**
 * An alert group (reference `alert_group`, spec "Alert group"): alerts it takes within
 * `time_window` minutes of their group's first alert are attached to that alert and page no one
 * (docs/alert-groups.md). `conditions` select the alerts (`matches_existing_alert` ones key
 * them), legacy `attributes` key them by payload paths, `targets` restrict them to alerts paging
 * those records. The spec makes `condition_type` and the `group_by_alert_*` flags output-only:
 * they report what the conditions do.
 */
export const alertGroupSchema = defineResource({
  type: 'alert_groups',
  singular: 'alert_group',
  path: '/v1/alert_groups',
  readTable: 'alert_groups_read',
  defaultSort: 'created_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  updateMethod: 'patch',
  attributes: {
    name: { type: 'string', required: true, alwaysStored: true, minLength: 1, maxLength: 255, filter: true, sortable: true, searchable: true, description: 'The name of the alert group' },
    slug: { type: 'string', writable: false, derivedFrom: 'name', filter: true, description: 'The slug of the alert group' },
    description: { type: 'string', nullable: true, maxLength: 10000, description: 'The description of the alert group' },
    time_window: { type: 'integer', default: 10, alwaysStored: true, minimum: 1, maximum: 2147483647, description: 'Minutes the group stays open to new alerts after its first alert' },
    condition_type: { type: 'string', writable: false, alwaysStored: true, enum: ['all'], description: "How the conditions combine: 'all' (every selecting condition holds, every matched property is equal)" },
    conditions: {
      type: 'array',
      nullable: true,
      default: [],
      alwaysStored: true,
      description: 'The conditions: the alerts the group takes, and (matches_existing_alert) the properties its alerts share',
      items: conditionItem({
        operators: GROUP_CONDITION_TYPES,
        extra: { values: { type: 'array', writable: false, items: { type: 'object' }, description: 'The records the condition names (its alert urgencies)' } },
      }),
    },
    attributes: {
      type: 'array',
      nullable: true,
      default: [],
      alwaysStored: true,
      items: { type: 'object', properties: { json_path: str('The JSON path to the value to group by') } },
      description: 'Legacy: payload JSON Paths whose values the grouped alerts share (prefer conditions)',
    },
    group_by_alert_title: { type: 'boolean', writable: false, alwaysStored: true, description: 'Legacy: whether a matches_existing_alert condition reads the summary' },
    group_by_alert_urgency: { type: 'boolean', writable: false, alwaysStored: true, description: 'Legacy: whether a matches_existing_alert condition reads the urgency' },
    targets: {
      type: 'array',
      nullable: true,
      default: [],
      alwaysStored: true,
      items: { type: 'object', properties: { target_id: { type: 'string', format: 'uuid', description: 'A team, service, escalation policy or functionality' }, target_type: { type: 'string', enum: ROUTE_TARGET_TYPES, description: 'The type of the target (found from target_id)' } } },
      description: 'When set, the group takes only alerts paging one of these records',
    },
    owner_group_ids: { type: 'array', nullable: true, default: [], alwaysStored: true, items: { type: 'string', format: 'uuid' }, description: 'The teams owning the alert group' },
    deleted_at: { type: 'date-time', nullable: true, writable: false, description: 'Always null: a deleted group is gone' },
  },
});

const isObject = (value: unknown): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The legacy `attributes`: each a parseable JSON Path. */
function checkLegacyAttributes(raw: unknown, problems: InvalidAttribute[]): { json_path: string }[] {
  return (Array.isArray(raw) ? raw : []).map((item: unknown, i) => {
    const path = isObject(item) ? item.json_path : undefined;
    if (typeof path !== 'string' || path === '') problems.push(problem(`attributes/${i}/json_path`, 'is required (a JSON Path)'));
    else {
      try {
        parseJsonPath(path);
      } catch (error) {
        problems.push(problem(`attributes/${i}/json_path`, `is not a JSON Path: ${(error as Error).message}`));
      }
    }
    return { json_path: String(path ?? '') };
  });
}

/** What the output-only members report: the legacy flags, and each condition's urgencies as `values`. */
function derived(conditions: RouteCondition[]): Row {
  const matching = conditions.filter((c) => (c.property_field_condition_type as string) === 'matches_existing_alert' && c.property_field_type === 'attribute');
  return {
    condition_type: 'all',
    group_by_alert_title: matching.some((c) => c.property_field_name === 'summary'),
    group_by_alert_urgency: matching.some((c) => c.property_field_name === 'alert_urgency'),
    conditions: conditions.map((c) => ({ ...c, values: (c.alert_urgency_ids ?? []).map((id) => ({ record_id: id.toLowerCase(), record_type: 'AlertUrgency' })) })),
  };
}

async function checked(ctx: WriteContext, current: Row | null, input: Row): Promise<Row> {
  const attributes: Row = { ...input };
  for (const name of ['conditions', 'attributes', 'targets', 'owner_group_ids']) if (name in attributes && attributes[name] === null) attributes[name] = [];
  const problems: InvalidAttribute[] = [];
  // `values` is output-only: a client echoing a read back is not storing records.
  const conditions = ((attributes.conditions ?? current?.conditions ?? []) as Row[]).map((c, i) => {
    const { values: _values, ...rest } = isObject(c) ? c : {};
    return normalizeCondition(rest, `conditions/${i}`, problems, GROUP_CONDITION_TYPES);
  });
  const targets = 'targets' in attributes ? (attributes.targets as unknown[]).map((t, i) => normalizeDestination(t, `targets/${i}`, problems)) : [];
  const legacy = 'attributes' in attributes ? checkLegacyAttributes(attributes.attributes, problems) : null;
  if (problems.length === 0) {
    problems.push(...(await checkReferences(ctx, targets.map((item, i) => ({ item, at: `targets/${i}` })), conditions.map((item, i) => ({ item, at: `conditions/${i}` })))));
    const owners = ((attributes.owner_group_ids ?? []) as string[]).map((id) => id.toLowerCase());
    problems.push(...(await unknownTeams(ctx, 'owner_group_ids', owners)));
    if ('owner_group_ids' in attributes) attributes.owner_group_ids = [...new Set(owners)];
  }
  if (problems.length) throw JsonApiError.invalidAttributes(problems);
  if ('targets' in attributes) attributes.targets = targets;
  if (legacy) attributes.attributes = legacy;
  if ('conditions' in attributes || !current) Object.assign(attributes, derived(conditions));
  return attributes;
}

export const alertGroupDefinition: ResourceDefinition = {
  schema: alertGroupSchema,
  context: 'alerting',
  table: 'alert_groups',
  permission: { family: 'alert_groups' },
  rules: {
    beforeCreate: (input, ctx) => checked(ctx, null, input),
    beforeUpdate: (current, input, ctx) => checked(ctx, current, input),
  },
};
