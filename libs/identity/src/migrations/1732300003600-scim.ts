import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SCIM provisioning (docs: README, "SCIM provisioning"): the identity provider's id of a user
 * (`externalId`, one user per id in an organization) and the organization's SCIM bearer tokens,
 * stored as hashes like API keys.
 */
export class Scim1732300003600 implements MigrationInterface {
  name = 'Scim1732300003600';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE users ADD COLUMN external_id text');
    await q.query('CREATE UNIQUE INDEX users_external_id ON users (organization_id, external_id) WHERE external_id IS NOT NULL');
    await q.query(`
      CREATE TABLE scim_tokens (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        token_hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL,
        revoked_at timestamptz
      )`);
    await q.query('CREATE INDEX scim_tokens_organization ON scim_tokens (organization_id) WHERE revoked_at IS NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE scim_tokens');
    await q.query('DROP INDEX users_external_id');
    await q.query('ALTER TABLE users DROP COLUMN external_id');
  }
}
