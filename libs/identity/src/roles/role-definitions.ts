import { JsonApiError, type ResourceSchema } from '@taproot/json-api';
import type { EventActor } from '@taproot/messaging';
import type { EntityManager } from 'typeorm';
import { EDITABLE_ROLE_KINDS, isEditableKind, type PermissionFamily } from '@taproot/auth';
import { assertEditable, assertUnassigned, editabilityOf } from './role-rules';
import { onCallRoleSchema, roleSchema } from './role.schema';

type Row = Record<string, unknown>;

/** The write context the generic resource path passes to rules (its `WriteContext`). */
export interface RoleWriteContext {
  organizationId: string;
  actor: EventActor;
  manager: EntityManager;
  now: Date;
}

/**
 * Shaped like `ResourceDefinition` of `@taproot/resources`. That lib depends on this one (for
 * principals and permissions), so this one cannot import it: the app hands the generic
 * controller and projection to `RolesModule.register`, which applies them to these.
 */
export interface RoleResourceDefinition {
  schema: ResourceSchema;
  context: string;
  table: string;
  permission: { family: PermissionFamily };
  rules: {
    beforeCreate(attributes: Row, ctx: RoleWriteContext): Promise<Row> | Row;
    beforeUpdate(current: Row, changes: Row, ctx: RoleWriteContext): Promise<Row> | Row;
    beforeDelete(current: Row, ctx: RoleWriteContext): Promise<void> | void;
  };
}

/** Role events go to the identity context's topic, `taproot.identity`. */
export const ROLES_CONTEXT = 'identity';

export const roleDefinition: RoleResourceDefinition = {
  schema: roleSchema,
  context: ROLES_CONTEXT,
  table: 'roles',
  permission: { family: 'roles' },
  rules: {
    // The reference's `new_role` has no kind: a role made over the API is always custom.
    beforeCreate: (attributes) => ({ ...attributes, system_role: 'custom', ...editabilityOf('custom') }),
    beforeUpdate: (current, changes) => {
      assertEditable(current, 'update', 'Role');
      return changes;
    },
    beforeDelete: async (current, ctx) => {
      assertEditable(current, 'delete', 'Role');
      await assertUnassigned(ctx.manager, ctx.organizationId, 'role_id', current, 'Role');
    },
  },
};

export const onCallRoleDefinition: RoleResourceDefinition = {
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

export const ROLE_RESOURCES: readonly RoleResourceDefinition[] = [roleDefinition, onCallRoleDefinition];
