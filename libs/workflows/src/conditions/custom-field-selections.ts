import { defineResource } from '@taproot/json-api';
import { customFieldOptionsOf, existingCustomFieldIds } from '@taproot/incidents';
import type { ResourceDefinition } from '@taproot/resources';
import { strings } from '../shared/attributes';
import { CONDITIONS } from '../workflows/trigger-enums';
import { fieldChecked } from './condition-rules';

/**
 * A workflow's condition on a deprecated custom field's value (reference:
 * `workflow_custom_field_selection`): created and listed under the workflow, read, changed and
 * deleted at `/v1/workflow_custom_field_selections/{id}`. Its field and options are named by uuid,
 * as every Taproot record, where the reference declares integers (docs/forms.md, docs/workflows.md).
 */
export const workflowCustomFieldSelectionSchema = defineResource({
  type: 'workflow_custom_field_selections',
  singular: 'workflow_custom_field_selection',
  path: '/v1/workflow_custom_field_selections',
  readTable: 'workflow_custom_field_selections_read',
  defaultSort: 'created_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  parent: { path: '/v1/workflows', param: 'workflow_id', attribute: 'workflow_id', table: 'workflows', segment: 'custom_field_selections', onParentDelete: 'cascade' },
  attributes: {
    workflow_id: { type: 'string', format: 'uuid', writable: false, description: 'The workflow for this selection (the path decides)' },
    custom_field_id: { type: 'string', format: 'uuid', required: true, writable: 'create', filter: ['eq', 'in'], description: 'The custom field for this selection' },
    incident_condition: { type: 'string', enum: CONDITIONS, default: 'ANY', description: 'The trigger condition' },
    values: strings('The values to associate with the custom field trigger'),
    selected_option_ids: strings('The selected options of the custom field for select and multi_select kinds'),
  },
});

export const workflowCustomFieldSelectionDefinition: ResourceDefinition = {
  schema: workflowCustomFieldSelectionSchema,
  context: 'workflows',
  table: 'workflow_custom_field_selections',
  permission: { family: 'workflows' },
  rules: fieldChecked({
    noun: 'a custom field',
    attribute: 'custom_field_id',
    existing: async (ctx, id) => (await existingCustomFieldIds(ctx.manager, ctx.organizationId, [id])).size > 0,
    options: (ctx, fieldId, ids) => customFieldOptionsOf(ctx.manager, ctx.organizationId, fieldId, ids),
  }),
};
