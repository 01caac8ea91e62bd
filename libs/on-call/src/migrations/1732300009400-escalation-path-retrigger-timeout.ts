import type { MigrationInterface, QueryRunner } from 'typeorm';

/** An escalation path's `retrigger_timeout_minutes` (spec: paths expose it; docs/escalation-policies.md). */
export class EscalationPathRetriggerTimeout1732300009400 implements MigrationInterface {
  name = 'EscalationPathRetriggerTimeout1732300009400';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE escalation_paths ADD COLUMN retrigger_timeout_minutes integer');
    await q.query('ALTER TABLE escalation_paths_read ADD COLUMN retrigger_timeout_minutes integer');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE escalation_paths_read DROP COLUMN retrigger_timeout_minutes');
    await q.query('ALTER TABLE escalation_paths DROP COLUMN retrigger_timeout_minutes');
  }
}
