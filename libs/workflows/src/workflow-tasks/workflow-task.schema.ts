import { defineResource, JsonApiError } from '@taproot/json-api';
import type { ResourceDefinition, Row } from '@taproot/resources';
import { WorkflowsErrorCode } from '../errors';
import { position } from '../shared/attributes';
import { TASK_TYPES } from './task-types';

/**
 * A task of a workflow (reference: `workflow_task`): created and listed under its workflow, read,
 * changed and deleted at `/v1/workflow_tasks/{id}`, in `position` order. `task_params` is stored
 * and answered as written; Taproot never performs the task (docs/workflows.md).
 */
export const workflowTaskSchema = defineResource({
  type: 'workflow_tasks',
  singular: 'workflow_task',
  path: '/v1/workflow_tasks',
  readTable: 'workflow_tasks_read',
  defaultSort: 'position',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  parent: { path: '/v1/workflows', param: 'workflow_id', attribute: 'workflow_id', table: 'workflows', onParentDelete: 'cascade', distinctPositions: true },
  attributes: {
    workflow_id: { type: 'string', format: 'uuid', writable: false, description: 'The workflow of the task (the path decides)' },
    // The reference answers a name always and requires none: an unnamed task is named by its type.
    name: { type: 'string', nullable: true, alwaysStored: true, maxLength: 255, filter: ['eq', 'not_eq', 'in', 'not_in'], sortable: true, searchable: true, description: 'Name of the workflow task' },
    position: position('workflow task'),
    skip_on_failure: { type: 'boolean', default: false, description: 'Skip workflow task if any failures' },
    enabled: { type: 'boolean', default: true, description: 'Enable/disable workflow task' },
    task_params: { type: 'object', required: true, description: "The task's parameters: one of the reference task params, told apart by task_type" },
  },
});

const refuse = (pointer: string, detail: string) => JsonApiError.invalidAttributes([{ attribute: pointer, detail, code: WorkflowsErrorCode.InvalidValue }]);

/** `task_type` is one Taproot knows (task-types.ts), and the members its task params require are there. */
export function checkTaskParams(params: Row): void {
  const type = params.task_type;
  const variants = typeof type === 'string' && Object.hasOwn(TASK_TYPES, type) ? TASK_TYPES[type] : undefined;
  if (!variants) throw refuse('task_params/task_type', `task_params.task_type must be a workflow task type (the reference's, or the hosted API's Terraform provider's), e.g. send_slack_message or http_client (got ${JSON.stringify(type ?? null)})`);
  if (variants.some((required) => required.every((name) => params[name] !== undefined))) return;
  const missing = variants[0].filter((name) => params[name] === undefined);
  throw refuse(`task_params/${missing[0]}`, `task_params of a ${type} task require ${missing.join(', ')}`);
}

export const workflowTaskDefinition: ResourceDefinition = {
  schema: workflowTaskSchema,
  context: 'workflows',
  table: 'workflow_tasks',
  permission: { family: 'workflows' },
  rules: {
    beforeCreate(attributes) {
      const params = attributes.task_params as Row;
      checkTaskParams(params);
      return { ...attributes, name: attributes.name ?? params.task_type };
    },
    beforeUpdate(current, changes) {
      if (changes.task_params !== undefined) checkTaskParams(changes.task_params as Row);
      // A name sent as null falls back to the task type, as on create.
      if (changes.name === null) return { ...changes, name: ((changes.task_params ?? current.task_params) as Row).task_type };
      return changes;
    },
  },
};
