import { defineResource, type AttributeDef } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';
import { position } from './form-rules';

/** A select field's option (form field options and the deprecated custom field options). */
const optionAttributes = (noun: string): Record<string, AttributeDef> => ({
  value: { type: 'string', required: true, minLength: 1, filter: true, description: `The value of the ${noun}` },
  // The reference answers a colour always and names no default.
  color: { type: 'string', default: '#047BF8', filter: true, description: `The hex color of the ${noun}` },
  default: { type: 'boolean', default: false, description: 'Whether this option is the default' },
  position: position(noun),
});

/**
 * The options of a select field, one declaration for both kinds of field: created and listed
 * under the field (`/v1/<fields>/{<field>_id}/options`), read and changed at `/v1/<field>_options/{id}`,
 * in the spec's `position` order, deleted with the field.
 */
export function fieldOptions(field: 'form_field' | 'custom_field', fieldIdDescription: string): ResourceDefinition {
  const attribute = `${field}_id`;
  const schema = defineResource({
    type: `${field}_options`,
    singular: `${field}_option`,
    path: `/v1/${field}_options`,
    readTable: `${field}_options_read`,
    defaultSort: 'position',
    operations: ['list', 'create', 'get', 'update', 'delete'],
    parent: { path: `/v1/${field}s`, param: attribute, attribute, table: `${field}s`, segment: 'options', onParentDelete: 'cascade' },
    attributes: {
      [attribute]: { type: 'string', format: 'uuid', writable: 'create', description: `${fieldIdDescription} (the path decides)` },
      ...optionAttributes(`${field.replace('_', ' ')} option`),
    },
  });
  return { schema, context: 'incidents', table: `${field}_options`, permission: { family: 'form_fields' } };
}
