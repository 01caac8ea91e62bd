import { defineResource, existingIds } from '@taproot/json-api';
import { checkReferenced, type Reference, type ResourceDefinition } from '@taproot/resources';
import { IncidentsErrorCode } from '../../errors';
import { retrospectiveProcessGroupStepDefinition } from '../retrospective-process-group-steps/retrospective-process-group-step.schema';
import { underProcess } from '../retrospective-parents';

const SUB_STATUSES: Reference = { noun: 'sub-status', code: IncidentsErrorCode.UnknownReference, existing: (db, org, ids) => existingIds(db, 'sub_statuses', org, ids) };

/**
 * A group of a retrospective process (docs/retrospectives.md): the steps done while an incident
 * is in one sub-status. Created and listed under the process; read, changed
 * and deleted at `/v1/retrospective_process_groups/{id}`; its group steps go with it.
 */
export const retrospectiveProcessGroupSchema = defineResource({
  type: 'retrospective_process_groups',
  singular: 'retrospective_process_group',
  path: '/v1/retrospective_process_groups',
  readTable: 'retrospective_process_groups_read',
  defaultSort: 'position',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  parent: underProcess('groups'),
  attributes: {
    retrospective_process_id: { type: 'string', format: 'uuid', writable: false, description: 'The retrospective process the group belongs to (the path decides)' },
    sub_status_id: { type: 'string', format: 'uuid', required: true, alwaysStored: true, filter: ['eq', 'in'], description: 'The sub-status whose steps the group holds' },
    position: { type: 'integer', alwaysStored: true, minimum: 0, filter: true, sortable: true, description: 'Position of the group' },
  },
});

export const retrospectiveProcessGroupDefinition: ResourceDefinition = {
  schema: retrospectiveProcessGroupSchema,
  context: 'incidents',
  table: 'retrospective_process_groups',
  permission: { family: 'retrospective' },
  children: () => [retrospectiveProcessGroupStepDefinition],
  rules: {
    beforeCreate: (attributes, ctx) => checkReferenced(ctx, attributes, { sub_status_id: SUB_STATUSES }),
    beforeUpdate: (_current, changes, ctx) => checkReferenced(ctx, changes, { sub_status_id: SUB_STATUSES }),
  },
};
