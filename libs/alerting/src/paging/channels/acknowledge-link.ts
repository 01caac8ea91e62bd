import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The token of a one-click acknowledge link, sent in every notification:
 *
 *   base64url(JSON claims) '.' base64url(HMAC-SHA256(secret, "taproot.acknowledge.v1\n" || JSON))
 *
 * It proves who was paged for which alert until it expires; "works once" is the engine's to
 * enforce (by the notification row), since a stateless token cannot know it was used.
 */
export interface AcknowledgeClaims {
  notificationId: string;
  organizationId: string;
  alertId: string;
  /** The paged user, null when the target was not a user (an address given directly). */
  userId: number | null;
  expiresAt: Date;
}

/** The claims on the wire: short keys, because the link goes into SMS bodies (1600 characters). */
interface WireClaims {
  n: string;
  o: string;
  a: string;
  u: number | null;
  /** Expiry in epoch milliseconds, so a Date round-trips exactly. */
  x: number;
}

// Keeps a MAC of another Taproot token (a list cursor) from ever verifying here, should the
// secrets be the same.
const MAC_CONTEXT = 'taproot.acknowledge.v1\n';
/** Longer tokens are refused before any work: real ones are about 250 characters. */
const MAX_TOKEN_LENGTH = 1024;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

function mac(secret: string, payload: Buffer): Buffer {
  if (secret.length === 0) throw new Error('acknowledge links need a non-empty secret');
  return createHmac('sha256', secret).update(MAC_CONTEXT).update(payload).digest();
}

export function signAcknowledgeToken(claims: AcknowledgeClaims, secret: string): string {
  const wire: WireClaims = { n: claims.notificationId, o: claims.organizationId, a: claims.alertId, u: claims.userId, x: claims.expiresAt.getTime() };
  const payload = Buffer.from(JSON.stringify(wire), 'utf8');
  return `${payload.toString('base64url')}.${mac(secret, payload).toString('base64url')}`;
}

/** The token's claims, or null when it is malformed, not signed with `secret`, or expired at `now`. */
export function verifyAcknowledgeToken(token: string, secret: string, now: Date): AcknowledgeClaims | null {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return null;
  const parts = token.split('.');
  if (parts.length !== 2 || !parts.every((part) => BASE64URL.test(part))) return null;
  const payload = Buffer.from(parts[0], 'base64url');
  const given = Buffer.from(parts[1], 'base64url');
  // One token has one spelling: non-canonical base64url (trailing bits set) is refused.
  if (payload.toString('base64url') !== parts[0] || given.toString('base64url') !== parts[1]) return null;
  const expected = mac(secret, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  // Signed by us, so it is our JSON; its shape is checked anyway so that no claim is taken on trust.
  let wire: unknown;
  try {
    wire = JSON.parse(payload.toString('utf8'));
  } catch {
    return null;
  }
  if (!isWireClaims(wire)) return null;
  if (now.getTime() >= wire.x) return null;
  return { notificationId: wire.n, organizationId: wire.o, alertId: wire.a, userId: wire.u, expiresAt: new Date(wire.x) };
}

function isWireClaims(value: unknown): value is WireClaims {
  if (typeof value !== 'object' || value === null) return false;
  const w = value as Record<string, unknown>;
  const id = (v: unknown) => typeof v === 'string' && v.length > 0;
  return id(w.n) && id(w.o) && id(w.a) && (w.u === null || Number.isSafeInteger(w.u)) && Number.isFinite(w.x);
}
