import { defineResource } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';
import { incidentParentAccess, underIncident } from '../incident-children/incident-parent';

export const FEEDBACK_RATINGS = [4, 3, 2, 1, 0] as const;

/**
 * An incident's feedback (docs/incident-children.md): created and listed under the incident, read
 * and changed at `/v1/feedbacks/{id}`, deleted with the incident. Seen as the incident is.
 */
export const incidentFeedbackSchema = defineResource({
  type: 'incident_feedbacks',
  singular: 'incident_feedback',
  path: '/v1/feedbacks',
  readTable: 'incident_feedbacks_read',
  defaultSort: 'created_at',
  // Delete is Taproot's (the reference has none): the generic routes serve it, and a feedback given by mistake can go.
  operations: ['list', 'create', 'get', 'update', 'delete'],
  operationIds: { list: 'listIncidentFeedbacks', create: 'createIncidentFeedback', get: 'getIncidentFeedbacks', update: 'updateIncidentFeedback', delete: 'deleteIncidentFeedback' },
  parent: underIncident('feedbacks', { onParentDelete: 'cascade' }),
  attributes: {
    incident_id: { type: 'string', format: 'uuid', writable: 'create', description: 'ID of the incident (the path decides)' },
    rating: { type: 'integer', enum: FEEDBACK_RATINGS, required: true, description: 'The rating of the incident feedback' },
    feedback: { type: 'string', required: true, description: 'The feedback of the incident feedback' },
    // The reference names no default: a feedback is signed unless it says otherwise.
    anonymous: { type: 'boolean', default: false, description: 'Is the feedback anonymous?' },
  },
});

export const incidentFeedbackDefinition: ResourceDefinition = {
  schema: incidentFeedbackSchema,
  context: 'incidents',
  table: 'incident_feedbacks',
  permission: { family: 'incident_feedbacks' },
  parentAccess: incidentParentAccess,
};
