import { CRUD_ACTIONS } from '@taproot/auth';
import { defineResource, type AttributeDef } from '@taproot/json-api';
import type { DomainEvent } from '@taproot/messaging';
import { ResourceWriter, type ResourceDefinition, type Row, type WriteContext } from '@taproot/resources';
import { roleDefinition } from '../roles/role-definitions';
import { ROLE_ADMINISTRATION } from './in-a-set';
import { incidentPermissionSetBooleanDefinition } from './incident-permission-set-boolean.schema';
import { incidentPermissionSetResourceDefinition } from './incident-permission-set-resource.schema';

const incidentPermissions = (which: string): AttributeDef => ({
  type: 'array',
  items: { type: 'string', enum: CRUD_ACTIONS },
  default: [],
  description: `Actions the set allows on ${which} incidents (any of ${CRUD_ACTIONS.join(', ')})`,
});

/**
 * An incident permission set (docs/incident-permission-sets.md): what a role naming it
 * (`incident_permission_set_id` of `/v1/roles`) allows on private and public incidents, refined
 * by its booleans and resources. Deleting one deletes those first and unsets it on the roles
 * naming it, each with its event.
 */
export const incidentPermissionSetSchema = defineResource({
  type: 'incident_permission_sets',
  singular: 'incident_permission_set',
  path: '/v1/incident_permission_sets',
  readTable: 'incident_permission_sets_read',
  defaultSort: 'created_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  attributes: {
    name: { type: 'string', required: true, alwaysStored: true, minLength: 1, maxLength: 255, filter: true, sortable: true, searchable: true, description: 'The incident permission set name.' },
    slug: { type: 'string', writable: false, derivedFrom: 'name', filter: true, description: 'The incident permission set slug.' },
    description: { type: 'string', nullable: true, searchable: true, description: 'The incident permission set description.' },
    private_incident_permissions: incidentPermissions('private'),
    public_incident_permissions: incidentPermissions('public'),
  },
});

/** The custom roles naming a deleted set no longer do: each an update with its `role.updated`. */
async function unsetOnRoles(set: Row, ctx: WriteContext): Promise<DomainEvent[]> {
  const roles = (await ctx.manager.query('SELECT id FROM roles WHERE organization_id = $1 AND incident_permission_set_id = $2 ORDER BY created_at, id', [
    ctx.organizationId,
    String(set.id),
  ])) as { id: string }[];
  // Without the role rules: clearing the reference is no edit of the role's permissions.
  const writer = new ResourceWriter({ ...roleDefinition, rules: undefined });
  const events: DomainEvent[] = [];
  for (const role of roles) events.push(...(await writer.update(ctx, role.id, { incident_permission_set_id: null })).events);
  return events;
}

export const incidentPermissionSetDefinition: ResourceDefinition = {
  schema: incidentPermissionSetSchema,
  context: 'identity',
  table: 'incident_permission_sets',
  permission: ROLE_ADMINISTRATION,
  children: () => [incidentPermissionSetBooleanDefinition, incidentPermissionSetResourceDefinition],
  rules: { beforeDelete: unsetOnRoles },
};

/** The set and its records, parents first (the module's controllers and projections). */
export const INCIDENT_PERMISSION_SET_RESOURCES: readonly ResourceDefinition[] = [
  incidentPermissionSetDefinition,
  incidentPermissionSetBooleanDefinition,
  incidentPermissionSetResourceDefinition,
];
