import { defineResource, type AttributeDef, type FilterOperator } from '@taproot/json-api';
import { checkReferenced, type ResourceDefinition, type Row, type WriteContext } from '@taproot/resources';
import { hidePrivateIncidents, INCIDENT_PRIVATE, incidentParentAccess, underIncident } from '../incident-children/incident-parent';
import { flatUser, TEAMS, USERS } from '../incident-children/references';
import { INCIDENT_STATUSES } from '../incidents/incident.state';

export const ACTION_ITEM_KINDS = ['task', 'follow_up'] as const;
export const ACTION_ITEM_PRIORITIES = ['high', 'medium', 'low'] as const;
export const ACTION_ITEM_STATUSES = ['open', 'in_progress', 'cancelled', 'done'] as const;

const EQUALITY: readonly FilterOperator[] = ['eq', 'not_eq', 'in', 'not_in'];
const RANGE: readonly FilterOperator[] = ['gt', 'gte', 'lt', 'lte'];
const text = (description: string): AttributeDef => ({ type: 'string', nullable: true, description });
/** A user as the reference's `user_flat_response`, kept with the item when it is written. */
const user = (description: string): AttributeDef => ({ type: 'object', nullable: true, writable: false, description });

/**
 * An incident's action items (reference: `incident_action_item`), created and listed under the
 * incident, read and changed at `/v1/action_items/{id}`, and listed across incidents at
 * `/v1/action_items` with the reference's filters, including the incident's status and creation
 * date (docs/incident-children.md).
 */
export const actionItemSchema = defineResource({
  type: 'incident_action_items',
  singular: 'incident_action_item',
  path: '/v1/action_items',
  readTable: 'incident_action_items_read',
  // In the order they were written down, like an incident role's tasks.
  defaultSort: 'created_at',
  cursor: true,
  operations: ['list', 'create', 'get', 'update', 'delete'],
  parent: underIncident('action_items', {
    onParentDelete: 'cascade',
    flatList: true,
    readTable: 'incidents_read',
    attributes: {
      incident_status: { type: 'string', enum: INCIDENT_STATUSES, column: 'status', filter: EQUALITY, description: 'The status of the incident' },
      incident_created_at: { type: 'date-time', column: 'created_at', filter: RANGE, description: 'Date of creation of the incident' },
      ...INCIDENT_PRIVATE,
    },
  }),
  attributes: {
    incident_id: { type: 'string', format: 'uuid', writable: 'create', filter: ['eq', 'in'], description: 'ID of the incident (the path decides)' },
    summary: { type: 'string', required: true, minLength: 1, searchable: true, description: 'The summary of the action item' },
    description: { type: 'string', nullable: true, searchable: true, description: 'The description of the action item' },
    // The reference names no defaults: an item that does not say is an open task of medium priority.
    kind: { type: 'string', enum: ACTION_ITEM_KINDS, default: 'task', filter: EQUALITY, description: 'The kind of the action item' },
    priority: { type: 'string', enum: ACTION_ITEM_PRIORITIES, default: 'medium', filter: EQUALITY, description: 'The priority of the action item' },
    status: { type: 'string', enum: ACTION_ITEM_STATUSES, default: 'open', filter: EQUALITY, description: 'The status of the action item' },
    due_date: { type: 'date-time', nullable: true, filter: RANGE, sortable: true, description: 'The due date of the action item (an ISO 8601 date-time)' },
    assigned_to_user_id: { type: 'integer', nullable: true, filter: ['eq', 'in', 'null', 'not_null'], description: 'ID of the user the action item is assigned to' },
    assigned_to: user('The user the action item is assigned to, as when it was assigned'),
    assigned_to_group_ids: { type: 'array', items: { type: 'string' }, nullable: true, description: 'IDs of the teams the action item is assigned to' },
    created_by: user('The user who created the action item; null for a key without a user'),
    jira_issue_id: text('The Jira issue ID'),
    jira_issue_key: text('The Jira issue key'),
    jira_issue_url: text('The Jira issue URL'),
    // Stored as sent: the reference ignores them unless action item custom fields exist, which Taproot does not have yet.
    form_field_selections: { type: 'array', items: { type: 'object' }, nullable: true, description: 'Custom field values, stored as sent' },
  },
});

const ASSIGNEES = { assigned_to_user_id: USERS, assigned_to_group_ids: TEAMS };

/** The assignees must be of the organization; the assigned user is kept as `/v1/users` shows them. */
async function assign(ctx: WriteContext, attributes: Row): Promise<Row> {
  const checked = await checkReferenced(ctx, attributes, ASSIGNEES);
  if (!('assigned_to_user_id' in checked)) return checked;
  return { ...checked, assigned_to: await flatUser(ctx, checked.assigned_to_user_id as number | null) };
}

export const actionItemDefinition: ResourceDefinition = {
  schema: actionItemSchema,
  context: 'incidents',
  table: 'incident_action_items',
  // Part of the incident: reading needs read on incidents, writing changes it (update), as its timeline.
  permission: { family: 'incidents', writes: 'update' },
  parentAccess: { ...incidentParentAccess, listScope: hidePrivateIncidents },
  rules: {
    beforeCreate: async (attributes, ctx) => ({ ...(await assign(ctx, attributes)), created_by: await flatUser(ctx, ctx.userId) }),
    beforeUpdate: (_current, changes, ctx) => assign(ctx, changes),
  },
};
