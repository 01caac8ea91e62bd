import { defineResource } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';
import { recordsOfASet, ROLE_ADMINISTRATION } from './in-a-set';
import { SEVERITY_PARAMS, severityParamsRules } from './severity-params';

/** What a boolean of a permission set allows, as the reference enumerates it. */
export const PERMISSION_SET_BOOLEAN_KINDS = [
  'publish_to_status_page',
  'assign_incident_roles',
  'invite_subscribers',
  'update_summary',
  'update_timeline',
  'trigger_workflows',
  'create_communications',
  'read_communications',
  'update_communications',
  'delete_communications',
  'send_communications',
  'modify_custom_fields',
] as const;

/**
 * A switch of an incident permission set (docs/incident-permission-sets.md): one action on
 * incidents (`kind`), enabled or not, on private or public incidents. Created and listed under
 * its set, read, changed and deleted at `/v1/incident_permission_set_booleans/{id}`.
 */
export const incidentPermissionSetBooleanSchema = defineResource({
  ...recordsOfASet('incident_permission_set_booleans', 'incident_permission_set_boolean', 'booleans'),
  attributes: {
    // The reference's new_incident_permission_set_boolean takes it: it must be the path's set.
    incident_permission_set_id: { type: 'string', format: 'uuid', writable: 'create', description: 'The incident permission set the boolean belongs to' },
    kind: { type: 'string', enum: PERMISSION_SET_BOOLEAN_KINDS, required: true, filter: true, sortable: true, description: 'The action on incidents the boolean allows' },
    private: { type: 'boolean', default: false, filter: true, description: 'Whether it applies to private incidents (else public ones)' },
    enabled: { type: 'boolean', default: true, filter: true, description: 'Whether the action is allowed' },
  },
  inputOnlyAttributes: { severity_params: SEVERITY_PARAMS },
});

export const incidentPermissionSetBooleanDefinition: ResourceDefinition = {
  schema: incidentPermissionSetBooleanSchema,
  context: 'identity',
  table: 'incident_permission_set_booleans',
  permission: ROLE_ADMINISTRATION,
  rules: severityParamsRules(),
};
