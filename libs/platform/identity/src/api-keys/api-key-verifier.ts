import type { DataSource } from 'typeorm';
import type { Principal } from '../principal/principal';
import { hashToken, sameHash, tokenPrefix } from './api-key-token';

interface KeyRow {
  id: string;
  organization_id: string;
  user_id: number | null;
  kind: Principal['kind'];
  token_hash: string;
  expires_at: Date | null;
}

/** Resolves a bearer token to the API key it belongs to, or null. */
export class ApiKeyVerifier {
  constructor(private readonly dataSource: DataSource) {}

  async verify(token: string, now = new Date()): Promise<Principal | null> {
    if (token.length < 16 || token.length > 512) return null;
    const rows: KeyRow[] = await this.dataSource.query(
      `SELECT id, organization_id, user_id, kind, token_hash, expires_at
         FROM api_keys WHERE token_prefix = $1 AND revoked_at IS NULL`,
      [tokenPrefix(token)],
    );
    const hash = hashToken(token);
    // Compare every candidate in constant time; the prefix alone never authenticates.
    const match = rows.find((r) => sameHash(r.token_hash, hash));
    if (!match || (match.expires_at && match.expires_at <= now)) return null;
    return { organizationId: match.organization_id, userId: match.user_id, apiKeyId: match.id, kind: match.kind };
  }
}
