import { JsonApiError } from '@taproot/json-api';
import type { EntityManager } from 'typeorm';
import { effectivePermissions, type PermissionSet, type RoleRecord } from '@taproot/auth';
import { IdentityErrorCode } from '../errors';

export interface RoleAssignment {
  roleId?: string | null;
  onCallRoleId?: string | null;
}

async function load(manager: EntityManager, table: string, organizationId: string, id: string): Promise<RoleRecord | null> {
  const [row]: { role: RoleRecord }[] = await manager.query(
    `SELECT to_jsonb(r) AS role FROM ${table} r WHERE r.organization_id = $1 AND r.id::text = $2`,
    [organizationId, id],
  );
  return row?.role ?? null;
}

/**
 * For whoever assigns roles (organization API keys, users): each given id must be a role of the
 * caller's organization, else 422 naming `role_id` / `on_call_role_id`. Returns what the
 * assignment would grant an organization key, for a `covers(caller, granted)` check.
 */
export async function assertAssignableRoles(manager: EntityManager, organizationId: string, assignment: RoleAssignment): Promise<PermissionSet> {
  const roleId = assignment.roleId ?? null;
  const onCallRoleId = assignment.onCallRoleId ?? null;
  const role = roleId === null ? null : await load(manager, 'roles', organizationId, roleId);
  const onCallRole = onCallRoleId === null ? null : await load(manager, 'on_call_roles', organizationId, onCallRoleId);
  const issues: { attribute: string; detail: string; code: string }[] = [];
  if (roleId !== null && !role) issues.push({ attribute: 'role_id', detail: `role_id ${roleId} is not a role of this organization`, code: IdentityErrorCode.UnknownRole });
  if (onCallRoleId !== null && !onCallRole) {
    issues.push({ attribute: 'on_call_role_id', detail: `on_call_role_id ${onCallRoleId} is not an on-call role of this organization`, code: IdentityErrorCode.UnknownRole });
  }
  if (issues.length) throw JsonApiError.invalidAttributes(issues);
  return effectivePermissions({ kind: 'global', roleId, onCallRoleId, role, onCallRole, scopes: null });
}
