import { systemClock, type Clock } from '@taproot/config';
import type { DataSource } from 'typeorm';
import type { Principal } from '../principal/principal';
import { hashToken, sameHash, tokenPrefix } from './api-key-token';
import type { ApiKeyUsageRecorder } from './api-key-usage';

interface KeyRow {
  id: string;
  organization_id: string;
  user_id: number | null;
  group_id: string | null;
  kind: 'global' | 'team' | 'personal';
  token_hash: string;
  previous_token_hash: string | null;
  grace_period_ends_at: Date | null;
  expires_at: Date | null;
  rate_limit_reads_per_minute: number | null;
  rate_limit_writes_per_minute: number | null;
}

/**
 * Resolves a bearer token to the API key it belongs to, or null. A key answers to its current
 * token and, until `grace_period_ends_at` (exclusive), to the token a rotation replaced; never
 * after `expires_at` (exclusive) or once revoked. Time comes from the injected clock.
 * Reads the identity context's `api_keys` table: it is the authentication read path, so it
 * lives here, beside every context's bearer guard.
 */
export class ApiKeyVerifier {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock = systemClock,
    private readonly usage: ApiKeyUsageRecorder | null = null,
  ) {}

  async verify(token: string): Promise<Principal | null> {
    return (await this.verifyKey(token))?.principal ?? null;
  }

  /**
   * The key's principal and until when this token stays valid without a change to the key
   * (its expiry, or the end of a rotation's grace when the replaced token was sent): a cache of
   * verified keys never outlives either.
   */
  async verifyKey(token: string): Promise<{ principal: Principal; validUntil: number | null } | null> {
    if (token.length < 16 || token.length > 512) return null;
    const prefix = tokenPrefix(token);
    const rows: KeyRow[] = await this.dataSource.query(
      // The organization's limits come along so the rate limiter needs no query of its own.
      `SELECT k.id, k.organization_id, k.user_id, k.group_id, k.kind, k.token_hash, k.previous_token_hash, k.grace_period_ends_at, k.expires_at,
              o.rate_limit_reads_per_minute, o.rate_limit_writes_per_minute
         FROM api_keys k JOIN organizations o ON o.id = k.organization_id
        WHERE (k.token_prefix = $1 OR k.previous_token_prefix = $1) AND k.revoked_at IS NULL`,
      [prefix],
    );
    const now = this.clock.now();
    const hash = hashToken(token);
    // Compare every candidate in constant time (no early exit); the prefix alone never authenticates.
    let match: KeyRow | undefined;
    let byPrevious = false;
    for (const row of rows) {
      const current = sameHash(row.token_hash, hash);
      const previous =
        row.previous_token_hash !== null &&
        sameHash(row.previous_token_hash, hash) &&
        row.grace_period_ends_at !== null &&
        now.getTime() < row.grace_period_ends_at.getTime();
      if ((current || previous) && !match) {
        match = row;
        byPrevious = !current;
      }
    }
    if (!match || (match.expires_at && match.expires_at.getTime() <= now.getTime())) return null;
    this.recordUse(match.id, now);
    const bounds = [match.expires_at?.getTime(), byPrevious ? match.grace_period_ends_at?.getTime() : undefined].filter((t) => t !== undefined);
    const principal: Principal = {
      organizationId: match.organization_id,
      userId: match.user_id,
      apiKeyId: match.id,
      kind: match.kind,
      teamId: match.kind === 'team' ? match.group_id : null,
      rateLimits: { readsPerMinute: match.rate_limit_reads_per_minute, writesPerMinute: match.rate_limit_writes_per_minute },
      sessionId: null,
    };
    return { principal, validUntil: bounds.length ? Math.min(...bounds) : null };
  }

  /** A request this key authenticated (also when its caller came from a cache). */
  recordUse(apiKeyId: string, at: Date): void {
    this.usage?.record(apiKeyId, at);
  }
}
