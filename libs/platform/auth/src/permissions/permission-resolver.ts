import type { EntityManager } from 'typeorm';

/** The pool or a transaction's manager. */
type Queryable = Pick<EntityManager, 'query'>;
import type { Principal } from '../principal/principal';
import { effectivePermissions, type CallerRoles, type RoleRecord } from './effective-permissions';
import { NO_ACCESS, type PermissionSet } from './permission-set';

/** An OAuth principal carries its granted scopes (added by the OAuth issue); keys carry none. */
export type ScopedPrincipal = Principal & { scopes?: readonly string[] };

interface AssignmentRow {
  kind: Principal['kind'];
  role_id: string | null;
  on_call_role_id: string | null;
}

/**
 * Loads what `effectivePermissions` needs for a principal: which roles apply (the key's for
 * global keys, the organization's User roles for team keys, the user's for personal keys and
 * OAuth tokens) and those roles' rows,
 * from the write tables, in the principal's organization only. The bearer guard resolves the
 * request's caller with it once; a rule about someone else (may this subscriber read private
 * incidents?) uses `permissionsOf`. The tables are the identity context's: this is the
 * authorization read path every context needs, so it lives here rather than there.
 */
export class PermissionResolver {
  constructor(private readonly dataSource: Queryable) {}

  async resolve(principal: ScopedPrincipal): Promise<PermissionSet> {
    const assignment = await this.assignment(principal);
    if (!assignment) return NO_ACCESS;
    const caller: CallerRoles = {
      kind: assignment.kind,
      roleId: assignment.role_id,
      onCallRoleId: assignment.on_call_role_id,
      role: null,
      onCallRole: null,
      scopes: principal.kind === 'oauth' ? (principal.scopes ?? []) : null,
    };
    if (caller.roleId !== null || caller.onCallRoleId !== null) {
      // Ids are compared as text: an id column of another type never makes this query fail.
      const [row]: { role: RoleRecord | null; on_call_role: RoleRecord | null }[] = await this.dataSource.query(
        // The role with the incident permission set it names (docs/incident-permission-sets.md).
        `SELECT (SELECT to_jsonb(r) || jsonb_build_object('incident_permission_set',
                         (SELECT jsonb_build_object('public_incident_permissions', s.public_incident_permissions, 'private_incident_permissions', s.private_incident_permissions)
                            FROM incident_permission_sets s WHERE s.organization_id = r.organization_id AND s.id::text = r.incident_permission_set_id))
                   FROM roles r WHERE r.organization_id = $1 AND r.id::text = $2) AS role,
                (SELECT to_jsonb(o) FROM on_call_roles o WHERE o.organization_id = $1 AND o.id::text = $3) AS on_call_role`,
        [principal.organizationId, caller.roleId, caller.onCallRoleId],
      );
      caller.role = row?.role ?? null;
      caller.onCallRole = row?.on_call_role ?? null;
    }
    return effectivePermissions(caller);
  }

  /**
   * The kind (`system_role`) of the incident response role the principal acts with, picked as
   * `resolve` picks it; a global key with neither role is the organization's full-access key (the
   * bootstrap key) and counts as the owner. Null without a role. For rules the spec states by role
   * kind rather than by permission (only an owner or admin changes a status page's teams).
   */
  async roleKind(principal: Principal): Promise<string | null> {
    const assignment = await this.assignment(principal);
    if (!assignment) return null;
    if (assignment.kind === 'global' && assignment.role_id === null && assignment.on_call_role_id === null) return 'owner';
    const [row]: { system_role: string }[] = await this.dataSource.query('SELECT system_role FROM roles WHERE organization_id = $1 AND id::text = $2', [
      principal.organizationId,
      assignment.role_id,
    ]);
    return row?.system_role ?? null;
  }

  private async assignment(principal: Principal): Promise<AssignmentRow | null> {
    if (principal.apiKeyId) {
      const [key]: AssignmentRow[] = await this.dataSource.query(
        // A team key has no roles of its own: it acts as a member of its team (the organization's
        // User roles) and, through team ownership, edits what the team owns (docs/permissions.md).
        `SELECT k.kind,
                CASE k.kind WHEN 'global' THEN k.role_id::text
                            WHEN 'team' THEN (SELECT r.id::text FROM roles r WHERE r.organization_id = k.organization_id AND r.system_role = 'user')
                            ELSE u.role_id::text END AS role_id,
                CASE k.kind WHEN 'global' THEN k.on_call_role_id::text
                            WHEN 'team' THEN (SELECT r.id::text FROM on_call_roles r WHERE r.organization_id = k.organization_id AND r.system_role = 'user')
                            ELSE u.on_call_role_id::text END AS on_call_role_id
           FROM api_keys k
           LEFT JOIN users u ON u.id = k.user_id AND u.organization_id = k.organization_id
          WHERE k.id = $1 AND k.organization_id = $2`,
        [principal.apiKeyId, principal.organizationId],
      );
      return key ?? null;
    }
    if (principal.userId === null) return null;
    const [user]: Omit<AssignmentRow, 'kind'>[] = await this.dataSource.query(
      'SELECT role_id::text AS role_id, on_call_role_id::text AS on_call_role_id FROM users WHERE id = $1 AND organization_id = $2',
      [principal.userId, principal.organizationId],
    );
    return user ? { kind: principal.kind, ...user } : null;
  }
}

/** The effective permissions of someone other than the caller, read in the given transaction. */
export function permissionsOf(db: Queryable, principal: ScopedPrincipal): Promise<PermissionSet> {
  return new PermissionResolver(db).resolve(principal);
}

/** The kind of the incident response role `principal` acts with (`PermissionResolver.roleKind`), read in the given transaction. */
export function roleKindOf(db: Queryable, principal: Principal): Promise<string | null> {
  return new PermissionResolver(db).roleKind(principal);
}
