import { randomUUID } from 'node:crypto';
import { existingCatalogIds } from '@taproot/catalog';
import { defineResource, existingIds, JsonApiError } from '@taproot/json-api';
import type { ResourceDefinition, Row, WriteContext } from '@taproot/resources';
import { AlertingErrorCode } from '../errors';
import { ROUTE_CONDITION_TYPES } from '../alert-routes/route-alert';
import { problem, type InvalidAttribute } from '../alert-routes/route-rules';
import { parseJsonPath } from '../ingestion/json-path';
import { RETRIGGER_CONDITION_KINDS, RETRIGGER_MATCH_MODES } from './retrigger-rules';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isText = (v: unknown): v is string => typeof v === 'string';

/**
 * An alert re-trigger rule (the spec's `alert_retrigger_rules`; the reference OpenAPI has no schema,
 * so the shapes follow its other alert resources). docs/alert-retrigger-rules.md.
 */
export const alertRetriggerRuleSchema = defineResource({
  type: 'alert_retrigger_rules',
  singular: 'alert_retrigger_rule',
  path: '/v1/alert_retrigger_rules',
  readTable: 'alert_retrigger_rules_read',
  defaultSort: 'position',
  // PUT as the reference updates its other alert resources, PATCH as their clients also send.
  updateMethod: 'both',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  attributes: {
    name: { type: 'string', required: true, alwaysStored: true, minLength: 1, maxLength: 255, filter: true, sortable: true, searchable: true, description: 'The name of the re-trigger rule' },
    match_mode: { type: 'string', enum: RETRIGGER_MATCH_MODES, default: 'match-all-rules', description: 'match-all-rules: every condition must hold; match-any-rule: one' },
    timeout_minutes: { type: 'integer', nullable: true, minimum: 1, maximum: 525600, description: 'Minutes after the alert was acknowledged or resolved during which a repeat re-triggers it; null: no limit' },
    position: { type: 'integer', nullable: true, alwaysStored: true, minimum: 0, maximum: 2147483647, sortable: true, description: 'The evaluation order (first match wins); left out, last' },
    conditions: {
      type: 'array',
      nullable: true,
      default: [],
      alwaysStored: true,
      items: {
        type: 'object',
        properties: {
          id: { type: 'string', format: 'uuid', description: 'Assigned by the server' },
          kind: { type: 'string', enum: RETRIGGER_CONDITION_KINDS, description: 'What the condition reads' },
          operator: { type: 'string', enum: ROUTE_CONDITION_TYPES, description: 'The comparison' },
          record_ids: { type: 'array', nullable: true, items: { type: 'string', format: 'uuid' }, description: 'Alert urgencies, alert sources, services or the alert field' },
          values: { type: 'array', nullable: true, items: { type: 'string' }, description: 'Values to compare with' },
          property_field_name: { type: 'string', nullable: true, description: 'A payload JSON Path (kind payload)' },
        },
      },
      description: 'The conditions of the rule',
    },
  },
});

/** Where each kind's record_ids are looked up (their owning context's port for services). */
const RECORD_LOOKUPS: Record<string, { noun: string; find: (ctx: WriteContext, ids: string[]) => Promise<Set<string>> }> = {
  urgency: { noun: 'an alert urgency', find: (ctx, ids) => existingIds(ctx.manager, 'alert_urgencies', ctx.organizationId, ids) },
  source: { noun: 'an alert source', find: (ctx, ids) => existingIds(ctx.manager, 'alert_sources', ctx.organizationId, ids) },
  service: { noun: 'a service', find: (ctx, ids) => existingCatalogIds(ctx.manager, ctx.organizationId, 'services', ids) },
  alert_field: { noun: 'an alert field', find: (ctx, ids) => existingIds(ctx.manager, 'alert_fields', ctx.organizationId, ids) },
};

