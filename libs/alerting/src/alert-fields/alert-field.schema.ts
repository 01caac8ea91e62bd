import { defineResource } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';

/** The kinds of alert field; custom fields are the ones the API creates. */
export const ALERT_FIELD_KINDS = ['custom'] as const;

/** A custom alert field (reference `alert_field`): alerts carry values for it. */
export const alertFieldSchema = defineResource({
  type: 'alert_fields',
  singular: 'alert_field',
  path: '/v1/alert_fields',
  readTable: 'alert_fields_read',
  defaultSort: 'created_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  attributes: {
    name: { type: 'string', required: true, alwaysStored: true, minLength: 1, maxLength: 255, filter: true, sortable: true, searchable: true, description: 'The name of the alert field' },
    slug: { type: 'string', writable: false, derivedFrom: 'name', filter: true, description: 'The slug of the alert field' },
    kind: { type: 'string', writable: false, default: 'custom', alwaysStored: true, filter: true, description: 'The kind of alert field' },
  },
});

export const alertFieldDefinition: ResourceDefinition = {
  schema: alertFieldSchema,
  context: 'alerting',
  table: 'alert_fields',
};
