import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every configuration a rotation has had (its members and active days included), each from the
 * instant it took effect: shifts are computed from the version in force at their time, so a
 * change never rewrites a shift that had already ended (docs/schedules.md, Versions).
 */
export class ScheduleRotationVersions1732300005900 implements MigrationInterface {
  name = 'ScheduleRotationVersions1732300005900';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE schedule_rotation_versions (
        id bigserial PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        schedule_id uuid NOT NULL,
        rotation_id uuid NOT NULL,
        effective_from timestamptz,
        config jsonb
      )`);
    await q.query('CREATE INDEX schedule_rotation_versions_schedule ON schedule_rotation_versions (organization_id, schedule_id, rotation_id, effective_from)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE schedule_rotation_versions');
  }
}
