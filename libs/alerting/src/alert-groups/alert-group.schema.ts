import { defineResource, existingIds, JsonApiError, type AttributeDef } from '@taproot/json-api';
import type { ResourceDefinition, Row, WriteContext } from '@taproot/resources';
import { ROUTE_TARGET_TYPES, type RouteCondition } from '../alert-routes/route-alert';
import { AlertingErrorCode } from '../errors';
import { conditionItem } from '../alert-routes/condition-schema';
import { checkReferences, normalizeCondition, normalizeDestination, problem, unknownTeams, type InvalidAttribute } from '../alert-routes/route-rules';
import { parseJsonPath } from '../ingestion/json-path';
import { GROUP_CONDITION_TYPES, type GroupCondition } from './group-alerts';

const str = (description: string): AttributeDef => ({ type: 'string', description });

/**
 * An alert group (reference `alert_group`, spec "Alert group"): alerts it takes within
 * `time_window` minutes of their group's first alert are attached to that alert and page no one
 * (docs/alert-groups.md). `conditions` select the alerts (`matches_existing_alert` ones key
 * them), legacy `attributes` key them by payload paths, `targets` restrict them to alerts paging
 * those records. The spec makes `condition_type` output-only: it reports how the conditions
 * combine. The legacy `group_by_alert_*` flags are stored as written (the reference's deprecated,
 * writable flags) and add the title, resp. the urgency, to the group's key.
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
        extra: {
          values: {
            type: 'array',
            nullable: true,
            items: {
              type: 'object',
              properties: {
                record_id: { type: 'string', format: 'uuid', description: 'An alert urgency of the organization' },
                record_type: { type: 'string', enum: ['AlertUrgency'], description: 'AlertUrgency' },
              },
            },
            description: 'The alert urgencies the condition names, as records (with alert_urgency_ids: either or both); answered as written, else from alert_urgency_ids',
          },
        },
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
    group_by_alert_title: { type: 'boolean', integerAsBoolean: true, default: false, alwaysStored: true, description: 'Legacy: alerts go together only with the same title (as a matches_existing_alert condition on the summary)' },
    group_by_alert_urgency: { type: 'boolean', integerAsBoolean: true, default: false, alwaysStored: true, description: 'Legacy: alerts go together only with the same urgency (as a matches_existing_alert condition on alert_urgency)' },
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

/** A condition as the group's checks see it: the routes' members and `values`. */
type Condition = RouteCondition & Pick<GroupCondition, 'values'>;

/** A condition's `values` as stored: as written (ids lower-cased), else its `alert_urgency_ids` as records. */
function withValues(c: Condition): Condition {
  const written = Array.isArray(c.values) ? c.values : null;
  const values = written ? written.map((v) => ({ ...v, record_id: v.record_id.toLowerCase() })) : (c.alert_urgency_ids ?? []).map((id) => ({ record_id: id.toLowerCase(), record_type: 'AlertUrgency' as const }));
  return { ...c, values };
}

/** Each urgency a condition's `values` name must be the organization's. */
async function unknownValueUrgencies(ctx: WriteContext, conditions: Condition[]): Promise<InvalidAttribute[]> {
  const found = await existingIds(ctx.manager, 'alert_urgencies', ctx.organizationId, conditions.flatMap((c) => (c.values ?? []).map((v) => v.record_id)));
  return conditions.flatMap((c, i) =>
    (c.values ?? []).flatMap((v, j) => (found.has(v.record_id.toLowerCase()) ? [] : [problem(`conditions/${i}/values/${j}/record_id`, `${v.record_id} is not an alert urgency of this organization`, AlertingErrorCode.UnknownAlertUrgency)])),
  );
}

async function checked(ctx: WriteContext, current: Row | null, input: Row): Promise<Row> {
  const attributes: Row = { ...input };
  for (const name of ['conditions', 'attributes', 'targets', 'owner_group_ids']) if (name in attributes && attributes[name] === null) attributes[name] = [];
  const problems: InvalidAttribute[] = [];
  const conditions = ((attributes.conditions ?? current?.conditions ?? []) as Row[]).map((c, i) => normalizeCondition(isObject(c) ? c : {}, `conditions/${i}`, problems, GROUP_CONDITION_TYPES) as Condition);
  const targets = 'targets' in attributes ? (attributes.targets as unknown[]).map((t, i) => normalizeDestination(t, `targets/${i}`, problems)) : [];
  const legacy = 'attributes' in attributes ? checkLegacyAttributes(attributes.attributes, problems) : null;
  if (problems.length === 0) {
    problems.push(...(await checkReferences(ctx, targets.map((item, i) => ({ item, at: `targets/${i}` })), conditions.map((item, i) => ({ item, at: `conditions/${i}` })))));
    problems.push(...(await unknownValueUrgencies(ctx, conditions)));
    const owners = ((attributes.owner_group_ids ?? []) as string[]).map((id) => id.toLowerCase());
    problems.push(...(await unknownTeams(ctx, 'owner_group_ids', owners)));
    if ('owner_group_ids' in attributes) attributes.owner_group_ids = [...new Set(owners)];
  }
  if (problems.length) throw JsonApiError.invalidAttributes(problems);
  if ('targets' in attributes) attributes.targets = targets;
  if (legacy) attributes.attributes = legacy;
  if ('conditions' in attributes || !current) Object.assign(attributes, { condition_type: 'all', conditions: conditions.map(withValues) });
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
