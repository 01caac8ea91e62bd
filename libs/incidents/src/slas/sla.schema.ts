import { defineResource, type AttributeDef } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';
import { EQUALITY, position } from '../forms/form-rules';
import { slaRules } from './sla-rules';

/** The reference's deadline enums (`new_sla`). */
export const DEADLINE_DAYS = [1, 2, 3, 4, 5, 6, 7, 14, 21, 30] as const;
export const DEADLINE_PARENT_STATUSES = ['in_triage', 'started', 'mitigated', 'resolved', 'closed', 'cancelled'] as const;
export const CONDITIONABLE_TYPES = ['SLAs::BuiltInFieldCondition', 'SLAs::CustomFieldCondition'] as const;
export const CONDITION_PROPERTIES = [
  'severity', 'environment', 'service', 'functionality', 'incident_type', 'group', 'cause', 'sub_status', 'incident_role',
  'status', 'kind', 'visibility', 'summary', 'started_at', 'detected_at', 'acknowledged_at', 'mitigated_at', 'resolved_at',
] as const;
export const OFFSET_TYPES = ['before_due', 'when_due', 'after_due'] as const;
/** The reference: at most 20 conditions and 20 notification configurations. */
export const MAX_ITEMS = 20;

/** One deadline's four attributes (`assignment_*`, `completion_*`). */
const deadline = (kind: 'assignment' | 'completion'): Record<string, AttributeDef> => ({
  [`${kind}_deadline_days`]: { type: 'integer', enum: DEADLINE_DAYS, required: true, filter: true, description: `Number of days for the ${kind} deadline` },
  [`${kind}_deadline_parent_status`]: { type: 'string', enum: DEADLINE_PARENT_STATUSES, required: true, filter: EQUALITY, description: `The incident parent status that triggers the ${kind} deadline` },
  [`${kind}_deadline_sub_status_id`]: {
    type: 'string',
    format: 'uuid',
    nullable: true,
    filter: ['eq', 'in', 'null', 'not_null'],
    description: `Sub-status for the ${kind} deadline: a sub-status of the organization refining the parent status (started, or resolved for a retrospective one)`,
  },
  [`${kind}_skip_weekends`]: { type: 'boolean', default: false, filter: ['eq'], description: `Whether to skip weekends when calculating the ${kind} deadline` },
});

/**
 * A follow-up SLA (docs/slas.md): the days an incident's follow-ups (action items) have to be
 * assigned and completed once the incident reaches a status, for the incidents its conditions
 * match, and when its manager is notified. Stored and answered; Taproot computes no deadlines yet.
 */
export const slaSchema = defineResource({
  type: 'slas',
  singular: 'sla',
  path: '/v1/slas',
  readTable: 'slas_read',
  defaultSort: 'position',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  // The spec's further endpoints list PATCH /v1/slas/{id}; the reference declares PUT.
  updateMethod: 'both',
  operationIds: { list: 'listSLAs', create: 'createSLA', get: 'getSLA', update: 'updateSLA', delete: 'deleteSLA' },
  attributes: {
    name: { type: 'string', required: true, alwaysStored: true, minLength: 1, maxLength: 255, filter: EQUALITY, sortable: true, searchable: true, description: 'The name of the SLA' },
    slug: { type: 'string', writable: false, derivedFrom: 'name', filter: EQUALITY, description: 'The slug of the SLA' },
    description: { type: 'string', nullable: true, searchable: true, description: 'A description of the SLA' },
    position: position('SLA', { description: 'Position of the SLA for ordering' }),
    entity_type: { type: 'string', enum: ['follow_up'], writable: false, default: 'follow_up', description: 'The entity type this SLA applies to: follow-ups (action items)' },
    condition_match_type: { type: 'string', enum: ['ALL', 'ANY'], default: 'ALL', alwaysStored: true, filter: ['eq'], description: 'Whether all or any conditions must match' },
    ...deadline('assignment'),
    ...deadline('completion'),
    manager_role_id: { type: 'string', format: 'uuid', nullable: true, filter: ['eq', 'in'], description: 'The ID of the incident role responsible for this SLA. Exactly one of manager_role_id or manager_user_id.' },
    manager_user_id: {
      type: 'integer',
      nullable: true,
      filter: ['eq', 'in'],
      description: 'The ID of the user responsible for this SLA. Exactly one of manager_role_id or manager_user_id; a create naming neither is managed by the calling user.',
    },
    conditions: {
      type: 'array',
      default: [],
      alwaysStored: true,
      maxLength: MAX_ITEMS,
      description: `Conditions that determine which incidents this SLA applies to (at most ${MAX_ITEMS}); an update replaces them all`,
      items: {
        type: 'object',
        properties: {
          conditionable_type: { type: 'string', enum: CONDITIONABLE_TYPES, required: true, description: 'The type of condition' },
          property: { type: 'string', enum: CONDITION_PROPERTIES, nullable: true, blankAsUnset: true, description: 'The property to evaluate (built-in field conditions only)' },
          form_field_id: { type: 'string', format: 'uuid', nullable: true, blankAsUnset: true, description: 'The ID of the form field (custom field conditions only)' },
          operator: { type: 'string', required: true, minLength: 1, description: 'The comparison operator' },
          values: { type: 'array', items: { type: 'string' }, nullable: true, description: 'The values to compare against: statuses for status, sub-status IDs for sub_status' },
          position: { type: 'integer', minimum: 0, description: 'The position of the condition for ordering (its place in the list when omitted)' },
        },
      },
    },
    notification_configurations: {
      type: 'array',
      default: [],
      alwaysStored: true,
      maxLength: MAX_ITEMS,
      description: `Notification timing configurations (at most ${MAX_ITEMS}); an update replaces them all`,
      items: {
        type: 'object',
        properties: {
          offset_type: { type: 'string', enum: OFFSET_TYPES, required: true, description: 'When to send the notification relative to the deadline' },
          offset_days: { type: 'integer', required: true, minimum: 0, description: 'Number of days before or after the deadline; 0 for when_due' },
        },
      },
    },
  },
});

export const slaDefinition: ResourceDefinition = {
  schema: slaSchema,
  context: 'incidents',
  table: 'slas',
  permission: { family: 'slas' },
  rules: slaRules,
};
