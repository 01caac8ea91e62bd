import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The record of each Idempotency-Key (docs/decisions/0005-idempotency-keys.md). */
export class CreateIdempotencyKeys1732300004000 implements MigrationInterface {
  name = 'CreateIdempotencyKeys1732300004000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE idempotency_keys (
        organization_id uuid NOT NULL,
        principal text NOT NULL,
        key text NOT NULL,
        request_method text NOT NULL,
        request_path text NOT NULL,
        body_hash text NOT NULL,
        resource_type text,
        resource_id text,
        response_status smallint,
        response_headers jsonb,
        response_body text,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, principal, key)
      )`);
    // The lazy clean-up deletes an organization's expired rows.
    await q.query('CREATE INDEX idempotency_keys_expiry ON idempotency_keys (organization_id, created_at)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE idempotency_keys');
  }
}
