import { defineResource } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';

/** How urgent an alert is (reference `alert_urgency`); lists go by `position`, lowest first. */
export const alertUrgencySchema = defineResource({
  type: 'alert_urgencies',
  singular: 'alert_urgency',
  path: '/v1/alert_urgencies',
  readTable: 'alert_urgencies_read',
  defaultSort: 'position',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  attributes: {
    name: { type: 'string', required: true, alwaysStored: true, minLength: 1, maxLength: 255, filter: true, sortable: true, searchable: true, description: 'The name of the alert urgency' },
    description: { type: 'string', required: true, maxLength: 10000, searchable: true, description: 'The description of the alert urgency' },
    position: { type: 'integer', nullable: true, alwaysStored: true, minimum: 0, maximum: 2147483647, filter: true, sortable: true, description: 'Position of the alert urgency' },
    color: { type: 'string', nullable: true, filter: true, description: 'The color associated with this urgency level' },
    retrigger_timeout_minutes: {
      type: 'integer',
      nullable: true,
      minimum: 1,
      maximum: 10080,
      filter: true,
      description: 'Minutes after which an acknowledged alert of this urgency is triggered again; null: never (spec: urgencies expose retrigger_timeout_minutes)',
    },
  },
});

export const alertUrgencyDefinition: ResourceDefinition = {
  schema: alertUrgencySchema,
  context: 'alerting',
  table: 'alert_urgencies',
  // The on-call role field is `alert_urgency_permissions`, not named like the type.
  permission: { family: 'alert_urgency' },
};
