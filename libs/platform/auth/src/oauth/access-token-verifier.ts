import type { Clock } from '@taproot/config';
import { createHash } from 'node:crypto';
import { createLocalJWKSet, createRemoteJWKSet, errors, jwtVerify, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import type { DataSource } from 'typeorm';
import type { Principal } from '../principal/principal';

/**
 * The audit log's session id for a token's `sid` claim. The claim names the login session, and
 * an OpenID provider's session cookie may carry that same value: only a fingerprint is kept.
 */
export function sessionFingerprint(sid: string): string {
  return createHash('sha256').update(sid).digest('hex');
}

/** An OAuth principal: the user the token acts for and the scopes it was granted. */
export type OAuthPrincipal = Principal & { kind: 'oauth'; scopes: string[]; clientId: string | null };

/**
 * The second way to authenticate (spec: API keys first, then OAuth access tokens). The auth
 * app issues the tokens; the api only verifies them through this port.
 */
export interface AccessTokenVerifier {
  verify(token: string): Promise<OAuthPrincipal | null>;
}

export const ACCESS_TOKEN_VERIFIER = Symbol('ACCESS_TOKEN_VERIFIER');

/** No OAuth configured: every bearer that is not an API key is unknown. */
export const noAccessTokens: AccessTokenVerifier = { verify: async () => null };

export interface JwtVerifierOptions {
  issuer: string;
  /** Audience the api expects in `aud` (the api's base URL or resource indicator). */
  audience: string;
  /** The issuer's keys: a JWKS URL (the auth app's `/oauth/discovery/keys`) or a key set. */
  keys: URL | JSONWebKeySet;
  clock: Clock;
}

// Asymmetric algorithms only: the api never holds a secret that could mint tokens.
const ALGORITHMS = ['ES256', 'EdDSA', 'RS256', 'PS256'];

/**
 * Verifies JWT access tokens (RFC 9068 profile): signature against the issuer's keys, `iss`,
 * `aud`, `exp`/`nbf` on the injected clock; then the claims name the organization (`org_id`)
 * and the user (`sub`), who must still be a user of that organization. The token's `jti` must
 * still be stored by the provider: revocation (and a refresh token reused after its grace,
 * which revokes the grant) deletes it, so a revoked token stops working before it expires.
 * Reads the identity context's `users` and `oauth_payloads`: the authentication read path.
 */
export class JwtAccessTokenVerifier implements AccessTokenVerifier {
  private readonly keys: JWTVerifyGetKey;

  constructor(
    private readonly dataSource: DataSource,
    private readonly opts: JwtVerifierOptions,
  ) {
    // After a key rotation tokens carry a kid the cached set lacks: refetch after 1 s, not jose's 30 s.
    this.keys = opts.keys instanceof URL ? createRemoteJWKSet(opts.keys, { cooldownDuration: 1000 }) : createLocalJWKSet(opts.keys);
  }

  async verify(token: string): Promise<OAuthPrincipal | null> {
    // A JWT has three dot-separated parts; anything else is not ours to judge.
    if (token.split('.').length !== 3) return null;
    try {
      const { payload } = await jwtVerify(token, this.keys, {
        issuer: this.opts.issuer,
        audience: this.opts.audience,
        algorithms: ALGORITHMS,
        currentDate: this.opts.clock.now(),
      });
      const organizationId = typeof payload.org_id === 'string' ? payload.org_id : null;
      const userId = payload.sub && /^\d+$/.test(payload.sub) ? Number(payload.sub) : null;
      if (!organizationId || userId === null || !payload.jti) return null;
      const [user]: { rate_limit_reads_per_minute: number | null; rate_limit_writes_per_minute: number | null }[] = await this.dataSource.query(
        `SELECT o.rate_limit_reads_per_minute, o.rate_limit_writes_per_minute
           FROM users u JOIN organizations o ON o.id = u.organization_id
          WHERE u.id = $1 AND u.organization_id::text = $2
            AND EXISTS (SELECT 1 FROM oauth_payloads p WHERE p.model IN ('AccessToken', 'ClientCredentials') AND p.id = $3)`,
        [userId, organizationId, payload.jti],
      );
      if (!user) return null;
      const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [];
      const clientId = typeof payload.client_id === 'string' ? payload.client_id : null;
      return {
        organizationId,
        userId,
        apiKeyId: null,
        kind: 'oauth',
        scopes,
        clientId,
        rateLimits: { readsPerMinute: user.rate_limit_reads_per_minute, writesPerMinute: user.rate_limit_writes_per_minute },
        sessionId: typeof payload.sid === 'string' && payload.sid !== '' ? sessionFingerprint(payload.sid) : null,
      };
    } catch (error) {
      if (error instanceof errors.JOSEError) return null;
      throw error;
    }
  }
}
