import type { AccessTokenVerifier } from '@taproot/auth';
import type Provider from 'oidc-provider';
import type { DataSource } from 'typeorm';
import { loadAccount, releasedClaims, type AccountClaims } from './accounts';

/**
 * The spec lets any valid token call UserInfo. oidc-provider's handler serves the tokens it stores
 * as AccessToken with `openid` granted and refuses the others by design: a client-credentials
 * token is another model (401), a code-flow token without `openid` lacks that scope (403). Taproot
 * answers for those itself, once the token checks out as it does at the API (signature, issuer,
 * audience, expiry, not revoked, its user still in the organization). A code-flow token gets the
 * person's claims its scopes release; a client-credentials token gets all of its application's
 * service user's (no person consents to them, and an application cannot hold OpenID scopes).
 * Null: oidc-provider's to answer, its OpenID tokens and every refusal (OAuth error, WWW-Authenticate).
 */
export function userinfoBeyondOpenId(provider: Provider, tokens: AccessTokenVerifier, dataSource: DataSource) {
  return async (authorization: string | undefined): Promise<Partial<AccountClaims> | null> => {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    const principal = token && (await tokens.verify(token));
    if (!token || !principal) return null;
    const clientCredentials = Boolean(await provider.ClientCredentials.find(token));
    // An OpenID code-flow token: the provider's handler serves it.
    if (!clientCredentials && principal.scopes.includes('openid')) return null;
    const account = await loadAccount(dataSource, String(principal.userId));
    if (!account) return null;
    return clientCredentials ? account : releasedClaims(account, principal.scopes);
  };
}
