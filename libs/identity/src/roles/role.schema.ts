import { defineResource, type AttributeDef } from '@taproot/json-api';
import {
  ON_CALL_ROLE_KINDS,
  ON_CALL_ROLE_PERMISSION_FIELDS,
  ROLE_KINDS,
  ROLE_PERMISSION_FIELDS,
  type PermissionFieldCatalog,
} from '@taproot/auth';

/** One array attribute per permission field; `items.enum` is the field's allowed values. */
function permissionAttributes(catalog: PermissionFieldCatalog): Record<string, AttributeDef> {
  return Object.fromEntries(
    Object.entries(catalog).map(([field, values]) => [
      field,
      {
        type: 'array',
        items: { type: 'string', enum: values },
        default: [],
        description: `Actions granted on ${field.replace(/_permissions$/, '')} (any of ${values.join(', ')})`,
      } satisfies AttributeDef,
    ]),
  );
}

const editability = (what: string): Record<string, AttributeDef> => ({
  is_editable: { type: 'boolean', writable: false, filter: true, description: `Whether the ${what} can be edited (only user and custom kinds can).` },
  is_deletable: { type: 'boolean', writable: false, filter: true, description: `Whether the ${what} can be deleted (only user and custom kinds can).` },
});

/** Incident response roles (`/v1/roles`), the reference's `role`. */
export const roleSchema = defineResource({
  type: 'roles',
  singular: 'role',
  path: '/v1/roles',
  readTable: 'roles_read',
  defaultSort: 'created_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  attributes: {
    name: { type: 'string', required: true, alwaysStored: true, minLength: 1, maxLength: 255, filter: true, sortable: true, searchable: true, description: 'The role name.' },
    slug: { type: 'string', writable: false, derivedFrom: 'name', filter: true, description: 'The role slug.' },
    // Not in the reference's `role`: Taproot shows the kind, which decides editability. Roles
    // created over the API are always `custom`; the others are seeded per organization.
    system_role: { type: 'string', enum: ROLE_KINDS, writable: false, filter: true, description: 'The kind of role (output-only): the seeded owner, admin, user, observer and no_access roles, or custom.' },
    incident_permission_set_id: { type: 'string', nullable: true, description: 'Associated incident permissions set.' },
    ...permissionAttributes(ROLE_PERMISSION_FIELDS),
    ...editability('role'),
  },
});

/** On-call roles (`/v1/on_call_roles`), the reference's `on_call_role` plus the spec's `team_id`. */
export const onCallRoleSchema = defineResource({
  type: 'on_call_roles',
  singular: 'on_call_role',
  path: '/v1/on_call_roles',
  readTable: 'on_call_roles_read',
  defaultSort: 'created_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  attributes: {
    name: { type: 'string', required: true, alwaysStored: true, minLength: 1, maxLength: 255, filter: true, sortable: true, searchable: true, description: 'The role name.' },
    slug: { type: 'string', writable: false, derivedFrom: 'name', filter: true, description: 'The role slug.' },
    system_role: { type: 'string', enum: ON_CALL_ROLE_KINDS, default: 'custom', filter: true, description: 'The kind of role (user and custom type roles are only editable)' },
    team_id: { type: 'string', nullable: true, writable: false, description: 'The team of the role (output-only).' },
    ...permissionAttributes(ON_CALL_ROLE_PERMISSION_FIELDS),
    ...editability('on-call role'),
  },
});
