import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createTenantTables } from './tenant-tables';

/** Alert re-trigger rules (docs/alert-retrigger-rules.md): the write table and its `*_read` model. */
export class CreateAlertRetriggerRules1732300002970 implements MigrationInterface {
  name = 'CreateAlertRetriggerRules1732300002970';

  async up(q: QueryRunner): Promise<void> {
    await createTenantTables(q, {
      alert_retrigger_rules: `
        name text NOT NULL,
        match_mode text NOT NULL DEFAULT 'match-all-rules',
        timeout_minutes integer,
        position integer NOT NULL,
        conditions jsonb NOT NULL DEFAULT '[]',`,
    });
    // Deduplication reads an organization's rules by position.
    await q.query('CREATE INDEX alert_retrigger_rules_position ON alert_retrigger_rules (organization_id, position)');
    await q.query('CREATE INDEX alert_retrigger_rules_read_position ON alert_retrigger_rules_read (organization_id, position, created_at, id)');
    await q.query('CREATE INDEX alert_retrigger_rules_read_name ON alert_retrigger_rules_read (organization_id, name, created_at, id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE alert_retrigger_rules_read, alert_retrigger_rules');
  }
}
