import { defineResource } from '@taproot/json-api';
import type { ResourceDefinition, Row, WriteContext } from '@taproot/resources';
import { BUILT_IN_FORMS, checkedOnWrite, checkSameResourceType, formResourceType, position } from '../form-rules';

/**
 * Where a form field goes on a built-in form (reference: `form_field_position`): created and
 * listed under the field, read and changed at `/v1/form_field_positions/{id}`. A form of another
 * resource type than the field's is refused, as a placement's is.
 */
export const formFieldPositionSchema = defineResource({
  type: 'form_field_positions',
  singular: 'form_field_position',
  path: '/v1/form_field_positions',
  readTable: 'form_field_positions_read',
  defaultSort: 'position',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  parent: { path: '/v1/form_fields', param: 'form_field_id', attribute: 'form_field_id', table: 'form_fields', segment: 'positions', onParentDelete: 'cascade' },
  attributes: {
    form_field_id: { type: 'string', format: 'uuid', writable: 'create', description: 'The ID of the form field (the path decides)' },
    form: { type: 'string', required: true, enum: BUILT_IN_FORMS, filter: ['eq', 'in'], description: 'The form for the position' },
    position: position('form field position', { required: true, nullable: false }),
  },
});

const checkForm = async (row: Row, ctx: WriteContext) => checkSameResourceType(ctx, row.form_field_id, formResourceType(String(row.form)), 'form', `form ${String(row.form)}`);

export const formFieldPositionDefinition: ResourceDefinition = {
  schema: formFieldPositionSchema,
  context: 'incidents',
  table: 'form_field_positions',
  permission: { family: 'form_fields' },
  rules: checkedOnWrite(checkForm, ['form']),
};
