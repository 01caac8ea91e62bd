import { defineResource } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';
import { FORM_FIELDS, referencesChecked, strings } from '../form-rules';

/**
 * When a form set applies (reference: `form_set_condition`): a field of the organization equal to
 * one of `values`. Created and listed under the set, read and changed at `/v1/form_set_conditions/{id}`.
 */
export const formSetConditionSchema = defineResource({
  type: 'form_set_conditions',
  singular: 'form_set_condition',
  path: '/v1/form_set_conditions',
  readTable: 'form_set_conditions_read',
  defaultSort: 'created_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  parent: { path: '/v1/form_sets', param: 'form_set_id', attribute: 'form_set_id', table: 'form_sets', segment: 'conditions', onParentDelete: 'cascade' },
  attributes: {
    form_set_id: { type: 'string', format: 'uuid', writable: 'create', description: 'The form set this condition applies to (the path decides)' },
    form_field_id: { type: 'string', format: 'uuid', required: true, filter: ['eq', 'in'], description: 'The form field this condition compares' },
    comparison: { type: 'string', required: true, enum: ['equal'], description: 'The condition comparison' },
    values: strings('The values for comparison', { required: true, default: undefined }),
  },
});

export const formSetConditionDefinition: ResourceDefinition = {
  schema: formSetConditionSchema,
  context: 'incidents',
  table: 'form_set_conditions',
  permission: { family: 'form_fields' },
  rules: referencesChecked({ form_field_id: FORM_FIELDS }),
};
