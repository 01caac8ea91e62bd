import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The OAuth 2.0 / OpenID Connect provider's storage (apps/auth, docs/oauth.md):
 * - `oauth_payloads`: every model oidc-provider persists (clients, grants, codes, sessions, tokens,
 *   interactions...) through its Postgres adapter, keyed by (model, id), with the lookups the
 *   adapter interface needs (grant, uid, user code) and expiry;
 * - `oauth_applications`: the organization-facing record of a client (who it acts for, its
 *   service user for client credentials, revocation), what the admin API lists;
 * - `user_credentials`: sign-in passwords (scrypt) by e-mail, one per person across the
 *   organizations whose users share that address;
 * - `oauth_signing_keys`: the provider's signing keys, private halves encrypted at rest; retired
 *   keys stay published until the tokens they signed expire.
 */
export class OAuth1732300003000 implements MigrationInterface {
  name = 'OAuth1732300003000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE oauth_payloads (
        model text NOT NULL,
        id text NOT NULL,
        payload jsonb NOT NULL,
        grant_id text,
        user_code text,
        uid text,
        expires_at timestamptz,
        consumed_at timestamptz,
        PRIMARY KEY (model, id)
      )`);
    await q.query('CREATE INDEX oauth_payloads_grant ON oauth_payloads (grant_id) WHERE grant_id IS NOT NULL');
    await q.query('CREATE INDEX oauth_payloads_uid ON oauth_payloads (uid) WHERE uid IS NOT NULL');
    await q.query('CREATE INDEX oauth_payloads_user_code ON oauth_payloads (user_code) WHERE user_code IS NOT NULL');
    await q.query('CREATE INDEX oauth_payloads_expires ON oauth_payloads (expires_at) WHERE expires_at IS NOT NULL');
    await q.query(`
      CREATE TABLE oauth_applications (
        client_id text PRIMARY KEY,
        organization_id uuid REFERENCES organizations(id) ON DELETE CASCADE,
        name text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('registered', 'client_credentials')),
        scope text NOT NULL DEFAULT '',
        service_user_id integer REFERENCES users(id) ON DELETE SET NULL,
        created_by_user_id integer,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        revoked_at timestamptz
      )`);
    await q.query('CREATE INDEX oauth_applications_organization ON oauth_applications (organization_id, created_at, client_id)');
    await q.query(`
      CREATE TABLE user_credentials (
        email text PRIMARY KEY CHECK (email = lower(email)),
        password_hash text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE TABLE oauth_signing_keys (
        kid text PRIMARY KEY,
        alg text NOT NULL,
        public_jwk jsonb NOT NULL,
        private_jwk_encrypted text NOT NULL,
        created_at timestamptz NOT NULL,
        retired_at timestamptz
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE oauth_signing_keys, user_credentials, oauth_applications, oauth_payloads');
  }
}
