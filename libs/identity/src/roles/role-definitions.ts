import { EDITABLE_ROLE_KINDS, isEditableKind } from '@taproot/auth';
import { JsonApiError } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';
import { checkIncidentPermissionSet } from '../incident-permission-sets/set-references';
import { assertEditable, assertUnassigned, editabilityOf } from './role-rules';
import { onCallRoleSchema, roleSchema } from './role.schema';

/** Role events go to the identity context's topic, `taproot.identity`. */
export const ROLES_CONTEXT = 'identity';

export const roleDefinition: ResourceDefinition = {
  schema: roleSchema,
  context: ROLES_CONTEXT,
  table: 'roles',
  permission: { family: 'roles' },
  rules: {
    // The reference's `new_role` has no kind: a role made over the API is always custom.
    beforeCreate: async (attributes, ctx) => ({ ...(await checkIncidentPermissionSet(attributes, ctx)), system_role: 'custom', ...editabilityOf('custom') }),
    beforeUpdate: (current, changes, ctx) => {
      assertEditable(current, 'update', 'Role');
      return checkIncidentPermissionSet(changes, ctx);
    },
    beforeDelete: async (current, ctx) => {
      assertEditable(current, 'delete', 'Role');
      await assertUnassigned(ctx.manager, ctx.organizationId, 'role_id', current, 'Role');
    },
  },
};

export const onCallRoleDefinition: ResourceDefinition = {
  schema: onCallRoleSchema,
  context: ROLES_CONTEXT,
  table: 'on_call_roles',
  permission: { family: 'on_call_roles' },
  rules: {
    // Every kind of the reference's enum is accepted on create; a role created with a kind
    // other than user or custom is then as fixed as the seeded ones (docs/permissions.md).
    beforeCreate: (attributes) => ({ ...attributes, ...editabilityOf(String(attributes.system_role ?? 'custom')) }),
    beforeUpdate: (current, changes) => {
      assertEditable(current, 'update', 'On-call role');
      const kind = changes.system_role;
      if (kind !== undefined && !isEditableKind(String(kind))) {
        throw JsonApiError.invalidAttributes([
          {
            attribute: 'system_role',
            detail: `system_role cannot be changed to ${JSON.stringify(kind)}: only ${EDITABLE_ROLE_KINDS.join(' and ')} roles are editable, so the role could never be changed or deleted again`,
          },
        ]);
      }
      return changes;
    },
    beforeDelete: async (current, ctx) => {
      assertEditable(current, 'delete', 'On-call role');
      await assertUnassigned(ctx.manager, ctx.organizationId, 'on_call_role_id', current, 'On-call role');
    },
  },
};

export const ROLE_RESOURCES: readonly ResourceDefinition[] = [roleDefinition, onCallRoleDefinition];
