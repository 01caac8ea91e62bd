import { createHash } from 'node:crypto';
import { JsonApiError } from '@taproot/json-api';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** 1 to 255 printable ASCII characters (spaces inside allowed; the HTTP parser trims the ends). */
const KEY = /^[\x20-\x7e]{1,255}$/;

/** The request's key; a malformed one is a 400 naming the header. */
export function parseIdempotencyKey(value: string | string[]): string {
  if (typeof value === 'string' && KEY.test(value)) return value;
  throw JsonApiError.of(400, 'Invalid Idempotency-Key header', `${IDEMPOTENCY_HEADER} must be 1 to 255 printable ASCII characters`, 'INVALID_IDEMPOTENCY_KEY', {
    header: IDEMPOTENCY_HEADER,
  });
}

/** JSON with every object's keys sorted: the same document hashes alike however its members were ordered. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** SHA-256 of the parsed body in canonical form; raw bodies (bytes) as received. */
export function requestBodyHash(body: unknown): string {
  const hash = createHash('sha256');
  if (Buffer.isBuffer(body)) hash.update(body);
  else if (body !== undefined) hash.update(canonicalJson(body));
  return hash.digest('hex');
}
