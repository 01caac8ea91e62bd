import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** Non-secret lookup part of a token: enough to find the row, useless to an attacker alone. */
export const PREFIX_LENGTH = 12;

/** A new key: `tpr_` + 40 base62 characters (238 bits of entropy). */
export function generateApiKeyToken(): string {
  const bytes = randomBytes(40);
  let body = '';
  // 256 % 62 bias is negligible at this length and the token is never reduced further.
  for (const b of bytes) body += ALPHABET[b % ALPHABET.length];
  return `tpr_${body}`;
}

export function tokenPrefix(token: string): string {
  return token.slice(0, PREFIX_LENGTH);
}

/**
 * Keys are long random strings, so a fast hash is enough (no password stretching needed);
 * only the hash is stored.
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
