import type { Clock } from '@taproot/config';
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import type { DataSource } from 'typeorm';

export const SIGNING_ALG = 'RS256';

export interface SigningKeyOptions {
  clock: Clock;
  /** Secret the private halves are encrypted with (AES-256-GCM under its SHA-256). */
  encryptionKey: string;
  /** A configured private JWK signs instead of the stored keys (they stay published). */
  configuredKey?: JWK | null;
  /**
   * How long a retired key stays published: the longest lifetime of anything it signed
   * (access and ID tokens, 1 hour).
   */
  retiredKeyTtlSeconds: number;
}

export interface SigningKeySet {
  /** Private JWKs, the signing key first: oidc-provider signs with the first and publishes all. */
  keys: JWK[];
}

interface KeyRow {
  kid: string;
  private_jwk_encrypted: string;
  retired_at: Date | null;
}

function cipherKey(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

/** `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
export function encryptJwk(jwk: JWK, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', cipherKey(secret), iv);
  const data = Buffer.concat([cipher.update(JSON.stringify(jwk), 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
}

export function decryptJwk(sealed: string, secret: string): JWK {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== 'v1') throw new Error('unknown signing key encryption format');
  const decipher = createDecipheriv('aes-256-gcm', cipherKey(secret), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return JSON.parse(Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8')) as JWK;
}

async function generateSigningKey(): Promise<{ privateJwk: JWK; publicJwk: JWK }> {
  const { privateKey, publicKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  return {
    privateJwk: { ...(await exportJWK(privateKey)), kid, alg: SIGNING_ALG, use: 'sig' },
    publicJwk: { ...publicJwk, kid, alg: SIGNING_ALG, use: 'sig' },
  };
}

/**
 * The provider's signing keys in `oauth_signing_keys`: generated once (under an advisory lock,
 * so replicas starting together agree on one), private halves encrypted at rest. Rotation adds
 * a key that signs from the next start and retires the others; a retired key stays published
 * until everything it signed has expired.
 */
export class SigningKeys {
  constructor(
    private readonly dataSource: DataSource,
    private readonly opts: SigningKeyOptions,
  ) {}

  async load(): Promise<SigningKeySet> {
    const rows = await this.dataSource.transaction(async (m) => {
      await m.query(`SELECT pg_advisory_xact_lock(hashtext('oauth_signing_keys'))`);
      const active = await m.query('SELECT 1 FROM oauth_signing_keys WHERE retired_at IS NULL LIMIT 1');
      if (active.length === 0) await this.insert(m.query.bind(m));
      const cutoff = new Date(this.opts.clock.now().getTime() - this.opts.retiredKeyTtlSeconds * 1000);
      return (await m.query(
        `SELECT kid, private_jwk_encrypted, retired_at FROM oauth_signing_keys
          WHERE retired_at IS NULL OR retired_at > $1
          ORDER BY retired_at IS NULL DESC, created_at DESC`,
        [cutoff],
      )) as KeyRow[];
    });
    const stored = rows.map((row) => decryptJwk(row.private_jwk_encrypted, this.opts.encryptionKey));
    const configured = this.opts.configuredKey;
    if (!configured) return { keys: stored };
    const kid = configured.kid ?? (await calculateJwkThumbprint(configured));
    return { keys: [{ ...configured, kid, alg: SIGNING_ALG, use: 'sig' }, ...stored.filter((k) => k.kid !== kid)] };
  }

  /** A new signing key; the previous ones are retired (still published until their tokens expire). */
  async rotate(): Promise<string> {
    return this.dataSource.transaction(async (m) => {
      await m.query(`SELECT pg_advisory_xact_lock(hashtext('oauth_signing_keys'))`);
      await m.query('UPDATE oauth_signing_keys SET retired_at = $1 WHERE retired_at IS NULL', [this.opts.clock.now()]);
      return this.insert(m.query.bind(m));
    });
  }

  private async insert(query: (sql: string, params: unknown[]) => Promise<unknown>): Promise<string> {
    const { privateJwk, publicJwk } = await generateSigningKey();
    await query(
      'INSERT INTO oauth_signing_keys (kid, alg, public_jwk, private_jwk_encrypted, created_at) VALUES ($1, $2, $3, $4, $5)',
      [privateJwk.kid, SIGNING_ALG, JSON.stringify(publicJwk), encryptJwk(privateJwk, this.opts.encryptionKey), this.opts.clock.now()],
    );
    return privateJwk.kid as string;
  }
}
