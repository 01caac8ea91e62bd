import { createHash, randomBytes } from 'node:crypto';
import { JsonApiError, type Queryable } from '@taproot/json-api';
import { IdentityErrorCode } from '../errors';

/** How long a verification token works after it was minted. */
export const VERIFICATION_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Mints the token that verifies an e-mail address, for the mail that carries it (the mailer, on
 * `user_email_address.verification_requested`; tests stand in for it). 256 random bits, stored as
 * their SHA-256 only; it replaces the address' earlier tokens and expires after
 * VERIFICATION_TOKEN_TTL_MS. Never exposed over HTTP nor put in an event.
 */
export async function issueEmailVerificationToken(db: Queryable, organizationId: string, emailAddressId: string, now = new Date()): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await forgetVerifications(db, organizationId, emailAddressId);
  await db.query('INSERT INTO user_email_address_verifications (token_hash, organization_id, user_email_address_id, expires_at) VALUES ($1, $2, $3, $4)', [
    hashOf(token),
    organizationId,
    emailAddressId,
    new Date(now.getTime() + VERIFICATION_TOKEN_TTL_MS),
  ]);
  return token;
}

/** Drops the address' outstanding tokens, expired ones included (its address changed, or a new token replaces them). */
export async function forgetVerifications(db: Queryable, organizationId: string, emailAddressId: string): Promise<void> {
  await db.query('DELETE FROM user_email_address_verifications WHERE organization_id = $1 AND user_email_address_id = $2', [organizationId, emailAddressId]);
}

/** Uses up the address' unexpired token (single use): 422 on the `token` parameter when there is none such. */
export async function consumeEmailVerificationToken(db: Queryable, organizationId: string, emailAddressId: string, token: string, now: Date): Promise<void> {
  // A SELECT over the DELETE: its rows come back alike through a pool and a transaction's manager.
  const used = (await db.query(
    'WITH used AS (DELETE FROM user_email_address_verifications WHERE token_hash = $1 AND organization_id = $2 AND user_email_address_id = $3 AND expires_at > $4 RETURNING 1) SELECT 1 FROM used',
    [hashOf(token), organizationId, emailAddressId, now],
  )) as unknown[];
  if (used.length) return;
  const detail = 'the verification token is not valid for this email address: wrong, already used, replaced by a newer one, or expired (resend_verification asks for a new one)';
  throw new JsonApiError(422, [{ title: 'Invalid token', status: '422', code: IdentityErrorCode.InvalidVerificationToken, detail, source: { parameter: 'token' } }]);
}
