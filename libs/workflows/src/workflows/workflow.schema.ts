import { byQuery, defineIncludes, defineResource, existingIds, JsonApiError, type ResourceSchema } from '@taproot/json-api';
import type { ResourceDefinition, Row, WriteContext } from '@taproot/resources';
import { workflowActionItemFormFieldConditionDefinition, workflowFormFieldConditionDefinition, workflowFormFieldConditionSchema } from '../conditions/form-field-conditions';
import { workflowCustomFieldSelectionDefinition } from '../conditions/custom-field-selections';
import { WorkflowsErrorCode } from '../errors';
import { named, position, strings } from '../shared/attributes';
import { workflowRunDefinition, workflowRunSchema } from '../workflow-runs/workflow-run.schema';
import { workflowTaskDefinition, workflowTaskSchema } from '../workflow-tasks/workflow-task.schema';
import { checkedTriggerParams, DEFAULT_TRIGGER_PARAMS } from './trigger-params';

const text = (description: string) => ({ type: 'string' as const, nullable: true, description });

/**
 * A workflow (docs/workflows.md): what would run, when (`trigger_params`, its condition ids), in
 * which group and order. Taproot stores and answers workflows; it executes none of their tasks.
 * Deleting one deletes its tasks, conditions, custom field selections and runs, each with its event.
 */
export const workflowSchema = defineResource({
  type: 'workflows',
  singular: 'workflow',
  path: '/v1/workflows',
  readTable: 'workflows_read',
  defaultSort: 'position',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  relationships: {
    form_field_conditions: { type: 'workflow_form_field_conditions', many: true },
    alert_field_conditions: { type: 'alert_field_conditions', many: true, absent: true },
    genius_tasks: { type: 'workflow_tasks', many: true },
    genius_workflow_runs: { type: 'workflow_runs', many: true },
  },
  attributes: {
    ...named('workflow'),
    description: { ...text('The description of the workflow'), searchable: true },
    command: text('Workflow command'),
    command_feedback_enabled: { type: 'boolean', nullable: true, description: 'This will notify you back when the workflow is starting' },
    wait: text('Wait this duration before executing'),
    repeat_every_duration: text('Repeat workflow every duration'),
    repeat_on: { type: 'array', nullable: true, items: { type: 'string', enum: ['S', 'M', 'T', 'W', 'R', 'F', 'U'] }, default: [], description: 'Repeat on weekdays' },
    repeat_condition_duration_since_first_run: text("The workflow will stop repeating if its runtime since it's first workflow run exceeds the duration set in this field"),
    repeat_condition_number_of_repeats: { type: 'integer', default: 0, description: 'The workflow will stop repeating if the number of repeats exceeds the value set in this field' },
    continuously_repeat: { type: 'boolean', default: false, description: "When continuously repeat is true, repeat workflows aren't automatically stopped when conditions aren't met" },
    enabled: { type: 'boolean', default: true, filter: true, description: 'Whether the workflow is enabled' },
    locked: { type: 'boolean', default: false, description: 'Restricts workflow edits to admins when turned on' },
    position: position('workflow'),
    priority: { type: 'string', nullable: true, enum: ['low', 'normal', 'high'], description: 'Priority' },
    workflow_group_id: { type: 'string', format: 'uuid', nullable: true, filter: ['eq', 'in', 'null', 'not_null'], description: 'The group this workflow belongs to.' },
    trigger_params: { type: 'object', default: DEFAULT_TRIGGER_PARAMS, description: 'When the workflow triggers: one of the reference trigger params, told apart by trigger_type' },
    environment_ids: strings('Environments the workflow is conditioned on'),
    severity_ids: strings('Severities the workflow is conditioned on'),
    incident_type_ids: strings('Incident types the workflow is conditioned on'),
    incident_role_ids: strings('Incident roles the workflow is conditioned on'),
    service_ids: strings('Services the workflow is conditioned on'),
    functionality_ids: strings('Functionalities the workflow is conditioned on'),
    group_ids: strings('Teams the workflow is conditioned on'),
    cause_ids: strings('Causes the workflow is conditioned on'),
    sub_status_ids: strings('Sub-statuses the workflow is conditioned on'),
  },
});

/** The group a workflow names is one of the organization's (a record of this context). */
async function checkGroup(groupId: unknown, ctx: WriteContext): Promise<void> {
  if (groupId == null) return;
  const found = await existingIds(ctx.manager, 'workflow_groups', ctx.organizationId, [String(groupId)]);
  if (found.size === 0) {
    throw JsonApiError.invalidAttributes([{ attribute: 'workflow_group_id', detail: `workflow_group_id: ${String(groupId)} is not a workflow group of this organization`, code: WorkflowsErrorCode.UnknownReference }]);
  }
}

async function checkWorkflow(attributes: Row, ctx: WriteContext): Promise<Row> {
  const checked = attributes.trigger_params === undefined ? attributes : { ...attributes, trigger_params: checkedTriggerParams(attributes.trigger_params) };
  await checkGroup(checked.workflow_group_id, ctx);
  return checked;
}

/** A workflow's records, for `include`, in their lists' order. */
const ofWorkflow = (schema: ResourceSchema, order: string) =>
  byQuery(schema, `SELECT workflow_id AS owner_id, * FROM ${schema.readTable} WHERE organization_id = $1 AND workflow_id = ANY($2::uuid[]) ORDER BY ${order}`);

export const workflowDefinition: ResourceDefinition = {
  schema: workflowSchema,
  context: 'workflows',
  table: 'workflows',
  permission: { family: 'workflows' },
  children: () => [workflowTaskDefinition, workflowFormFieldConditionDefinition, workflowActionItemFormFieldConditionDefinition, workflowCustomFieldSelectionDefinition, workflowRunDefinition],
  includes: defineIncludes(workflowSchema, {
    form_field_conditions: ofWorkflow(workflowFormFieldConditionSchema, 'created_at, id'),
    genius_tasks: ofWorkflow(workflowTaskSchema, 'position, created_at, id'),
    genius_workflow_runs: ofWorkflow(workflowRunSchema, 'created_at, id'),
  }),
  rules: {
    beforeCreate: checkWorkflow,
    beforeUpdate: (_current, changes, ctx) => checkWorkflow(changes, ctx),
  },
};
