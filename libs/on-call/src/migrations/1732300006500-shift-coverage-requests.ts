import { createRecordsUnderParent, TIMESTAMP_READ_INDEXES } from '@taproot/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Shift coverage requests (docs/schedule-resources.md): one row per computed shift a user asked
 * someone to cover, under its schedule (deleted with it, each with its event), listed per schedule
 * and across schedules by starts_at. The shift, schedule and users are kept as answered then.
 */
export class ShiftCoverageRequests1732300006500 implements MigrationInterface {
  name = 'ShiftCoverageRequests1732300006500';

  async up(q: QueryRunner): Promise<void> {
    await createRecordsUnderParent(
      q,
      'shift_coverage_requests',
      { column: 'schedule_id', table: 'schedules' },
      `shift_id text NOT NULL,
      original_shift_user_id integer NOT NULL,
      created_by_user_id integer NOT NULL,
      starts_at timestamptz NOT NULL,
      ends_at timestamptz NOT NULL,
      shift jsonb NOT NULL,
      schedule jsonb,
      original_shift_user jsonb,
      created_by_user jsonb,
      CHECK (ends_at > starts_at)`,
      {
        ...TIMESTAMP_READ_INDEXES,
        starts: 'starts_at, created_at, id',
        ends: 'ends_at, created_at, id',
        schedule_starts: 'schedule_id, starts_at, created_at, id',
        schedule_created: 'schedule_id, created_at, id',
      },
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE shift_coverage_requests_read, shift_coverage_requests');
  }
}