/** One condition checked for its shape (pointers `conditions/<i>/<member>`) and stored complete, with a server id. */
function normalizeRetriggerCondition(raw: unknown, at: string, problems: InvalidAttribute[]): Row {
  const c = (raw && typeof raw === 'object' ? raw : {}) as Row;
  const kind = c.kind;
  if (!(RETRIGGER_CONDITION_KINDS as readonly unknown[]).includes(kind)) problems.push(problem(`${at}/kind`, `must be one of ${RETRIGGER_CONDITION_KINDS.join(', ')}`));
  const operator = c.operator ?? 'is_one_of';
  if (!(ROUTE_CONDITION_TYPES as readonly unknown[]).includes(operator)) problems.push(problem(`${at}/operator`, `must be one of ${ROUTE_CONDITION_TYPES.join(', ')}`));
  const recordIds = c.record_ids ?? [];
  if (!Array.isArray(recordIds) || !recordIds.every((id) => isText(id) && UUID.test(id))) problems.push(problem(`${at}/record_ids`, 'must be an array of uuids'));
  const values = c.values ?? [];
  if (!Array.isArray(values) || !values.every(isText)) problems.push(problem(`${at}/values`, 'must be an array of strings'));
  const name = c.property_field_name ?? null;
  const ids = Array.isArray(recordIds) ? recordIds : [];
  if ((kind === 'urgency' || kind === 'service') && ids.length === 0) problems.push(problem(`${at}/record_ids`, `is required for a ${String(kind)} condition`));
  if (kind === 'source' && ids.length === 0 && !(Array.isArray(values) && values.length)) problems.push(problem(`${at}/values`, 'a source condition needs values (source types) or record_ids (alert sources)'));
  if (kind === 'alert_field' && ids.length !== 1) problems.push(problem(`${at}/record_ids`, 'must hold the one alert field the condition reads'));
  if (kind === 'payload') {
    if (!isText(name) || name === '') problems.push(problem(`${at}/property_field_name`, 'is required for a payload condition (a JSON Path)'));
    else {
      try {
        parseJsonPath(name);
      } catch (error) {
        problems.push(problem(`${at}/property_field_name`, `is not a JSON Path: ${(error as Error).message}`));
      }
    }
  }
  return {
    id: isText(c.id) && UUID.test(c.id) ? c.id.toLowerCase() : randomUUID(),
    kind,
    operator,
    record_ids: ids.map((id) => String(id).toLowerCase()),
    values: Array.isArray(values) ? values : [],
    property_field_name: name,
  };
}

async function checked(ctx: WriteContext, input: Row): Promise<Row> {
  const attributes: Row = { ...input };
  if (!('conditions' in attributes)) return attributes;
  const problems: InvalidAttribute[] = [];
  const raw = attributes.conditions ?? [];
  const conditions = Array.isArray(raw) ? raw.map((c, i) => normalizeRetriggerCondition(c, `conditions/${i}`, problems)) : (problems.push(problem('conditions', 'must be an array')), []);
  if (problems.length === 0) {
    for (const [kind, lookup] of Object.entries(RECORD_LOOKUPS)) {
      const of = conditions.map((c, i) => ({ c, i })).filter(({ c }) => c.kind === kind);
      const found = await lookup.find(ctx, of.flatMap(({ c }) => c.record_ids as string[]));
      for (const { c, i } of of) (c.record_ids as string[]).forEach((id, n) => found.has(id) || problems.push(problem(`conditions/${i}/record_ids/${n}`, `${id} is not ${lookup.noun} of this organization`, AlertingErrorCode.UnknownReference)));
    }
  }
  if (problems.length) throw JsonApiError.invalidAttributes(problems);
  attributes.conditions = conditions;
  return attributes;
}

export const alertRetriggerRuleDefinition: ResourceDefinition = {
  schema: alertRetriggerRuleSchema,
  context: 'alerting',
  table: 'alert_retrigger_rules',
  // No family of their own in the on-call role model: they configure alert handling as routing rules do.
  permission: { family: 'alert_routing_rules' },
  rules: {
    beforeCreate: (input, ctx) => checked(ctx, input),
    beforeUpdate: (_current, input, ctx) => checked(ctx, input),
  },
};
