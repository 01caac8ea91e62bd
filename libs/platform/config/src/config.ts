import { createHmac } from 'node:crypto';
import { resolve } from 'node:path';
import { brokersOf, listOf, readEnvironment } from './environment';

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
   * How long a consumer's inbox row (the record that it applied an event) is kept: an event
   * delivered again later than this is applied again. At least the bus's retention, dead-letter
   * topics included (`taproot dlq replay` skips what each group's inbox holds).
   */
  inboxRetentionHours: number;
  /**
   * How long a verified API key's caller (principal and permissions) is reused before the key is
   * looked up again: the bound on honouring a revocation or role change made on another replica.
   */
  authCacheTtlMs: number;
  /**
   * How long computed shifts (GET /v1/shifts) are reused: a schedule change made through this
   * process clears them at once, one made through another replica shows within this bound.
   */
  shiftCacheTtlMs: number;
  /**
   * How long a public status page's rendered answers are served from memory
   * (`STATUS_PAGE_CACHE_TTL_MS`): a change committed through this process drops them at once, one
   * made through another replica shows within twice this bound (an expired answer is still served
   * while one request re-reads it). 0: every request reads the page.
   */
  statusPageCacheTtlMs: number;
  /**
   * How often the paging engine looks for due escalation steps and notifications when no alert
   * change wakes it (`PAGING_POLL_MS`): the bound on how late a timer fires. 0: never on its own
   * (tests run its passes themselves).
   */
  pagingPollMs: number;
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
  /** The SMTP relay of paging e-mails and address verification mails (`SMTP_URL`, smtp:// or smtps://). Unset: neither is sent. */
  smtpUrl: string | null;
  /** The From of those e-mails (`SMTP_FROM`). */
  smtpFrom: string;
  /**
   * The Twilio (or Twilio-compatible) account that pages by SMS and voice call: the three
   * `TWILIO_*` credentials, all or none. Unset: no SMS or call channel.
   */
  twilio: { accountSid: string; authToken: string; fromNumber: string; apiUrl: string } | null;
  /**
   * Signs the one-click acknowledge links of notifications (`ACKNOWLEDGE_LINK_SECRET`). Unset:
   * derived from `cursorSecret`, so a deployment that sets CURSOR_SECRET has its own without more
   * setup, and the cursor secret cannot be learnt from it.
   */
  acknowledgeLinkSecret: string;
  /** How long an acknowledge link works (`ACKNOWLEDGE_LINK_TTL_HOURS`). */
  acknowledgeLinkTtlHours: number;
  /**
   * The secret of the status page client, the confidential client through which private status
   * pages sign people in at the auth app (`STATUS_PAGE_CLIENT_SECRET`, docs/status-pages.md).
   * Unset: derived from `cursorSecret`, so the api and the auth app agree without more setup.
   */
  statusPageClientSecret: string;
  /** Signs private status pages' session cookies (`STATUS_PAGE_SESSION_SECRET`). Unset: derived from `cursorSecret`. */
  statusPageSessionSecret: string;
  /**
   * Networks outgoing webhooks may reach although the SSRF guard refuses them otherwise (loopback,
   * private, link-local, metadata): `WEBHOOK_ALLOWED_NETWORKS`, comma-separated CIDRs. Default none.
   */
  webhookAllowedNetworks: string[];
  /**
   * The public addresses Taproot's outgoing requests (webhooks, notifications) leave from, as the
   * operator knows them (`EGRESS_IP_RANGES`, comma-separated CIDRs): what `GET /v1/ip_ranges`
   * answers, for receivers that allow-list senders. A self-hosted install cannot know its own
   * egress; default none.
   */
  egressIpRanges: string[];
  /** How often the webhook dispatcher looks for due deliveries (`WEBHOOK_POLL_MS`); 0: only when run (tests). */
  webhookPollMs: number;
  /** How long one delivery attempt may take, connect to last byte (`WEBHOOK_TIMEOUT_MS`). */
  webhookTimeoutMs: number;
  /** Delivery attempts in flight at once per dispatcher process (`WEBHOOK_CONCURRENCY`). */
  webhookConcurrency: number;
  /** An endpoint whose every attempt failed for this long is disabled (`WEBHOOK_DISABLE_AFTER_HOURS`). */
  webhookDisableAfterHours: number;
  /**
   * How long a settled delivery (delivered, failed) is kept (`WEBHOOK_DELIVERY_RETENTION_DAYS`). An
   * event delivered again by the bus after its deliveries were deleted is delivered again.
   */
  webhookDeliveryRetentionDays: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

/**
 * Every setting from the environment, validated by the rules declared on `Environment`
 * (class-validator); a bad value stops the process with one message naming every variable at fault.
 */
export function loadConfig(env: Env = process.env): TaprootConfig {
  const { values: v, problems } = readEnvironment(env);
  if (problems.length > 0) throw new ConfigError(problems.join('; '));
  const int = (value: string | undefined, fallback: number) => (value === undefined ? fallback : Number(value));
  const host = v.HOST ?? '127.0.0.1';
  const port = int(v.PORT, 3000);
  const authPort = int(v.AUTH_PORT, 3001);
  const cursorSecret = v.CURSOR_SECRET ?? 'taproot-cursor-v1';
  /** A secret of its own for each use, none of which reveals the cursor secret. */
  const derived = (purpose: string) => createHmac('sha256', cursorSecret).update(purpose).digest('base64url');
  return {
    port,
    authPort,
    dispatcherPort: int(v.DISPATCHER_PORT, 3002),
    host,
    databaseUrl: v.DATABASE_URL ?? null,
    dataDir: resolve(v.DATA_DIR ?? '.data'),
    embeddedPostgresPort: int(v.EMBEDDED_POSTGRES_PORT, 5433),
    kafkaBrokers: v.KAFKA_BROKERS ? brokersOf(v.KAFKA_BROKERS) : null,
    kafkaClientId: v.KAFKA_CLIENT_ID ?? 'taproot',
    bootstrapApiKey: v.BOOTSTRAP_API_KEY ?? null,
    bootstrapAdmin: v.BOOTSTRAP_ADMIN_EMAIL && v.BOOTSTRAP_ADMIN_PASSWORD ? { email: v.BOOTSTRAP_ADMIN_EMAIL, password: v.BOOTSTRAP_ADMIN_PASSWORD } : null,
    logLevel: (v.LOG_LEVEL ?? 'info') as TaprootConfig['logLevel'],
    cursorSecret,
    relayPollMs: int(v.RELAY_POLL_MS, 250),
    inboxRetentionHours: int(v.INBOX_RETENTION_HOURS, 192),
    authCacheTtlMs: int(v.AUTH_CACHE_TTL_MS, 5000),
    shiftCacheTtlMs: int(v.SHIFT_CACHE_TTL_MS, 5000),
    statusPageCacheTtlMs: int(v.STATUS_PAGE_CACHE_TTL_MS, 500),
    pagingPollMs: int(v.PAGING_POLL_MS, 100),
    rateLimitReadsPerMinute: int(v.RATE_LIMIT_READS_PER_MINUTE, 3000),
    rateLimitWritesPerMinute: int(v.RATE_LIMIT_WRITES_PER_MINUTE, 3000),
    alertCreationLimitPerMinute: int(v.ALERT_CREATION_LIMIT_PER_MINUTE, 50),
    publicUrl: (v.PUBLIC_URL ?? `http://${host}:${port}`).replace(/\/+$/, ''),
    oauthIssuer: v.OAUTH_ISSUER ?? null,
    oauthAudience: v.OAUTH_AUDIENCE ?? null,
    oauthJwksUrl: v.OAUTH_JWKS_URL ?? null,
    authIssuer: (v.AUTH_ISSUER ?? `http://${host}:${authPort}`).replace(/\/+$/, ''),
    oauthKeyEncryptionKey: v.OAUTH_KEY_ENCRYPTION_KEY ?? 'taproot-development-key-encryption-key-v1',
    keyEncryptionKeyIsDefault: !v.OAUTH_KEY_ENCRYPTION_KEY,
    oauthSigningKey: v.OAUTH_SIGNING_KEY ? (JSON.parse(v.OAUTH_SIGNING_KEY) as Record<string, unknown>) : null,
    oauthRefreshGraceSeconds: int(v.OAUTH_REFRESH_GRACE_SECONDS, 60),
    smtpUrl: v.SMTP_URL ?? null,
    smtpFrom: v.SMTP_FROM ?? 'Taproot <taproot@localhost>',
    // Validation saw to it that the three are set together.
    twilio: v.TWILIO_ACCOUNT_SID && v.TWILIO_AUTH_TOKEN && v.TWILIO_FROM_NUMBER
      ? { accountSid: v.TWILIO_ACCOUNT_SID, authToken: v.TWILIO_AUTH_TOKEN, fromNumber: v.TWILIO_FROM_NUMBER, apiUrl: (v.TWILIO_API_URL ?? 'https://api.twilio.com').replace(/\/+$/, '') }
      : null,
    acknowledgeLinkSecret: v.ACKNOWLEDGE_LINK_SECRET ?? derived('taproot.acknowledge-link-secret.v1'),
    acknowledgeLinkTtlHours: int(v.ACKNOWLEDGE_LINK_TTL_HOURS, 24),
    statusPageClientSecret: v.STATUS_PAGE_CLIENT_SECRET ?? derived('taproot.status-page-client-secret.v1'),
    statusPageSessionSecret: v.STATUS_PAGE_SESSION_SECRET ?? derived('taproot.status-page-session-secret.v1'),
    webhookAllowedNetworks: v.WEBHOOK_ALLOWED_NETWORKS ? listOf(v.WEBHOOK_ALLOWED_NETWORKS) : [],
    egressIpRanges: v.EGRESS_IP_RANGES ? listOf(v.EGRESS_IP_RANGES) : [],
    webhookPollMs: int(v.WEBHOOK_POLL_MS, 500),
    webhookTimeoutMs: int(v.WEBHOOK_TIMEOUT_MS, 10_000),
    webhookConcurrency: int(v.WEBHOOK_CONCURRENCY, 64),
    webhookDisableAfterHours: int(v.WEBHOOK_DISABLE_AFTER_HOURS, 120),
    webhookDeliveryRetentionDays: int(v.WEBHOOK_DELIVERY_RETENTION_DAYS, 30),
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
