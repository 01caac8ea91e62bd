import { userRecords } from '@taproot/identity';
import { byIdAttribute, defineIncludes, defineResource, recordsOf } from '@taproot/json-api';
import { checkReferenced, type ResourceDefinition } from '@taproot/resources';
import { incidentParentAccess, underIncident } from '../incident-children/incident-parent';
import { SUB_STATUSES, USERS } from '../incident-children/references';
import { subStatusSchema } from '../sub-statuses/sub-status.schema';

/**
 * When an incident was given which sub-status, and by whom (reference: `incident_sub_status`):
 * created and listed under the incident (`/v1/incidents/{incident_id}/sub_statuses`), read and
 * changed at `/v1/incident_sub_statuses/{id}`. A history: listed in the order of assignment.
 */
export const incidentSubStatusSchema = defineResource({
  type: 'incident_sub_statuses',
  singular: 'incident_sub_status',
  path: '/v1/incident_sub_statuses',
  readTable: 'incident_sub_statuses_read',
  defaultSort: 'assigned_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  parent: underIncident('sub_statuses', { onParentDelete: 'cascade' }),
  // The reference's include enum (getIncidentSubStatus, listIncidentSubStatuses).
  relationships: {
    sub_status: { type: 'sub_statuses', many: false, idAttribute: 'sub_status_id' },
    assigned_by_user: { type: 'users', many: false, idAttribute: 'assigned_by_user_id' },
  },
  attributes: {
    incident_id: { type: 'string', format: 'uuid', writable: 'create', description: 'ID of the incident (the path decides)' },
    sub_status_id: { type: 'string', format: 'uuid', required: true, filter: ['eq'], description: 'ID of a sub-status of the organization (/v1/sub_statuses)' },
    assigned_at: { type: 'date-time', required: true, filter: ['gt', 'gte', 'lt', 'lte'], sortable: true, description: 'When the sub-status was assigned' },
    assigned_by_user_id: { type: 'integer', nullable: true, description: 'ID of the user who assigned it; defaults to the acting user' },
  },
});

const REFERENCES = { sub_status_id: SUB_STATUSES, assigned_by_user_id: USERS };

export const incidentSubStatusDefinition: ResourceDefinition = {
  schema: incidentSubStatusSchema,
  context: 'incidents',
  table: 'incident_sub_statuses',
  // Part of the incident, like its action items (docs/incident-children.md).
  permission: { family: 'incidents', writes: 'update' },
  parentAccess: incidentParentAccess,
  includes: defineIncludes(incidentSubStatusSchema, {
    sub_status: byIdAttribute('sub_status_id', recordsOf(subStatusSchema)),
    assigned_by_user: byIdAttribute('assigned_by_user_id', userRecords),
  }),
  rules: {
    async beforeCreate(attributes, ctx) {
      const checked = await checkReferenced(ctx, attributes, REFERENCES);
      if (checked.assigned_by_user_id !== undefined) return checked;
      // Left out, the assigner is whoever records it (none for a key without a user).
      return { ...checked, assigned_by_user_id: ctx.userId == null ? null : Number(ctx.userId) };
    },
    beforeUpdate: (_current, changes, ctx) => checkReferenced(ctx, changes, REFERENCES),
  },
};
