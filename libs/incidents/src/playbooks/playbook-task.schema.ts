import { defineResource } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';
import { position } from '../forms/form-rules';

/**
 * A task of a playbook (docs/playbooks.md): created and listed under the playbook, read, changed
 * and deleted at `/v1/playbook_tasks/{id}`; deleted with its playbook.
 */
export const playbookTaskSchema = defineResource({
  type: 'playbook_tasks',
  singular: 'playbook_task',
  path: '/v1/playbook_tasks',
  readTable: 'playbook_tasks_read',
  defaultSort: 'position',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  parent: { path: '/v1/playbooks', param: 'playbook_id', attribute: 'playbook_id', table: 'playbooks', onParentDelete: 'cascade' },
  attributes: {
    playbook_id: { type: 'string', format: 'uuid', writable: false, filter: ['eq', 'in'], description: 'The playbook the task belongs to (the path decides)' },
    task: { type: 'string', required: true, alwaysStored: true, minLength: 1, filter: true, sortable: true, searchable: true, description: 'The task of the task' },
    description: { type: 'string', nullable: true, searchable: true, description: 'The description of the task' },
    position: position('task'),
  },
});

export const playbookTaskDefinition: ResourceDefinition = {
  schema: playbookTaskSchema,
  context: 'incidents',
  table: 'playbook_tasks',
  permission: { family: 'playbooks' },
};
