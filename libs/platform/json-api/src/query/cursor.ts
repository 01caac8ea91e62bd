import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { JsonApiError } from '../errors/json-api-error';

/**
 * Opaque keyset cursors of `page[after]` / `page[before]`.
 *
 * A cursor names a boundary row by the values of its sort keys (the client's sort plus the
 * `created_at` and `id` tiebreakers) and carries a fingerprint of the query it was issued for
 * (resource type, full sort, filters, search, extra filters). Wire form:
 *
 *   base64url( MAC[16 bytes] || JSON `["<fingerprint>", [v1, v2, ...]]` )
 *
 * where MAC = HMAC-SHA256(secret, "taproot.cursor.v1\n" || JSON) truncated to 128 bits.
 * Values are strings, numbers, booleans or null exactly as the read model returned them
 * (timestamps as ISO strings with microseconds, see `list-sql.ts`), so they round-trip
 * exactly and are cast back in SQL.
 */
export type CursorValue = string | number | boolean | null;

const MAC_CONTEXT = 'taproot.cursor.v1\n';
const MAC_BYTES = 16;
/** Longer tokens are refused before any decoding work. */
export const MAX_CURSOR_LENGTH = 4096;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

function requireSecret(secret: string): void {
  if (typeof secret !== 'string' || secret.length === 0) {
    throw new Error('cursor pagination needs a non-empty cursorSecret');
  }
}

function mac(secret: string, payload: Buffer): Buffer {
  return createHmac('sha256', secret).update(MAC_CONTEXT).update(payload).digest().subarray(0, MAC_BYTES);
}

/**
 * Fingerprint of everything that decides which rows a keyset page holds and in which order.
 * `parts` must already be canonical (same query -> same JSON); see `listFingerprint` in
 * `list-query.ts`. Not secret: the MAC protects it.
 */
export function fingerprintOf(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 16);
}

export function encodeCursor(fingerprint: string, values: readonly CursorValue[], secret: string): string {
  requireSecret(secret);
  for (const v of values) {
    if (v !== null && typeof v !== 'string' && typeof v !== 'boolean' && !(typeof v === 'number' && Number.isFinite(v))) {
      throw new Error(`cursor values must be strings, finite numbers, booleans or null; got ${String(v)}`);
    }
  }
  const payload = Buffer.from(JSON.stringify([fingerprint, values]), 'utf8');
  return Buffer.concat([mac(secret, payload), payload]).toString('base64url');
}

export interface DecodeCursorOptions {
  secret: string;
  /** Fingerprint of the current request; a different one means a stale cursor. */
  fingerprint: string;
  /** Query parameter the cursor came in (`page[after]` / `page[before]`), for the 400. */
  parameter: string;
}

function invalid(parameter: string): JsonApiError {
  return JsonApiError.badParameter(parameter, 'Invalid cursor');
}

/**
 * Verifies and decodes a cursor. Anything that is not a cursor this server signed -> 400
 * `Invalid cursor`; a genuine cursor issued under another sort/filter -> 400 stale cursor.
 */
export function decodeCursor(token: string, opts: DecodeCursorOptions): CursorValue[] {
  requireSecret(opts.secret);
  if (typeof token !== 'string' || token.length === 0 || token.length > MAX_CURSOR_LENGTH || !BASE64URL.test(token)) {
    throw invalid(opts.parameter);
  }
  const raw = Buffer.from(token, 'base64url');
  // Reject non-canonical encodings (e.g. trailing bits set) so one cursor has one spelling.
  if (raw.length <= MAC_BYTES || raw.toString('base64url') !== token) throw invalid(opts.parameter);
  const given = raw.subarray(0, MAC_BYTES);
  const payload = raw.subarray(MAC_BYTES);
  if (!timingSafeEqual(given, mac(opts.secret, payload))) throw invalid(opts.parameter);
  let decoded: unknown;
  try {
    decoded = JSON.parse(payload.toString('utf8'));
  } catch {
    throw invalid(opts.parameter);
  }
  if (
    !Array.isArray(decoded) ||
    decoded.length !== 2 ||
    typeof decoded[0] !== 'string' ||
    !Array.isArray(decoded[1]) ||
    !(decoded[1] as unknown[]).every(
      (v) => v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)),
    )
  ) {
    throw invalid(opts.parameter);
  }
  if (decoded[0] !== opts.fingerprint) {
    throw JsonApiError.badParameter(
      opts.parameter,
      'Stale cursor: it was issued for a different sort, filter or search; start again from the first page',
    );
  }
  return decoded[1] as CursorValue[];
}
