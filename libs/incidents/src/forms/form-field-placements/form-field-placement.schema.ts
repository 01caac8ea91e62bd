import { defineResource } from '@taproot/json-api';
import { checkReferenced, type ResourceDefinition, type Row, type WriteContext } from '@taproot/resources';
import { checkedOnWrite, checkSameResourceType, FORM_SETS, formResourceType, position, refuse } from '../form-rules';
import { formFieldPlacementConditionDefinition } from './form-field-placement-condition.schema';

const OPERATORS = ['and', 'or'] as const;

/**
 * A form field placed on a form of a form set (reference: `form_field_placement`): created and
 * listed under the field, read and changed at `/v1/form_field_placements/{id}`. The form set must
 * be the organization's, the form one of its `forms`, and of the field's resource type (spec).
 */
export const formFieldPlacementSchema = defineResource({
  type: 'form_field_placements',
  singular: 'form_field_placement',
  path: '/v1/form_field_placements',
  readTable: 'form_field_placements_read',
  // Spec, Jun 15 2026: ascending position.
  defaultSort: 'position',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  parent: { path: '/v1/form_fields', param: 'form_field_id', attribute: 'form_field_id', table: 'form_fields', segment: 'placements', onParentDelete: 'cascade' },
  attributes: {
    form_field_id: { type: 'string', format: 'uuid', writable: 'create', filter: ['eq', 'in'], description: 'The form field that is placed (the path decides)' },
    form_set_id: { type: 'string', format: 'uuid', required: true, filter: ['eq', 'in'], description: 'The form set this field is placed in' },
    form: { type: 'string', required: true, minLength: 1, description: 'The form this field is placed on: one of the form set\'s forms' },
    position: position('field placement'),
    required: { type: 'boolean', default: false, description: 'Whether the field is unconditionally required on this form' },
    non_editable: { type: 'boolean', default: false, description: 'Whether the field is read-only and cannot be edited by users' },
    placement_operator: { type: 'string', enum: OPERATORS, default: 'and', description: 'Logical operator of the conditions with conditioned=placement' },
    required_operator: { type: 'string', enum: OPERATORS, default: 'and', description: 'Logical operator of the conditions with conditioned=required' },
  },
});

/** The placement as it would be: its form set exists, holds its form, and the form is of the field's resource type. */
async function checkPlacement(placement: Row, ctx: WriteContext): Promise<void> {
  await checkReferenced(ctx, { form_set_id: placement.form_set_id }, { form_set_id: FORM_SETS });
  const form = String(placement.form);
  const [{ forms }] = (await ctx.manager.query('SELECT forms FROM form_sets WHERE organization_id = $1 AND id = $2', [ctx.organizationId, placement.form_set_id])) as { forms: string[] }[];
  if (!forms.includes(form)) throw refuse('form', `form ${JSON.stringify(form)} is not one of the forms of form set ${String(placement.form_set_id)} (${forms.join(', ') || 'none'})`);
  await checkSameResourceType(ctx, placement.form_field_id, formResourceType(form), 'form', `form ${form}`);
}

export const formFieldPlacementDefinition: ResourceDefinition = {
  schema: formFieldPlacementSchema,
  context: 'incidents',
  table: 'form_field_placements',
  permission: { family: 'form_fields' },
  children: () => [formFieldPlacementConditionDefinition],
  rules: checkedOnWrite(checkPlacement, ['form_set_id', 'form']),
};
