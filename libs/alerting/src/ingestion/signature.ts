import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Inbound signature of generic webhook alert sources (spec Events 6):
 *   X-Taproot-Signature: sha256=<hex HMAC-SHA256 of the raw request body, keyed with the source's secret>
 * The HMAC covers the exact bytes received, so the HTTP layer must keep the raw body.
 * A `missing` or `invalid` result answers 401 and stores nothing.
 */
export const SIGNATURE_HEADER = 'x-taproot-signature';
const SCHEME = 'sha256=';

export type SignatureCheck = 'ok' | 'missing' | 'invalid';

function hmac(rawBody: Buffer | string, secret: string): Buffer {
  return createHmac('sha256', secret).update(rawBody).digest();
}

/** The header value a sender puts on `rawBody` (used by tests, the bench and client docs). */
export function signBody(rawBody: Buffer | string, secret: string): string {
  return `${SCHEME}${hmac(rawBody, secret).toString('hex')}`;
}

export function verifySignature(
  rawBody: Buffer | string,
  secret: string,
  header: string | string[] | undefined,
): SignatureCheck {
  if (header === undefined || (Array.isArray(header) && header.length === 0)) return 'missing';
  if (Array.isArray(header)) {
    if (header.length > 1) return 'invalid';
    header = header[0];
  }
  const value = header.trim();
  if (value === '') return 'missing';
  if (value.slice(0, SCHEME.length).toLowerCase() !== SCHEME) return 'invalid';
  const hex = value.slice(SCHEME.length);
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) return 'invalid';
  const given = Buffer.from(hex, 'hex');
  const expected = hmac(rawBody, secret);
  if (given.length !== expected.length) return 'invalid';
  return timingSafeEqual(given, expected) ? 'ok' : 'invalid';
}
