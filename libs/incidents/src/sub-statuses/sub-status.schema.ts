import { defineResource } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';

/**
 * What a sub-status refines: the open phase of an incident (`started`) or its retrospective
 * (after resolution, before closing). The reference's `new_sub_status` enum; its output enum
 * lists statuses only the hosted product's built-in sub-statuses carry, and omits
 * `retrospective`, which Taproot answers as it was written.
 */
export const SUB_STATUS_PARENTS = ['started', 'retrospective'] as const;

export const subStatusSchema = defineResource({
  type: 'sub_statuses',
  singular: 'sub_status',
  path: '/v1/sub_statuses',
  readTable: 'sub_statuses_read',
  defaultSort: 'position',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  attributes: {
    name: { type: 'string', required: true, alwaysStored: true, minLength: 1, maxLength: 255, filter: true, sortable: true, description: 'The name of the sub-status' },
    slug: { type: 'string', writable: false, derivedFrom: 'name', filter: true, description: 'The slug of the sub-status' },
    description: { type: 'string', nullable: true, description: 'The description of the sub-status' },
    // The reference's update_sub_status has no parent_status: a sub-status stays in its phase.
    parent_status: { type: 'string', enum: SUB_STATUS_PARENTS, required: true, writable: 'create', filter: true, description: 'The incident status this sub-status refines' },
    position: { type: 'integer', nullable: true, alwaysStored: true, minimum: 0, filter: true, sortable: true, description: 'Position of the sub-status' },
  },
});

export const subStatusDefinition: ResourceDefinition = {
  schema: subStatusSchema,
  context: 'incidents',
  table: 'sub_statuses',
};
