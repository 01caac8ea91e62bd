import { defineResource, type AttributeDef } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';
import { incidentParentAccess, underIncident } from '../../incident-children/incident-parent';

/**
 * The value an incident holds for a field of kind `field` (`form_field`, `custom_field`): created
 * and listed under the incident (`/v1/incidents/{incident_id}/<field>_selections`), read and
 * changed at `/v1/incident_<field>_selections/{id}`, deleted with the incident or the field.
 * Part of the incident, like its action items (docs/incident-children.md).
 */
export function incidentSelection(field: 'form_field' | 'custom_field', attributes: Record<string, AttributeDef>, rules: ResourceDefinition['rules']): ResourceDefinition {
  const singular = `incident_${field}_selection`;
  const schema = defineResource({
    type: `${singular}s`,
    singular,
    path: `/v1/${singular}s`,
    readTable: `${singular}s_read`,
    defaultSort: 'created_at',
    operations: ['list', 'create', 'get', 'update', 'delete'],
    parent: underIncident(`${field}_selections`, { onParentDelete: 'cascade' }),
    attributes: {
      incident_id: { type: 'string', format: 'uuid', writable: 'create', description: 'ID of the incident (the path decides)' },
      [`${field}_id`]: { type: 'string', format: 'uuid', required: true, writable: 'create', filter: ['eq', 'in'], description: `The ${field.replace('_', ' ')} of this selection` },
      value: { type: 'string', nullable: true, description: 'The selected value for text kind fields' },
      ...attributes,
    },
  });
  return { schema, context: 'incidents', table: `${singular}s`, permission: { family: 'incidents', writes: 'update' }, parentAccess: incidentParentAccess, rules };
}
