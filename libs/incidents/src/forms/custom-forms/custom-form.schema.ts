import { defineResource } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';

/**
 * A custom form, triggered by a Slack command (reference: `custom_form`); form sets and form
 * fields name it by its `slug`.
 */
export const customFormSchema = defineResource({
  type: 'custom_forms',
  singular: 'custom_form',
  path: '/v1/custom_forms',
  readTable: 'custom_forms_read',
  defaultSort: 'created_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  attributes: {
    name: { type: 'string', required: true, alwaysStored: true, minLength: 1, maxLength: 255, filter: ['eq', 'in'], sortable: true, searchable: true, description: 'The name of the custom form' },
    slug: { type: 'string', writable: false, derivedFrom: 'name', filter: ['eq', 'in'], description: 'The custom form slug, for form_field.shown, form_field.required and form_set.forms' },
    command: { type: 'string', required: true, filter: ['eq', 'in'], searchable: true, description: 'The Slack command used to trigger this form' },
    description: { type: 'string', nullable: true, searchable: true, description: 'The description of the custom form' },
    enabled: { type: 'boolean', default: true, description: 'Whether the custom form is enabled' },
  },
});

export const customFormDefinition: ResourceDefinition = {
  schema: customFormSchema,
  context: 'incidents',
  table: 'custom_forms',
  permission: { family: 'form_fields' },
};
