import { defineResource, type AttributeDef } from '@taproot/json-api';
import { existingFormFieldIds, formFieldOptionsOf } from '@taproot/incidents';
import type { ResourceDefinition } from '@taproot/resources';
import { strings } from '../shared/attributes';
import { CONDITIONS } from '../workflows/trigger-enums';
import { fieldChecked } from './condition-rules';

const selected = (what: string, type: 'string' | 'integer' = 'string'): AttributeDef => ({ ...strings(`The selected ${what} for select and multi_select kinds`), items: { type } });

/**
 * A workflow's condition on a form field's value, of an incident form field (`incident`,
 * attribute `incident_condition`) or an action item one (`action_item`, `action_item_condition`):
 * created and listed under the workflow, read, changed and deleted at its own path. The field and
 * the selected options are the organization's (the incidents context's ports); the other selected
 * records are stored as given (docs/workflows.md).
 */
function formFieldCondition(resourceType: 'incident' | 'action_item', segment: string) {
  const singular = resourceType === 'incident' ? 'workflow_form_field_condition' : 'workflow_action_item_form_field_condition';
  const schema = defineResource({
    type: `${singular}s`,
    singular,
    path: `/v1/${singular}s`,
    readTable: `${singular}s_read`,
    defaultSort: 'created_at',
    operations: ['list', 'create', 'get', 'update', 'delete'],
    parent: { path: '/v1/workflows', param: 'workflow_id', attribute: 'workflow_id', table: 'workflows', segment, onParentDelete: 'cascade' },
    attributes: {
      workflow_id: { type: 'string', format: 'uuid', writable: false, description: 'The workflow for this condition (the path decides)' },
      form_field_id: { type: 'string', format: 'uuid', required: true, writable: 'create', filter: ['eq', 'in'], description: `The ${resourceType.replace('_', ' ')} form field for this condition` },
      [`${resourceType}_condition`]: { type: 'string', enum: CONDITIONS, default: 'ANY', description: 'The trigger condition' },
      values: strings('The values to associate with the field trigger'),
      selected_option_ids: selected('options of the field'),
      selected_catalog_entity_ids: selected('catalog entities'),
      selected_user_ids: selected('users', 'integer'),
      selected_functionality_ids: selected('functionalities'),
      selected_group_ids: selected('groups (teams)'),
      selected_service_ids: selected('services'),
      selected_cause_ids: selected('causes'),
      selected_environment_ids: selected('environments'),
      selected_incident_type_ids: selected('incident types'),
    },
  });
  const definition: ResourceDefinition = {
    schema,
    context: 'workflows',
    table: `${singular}s`,
    permission: { family: 'workflows' },
    rules: fieldChecked({
      noun: resourceType === 'incident' ? 'an incident form field' : 'an action item form field',
      attribute: 'form_field_id',
      existing: async (ctx, id) => (await existingFormFieldIds(ctx.manager, ctx.organizationId, [id], resourceType)).size > 0,
      options: (ctx, fieldId, ids) => formFieldOptionsOf(ctx.manager, ctx.organizationId, fieldId, ids),
    }),
  };
  return { schema, definition };
}

const incident = formFieldCondition('incident', 'form_field_conditions');
const actionItem = formFieldCondition('action_item', 'action_item_form_field_conditions');

export const workflowFormFieldConditionSchema = incident.schema;
export const workflowFormFieldConditionDefinition = incident.definition;
export const workflowActionItemFormFieldConditionSchema = actionItem.schema;
export const workflowActionItemFormFieldConditionDefinition = actionItem.definition;
