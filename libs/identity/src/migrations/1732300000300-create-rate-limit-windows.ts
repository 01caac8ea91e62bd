import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateRateLimitWindows1732300000300 implements MigrationInterface {
  name = 'CreateRateLimitWindows1732300000300';

  async up(q: QueryRunner): Promise<void> {
    // Counters, not records: unlogged keeps the per-request write cheap (lost on a crash,
    // which at worst forgives one minute of requests).
    await q.query(`
      CREATE UNLOGGED TABLE rate_limit_windows (
        bucket text NOT NULL,
        window_start bigint NOT NULL,
        count integer NOT NULL,
        PRIMARY KEY (bucket, window_start)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rate_limit_windows');
  }
}
