import type { EntityManager } from 'typeorm';
import { EDITABLE_ROLE_KINDS, isEditableKind } from '@taproot/auth';
import { IdentityError, IdentityErrorCode } from '../errors';

type Row = Record<string, unknown>;

/**
 * Spec, "On-call role": only roles of user or custom kind are editable. The other kinds (the
 * roles seeded per organization) are refused with 403: the caller may hold the permission to
 * change roles, but this record is not theirs to change.
 */
export function assertEditable(current: Row, action: 'update' | 'delete', type: string): void {
  const kind = String(current.system_role);
  if (isEditableKind(kind)) return;
  throw new IdentityError(
    IdentityErrorCode.SystemRoleNotEditable,
    `${type} '${String(current.name)}' is a system role of kind ${kind} and cannot be ${action === 'update' ? 'updated' : 'deleted'}; only roles of ${EDITABLE_ROLE_KINDS.join(' or ')} kind can`,
  );
}

/** Output-only flags derived from the kind, stored so the read model can serve them. */
export function editabilityOf(kind: string): { is_editable: boolean; is_deletable: boolean } {
  const editable = isEditableKind(kind);
  return { is_editable: editable, is_deletable: editable };
}

/**
 * A role still assigned to a live API key or a user is not deleted (409): a key whose role
 * vanished would lose every permission, and nulling it instead would give it full access.
 */
export async function assertUnassigned(manager: EntityManager, organizationId: string, column: 'role_id' | 'on_call_role_id', current: Row, type: string): Promise<void> {
  const [{ keys, users }]: { keys: number; users: number }[] = await manager.query(
    `SELECT (SELECT count(*)::int FROM api_keys WHERE organization_id = $1 AND ${column}::text = $2 AND revoked_at IS NULL) AS keys,
            (SELECT count(*)::int FROM users WHERE organization_id = $1 AND ${column}::text = $2) AS users`,
    [organizationId, String(current.id)],
  );
  if (keys === 0 && users === 0) return;
  const parts = [keys ? `${keys} API key${keys === 1 ? '' : 's'}` : '', users ? `${users} user${users === 1 ? '' : 's'}` : ''].filter(Boolean);
  throw new IdentityError(
    IdentityErrorCode.RoleInUse,
    `${type} '${String(current.name)}' is assigned to ${parts.join(' and ')}; assign them another role before deleting it`,
  );
}
