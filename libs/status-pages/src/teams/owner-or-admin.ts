import type { Caller } from '@taproot/auth';
import type { Queryable } from '@taproot/json-api';
import { DomainError } from '@taproot/json-api';
import { StatusPagesErrorCode } from '../status-pages/status-page-errors';

/**
 * The kind of the incident response role the caller acts with (`roles.system_role`), as the
 * permission resolver picks the role: a global key's own, a team key's the organization's User
 * role, a personal key's or OAuth token's user's. A global key with no role at all is the
 * organization's full-access key (the bootstrap key): it counts as the owner. Ids are compared as
 * text, as the permission resolver does: the key's and the user's role columns differ in type.
 */
async function roleKindOf(db: Queryable, caller: Caller): Promise<string | null> {
  if (caller.kind === 'team') return 'user';
  const [row] = (await db.query(
    caller.apiKeyId
      ? `SELECT k.kind, k.role_id IS NULL AND k.on_call_role_id IS NULL AS full_access,
                (SELECT r.system_role FROM roles r WHERE r.organization_id = k.organization_id AND r.id::text = CASE k.kind WHEN 'global' THEN k.role_id::text ELSE u.role_id::text END) AS system_role
           FROM api_keys k LEFT JOIN users u ON u.id = k.user_id AND u.organization_id = k.organization_id
          WHERE k.id = $1 AND k.organization_id = $2`
      : `SELECT 'user' AS kind, false AS full_access, (SELECT r.system_role FROM roles r WHERE r.organization_id = u.organization_id AND r.id::text = u.role_id::text) AS system_role
           FROM users u WHERE u.id = $1 AND u.organization_id = $2`,
    [caller.apiKeyId ?? caller.userId, caller.organizationId],
  )) as { kind: string; full_access: boolean; system_role: string | null }[];
  if (!row) return null;
  return row.kind === 'global' && row.full_access ? 'owner' : row.system_role;
}

/** The spec's rule for status page team grants: only an owner or admin role changes them (403 otherwise). */
export async function assertOwnerOrAdmin(db: Queryable, caller: Caller): Promise<void> {
  const kind = await roleKindOf(db, caller);
  if (kind === 'owner' || kind === 'admin') return;
  throw new DomainError(StatusPagesErrorCode.OwnerOrAdminRequired, `Only an owner or admin role may change the teams of a status page; the caller's role is ${kind ?? 'none'}`);
}
