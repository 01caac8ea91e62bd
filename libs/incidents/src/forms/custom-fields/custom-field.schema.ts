import { defineIncludes, defineResource } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';
import { EQUALITY, ofField, position, resourceType } from '../form-rules';
import { incidentCustomFieldSelectionDefinition } from '../selections/incident-custom-field-selection.schema';
import { customFieldOptionDefinition } from './custom-field-option.schema';

const FORMS = ['incident_form', 'incident_mitigation_form', 'incident_resolution_form', 'incident_post_mortem_form', 'incident_slack_form', 'incident_mitigation_slack_form', 'incident_resolution_slack_form'] as const;
export const CUSTOM_FIELD_KINDS = ['text', 'textarea', 'select', 'multi_select'] as const;

/**
 * The deprecated custom fields (spec: deprecated in favor of form fields; docs/forms.md), kept
 * for clients of the old API. Their options live under them; deleting one deletes its options and
 * the incident selections naming it.
 */
export const customFieldSchema = defineResource({
  type: 'custom_fields',
  singular: 'custom_field',
  path: '/v1/custom_fields',
  readTable: 'custom_fields_read',
  // Spec, Jun 15 2026: ascending position.
  defaultSort: 'position',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  relationships: { options: { type: 'custom_field_options', many: true } },
  attributes: {
    label: { type: 'string', required: true, alwaysStored: true, minLength: 1, maxLength: 255, filter: EQUALITY, sortable: true, searchable: true, description: 'The name of the custom field' },
    slug: { type: 'string', writable: false, derivedFrom: 'label', filter: EQUALITY, description: 'The slug of the custom field' },
    // The reference's requests take no kind: a text field unless a create says otherwise.
    kind: { type: 'string', enum: CUSTOM_FIELD_KINDS, default: 'text', writable: 'create', filter: EQUALITY, description: 'The kind of the custom field' },
    enabled: { type: 'boolean', default: true, filter: EQUALITY, description: 'Whether the custom field is enabled' },
    description: { type: 'string', nullable: true, searchable: true, description: 'The description of the custom field' },
    default: { type: 'string', nullable: true, description: 'The default value for text field kinds' },
    shown: { type: 'array', items: { type: 'string', enum: [...FORMS, 'incident_post_mortem'] }, default: [], description: 'Where the custom field is shown' },
    required: { type: 'array', items: { type: 'string', enum: FORMS }, nullable: true, default: [], description: 'Where the custom field is required' },
    resource_type: resourceType('custom field'),
    position: position('custom field'),
  },
});

export const customFieldDefinition: ResourceDefinition = {
  schema: customFieldSchema,
  context: 'incidents',
  table: 'custom_fields',
  permission: { family: 'form_fields' },
  includes: defineIncludes(customFieldSchema, { options: ofField(customFieldOptionDefinition.schema, 'custom_field_id') }),
  children: () => [customFieldOptionDefinition, { definition: incidentCustomFieldSelectionDefinition, attribute: 'custom_field_id' }],
};
