import { isIP } from 'node:net';
import { getMetadataStorage, IsIn, IsJSON, IsOptional, Matches, MinLength, ValidateBy, validateSync, type ValidationArguments, type ValidationOptions } from 'class-validator';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const HTTP_URL = /^https?:\/\/\S+$/;
const urlMessage = { message: (a: ValidationArguments) => `${a.property} must be an http(s) URL, got "${String(a.value)}"` };

/** An integer variable: digits only, then within [min, max] (one message each, naming the variable). */
function Integer(min: number, max: number): PropertyDecorator {
  const digits = Matches(/^\d+$/, { message: (a: ValidationArguments) => `${a.property} must be an integer, got "${String(a.value)}"` });
  const range = ValidateBy({
    name: 'integerBetween',
    // A non-integer is the digits rule's to report.
    validator: { validate: (value: unknown) => !/^\d+$/.test(String(value)) || (Number(value) >= min && Number(value) <= max) },
  }, { message: (a: ValidationArguments) => `${a.property} must be between ${min} and ${max}, got ${String(a.value)}` });
  return (target, key) => {
    IsOptional()(target, key);
    digits(target, key);
    range(target, key);
  };
}

/** Optional comma-separated CIDRs; the message names the first entry that is not one. */
function CidrList(example: string): PropertyDecorator {
  const cidrs = ValidateBy(
    { name: 'cidrList', validator: { validate: (value: unknown) => listOf(String(value)).every(isCidr) } },
    { message: (a: ValidationArguments) => `${a.property} entries must be CIDRs (address/prefix, e.g. ${example}), got "${listOf(String(a.value)).find((e) => !isCidr(e))}"` },
  );
  return (target, key) => {
    IsOptional()(target, key);
    cidrs(target, key);
  };
}

/**
 * Set only together with the rest of `group` (a sign-in is an e-mail and a password; Twilio needs
 * an account, its token and a number). The message names the group and what is unset; each set
 * member reports the same message, which `readEnvironment` gives once.
 */
function SetTogether(group: (keyof Environment)[], options?: ValidationOptions): PropertyDecorator {
  const unset = (object: object) => group.filter((name) => (object as Environment)[name] === undefined);
  const names = [...group].sort();
  return ValidateBy({ name: 'setTogether', validator: { validate: (_value: unknown, a: ValidationArguments) => unset(a.object).length === 0 } }, {
    message: (a: ValidationArguments) => `${names.slice(0, -1).join(', ')} and ${names.at(-1)} must be set together (unset: ${unset(a.object).join(', ')})`,
    ...options,
  });
}

const BOOTSTRAP_ADMIN: (keyof Environment)[] = ['BOOTSTRAP_ADMIN_EMAIL', 'BOOTSTRAP_ADMIN_PASSWORD'];
const TWILIO: (keyof Environment)[] = ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM_NUMBER'];
const E164 = /^\+[1-9]\d{1,14}$/;

/**
 * The process environment as the apps read it, validated with class-validator at start-up: each
 * property is a variable (trimmed; empty means unset), each rule's message names it. `loadConfig`
 * turns the validated values into `TaprootConfig`.
 */
export class Environment {
  @Integer(0, 65535) PORT?: string;
  @Integer(0, 65535) AUTH_PORT?: string;
  @Integer(0, 65535) DISPATCHER_PORT?: string;
  @IsOptional() HOST?: string;
  @IsOptional() @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// or postgresql:// URL' }) DATABASE_URL?: string;
  @IsOptional() DATA_DIR?: string;
  @Integer(1, 65535) EMBEDDED_POSTGRES_PORT?: string;

  @IsOptional()
  @ValidateBy(
    { name: 'brokerList', validator: { validate: (value: unknown) => brokersOf(String(value)).every((b) => /^[^\s:]+:\d+$/.test(b)) } },
    { message: (a: ValidationArguments) => `KAFKA_BROKERS entries must be host:port, got "${brokersOf(String(a.value)).find((b) => !/^[^\s:]+:\d+$/.test(b))}"` },
  )
  KAFKA_BROKERS?: string;

