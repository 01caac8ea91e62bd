import { defineResource, JsonApiError } from '@taproot/json-api';
import type { ResourceDefinition, Row } from '@taproot/resources';
import { incidentParentAccess, underIncident } from '../../incident-children/incident-parent';
import { IncidentsErrorCode } from '../../errors';

export const INCIDENT_RETROSPECTIVE_STEP_STATUSES = ['todo', 'in_progress', 'completed', 'skipped'] as const;

/**
 * An incident's copy of a step of the retrospective process matching it (docs/retrospectives.md),
 * made with the incident (copy-retrospective-steps.ts): read and changed at
 * `/v1/incident_retrospective_steps/{id}`, listed under the incident (Taproot's own route), deleted
 * with it. Seen as the incident is.
 */
export const incidentRetrospectiveStepSchema = defineResource({
  type: 'incident_retrospective_steps',
  singular: 'incident_retrospective_step',
  path: '/v1/incident_retrospective_steps',
  readTable: 'incident_retrospective_steps_read',
  defaultSort: 'position',
  // The list is Taproot's: the reference has no way to find an incident's steps.
  operations: ['list', 'get', 'update'],
  parent: underIncident('retrospective_steps', { onParentDelete: 'cascade' }),
  attributes: {
    incident_id: { type: 'string', format: 'uuid', writable: false, description: 'The incident the step is of' },
    retrospective_step_id: { type: 'string', format: 'uuid', writable: false, alwaysStored: true, description: 'The retrospective process step it was copied from (kept when that step is deleted)' },
    title: { type: 'string', alwaysStored: true, minLength: 1, maxLength: 255, sortable: true, description: 'The name of the step' },
    description: { type: 'string', nullable: true, description: 'The description of the step' },
    due_date: { type: 'date-time', nullable: true, sortable: true, description: "Due date: when the step was copied plus the process step's due days" },
    kind: { type: 'string', nullable: true, writable: false, description: "The kind of the step: null, Taproot's process steps have none" },
    position: { type: 'integer', nullable: true, alwaysStored: true, minimum: 0, sortable: true, description: 'Position of the step' },
    skippable: { type: 'boolean', alwaysStored: true, description: 'Is the step skippable?' },
    status: { type: 'string', enum: INCIDENT_RETROSPECTIVE_STEP_STATUSES, alwaysStored: true, filter: ['eq', 'not_eq', 'in', 'not_in'], description: 'Status of the incident retrospective step' },
  },
});

/** A step is skipped only when it may be: the status it ends with, against the skippable it ends with. */
function checkSkip(current: Row, changes: Row): Row {
  const { status, skippable } = { ...current, ...changes };
  if (status !== 'skipped' || skippable) return changes;
  const attribute = 'status' in changes ? 'status' : 'skippable';
  throw JsonApiError.invalidAttributes([{ attribute, detail: `${attribute}: the step is not skippable, so it cannot be skipped`, code: IncidentsErrorCode.InvalidStatus }]);
}

export const incidentRetrospectiveStepDefinition: ResourceDefinition = {
  schema: incidentRetrospectiveStepSchema,
  context: 'incidents',
  table: 'incident_retrospective_steps',
  permission: { family: 'retrospective' },
  parentAccess: incidentParentAccess,
  rules: { beforeUpdate: checkSkip },
};
