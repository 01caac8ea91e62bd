import type { Clock } from '@taproot/config';
import type { DomainEvent } from '@taproot/messaging';
import { hashToken } from '../api-keys/api-key-token';
import type { ApiKeyVerifier } from '../api-keys/api-key-verifier';
import type { AccessTokenVerifier } from '../oauth/access-token-verifier';
import type { PermissionResolver } from '../permissions/permission-resolver';
import type { Caller } from './caller';

/** Events after which a cached caller may be wrong: keys, the roles they carry, users, teams, organizations. */
const INVALIDATING = /^(api_key|role|on_call_role|user|group|organization)\./;
const MAX_ENTRIES = 10_000;

interface Entry {
  caller: Caller;
  /** Epoch ms on the injected clock after which the entry is not used. */
  until: number;
}

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
  private readonly cache = new Map<string, Entry>();

  constructor(
    private readonly apiKeys: ApiKeyVerifier,
    private readonly accessTokens: AccessTokenVerifier,
    private readonly permissions: PermissionResolver,
    private readonly clock: Clock,
    private readonly options: CallerResolverOptions,
  ) {}

  async resolve(token: string): Promise<Caller | null> {
    const now = this.clock.now().getTime();
    const cacheKey = this.options.ttlMs > 0 ? hashToken(token) : null;
    const cached = cacheKey ? this.cache.get(cacheKey) : undefined;
    if (cached && cached.until > now) {
      this.apiKeys.recordUse(cached.caller.apiKeyId!, new Date(now));
      return cached.caller;
    }
    if (cached) this.cache.delete(cacheKey!);
    const key = await this.apiKeys.verifyKey(token);
    const principal = key?.principal ?? (await this.accessTokens.verify(token));
    if (!principal) return null;
    const caller: Caller = { ...principal, permissions: await this.permissions.resolve(principal) };
    if (key && cacheKey) {
      if (this.cache.size >= MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(cacheKey, { caller, until: Math.min(now + this.options.ttlMs, key.validUntil ?? Infinity) });
    }
    return caller;
  }

  /** After a commit: identity changes may revoke, re-role or re-limit a cached caller. */
  committed(events: readonly DomainEvent[]): void {
    if (events.some((e) => INVALIDATING.test(e.type))) this.cache.clear();
  }
}
