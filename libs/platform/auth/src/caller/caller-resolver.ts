import type { Clock } from '@taproot/config';
import { CommitCache, type DomainEvent, type UnitOfWork } from '@taproot/messaging';
import { hashToken } from '../api-keys/api-key-token';
import type { ApiKeyVerifier } from '../api-keys/api-key-verifier';
import type { AccessTokenVerifier } from '../oauth/access-token-verifier';
import type { PermissionResolver } from '../permissions/permission-resolver';
import type { Caller } from './caller';

/** Events after which a cached caller may be wrong: keys, the roles they carry and the incident permission sets those name, users, teams, organizations. */
const INVALIDATING = /^(api_key|role|on_call_role|incident_permission_set|user|group|organization)\./;

export interface CallerResolverOptions {
  /** How long a verified API key's caller is reused (0: every request verifies). */
  ttlMs: number;
}

/**
 * Turns a bearer token into the request's Caller: API keys first, then OAuth access tokens, and
 * the principal's effective permissions. A verified API key's caller is reused for `ttlMs` (and
 * never past the key's expiry or rotation grace), so steady traffic costs no query to
 * authenticate. Revocation is honoured at once in the process that commits it (every identity
 * change clears the cache on commit) and within `ttlMs` on other replicas. OAuth tokens are not
 * cached: their revocation happens in the auth app, which tells no api process.
 */
export class CallerResolver {
  private readonly cache: CommitCache<Caller>;

  constructor(
    private readonly apiKeys: ApiKeyVerifier,
    private readonly accessTokens: AccessTokenVerifier,
    private readonly permissions: PermissionResolver,
    private readonly clock: Clock,
    options: CallerResolverOptions,
    /** Its commits clear the cache: identity changes may revoke, re-role or re-limit a cached caller. */
    unitOfWork?: UnitOfWork,
  ) {
    this.cache = new CommitCache({ ttlMs: options.ttlMs, invalidatedBy: INVALIDATING }, unitOfWork);
  }

  async resolve(token: string): Promise<Caller | null> {
    const now = this.clock.now().getTime();
    const cacheKey = this.cache.enabled ? hashToken(token) : null;
    const cached = cacheKey ? this.cache.get(cacheKey, now) : undefined;
    if (cached) {
      this.apiKeys.recordUse(cached.apiKeyId!, new Date(now));
      return cached;
    }
    const key = await this.apiKeys.verifyKey(token);
    const principal = key?.principal ?? (await this.accessTokens.verify(token));
    if (!principal) return null;
    const caller: Caller = { ...principal, permissions: await this.permissions.resolve(principal) };
    if (key && cacheKey) this.cache.set(cacheKey, caller, now, key.validUntil ?? Infinity);
    return caller;
  }

  /** After a commit of another unit of work than the constructor's (tests): as that one's commits do. */
  committed(events: readonly DomainEvent[]): void {
    this.cache.committed(events);
  }
}
