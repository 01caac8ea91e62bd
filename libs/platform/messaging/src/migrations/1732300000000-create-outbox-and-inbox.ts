import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateOutboxAndInbox1732300000000 implements MigrationInterface {
  name = 'CreateOutboxAndInbox1732300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE outbox (
        seq bigserial PRIMARY KEY,
        event_id uuid NOT NULL UNIQUE,
        topic text NOT NULL,
        aggregate_id text NOT NULL,
        organization_id uuid NOT NULL,
        event jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        published_at timestamptz
      )`);
    await q.query('CREATE INDEX outbox_pending ON outbox (seq) WHERE published_at IS NULL');
    await q.query(`
      CREATE TABLE inbox (
        consumer text NOT NULL,
        event_id uuid NOT NULL,
        processed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (consumer, event_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE inbox');
    await q.query('DROP TABLE outbox');
  }
}
