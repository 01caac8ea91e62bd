import { createHmac } from 'node:crypto';

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
  const rootly = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${t}${body}`).digest('hex');
  const key = secret.startsWith(STANDARD_SECRET_PREFIX) ? Buffer.from(secret.slice(STANDARD_SECRET_PREFIX.length), 'base64') : Buffer.from(secret, 'utf8');
  const standard = createHmac('sha256', key).update(`${eventId}.${t}.${body}`).digest('base64');
  return {
    'x-rootly-signature': `t=${t},v1=${rootly}`,
    'webhook-id': eventId,
    'webhook-timestamp': t,
    'webhook-signature': `v1,${standard}`,
  };
}
