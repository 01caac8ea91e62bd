import { defineIncludes, defineResource } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';
import { formFieldPlacementConditionDefinition } from '../form-field-placements/form-field-placement-condition.schema';
import { formFieldPlacementDefinition } from '../form-field-placements/form-field-placement.schema';
import { EQUALITY, ofField, position, resourceType, strings } from '../form-rules';
import { formSetConditionDefinition } from '../form-sets/form-set-condition.schema';
import { incidentFormFieldSelectionDefinition } from '../selections/incident-form-field-selection.schema';
import { formFieldOptionDefinition } from './form-field-option.schema';
import { formFieldPositionDefinition } from './form-field-position.schema';

export const FORM_FIELD_KINDS = [
  'custom', 'title', 'summary', 'mitigation_message', 'resolution_message', 'severity', 'environments', 'types', 'services', 'causes', 'functionalities', 'teams', 'status',
  'visibility', 'mark_as_test', 'mark_as_backfilled', 'labels', 'notify_emails', 'trigger_manual_workflows', 'show_ongoing_incidents', 'attach_alerts', 'mark_as_in_triage',
  'in_triage_at', 'started_at', 'detected_at', 'acknowledged_at', 'mitigated_at', 'resolved_at', 'closed_at', 'custom_sub_status', 'manual_starting_datetime_field',
] as const;
export const INPUT_KINDS = ['text', 'textarea', 'select', 'multi_select', 'date', 'datetime', 'number', 'checkbox', 'tags', 'rich_text'] as const;
export const VALUE_KINDS = ['inherit', 'group', 'service', 'functionality', 'user', 'catalog_entity', 'environment', 'cause', 'incident_type'] as const;

const forms = (what: string) => strings(`Where the form field is ${what}: built-in form names or custom forms' slugs`);

/**
 * A form field (docs/forms.md): what incident and action item forms ask. Its options, placements
 * and positions live under it; deleting it deletes them, the conditions and incident selections
 * naming it, each with its event.
 */
export const formFieldSchema = defineResource({
  type: 'form_fields',
  singular: 'form_field',
  path: '/v1/form_fields',
  readTable: 'form_fields_read',
  // Spec, Jun 15 2026: ascending position (`sort=-position` for the old order).
  defaultSort: 'position',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  // The reference's include enum (listFormFields, getFormField).
  relationships: { options: { type: 'form_field_options', many: true }, positions: { type: 'form_field_positions', many: true } },
  attributes: {
    kind: { type: 'string', required: true, enum: FORM_FIELD_KINDS, filter: EQUALITY, description: 'The kind of the form field' },
    // The reference requires both in answers and names no default: the plainest.
    input_kind: { type: 'string', enum: INPUT_KINDS, default: 'text', description: 'The input kind of the form field' },
    value_kind: { type: 'string', enum: VALUE_KINDS, default: 'inherit', description: 'The value kind of the form field' },
    value_kind_catalog_id: { type: 'string', nullable: true, description: 'The ID of the catalog used when value_kind is `catalog_entity` (stored as given)' },
    name: { type: 'string', required: true, alwaysStored: true, minLength: 1, maxLength: 255, filter: EQUALITY, sortable: true, searchable: true, description: 'The name of the form field' },
    slug: { type: 'string', writable: false, derivedFrom: 'name', filter: EQUALITY, description: 'The slug of the form field' },
    description: { type: 'string', nullable: true, searchable: true, description: 'The description of the form field' },
    shown: forms('shown'),
    required: forms('required'),
    show_on_incident_details: { type: 'boolean', default: false, description: 'Whether the form field is shown on the incident details panel' },
    enabled: { type: 'boolean', default: true, filter: EQUALITY, description: 'Whether the form field is enabled' },
    default_values: strings('The default values'),
    auto_set_by_catalog_property_id: { type: 'string', nullable: true, description: 'Catalog property ID to auto-set this form field (stored as given)' },
    resource_type: resourceType('form field'),
    position: position('form field'),
  },
});

export const formFieldDefinition: ResourceDefinition = {
  schema: formFieldSchema,
  context: 'incidents',
  table: 'form_fields',
  permission: { family: 'form_fields' },
  includes: defineIncludes(formFieldSchema, {
    options: ofField(formFieldOptionDefinition.schema, 'form_field_id'),
    positions: ofField(formFieldPositionDefinition.schema, 'form_field_id'),
  }),
  children: () => [
    formFieldOptionDefinition,
    formFieldPlacementDefinition,
    formFieldPositionDefinition,
    { definition: formFieldPlacementConditionDefinition, attribute: 'form_field_id' },
    { definition: formSetConditionDefinition, attribute: 'form_field_id' },
    { definition: incidentFormFieldSelectionDefinition, attribute: 'form_field_id' },
  ],
};
