import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { Clock } from '@taproot/config';
import type { EntityManager } from 'typeorm';

/**
 * Sign-in passwords for the auth app's interaction pages: one per e-mail address (people with
 * users in several organizations share it), scrypt hashes in `user_credentials`.
 *
 * A hash is `scrypt$<N>$<r>$<p>$<salt>$<key>` (base64url salt and key), so the cost can be
 * raised later without invalidating stored hashes: verification reads the parameters back.
 */
/** A DataSource or a transaction's EntityManager. */
type Db = Pick<EntityManager, 'query'>;

const COST = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
/** scrypt needs 128·N·r bytes; Node's default cap (32 MiB) is exactly N=2^15, r=8, too tight. */
const MAX_MEMORY = 64 * 1024 * 1024;
/** Spec is silent; NIST SP 800-63B's minimum for user-chosen secrets. */
export const MIN_PASSWORD_LENGTH = 8;
/** Bounds the work one sign-in attempt can cause. */
export const MAX_PASSWORD_LENGTH = 1024;

function derive(password: string, salt: Buffer, length: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, length, { ...options, maxmem: MAX_MEMORY }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, KEY_LENGTH, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Constant-time comparison; a malformed stored hash never matches. */
export async function passwordMatches(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  const salt = Buffer.from(parts[4], 'base64url');
  const expected = Buffer.from(parts[5], 'base64url');
  if (![N, r, p].every(Number.isSafeInteger) || expected.length === 0) return false;
  const actual = await derive(password, salt, expected.length, { N, r, p });
  return timingSafeEqual(actual, expected);
}

export class PasswordPolicyError extends Error {
  override name = 'PasswordPolicyError';
}

/** Creates or replaces the sign-in password of an e-mail address (stored lower-case). */
export async function setPassword(db: Db, email: string, password: string, clock: Clock): Promise<void> {
  if (password.length < MIN_PASSWORD_LENGTH) throw new PasswordPolicyError(`password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  if (password.length > MAX_PASSWORD_LENGTH) throw new PasswordPolicyError(`password must be at most ${MAX_PASSWORD_LENGTH} characters`);
  const now = clock.now();
  await db.query(
    `INSERT INTO user_credentials (email, password_hash, created_at, updated_at) VALUES (lower($1), $2, $3, $3)
     ON CONFLICT (email) DO UPDATE SET password_hash = EXCLUDED.password_hash, updated_at = EXCLUDED.updated_at`,
    [email.trim(), await hashPassword(password), now],
  );
}

/** Hashed against when the address has no credential, so a miss costs as long as a wrong password. */
let decoy: Promise<string> | null = null;

/** Whether the password is the address's; unknown addresses answer false after the same work. */
export async function verifyPassword(db: Db, email: string, password: string): Promise<boolean> {
  if (password.length > MAX_PASSWORD_LENGTH) return false;
  const [row] = await db.query('SELECT password_hash FROM user_credentials WHERE email = lower($1)', [email.trim()]);
  if (!row) {
    decoy ??= hashPassword(randomBytes(16).toString('hex'));
    await passwordMatches(password, await decoy);
    return false;
  }
  return passwordMatches(password, row.password_hash);
}

/** An organization a signed-in person may act for: their users row there. */
export interface AccountChoice {
  /** users.id: the OAuth accountId (as a decimal string) when this one is picked. */
  userId: number;
  organizationId: string;
  organizationName: string;
  userName: string | null;
}

/** The organizations having a user with this e-mail (case-insensitive), by organization name. */
export async function accountsForEmail(db: Db, email: string): Promise<AccountChoice[]> {
  const rows: { user_id: number; organization_id: string; organization_name: string; user_name: string | null }[] = await db.query(
    `SELECT u.id AS user_id, o.id AS organization_id, o.name AS organization_name, u.full_name AS user_name
       FROM users_view u JOIN organizations o ON o.id = u.organization_id
      WHERE lower(u.email) = lower($1)
      ORDER BY o.name, o.id`,
    [email.trim()],
  );
  return rows.map((r) => ({ userId: r.user_id, organizationId: r.organization_id, organizationName: r.organization_name, userName: r.user_name }));
}
