import { createRecordsUnderParent, TIMESTAMP_READ_INDEXES } from '@taproot/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The levels of escalation policies (docs/escalation-policies.md), under their policy, each on one of its paths. */
export class EscalationLevels1732300007200 implements MigrationInterface {
  name = 'EscalationLevels1732300007200';

  async up(q: QueryRunner): Promise<void> {
    const byPolicy = Object.fromEntries(Object.entries({ position: 'position, created_at, id', ...TIMESTAMP_READ_INDEXES }).map(([name, key]) => [name, `escalation_policy_id, ${key}`]));
    await createRecordsUnderParent(
      q,
      'escalation_levels',
      { column: 'escalation_policy_id', table: 'escalation_policies' },
      `escalation_policy_path_id text,
      position integer NOT NULL,
      delay integer NOT NULL DEFAULT 0,
      notification_target_params jsonb NOT NULL,
      paging_strategy_configuration_strategy text NOT NULL DEFAULT 'default',
      paging_strategy_configuration_schedule_strategy text NOT NULL DEFAULT 'on_call_only',
      CONSTRAINT escalation_levels_organization_id_id UNIQUE (organization_id, id)`,
      byPolicy,
    );
    // The next position among a policy's levels on create, and the levels of a path (deleted with it).
    await q.query('CREATE INDEX escalation_levels_position ON escalation_levels (organization_id, escalation_policy_id, position)');
    await q.query('CREATE INDEX escalation_levels_path ON escalation_levels (organization_id, escalation_policy_path_id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE escalation_levels_read, escalation_levels');
  }
}
