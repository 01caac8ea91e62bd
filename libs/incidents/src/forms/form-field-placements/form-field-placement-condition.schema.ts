import { defineResource } from '@taproot/json-api';
import { checkReferenced, type ResourceDefinition, type Row, type WriteContext } from '@taproot/resources';
import { checkedOnWrite, checkSameResourceType, FORM_FIELDS, position, resourceTypeOf, strings } from '../form-rules';

/**
 * When a placement shows or requires its field (reference: `form_field_placement_condition`):
 * created and listed under the placement, read and changed at
 * `/v1/form_field_placement_conditions/{id}`. The condition's field is of the organization and of
 * the placed field's resource type (spec: no placement across resource types).
 */
export const formFieldPlacementConditionSchema = defineResource({
  type: 'form_field_placement_conditions',
  singular: 'form_field_placement_condition',
  path: '/v1/form_field_placement_conditions',
  readTable: 'form_field_placement_conditions_read',
  // Spec, Jun 15 2026: ascending position.
  defaultSort: 'position',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  parent: {
    path: '/v1/form_field_placements',
    param: 'form_field_placement_id',
    attribute: 'form_field_placement_id',
    table: 'form_field_placements',
    segment: 'conditions',
    onParentDelete: 'cascade',
  },
  attributes: {
    form_field_placement_id: { type: 'string', format: 'uuid', writable: 'create', description: 'The form field placement this condition applies to (the path decides)' },
    conditioned: { type: 'string', required: true, enum: ['placement', 'required'], description: 'What the condition decides: the placement or its being required' },
    position: position('condition'),
    form_field_id: { type: 'string', format: 'uuid', required: true, filter: ['eq', 'in'], description: 'The field whose value is compared' },
    comparison: { type: 'string', required: true, enum: ['equal', 'not_equal', 'is_set', 'is_not_set'], description: 'The condition comparison' },
    values: strings('The values for comparison', { required: true, default: undefined }),
  },
});

/** The condition's field: of the organization, of the placed field's resource type. */
async function checkConditionField(condition: Row, ctx: WriteContext): Promise<void> {
  await checkReferenced(ctx, { form_field_id: condition.form_field_id }, { form_field_id: FORM_FIELDS });
  const [{ form_field_id: placed }] = (await ctx.manager.query('SELECT form_field_id FROM form_field_placements WHERE organization_id = $1 AND id = $2', [
    ctx.organizationId,
    condition.form_field_placement_id,
  ])) as { form_field_id: string }[];
  await checkSameResourceType(ctx, condition.form_field_id, await resourceTypeOf(ctx, placed), 'form_field_id', `the placed field ${placed}`);
}

export const formFieldPlacementConditionDefinition: ResourceDefinition = {
  schema: formFieldPlacementConditionSchema,
  context: 'incidents',
  table: 'form_field_placement_conditions',
  permission: { family: 'form_fields' },
  rules: checkedOnWrite(checkConditionField, ['form_field_id']),
};
