import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Limiters with other windows than a minute share `rate_limit_windows` (sign-in failures over
 * 15 minutes, registrations per hour). Window indexes of different sizes are not comparable, so
 * each row records its window's size and a limiter's cleanup only touches rows of its own size.
 */
export class RateLimitWindowSizes1732300003200 implements MigrationInterface {
  name = 'RateLimitWindowSizes1732300003200';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE rate_limit_windows ADD COLUMN window_seconds integer NOT NULL DEFAULT 60');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE rate_limit_windows DROP COLUMN window_seconds');
  }
}
