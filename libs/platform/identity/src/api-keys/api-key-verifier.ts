import { systemClock, type Clock } from '@taproot/config';
import type { DataSource } from 'typeorm';
import type { Principal } from '../principal/principal';
import { hashToken, sameHash, tokenPrefix } from './api-key-token';
import type { ApiKeyUsageRecorder } from './api-key-usage';

interface KeyRow {
  id: string;
  organization_id: string;
  user_id: number | null;
  kind: 'global' | 'team' | 'personal';
  token_hash: string;
  previous_token_hash: string | null;
  grace_period_ends_at: Date | null;
  expires_at: Date | null;
}

/**
 * Resolves a bearer token to the API key it belongs to, or null. A key answers to its current
 * token and, until `grace_period_ends_at` (exclusive), to the token a rotation replaced; never
 * after `expires_at` (exclusive) or once revoked. Time comes from the injected clock.
 */
export class ApiKeyVerifier {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock = systemClock,
    private readonly usage: ApiKeyUsageRecorder | null = null,
  ) {}

  async verify(token: string): Promise<Principal | null> {
    if (token.length < 16 || token.length > 512) return null;
    const prefix = tokenPrefix(token);
    const rows: KeyRow[] = await this.dataSource.query(
      `SELECT id, organization_id, user_id, kind, token_hash, previous_token_hash, grace_period_ends_at, expires_at
         FROM api_keys
        WHERE (token_prefix = $1 OR previous_token_prefix = $1) AND revoked_at IS NULL`,
      [prefix],
    );
    const now = this.clock.now();
    const hash = hashToken(token);
    // Compare every candidate in constant time (no early exit); the prefix alone never authenticates.
    let match: KeyRow | undefined;
    for (const row of rows) {
      const current = sameHash(row.token_hash, hash);
      const previous =
        row.previous_token_hash !== null &&
        sameHash(row.previous_token_hash, hash) &&
        row.grace_period_ends_at !== null &&
        now.getTime() < row.grace_period_ends_at.getTime();
      if ((current || previous) && !match) match = row;
    }
    if (!match || (match.expires_at && match.expires_at.getTime() <= now.getTime())) return null;
    this.usage?.record(match.id, now);
    return { organizationId: match.organization_id, userId: match.user_id, apiKeyId: match.id, kind: match.kind };
  }
}
