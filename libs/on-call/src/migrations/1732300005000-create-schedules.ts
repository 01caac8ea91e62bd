import { createRecordsUnderParent, createTableWithReadModel, TENANT_COLUMNS, TIMESTAMP_READ_INDEXES } from '@taproot/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

const TIMESTAMPS = 'created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL';
const SCHEDULE = { column: 'schedule_id', table: 'schedules' };
const ROTATION = { column: 'schedule_rotation_id', table: 'schedule_rotations' };
/** Read indexes of records under a parent: lists are per parent, every sort ends in created_at, id. */
const underParent = (column: string, sorts: Record<string, string>) =>
  Object.fromEntries(Object.entries({ ...sorts, ...TIMESTAMP_READ_INDEXES }).map(([name, key]) => [name, `${column}, ${key}`]));

/**
 * Schedules and what lives under them (docs/schedule-resources.md): rotations with their members
 * and per-day active windows, overrides and shadows. Each write table has its `_read` model; the
 * records under a parent are keyed to it within the organization (NO ACTION: a parent's delete
 * removes them first through the generic path, each with its event).
 */
export class CreateSchedules1732300005000 implements MigrationInterface {
  name = 'CreateSchedules1732300005000';

  async up(q: QueryRunner): Promise<void> {
    await createTableWithReadModel(q, 'schedules', {
      definition: `${TENANT_COLUMNS},
        name text NOT NULL,
        description text,
        all_time_coverage boolean,
        owner_user_id integer NOT NULL,
        owner_group_ids text[] NOT NULL DEFAULT '{}',
        slack_channel jsonb,
        slack_user_group jsonb,
        include_shadows_in_slack_notifications boolean NOT NULL DEFAULT false,
        shift_report_enabled boolean NOT NULL DEFAULT false,
        shift_start_notifications_enabled boolean NOT NULL DEFAULT false,
        shift_update_notifications_enabled boolean NOT NULL DEFAULT false,
        sync_linear_enabled boolean NOT NULL DEFAULT false,
        shift_report_day_of_week text NOT NULL DEFAULT 'monday',
        shift_report_time_of_day text NOT NULL DEFAULT '09:00',
        shift_report_time_zone text NOT NULL DEFAULT 'Etc/UTC',
        ${TIMESTAMPS},
        CONSTRAINT schedules_organization_id_id UNIQUE (organization_id, id)`,
      readIndexes: { ...TIMESTAMP_READ_INDEXES, name: 'name, created_at, id' },
    });
    await createRecordsUnderParent(
      q,
      'schedule_rotations',
      SCHEDULE,
      `name text NOT NULL,
      position integer NOT NULL,
      schedule_rotationable_type text NOT NULL,
      schedule_rotationable_attributes jsonb NOT NULL,
      time_zone text NOT NULL DEFAULT 'Etc/UTC',
      start_time timestamptz,
      end_time timestamptz,
      active_all_week boolean NOT NULL DEFAULT true,
      active_days text[] NOT NULL DEFAULT '{S,M,T,W,R,F,U}',
      active_time_type text NOT NULL DEFAULT 'all_day',
      active_time_attributes jsonb NOT NULL DEFAULT '[]',
      schedule_rotation_members jsonb,
      CONSTRAINT schedule_rotations_organization_id_id UNIQUE (organization_id, id)`,
      underParent('schedule_id', { position: 'position, created_at, id', name: 'name, created_at, id' }),
    );
    // The next position among a rotation's members (and a schedule's rotations) on create.
    await q.query('CREATE INDEX schedule_rotations_position ON schedule_rotations (organization_id, schedule_id, position)');
    await createRecordsUnderParent(q, 'schedule_rotation_users', ROTATION, 'user_id integer NOT NULL, position integer NOT NULL', underParent('schedule_rotation_id', { position: 'position, created_at, id' }));
    await q.query('CREATE INDEX schedule_rotation_users_position ON schedule_rotation_users (organization_id, schedule_rotation_id, position)');
    await createRecordsUnderParent(q, 'schedule_rotation_active_days', ROTATION, 'day_name text NOT NULL, active_time_attributes jsonb NOT NULL', underParent('schedule_rotation_id', {}));
    const span = 'starts_at timestamptz NOT NULL, ends_at timestamptz NOT NULL, CHECK (ends_at > starts_at)';
    await createRecordsUnderParent(
      q,
      'override_shifts',
      SCHEDULE,
      `rotation_id uuid, is_override boolean NOT NULL DEFAULT true, user_id integer NOT NULL, "user" jsonb, shift_override jsonb, ${span}`,
      underParent('schedule_id', { starts: 'starts_at, created_at, id', ends: 'ends_at, created_at, id' }),
    );
    await createRecordsUnderParent(
      q,
      'on_call_shadows',
      SCHEDULE,
      `shadowable_type text NOT NULL, shadowable_id text NOT NULL, shadow_user_id integer NOT NULL, ${span}`,
      underParent('schedule_id', { starts: 'starts_at, created_at, id', ends: 'ends_at, created_at, id' }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['on_call_shadows', 'override_shifts', 'schedule_rotation_active_days', 'schedule_rotation_users', 'schedule_rotations', 'schedules']) {
      await q.query(`DROP TABLE ${table}_read, ${table}`);
    }
  }
}
