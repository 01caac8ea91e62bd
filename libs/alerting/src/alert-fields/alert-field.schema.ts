import { defineResource, JsonApiError } from '@taproot/json-api';
import type { ResourceDefinition, Row } from '@taproot/resources';
import { AlertingError, AlertingErrorCode } from '../errors';
import { BUILT_IN_ALERT_FIELDS } from './built-in-alert-fields';

/** The kinds of alert field: custom fields are the ones the API creates, the others are built in. */
export const ALERT_FIELD_KINDS = ['custom', ...BUILT_IN_ALERT_FIELDS.map((f) => f.kind)] as const;

/**
 * An alert field (reference `alert_field`): alerts carry values for it. `kind` is `custom` for the
 * fields clients create, else the kind of a built-in field (built-in-alert-fields.ts).
 */
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
    kind: { type: 'string', writable: false, default: 'custom', alwaysStored: true, filter: true, description: 'The kind of alert field: custom, or the kind of a built-in field: title, description, external_url, external_id, state' },
  },
});

const builtIn = (current: Row) => current.kind !== 'custom';

export const alertFieldDefinition: ResourceDefinition = {
  schema: alertFieldSchema,
  context: 'alerting',
  table: 'alert_fields',
  // Built-in fields are the organization's for good: ingestion and clients' configurations find them by kind.
  rules: {
    beforeUpdate(current, changes) {
      if (builtIn(current) && changes.name !== undefined && changes.name !== current.name) {
        throw JsonApiError.invalidAttributes([{ attribute: 'name', detail: `name: the built-in ${String(current.kind)} alert field cannot be renamed`, code: AlertingErrorCode.BuiltInAlertField }]);
      }
      return changes;
    },
    beforeDelete(current) {
      if (builtIn(current)) throw new AlertingError(AlertingErrorCode.BuiltInAlertField, `The built-in ${String(current.kind)} alert field cannot be deleted`);
    },
  },
};
