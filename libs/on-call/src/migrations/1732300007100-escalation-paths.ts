import { createRecordsUnderParent, TIMESTAMP_READ_INDEXES } from '@taproot/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The paths of escalation policies (docs/escalation-policies.md), keyed to their policy like a schedule's rotations. */
export class EscalationPaths1732300007100 implements MigrationInterface {
  name = 'EscalationPaths1732300007100';

  async up(q: QueryRunner): Promise<void> {
    const byPolicy = Object.fromEntries(Object.entries({ position: 'position, created_at, id', name: 'name, created_at, id', ...TIMESTAMP_READ_INDEXES }).map(([name, key]) => [name, `escalation_policy_id, ${key}`]));
    await createRecordsUnderParent(
      q,
      'escalation_paths',
      { column: 'escalation_policy_id', table: 'escalation_policies' },
      `name text NOT NULL,
      path_type text NOT NULL DEFAULT 'escalation',
      "default" boolean NOT NULL DEFAULT false,
      notification_type text NOT NULL DEFAULT 'audible',
      match_mode text NOT NULL DEFAULT 'match-all-rules',
      position integer NOT NULL,
      initial_delay integer NOT NULL DEFAULT 0,
      repeat boolean,
      repeat_count integer,
      rules jsonb NOT NULL DEFAULT '[]',
      time_restriction_time_zone text,
      time_restrictions jsonb NOT NULL DEFAULT '[]',
      after_deferral_behavior text,
      after_deferral_path_id text,
      CONSTRAINT escalation_paths_organization_id_id UNIQUE (organization_id, id)`,
      byPolicy,
    );
    // The next position among a policy's paths on create.
    await q.query('CREATE INDEX escalation_paths_position ON escalation_paths (organization_id, escalation_policy_id, position)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE escalation_paths_read, escalation_paths');
  }
}
