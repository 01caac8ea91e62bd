import { defineResource, existingIds } from '@taproot/json-api';
import { checkReferenced, type Reference, type ResourceDefinition } from '@taproot/resources';
import { IncidentsErrorCode } from '../../errors';
import { retrospectiveProcessGroupStepDefinition } from '../retrospective-process-group-steps/retrospective-process-group-step.schema';
import { underProcess } from '../retrospective-parents';

const INCIDENT_ROLES: Reference = { noun: 'incident role', code: IncidentsErrorCode.UnknownReference, existing: (db, org, ids) => existingIds(db, 'incident_roles', org, ids) };

/**
 * A step of a retrospective process (docs/retrospectives.md): created and listed under the
 * process, read, changed and deleted at `/v1/retrospective_steps/{id}`. Deleting one removes the
 * group steps that place it.
 */
export const retrospectiveStepSchema = defineResource({
  type: 'retrospective_steps',
  singular: 'retrospective_step',
  path: '/v1/retrospective_steps',
  readTable: 'retrospective_steps_read',
  defaultSort: 'position',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  parent: underProcess('retrospective_steps'),
  attributes: {
    retrospective_process_id: { type: 'string', format: 'uuid', writable: false, filter: ['eq', 'in'], description: 'The retrospective process the step belongs to (the path decides)' },
    title: { type: 'string', required: true, alwaysStored: true, minLength: 1, maxLength: 255, filter: true, sortable: true, searchable: true, description: 'The name of the step' },
    slug: { type: 'string', writable: false, derivedFrom: 'title', filter: true, description: 'The slug of the step' },
    description: { type: 'string', nullable: true, searchable: true, description: 'The description of the step' },
    due_after_days: { type: 'integer', nullable: true, minimum: 0, maximum: 3650, description: 'Due date in days' },
    incident_role_id: { type: 'string', format: 'uuid', nullable: true, description: 'Users assigned to the selected incident role will be the default owners for this step' },
    position: { type: 'integer', nullable: true, alwaysStored: true, minimum: 0, filter: true, sortable: true, description: 'Position of the step' },
    // The reference names no default: a step is done unless it says it may be skipped.
    skippable: { type: 'boolean', default: false, description: 'Is the step skippable?' },
  },
});

export const retrospectiveStepDefinition: ResourceDefinition = {
  schema: retrospectiveStepSchema,
  context: 'incidents',
  table: 'retrospective_steps',
  permission: { family: 'retrospective' },
  // The group steps placing it go with it, each with its event.
  children: () => [{ definition: retrospectiveProcessGroupStepDefinition, attribute: 'retrospective_step_id' }],
  rules: {
    beforeCreate: (attributes, ctx) => checkReferenced(ctx, attributes, { incident_role_id: INCIDENT_ROLES }),
    beforeUpdate: (_current, changes, ctx) => checkReferenced(ctx, changes, { incident_role_id: INCIDENT_ROLES }),
  },
};
