import { resolve } from 'node:path';

/**
 * Every setting of every app, read from the environment once and validated at start-up
 * (architecture rule 9). A bad value stops the process with a message naming the variable.
 */
export interface TaprootConfig {
  port: number;
  authPort: number;
  dispatcherPort: number;
  host: string;
  /** Unset: an embedded PostgreSQL under `dataDir`. */
  databaseUrl: string | null;
  dataDir: string;
  embeddedPostgresPort: number;
  /** Unset: the in-process bus. */
  kafkaBrokers: string[] | null;
  kafkaClientId: string;
  bootstrapApiKey: string | null;
  /**
   * The bootstrap owner's sign-in for the auth app's pages (`BOOTSTRAP_ADMIN_EMAIL` and
   * `BOOTSTRAP_ADMIN_PASSWORD`, both or neither), used on first start only.
   */
  bootstrapAdmin: { email: string; password: string } | null;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Signs list cursors so a tampered cursor is detected. */
  cursorSecret: string;
  /** How often the outbox relay polls when nothing wakes it. */
  relayPollMs: number;
  /**
   * How long a verified API key's caller (principal and permissions) is reused before the key is
   * looked up again: the bound on honouring a revocation or role change made on another replica.
   */
  authCacheTtlMs: number;
  /** Per API key per sliding minute (spec, Limits: 3000; see docs/decisions/0001). */
  rateLimitReadsPerMinute: number;
  rateLimitWritesPerMinute: number;
  /**
   * Alerts created per API key or per alert source per sliding minute (spec, Limits: 50). Raise
   * it for a deployment whose monitoring sends more, or for the bench (docs/benchmarks.md).
   */
  alertCreationLimitPerMinute: number;
  /**
   * The API's public base URL (`PUBLIC_URL`, e.g. https://taproot.example.com): absolute URLs the
   * API hands out (an alert source's `webhook_endpoint`) start with it. Unset: `http://HOST:PORT`.
   */
  publicUrl: string;
  /** OAuth access tokens are accepted when all three are set (the auth app's issuer). */
  oauthIssuer: string | null;
  oauthAudience: string | null;
  oauthJwksUrl: string | null;
  /** The auth app's issuer URL (`AUTH_ISSUER`, docs/oauth.md). Unset: `http://HOST:AUTH_PORT`. */
  authIssuer: string;
  /**
   * Encrypts the provider's private signing keys at rest (`OAUTH_KEY_ENCRYPTION_KEY`). Unset: a
   * fixed development value, and `keyEncryptionKeyIsDefault` makes the auth app warn loudly.
   */
  oauthKeyEncryptionKey: string;
  keyEncryptionKeyIsDefault: boolean;
  /** A private RS256 JWK (JSON) to sign with instead of a generated key (`OAUTH_SIGNING_KEY`). */
  oauthSigningKey: Record<string, unknown> | null;
  /** How long a rotated refresh token still works (`OAUTH_REFRESH_GRACE_SECONDS`). */
  oauthRefreshGraceSeconds: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be an integer, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function optional(env: Env, name: string): string | null {
  const raw = env[name]?.trim();
  return raw ? raw : null;
}

function url(env: Env, name: string): string | null {
  const raw = optional(env, name);
  if (raw && !/^https?:\/\/\S+$/.test(raw)) throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  return raw;
}

function bootstrapAdminSignIn(env: Env): TaprootConfig['bootstrapAdmin'] {
  const email = optional(env, 'BOOTSTRAP_ADMIN_EMAIL');
  // Not trimmed: spaces may be part of a password.
  const password = env.BOOTSTRAP_ADMIN_PASSWORD || null;
  if (!email && !password) return null;
  if (!email || !password) throw new ConfigError('BOOTSTRAP_ADMIN_EMAIL and BOOTSTRAP_ADMIN_PASSWORD must be set together');
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new ConfigError(`BOOTSTRAP_ADMIN_EMAIL must be an e-mail address, got "${email}"`);
  // The sign-in pages' minimum (libs/identity, oauth/credentials.ts); the value is never echoed.
  if (password.length < 8) throw new ConfigError('BOOTSTRAP_ADMIN_PASSWORD must be at least 8 characters');
  return { email, password };
}

function signingKey(env: Env): Record<string, unknown> | null {
  const raw = optional(env, 'OAUTH_SIGNING_KEY');
  if (!raw) return null;
  let jwk: unknown;
  try {
    jwk = JSON.parse(raw);
  } catch {
    throw new ConfigError('OAUTH_SIGNING_KEY must be a JSON Web Key (JSON)');
  }
  const key = jwk as Record<string, unknown>;
  if (typeof jwk !== 'object' || jwk === null || key.kty !== 'RSA' || typeof key.d !== 'string') {
    throw new ConfigError('OAUTH_SIGNING_KEY must be a private RSA JSON Web Key (kty RSA with d)');
  }
  return key;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export function loadConfig(env: Env = process.env): TaprootConfig {
  const databaseUrl = optional(env, 'DATABASE_URL');
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  const brokers = optional(env, 'KAFKA_BROKERS');
  const kafkaBrokers = brokers ? brokers.split(',').map((b) => b.trim()).filter(Boolean) : null;
  for (const broker of kafkaBrokers ?? []) {
    if (!/^[^\s:]+:\d+$/.test(broker)) throw new ConfigError(`KAFKA_BROKERS entries must be host:port, got "${broker}"`);
  }
  const logLevel = (optional(env, 'LOG_LEVEL') ?? 'info') as TaprootConfig['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const bootstrapApiKey = optional(env, 'BOOTSTRAP_API_KEY');
  if (bootstrapApiKey && bootstrapApiKey.length < 16) {
    throw new ConfigError('BOOTSTRAP_API_KEY must be at least 16 characters');
  }
  const bootstrapAdmin = bootstrapAdminSignIn(env);
  const keyEncryptionKey = optional(env, 'OAUTH_KEY_ENCRYPTION_KEY');
  if (keyEncryptionKey && keyEncryptionKey.length < 32) {
    throw new ConfigError('OAUTH_KEY_ENCRYPTION_KEY must be at least 32 characters');
  }
  const host = optional(env, 'HOST') ?? '127.0.0.1';
  const port = int(env, 'PORT', 3000, 0, 65535);
  const authPort = int(env, 'AUTH_PORT', 3001, 0, 65535);
  const dataDir = resolve(optional(env, 'DATA_DIR') ?? '.data');
  return {
    port,
    authPort,
    dispatcherPort: int(env, 'DISPATCHER_PORT', 3002, 0, 65535),
    host,
    databaseUrl,
    dataDir,
    embeddedPostgresPort: int(env, 'EMBEDDED_POSTGRES_PORT', 5433, 1, 65535),
    kafkaBrokers,
    kafkaClientId: optional(env, 'KAFKA_CLIENT_ID') ?? 'taproot',
    bootstrapApiKey,
    bootstrapAdmin,
    logLevel,
    cursorSecret: optional(env, 'CURSOR_SECRET') ?? 'taproot-cursor-v1',
    relayPollMs: int(env, 'RELAY_POLL_MS', 250, 10, 60000),
    authCacheTtlMs: int(env, 'AUTH_CACHE_TTL_MS', 5000, 0, 60000),
    rateLimitReadsPerMinute: int(env, 'RATE_LIMIT_READS_PER_MINUTE', 3000, 1, 10_000_000),
    rateLimitWritesPerMinute: int(env, 'RATE_LIMIT_WRITES_PER_MINUTE', 3000, 1, 10_000_000),
    alertCreationLimitPerMinute: int(env, 'ALERT_CREATION_LIMIT_PER_MINUTE', 50, 1, 10_000_000),
    publicUrl: (url(env, 'PUBLIC_URL') ?? `http://${host}:${port}`).replace(/\/+$/, ''),
    oauthIssuer: optional(env, 'OAUTH_ISSUER'),
    oauthAudience: optional(env, 'OAUTH_AUDIENCE'),
    oauthJwksUrl: url(env, 'OAUTH_JWKS_URL'),
    authIssuer: (url(env, 'AUTH_ISSUER') ?? `http://${host}:${authPort}`).replace(/\/+$/, ''),
    oauthKeyEncryptionKey: keyEncryptionKey ?? 'taproot-development-key-encryption-key-v1',
    keyEncryptionKeyIsDefault: !keyEncryptionKey,
    oauthSigningKey: signingKey(env),
    oauthRefreshGraceSeconds: int(env, 'OAUTH_REFRESH_GRACE_SECONDS', 60, 0, 86_400),
  };
}

/**
 * `npm start` (all apps in one process): with no OAUTH_* setting the API trusts the auth app
 * started beside it (issuer, audience = the API's base URL, JWKS on the issuer), so its tokens
 * work with no setup. A bad value is left for `loadConfig` to report.
 */
export function trustLocalAuthApp(env: Env): void {
  if (env.OAUTH_ISSUER || env.OAUTH_AUDIENCE || env.OAUTH_JWKS_URL) return;
  try {
    const { authIssuer, publicUrl } = loadConfig(env);
    Object.assign(env, { OAUTH_ISSUER: authIssuer, OAUTH_AUDIENCE: publicUrl, OAUTH_JWKS_URL: `${authIssuer}/oauth/discovery/keys` });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
  }
}

export const TAPROOT_CONFIG = Symbol('TAPROOT_CONFIG');
