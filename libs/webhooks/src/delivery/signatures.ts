import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';

/** The Standard Webhooks secret prefix: the rest is the key, base64-encoded. */
const STANDARD_SECRET_PREFIX = 'whsec_';

/**
 * The signature headers of one attempt at `at` (docs/webhook-delivery.md, "Signatures"):
 *
 * - `X-Rootly-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>` over the timestamp followed
 *   directly by the raw body, keyed by the endpoint secret's UTF-8 bytes: the hosted API's own
 *   scheme (docs.rootly.com/configuration/webhooks: "concatenate the timestamp with the request
 *   body"; its Ruby example hexdigests `timestamp + request_body`), so its receivers work unchanged;
 * - the Standard Webhooks headers (`webhook-id` = the domain event's id, stable across retries:
 *   the idempotency key; `webhook-timestamp`; `webhook-signature: v1,<base64 HMAC-SHA256>` over
 *   `<id>.<timestamp>.<body>`), keyed by the base64-decoded rest of a `whsec_` secret, otherwise
 *   by the secret's UTF-8 bytes (a standardwebhooks verifier then takes it with `format: 'raw'`).
 */
export function signatureHeaders(secret: string, eventId: string, body: string, at: Date): Record<string, string> {
  const t = String(Math.floor(at.getTime() / 1000));
  const keys = keysOf(secret);
  const rootly = createHmac('sha256', keys.rootly).update(`${t}${body}`).digest('hex');
  const standard = createHmac('sha256', keys.standard).update(`${eventId}.${t}.${body}`).digest('base64');
  return {
    'x-rootly-signature': `t=${t},v1=${rootly}`,
    'webhook-id': eventId,
    'webhook-timestamp': t,
    'webhook-signature': `v1,${standard}`,
  };
}

/** Endpoints' keys, made once: an HMAC under a KeyObject costs a quarter of one under a Buffer (Node 24). */
const keyCache = new Map<string, { rootly: KeyObject; standard: KeyObject }>();
/** Enough for every endpoint of a large deployment; past it the cache starts again. */
const KEY_CACHE_LIMIT = 10_000;

function keysOf(secret: string): { rootly: KeyObject; standard: KeyObject } {
  let keys = keyCache.get(secret);
  if (!keys) {
    if (keyCache.size >= KEY_CACHE_LIMIT) keyCache.clear();
    const utf8 = createSecretKey(Buffer.from(secret, 'utf8'));
    keys = { rootly: utf8, standard: secret.startsWith(STANDARD_SECRET_PREFIX) ? createSecretKey(Buffer.from(secret.slice(STANDARD_SECRET_PREFIX.length), 'base64')) : utf8 };
    keyCache.set(secret, keys);
  }
  return keys;
}
