import { defineResource } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';

/**
 * What the holder of an incident role does, in order of creation (the reference lists them
 * without sort). Tasks live under their role: created and listed at
 * `/v1/incident_roles/{incident_role_id}/incident_role_tasks`, read and changed at
 * `/v1/incident_role_tasks/{id}`. A role with tasks cannot be deleted (409) until they are.
 */
export const incidentRoleTaskSchema = defineResource({
  type: 'incident_role_tasks',
  singular: 'incident_role_task',
  path: '/v1/incident_role_tasks',
  readTable: 'incident_role_tasks_read',
  defaultSort: 'created_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  parent: { path: '/v1/incident_roles', param: 'incident_role_id', attribute: 'incident_role_id', table: 'incident_roles' },
  attributes: {
    // The reference's new_incident_role_task takes it; the path decides, a different one is a 422.
    incident_role_id: { type: 'string', format: 'uuid', writable: 'create', description: 'The incident role the task belongs to' },
    task: { type: 'string', required: true, minLength: 1, searchable: true, description: 'The task of the incident task' },
    description: { type: 'string', nullable: true, searchable: true, description: 'The description of the incident task' },
    // The reference names no default; a task that does not say is of medium priority.
    priority: { type: 'string', enum: ['high', 'medium', 'low'], default: 'medium', filter: true, description: 'The priority of the incident task' },
  },
});

export const incidentRoleTaskDefinition: ResourceDefinition = {
  schema: incidentRoleTaskSchema,
  context: 'incidents',
  table: 'incident_role_tasks',
  permission: { family: 'incident_roles' },
};
