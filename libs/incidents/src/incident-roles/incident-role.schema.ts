import { defineResource } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';

export const incidentRoleSchema = defineResource({
  type: 'incident_roles',
  singular: 'incident_role',
  path: '/v1/incident_roles',
  readTable: 'incident_roles_read',
  defaultSort: 'position',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  attributes: {
    name: { type: 'string', required: true, alwaysStored: true, minLength: 1, maxLength: 255, filter: true, sortable: true, searchable: true, description: 'The name of the incident role' },
    slug: { type: 'string', writable: false, derivedFrom: 'name', filter: true, description: 'The slug of the incident role' },
    summary: { type: 'string', nullable: true, searchable: true, description: 'The summary of the incident role' },
    description: { type: 'string', nullable: true, searchable: true, description: 'The description of the incident role' },
    position: { type: 'integer', nullable: true, alwaysStored: true, minimum: 0, filter: true, sortable: true, description: 'Position of the incident role' },
    // A new role is in use, must be filled on every incident, and goes to one responder at a time.
    enabled: { type: 'boolean', default: true, filter: true, description: 'Whether the role is offered on incidents' },
    optional: { type: 'boolean', default: false, description: 'Whether an incident may leave the role unassigned' },
    allow_multi_user_assignment: { type: 'boolean', default: false, description: 'Whether several users may hold the role on one incident' },
  },
});

export const incidentRoleDefinition: ResourceDefinition = {
  schema: incidentRoleSchema,
  context: 'incidents',
  table: 'incident_roles',
};
