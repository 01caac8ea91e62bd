import type { Principal } from '../principal/principal';
import { ON_CALL_ROLE_PERMISSION_FIELDS, ROLE_PERMISSION_FIELDS, type PermissionFamily } from './permission-model';
import { FULL_ACCESS, NO_ACCESS, permissionSet, permissionsOfFields, union, type GrantList, type PermissionSet } from './permission-set';
import { withScopes } from './scopes';

/** What the incident permission set a role names says of incidents: the actions on public and on private ones. */
export interface IncidentPermissionSetRecord {
  public_incident_permissions: readonly string[];
  private_incident_permissions: readonly string[];
}

/**
 * A role row as stored: its kind and its permission fields, and the incident permission set it
 * names (null when it names none, or one that no longer exists).
 */
export type RoleRecord = Record<string, unknown> & { system_role?: unknown; incident_permission_set?: IncidentPermissionSetRecord | null };

/**
 * `permissions` with the incident families narrowed to what a role's incident permission set
 * allows (docs/incident-permission-sets.md, "Enforcement"): a set only takes away, so the role's
 * `incidents_permissions` count as far as its `public_incident_permissions` go, and its
 * `private_incidents_permissions` as far as its `private_incident_permissions` go.
 */
function narrowedBySet(permissions: PermissionSet, set: IncidentPermissionSetRecord): PermissionSet {
  const limits: Partial<Record<PermissionFamily, readonly string[]>> = { incidents: set.public_incident_permissions, private_incidents: set.private_incident_permissions };
  const grants: GrantList = {};
  for (const [family, actions] of permissions.grants) grants[family] = family in limits ? [...actions].filter((a) => limits[family]!.includes(a)) : actions;
  return permissionSet(grants);
}

/**
 * The permissions an incident response role grants: its fields (narrowed by its incident
 * permission set, when it names one), plus AI chat. No role field carries AI, so Taproot lets
 * every incident response role use it except one of `no_access` kind (docs/permissions.md); OAuth
 * tokens still need an `ai.*` or `all` scope.
 */
export function incidentResponseRolePermissions(role: RoleRecord): PermissionSet {
  const own = permissionsOfFields(role, ROLE_PERMISSION_FIELDS);
  const fields = role.incident_permission_set ? narrowedBySet(own, role.incident_permission_set) : own;
  if (role.system_role === 'no_access') return fields;
  return union(fields, permissionSet({ ai_chat: ['create', 'read', 'update', 'delete'] }));
}

/** The permissions an on-call role grants: its fields. */
export function onCallRolePermissions(role: RoleRecord): PermissionSet {
  return permissionsOfFields(role, ON_CALL_ROLE_PERMISSION_FIELDS);
}

/** What the permission check knows about a caller once its key (or user) and roles are loaded. */
export interface CallerRoles {
  kind: Principal['kind'];
  /** The role ids that apply: the key's own for global keys, the User roles for team keys, the user's otherwise. */
  roleId: string | null;
  onCallRoleId: string | null;
  /** The rows of those ids in the caller's organization; null when unset or not found. */
  role: RoleRecord | null;
  onCallRole: RoleRecord | null;
  /** Granted OAuth scopes; null for API keys, which carry none. */
  scopes: readonly string[] | null;
}

/**
 * Effective permissions of a caller:
 * - a global key with neither role set keeps full access (the bootstrap key; keys made before
 *   roles existed);
 * - otherwise the union of what its incident response role and its on-call role grant; an id
 *   whose role no longer exists grants nothing (never full access);
 * - a personal key or OAuth token uses its user's roles; a user with none has no access;
 * - OAuth tokens are then intersected with their scopes.
 */
export function effectivePermissions(caller: CallerRoles): PermissionSet {
  let role: PermissionSet;
  if (caller.roleId === null && caller.onCallRoleId === null) {
    role = caller.kind === 'global' ? FULL_ACCESS : NO_ACCESS;
  } else {
    role = union(
      caller.roleId !== null && caller.role ? incidentResponseRolePermissions(caller.role) : NO_ACCESS,
      caller.onCallRoleId !== null && caller.onCallRole ? onCallRolePermissions(caller.onCallRole) : NO_ACCESS,
    );
  }
  return withScopes(role, caller.kind === 'oauth' ? (caller.scopes ?? []) : null);
}
