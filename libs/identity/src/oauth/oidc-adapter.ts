import type { Clock } from '@taproot/config';
import type { DataSource } from 'typeorm';

/** What oidc-provider stores for every model (its `AdapterPayload`), as far as the adapter reads it. */
export interface OidcPayload {
  [key: string]: unknown;
  grantId?: string;
  userCode?: string;
  uid?: string;
  consumed?: number;
}

/** oidc-provider's adapter interface (one instance per model name). */
export interface OidcAdapter {
  upsert(id: string, payload: OidcPayload, expiresIn?: number): Promise<void>;
  find(id: string): Promise<OidcPayload | undefined>;
  findByUserCode(userCode: string): Promise<OidcPayload | undefined>;
  findByUid(uid: string): Promise<OidcPayload | undefined>;
  consume(id: string): Promise<void>;
  destroy(id: string): Promise<void>;
  revokeByGrantId(grantId: string): Promise<void>;
}

export interface OidcAdapterOptions {
  clock: Clock;
  /** How long a consumed (rotated) refresh token is still served as unconsumed. */
  refreshGraceSeconds: number;
  /**
   * JWT access tokens are stored under their `jti`, but clients present the JWT itself: resolves
   * a presented JWT to its jti after checking its signature (null: not one of ours).
   */
  jwtId?: (token: string) => Promise<string | null>;
}

const JWT_MODELS = new Set(['AccessToken', 'ClientCredentials']);
/** Expired rows are never read again; they are deleted at most this often. */
const CLEANUP_INTERVAL_MS = 10 * 60_000;

/**
 * oidc-provider's storage on `oauth_payloads` (one row per model and id), so every replica sees
 * the same clients, grants, codes, sessions and tokens, and they survive restarts. Expiry is
 * judged on the injected clock (tests move it past a code's 60 s). A consumed refresh token
 * reads as unconsumed during the grace period (a client whose rotation response was lost can
 * retry); after it, oidc-provider sees it consumed and revokes the whole grant (docs/oauth.md).
 */
export function postgresOidcAdapter(dataSource: DataSource, opts: OidcAdapterOptions): new (model: string) => OidcAdapter {
  let lastCleanup = 0;
  const cleanup = async (now: Date) => {
    if (now.getTime() - lastCleanup < CLEANUP_INTERVAL_MS) return;
    lastCleanup = now.getTime();
    await dataSource.query('DELETE FROM oauth_payloads WHERE expires_at < $1', [now]).catch(() => undefined);
  };
  return class PostgresOidcAdapter implements OidcAdapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: OidcPayload, expiresIn?: number): Promise<void> {
      const now = opts.clock.now();
      const expiresAt = expiresIn ? new Date(now.getTime() + expiresIn * 1000) : null;
      await dataSource.query(
        `INSERT INTO oauth_payloads (model, id, payload, grant_id, user_code, uid, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (model, id) DO UPDATE
           SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id, user_code = EXCLUDED.user_code,
               uid = EXCLUDED.uid, expires_at = EXCLUDED.expires_at`,
        [this.model, id, JSON.stringify(payload), payload.grantId ?? null, payload.userCode ?? null, payload.uid ?? null, expiresAt],
      );
      await cleanup(now);
    }

    async find(id: string): Promise<OidcPayload | undefined> {
      let key: string | null = id;
      if (JWT_MODELS.has(this.model) && id.split('.').length === 3) key = (await opts.jwtId?.(id)) ?? null;
      return key === null ? undefined : this.findWhere('id = $2', key);
    }

    findByUserCode(userCode: string): Promise<OidcPayload | undefined> {
      return this.findWhere('user_code = $2', userCode);
    }

    findByUid(uid: string): Promise<OidcPayload | undefined> {
      return this.findWhere('uid = $2', uid);
    }

    async consume(id: string): Promise<void> {
      // The first use counts: a retry within the grace does not extend it.
      await dataSource.query('UPDATE oauth_payloads SET consumed_at = COALESCE(consumed_at, $3) WHERE model = $1 AND id = $2', [
        this.model,
        id,
        opts.clock.now(),
      ]);
    }

    async destroy(id: string): Promise<void> {
      await dataSource.query('DELETE FROM oauth_payloads WHERE model = $1 AND id = $2', [this.model, id]);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await dataSource.query('DELETE FROM oauth_payloads WHERE model = $1 AND grant_id = $2', [this.model, grantId]);
    }

    private async findWhere(condition: string, value: string): Promise<OidcPayload | undefined> {
      const now = opts.clock.now();
      const [row]: { payload: OidcPayload; consumed_at: Date | null }[] = await dataSource.query(
        `SELECT payload, consumed_at FROM oauth_payloads
          WHERE model = $1 AND ${condition} AND (expires_at IS NULL OR expires_at > $3)`,
        [this.model, value, now],
      );
      if (!row) return undefined;
      if (!row.consumed_at) return row.payload;
      const inGrace = this.model === 'RefreshToken' && now.getTime() - row.consumed_at.getTime() <= opts.refreshGraceSeconds * 1000;
      return inGrace ? row.payload : { ...row.payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) };
    }
  };
}
