import { defineResource, JsonApiError, type AttributeDef } from '@taproot/json-api';
import type { ResourceDefinition, Row } from '@taproot/resources';
import { WorkflowsErrorCode } from '../errors';

export const WORKFLOW_RUN_STATUSES = ['queued', 'started', 'completed', 'completed_with_errors', 'failed', 'canceled'] as const;

/** The records a run may be about, one per run (the reference's anyOf of create documents). */
const SUBJECTS = ['incident_id', 'post_mortem_id', 'action_item_id', 'alert_id', 'pulse_id'] as const;

const subject = (noun: string): AttributeDef => ({ type: 'string', nullable: true, writable: 'create', filter: ['eq', 'in'], description: `The ${noun} the run is about (stored as given)` });
const moment = (what: string): AttributeDef => ({ type: 'date-time', nullable: true, writable: false, description: `When the run ${what}; Taproot executes no run, so never set yet` });
const flag = (description: string): AttributeDef => ({ type: 'boolean', nullable: true, description });

/**
 * A run of a workflow (reference: `workflow_run`), created and listed under its workflow
 * (`/v1/workflows/{workflow_id}/workflow_runs`, operation ids `ListWorkflowRuns`, `createWorkflowRun`).
 * Taproot records the run as `queued`, triggered by the `user` who asked, and announces it with
 * `workflow_run.created`; no task executes (docs/workflows.md).
 */
export const workflowRunSchema = defineResource({
  type: 'workflow_runs',
  singular: 'workflow_run',
  path: '/v1/workflow_runs',
  readTable: 'workflow_runs_read',
  defaultSort: 'created_at',
  operations: ['list', 'create'],
  operationIds: { list: 'ListWorkflowRuns', create: 'createWorkflowRun' },
  parent: { path: '/v1/workflows', param: 'workflow_id', attribute: 'workflow_id', table: 'workflows', onParentDelete: 'cascade' },
  relationships: { genius_task_runs: { type: 'workflow_task_runs', many: true, absent: true } },
  attributes: {
    workflow_id: { type: 'string', format: 'uuid', writable: false, description: 'The workflow run' },
    status: { type: 'string', enum: WORKFLOW_RUN_STATUSES, writable: false, default: 'queued', filter: ['eq', 'in'], description: 'The status of the run' },
    status_message: { type: 'string', nullable: true, writable: false, description: 'What the status says more' },
    triggered_by: { type: 'string', enum: ['system', 'user', 'workflow'], writable: false, default: 'user', description: 'Who triggered the run: a run created through the API is a user\'s' },
    incident_id: subject('incident'),
    post_mortem_id: subject('post mortem'),
    action_item_id: subject('action item'),
    alert_id: subject('alert'),
    pulse_id: subject('pulse'),
    context: { type: 'object', default: {}, writable: 'create', description: 'Values the run is given' },
    started_at: moment('started'),
    completed_at: moment('completed'),
    failed_at: moment('failed'),
    canceled_at: moment('was canceled'),
  },
  inputOnlyAttributes: {
    // Taproot evaluates no condition and waits for nothing: both are taken and have no effect.
    check_conditions: flag('If true, this will check conditions. If conditions are not satisfied the run will not be created'),
    immediate: flag('If false, this will respect wait time configured on the workflow'),
  },
});

/** A run is about one record at most: the reference's create documents each name one. */
function checkSubject(attributes: Row): Row {
  const named = SUBJECTS.filter((name) => attributes[name] != null);
  if (named.length > 1) {
    throw JsonApiError.invalidAttributes([{ attribute: named[1], detail: `a run is about one record: ${named.join(' and ')} were both given`, code: WorkflowsErrorCode.InvalidValue }]);
  }
  const { check_conditions: _check, immediate: _immediate, ...stored } = attributes;
  return stored;
}

export const workflowRunDefinition: ResourceDefinition = {
  schema: workflowRunSchema,
  context: 'workflows',
  table: 'workflow_runs',
  permission: { family: 'workflows' },
  rules: { beforeCreate: checkSubject },
};