  @IsOptional() KAFKA_CLIENT_ID?: string;
  @IsOptional() @MinLength(16, { message: 'BOOTSTRAP_API_KEY must be at least 16 characters' }) BOOTSTRAP_API_KEY?: string;

  @IsOptional()
  @SetTogether(BOOTSTRAP_ADMIN)
  @Matches(/^[^\s@]+@[^\s@]+$/, { message: (a: ValidationArguments) => `BOOTSTRAP_ADMIN_EMAIL must be an e-mail address, got "${String(a.value)}"` })
  BOOTSTRAP_ADMIN_EMAIL?: string;

  /** Not trimmed (spaces may be part of a password), never echoed. 8: the sign-in pages' minimum (libs/identity, oauth/credentials.ts). */
  @IsOptional()
  @SetTogether(BOOTSTRAP_ADMIN)
  @MinLength(8, { message: 'BOOTSTRAP_ADMIN_PASSWORD must be at least 8 characters' })
  BOOTSTRAP_ADMIN_PASSWORD?: string;

  @IsOptional() @IsIn(LOG_LEVELS, { message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` }) LOG_LEVEL?: string;
  @IsOptional() CURSOR_SECRET?: string;
  @Integer(10, 60000) RELAY_POLL_MS?: string;
  @Integer(1, 87600) INBOX_RETENTION_HOURS?: string;
  @Integer(0, 60000) AUTH_CACHE_TTL_MS?: string;
  @Integer(0, 600000) SHIFT_CACHE_TTL_MS?: string;
  @Integer(0, 600000) STATUS_PAGE_CACHE_TTL_MS?: string;
  @Integer(0, 60000) PAGING_POLL_MS?: string;
  @Integer(1, 10_000_000) RATE_LIMIT_READS_PER_MINUTE?: string;
  @Integer(1, 10_000_000) RATE_LIMIT_WRITES_PER_MINUTE?: string;
  @Integer(1, 10_000_000) ALERT_CREATION_LIMIT_PER_MINUTE?: string;
  @IsOptional() @Matches(HTTP_URL, urlMessage) PUBLIC_URL?: string;
  @IsOptional() OAUTH_ISSUER?: string;
  @IsOptional() OAUTH_AUDIENCE?: string;
  @IsOptional() @Matches(HTTP_URL, urlMessage) OAUTH_JWKS_URL?: string;
  @IsOptional() @Matches(HTTP_URL, urlMessage) AUTH_ISSUER?: string;
  @IsOptional() @MinLength(32, { message: 'OAUTH_KEY_ENCRYPTION_KEY must be at least 32 characters' }) OAUTH_KEY_ENCRYPTION_KEY?: string;

  @IsOptional()
  @IsJSON({ message: 'OAUTH_SIGNING_KEY must be a JSON Web Key (JSON)' })
  @ValidateBy(
    // Unparseable JSON is IsJSON's to report.
    { name: 'privateRsaJwk', validator: { validate: (value: unknown) => { const jwk = parsedOrUndefined(String(value)); return jwk === undefined || isPrivateRsaJwk(jwk); } } },
    { message: 'OAUTH_SIGNING_KEY must be a private RSA JSON Web Key (kty RSA with d)' },
  )
  OAUTH_SIGNING_KEY?: string;

  @Integer(0, 86_400) OAUTH_REFRESH_GRACE_SECONDS?: string;

  /** Never echoed: the URL may carry the relay's password. */
  @IsOptional() @Matches(/^smtps?:\/\/[^\s/?#]+/, { message: 'SMTP_URL must be an smtp:// or smtps:// URL with a host' }) SMTP_URL?: string;

  @IsOptional()
  @Matches(/^([^<>]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/, { message: (a: ValidationArguments) => `SMTP_FROM must be an address, as "Name <user@host>" or "user@host", got "${String(a.value)}"` })
  SMTP_FROM?: string;

  @IsOptional() @SetTogether(TWILIO) TWILIO_ACCOUNT_SID?: string;
  /** Never echoed. */
  @IsOptional() @SetTogether(TWILIO) TWILIO_AUTH_TOKEN?: string;

  @IsOptional()
  @SetTogether(TWILIO)
  @Matches(E164, { message: (a: ValidationArguments) => `TWILIO_FROM_NUMBER must be an E.164 phone number (+ and up to 15 digits), got "${String(a.value)}"` })
  TWILIO_FROM_NUMBER?: string;

  @IsOptional() @Matches(HTTP_URL, urlMessage) TWILIO_API_URL?: string;
  /** Holders of a link could guess a short secret offline (the link carries a MAC made with it). */
  @IsOptional() @MinLength(32, { message: 'ACKNOWLEDGE_LINK_SECRET must be at least 32 characters' }) ACKNOWLEDGE_LINK_SECRET?: string;
  @Integer(1, 720) ACKNOWLEDGE_LINK_TTL_HOURS?: string;
  /** The status page client's secret at the auth app: both apps must hold the same one. */
  @IsOptional() @MinLength(32, { message: 'STATUS_PAGE_CLIENT_SECRET must be at least 32 characters' }) STATUS_PAGE_CLIENT_SECRET?: string;
  /** Signs private status pages' session cookies (a short key could be guessed offline from one). */
  @IsOptional() @MinLength(32, { message: 'STATUS_PAGE_SESSION_SECRET must be at least 32 characters' }) STATUS_PAGE_SESSION_SECRET?: string;

  @CidrList('10.0.0.0/8') WEBHOOK_ALLOWED_NETWORKS?: string;
  @CidrList('203.0.113.0/24') EGRESS_IP_RANGES?: string;

  @Integer(0, 60000) WEBHOOK_POLL_MS?: string;
  @Integer(100, 300_000) WEBHOOK_TIMEOUT_MS?: string;
  @Integer(1, 10_000) WEBHOOK_CONCURRENCY?: string;
  @Integer(1, 8760) WEBHOOK_DISABLE_AFTER_HOURS?: string;
  // At least two days: a delivery retries for 24 hours after its first attempt.
  @Integer(2, 3650) WEBHOOK_DELIVERY_RETENTION_DAYS?: string;
}

/** A comma-separated list's entries, trimmed, empty ones left out. */
export const listOf = (list: string) => list.split(',').map((b) => b.trim()).filter(Boolean);
export const brokersOf = listOf;

/** `address/prefix`, IPv4 (prefix 0-32) or IPv6 (0-128). */
export function isCidr(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split('/');
  const version = isIP(address ?? '');
  return rest.length === 0 && version !== 0 && /^\d{1,3}$/.test(prefix ?? '') && Number(prefix) <= (version === 4 ? 32 : 128);
}

function parsedOrUndefined(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}

const isPrivateRsaJwk = (jwk: unknown): jwk is Record<string, unknown> =>
  typeof jwk === 'object' && jwk !== null && (jwk as Record<string, unknown>).kty === 'RSA' && typeof (jwk as Record<string, unknown>).d === 'string';

/** Variables read as given: a password's spaces are part of it. */
const UNTRIMMED = new Set<string>(['BOOTSTRAP_ADMIN_PASSWORD']);

/** Every variable Environment declares (each has at least `IsOptional`). */
const DECLARED = [...new Set(getMetadataStorage().getTargetValidationMetadatas(Environment, '', true, false).map((m) => m.propertyName))];

/** The variables of `env` that Environment declares (trimmed, empty ones left out) and every rule they break, in declaration order. */
export function readEnvironment(env: Record<string, string | undefined>): { values: Environment; problems: string[] } {
  const values = new Environment();
  for (const name of DECLARED) {
    const raw = UNTRIMMED.has(name) ? env[name] : env[name]?.trim();
    if (raw) (values as Record<string, string>)[name] = raw;
  }
  // A group set only in part (SetTogether) reports one message from each member that is set.
  const problems = [...new Set(validateSync(values, { forbidUnknownValues: false }).flatMap((error) => Object.values(error.constraints ?? {})))];
  return { values, problems };
}
