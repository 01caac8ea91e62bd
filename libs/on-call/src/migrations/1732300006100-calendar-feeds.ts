import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Calendar feeds (docs/schedules.md, Calendar feeds): a secret URL per schedule or per user that
 * calendar clients subscribe to. Only the token's SHA-256 is kept; one feed per schedule and per
 * user, so creating it again rotates it. A feed whose schedule or user is gone answers 404.
 */
export class CalendarFeeds1732300006100 implements MigrationInterface {
  name = 'CalendarFeeds1732300006100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE calendar_feeds (
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        id uuid PRIMARY KEY,
        kind text NOT NULL CHECK (kind IN ('schedule', 'user')),
        schedule_id uuid,
        user_id integer,
        token_hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL,
        rotated_at timestamptz,
        CHECK ((kind = 'schedule') = (schedule_id IS NOT NULL) AND (kind = 'user') = (user_id IS NOT NULL))
      )`);
    await q.query('CREATE UNIQUE INDEX calendar_feeds_schedule ON calendar_feeds (organization_id, schedule_id) WHERE schedule_id IS NOT NULL');
    await q.query('CREATE UNIQUE INDEX calendar_feeds_user ON calendar_feeds (organization_id, user_id) WHERE user_id IS NOT NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE calendar_feeds');
  }
}
