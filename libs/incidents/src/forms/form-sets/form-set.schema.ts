import { defineResource } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';
import { formFieldPlacementDefinition } from '../form-field-placements/form-field-placement.schema';
import { checkedOnWrite, checkForms, strings } from '../form-rules';
import { formSetConditionDefinition } from './form-set-condition.schema';

/**
 * A set of forms whose fields are placed together (spec, Form set): `forms` are built-in form
 * names or custom forms' slugs of the organization. Deleting one deletes its conditions and the
 * placements in it, each with its event.
 */
export const formSetSchema = defineResource({
  type: 'form_sets',
  singular: 'form_set',
  path: '/v1/form_sets',
  readTable: 'form_sets_read',
  defaultSort: 'created_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  attributes: {
    name: { type: 'string', required: true, alwaysStored: true, minLength: 1, maxLength: 255, sortable: true, description: 'The name of the form set' },
    slug: { type: 'string', writable: false, derivedFrom: 'name', filter: ['eq', 'in'], description: 'The slug of the form set' },
    // The reference takes no is_default: which set applies by default is the hosted app's choice.
    is_default: { type: 'boolean', writable: false, default: false, filter: ['eq'], description: 'Whether the form set is default (output-only)' },
    forms: strings('The forms included in the form set: built-in form names or custom forms\' slugs', { required: true, default: undefined }),
  },
});

export const formSetDefinition: ResourceDefinition = {
  schema: formSetSchema,
  context: 'incidents',
  table: 'form_sets',
  permission: { family: 'form_fields' },
  children: () => [formSetConditionDefinition, { definition: formFieldPlacementDefinition, attribute: 'form_set_id' }],
  rules: checkedOnWrite((set, ctx) => checkForms(ctx, set.forms), ['forms']),
};
