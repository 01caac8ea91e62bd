import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The outbox keeps each event as `json` (its text as written) instead of `jsonb`: the relay only
 * reads the whole event back and nothing queries it with jsonb's operators, so the binary form was
 * built on every insert and printed again on every read for nothing (docs/benchmarks.md, "outbox").
 */
export class OutboxEventJson1732300009500 implements MigrationInterface {
  name = 'OutboxEventJson1732300009500';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE outbox ALTER COLUMN event TYPE json USING event::json');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE outbox ALTER COLUMN event TYPE jsonb USING event::jsonb');
  }
}
