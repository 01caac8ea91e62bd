import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Alert events as the reference answers them: `source` (required there) and `user_id` as the
 * integer id of a user (it was stored as text).
 */
export class AlertEventSourceAndUser1732300002700 implements MigrationInterface {
  name = 'AlertEventSourceAndUser1732300002700';

  async up(q: QueryRunner): Promise<void> {
    for (const table of ['alert_events', 'alert_events_read']) {
      await q.query(`ALTER TABLE ${table} ADD COLUMN source text NOT NULL DEFAULT 'api'`);
      await q.query(`ALTER TABLE ${table} ALTER COLUMN user_id TYPE integer USING user_id::integer`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['alert_events', 'alert_events_read']) {
      await q.query(`ALTER TABLE ${table} ALTER COLUMN user_id TYPE text`);
      await q.query(`ALTER TABLE ${table} DROP COLUMN source`);
    }
  }
}
