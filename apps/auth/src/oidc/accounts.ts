import type { DataSource } from 'typeorm';

export interface AccountClaims {
  sub: string;
  email: string | null;
  name: string | null;
  team_id: string;
  role: string | null;
  on_call_role: string | null;
}

/** The claims each scope releases (spec, UserInfo and ID token): oidc-provider's `claims` configuration. */
export const SCOPE_CLAIMS: Record<string, (keyof AccountClaims)[]> = { openid: ['sub'], email: ['email'], profile: ['name', 'team_id', 'role', 'on_call_role'] };

/** The claims the scopes release: `sub` always (it names the token's user), the others by scope. */
export function releasedClaims(account: AccountClaims, scopes: string[]): Partial<AccountClaims> {
  const names = Object.entries(SCOPE_CLAIMS).flatMap(([scope, claims]) => (scopes.includes(scope) ? claims : []));
  return Object.fromEntries(['sub' as const, ...names].map((name) => [name, account[name]]));
}

/**
 * An account is one `users` row (accountId = users.id as text): a person with several
 * organizations has one account per organization, chosen on the organization picker.
 */
export async function loadAccount(dataSource: DataSource, accountId: string): Promise<AccountClaims | null> {
  if (!/^\d+$/.test(accountId)) return null;
  const [row]: { id: number; email: string | null; full_name: string | null; organization_id: string; role: string | null; on_call_role: string | null }[] =
    await dataSource.query(
      `SELECT u.id, u.email, v.full_name, u.organization_id, r.name AS role, oc.name AS on_call_role
         FROM users u
         JOIN users_view v ON v.id = u.id
         LEFT JOIN roles r ON r.id = u.role_id
         LEFT JOIN on_call_roles oc ON oc.id = u.on_call_role_id
        WHERE u.id = $1`,
      [Number(accountId)],
    );
  if (!row) return null;
  return { sub: String(row.id), email: row.email, name: row.full_name, team_id: row.organization_id, role: row.role, on_call_role: row.on_call_role };
}

/** oidc-provider's `findAccount`: the claims it filters by the granted scopes (`claims` config). */
export function findAccount(dataSource: DataSource) {
  return async (_ctx: unknown, id: string) => {
    const account = await loadAccount(dataSource, id);
    return account ? { accountId: id, claims: async () => account } : undefined;
  };
}
