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
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Signs list cursors so a tampered cursor is detected. */
  cursorSecret: string;
  /** How long a write waits for its own projection before answering (read-your-writes). */
  projectionWaitMs: number;
  /** How often the outbox relay polls when nothing wakes it. */
  relayPollMs: number;
  /** Per API key per sliding minute (spec, Limits: 3000; see docs/decisions/0001). */
  rateLimitReadsPerMinute: number;
  rateLimitWritesPerMinute: number;
  /**
   * Alerts created per API key or per alert source per sliding minute (spec, Limits: 50). Raise
   * it for a deployment whose monitoring sends more, or for the bench (docs/benchmarks.md).
   */
  alertCreationLimitPerMinute: number;
  /** OAuth access tokens are accepted when all three are set (the auth app's issuer). */
  /**
   * The API's public base URL (`PUBLIC_URL`, e.g. https://taproot.example.com): absolute URLs the
   * API hands out (an alert source's `webhook_endpoint`) start with it. Unset: `http://HOST:PORT`.
   */
  publicUrl: string;
  oauthIssuer: string | null;
  oauthAudience: string | null;
  oauthJwksUrl: string | null;
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
  const dataDir = resolve(optional(env, 'DATA_DIR') ?? '.data');
  return {
    port: int(env, 'PORT', 3000, 0, 65535),
    authPort: int(env, 'AUTH_PORT', 3001, 0, 65535),
    dispatcherPort: int(env, 'DISPATCHER_PORT', 3002, 0, 65535),
    host: optional(env, 'HOST') ?? '127.0.0.1',
    databaseUrl,
    dataDir,
    embeddedPostgresPort: int(env, 'EMBEDDED_POSTGRES_PORT', 5433, 1, 65535),
    kafkaBrokers,
    kafkaClientId: optional(env, 'KAFKA_CLIENT_ID') ?? 'taproot',
    bootstrapApiKey,
    logLevel,
    cursorSecret: optional(env, 'CURSOR_SECRET') ?? 'taproot-cursor-v1',
    projectionWaitMs: int(env, 'PROJECTION_WAIT_MS', 5000, 0, 60000),
    relayPollMs: int(env, 'RELAY_POLL_MS', 250, 10, 60000),
    rateLimitReadsPerMinute: int(env, 'RATE_LIMIT_READS_PER_MINUTE', 3000, 1, 10_000_000),
    rateLimitWritesPerMinute: int(env, 'RATE_LIMIT_WRITES_PER_MINUTE', 3000, 1, 10_000_000),
    alertCreationLimitPerMinute: int(env, 'ALERT_CREATION_LIMIT_PER_MINUTE', 50, 1, 10_000_000),
    publicUrl: (url(env, 'PUBLIC_URL') ?? `http://${optional(env, 'HOST') ?? '127.0.0.1'}:${int(env, 'PORT', 3000, 0, 65535)}`).replace(/\/+$/, ''),
    oauthIssuer: optional(env, 'OAUTH_ISSUER'),
    oauthAudience: optional(env, 'OAUTH_AUDIENCE'),
    oauthJwksUrl: url(env, 'OAUTH_JWKS_URL'),
  };
}

export const TAPROOT_CONFIG = Symbol('TAPROOT_CONFIG');
