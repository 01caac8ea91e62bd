import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createTenantTables } from './tenant-tables';

/** The older alert routing rules (docs/alert-routing.md): the write table and its `*_read` model. */
export class CreateAlertRoutingRules1732300002945 implements MigrationInterface {
  name = 'CreateAlertRoutingRules1732300002945';

  async up(q: QueryRunner): Promise<void> {
    await createTenantTables(q, {
      alert_routing_rules: `
        name text NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        alerts_source_id uuid NOT NULL,
        position integer NOT NULL,
        condition_type text NOT NULL DEFAULT 'all',
        conditions jsonb NOT NULL DEFAULT '[]',
        condition_groups jsonb NOT NULL DEFAULT '[]',
        destination jsonb NOT NULL,
        owning_team_ids uuid[] NOT NULL DEFAULT '{}',`,
    });
    // Ingestion reads a source's rules; the writer appends positions per organization.
    await q.query('CREATE INDEX alert_routing_rules_source ON alert_routing_rules (organization_id, alerts_source_id) WHERE enabled');
    await q.query('CREATE INDEX alert_routing_rules_position ON alert_routing_rules (organization_id, position)');
    await q.query('CREATE INDEX alert_routing_rules_read_position ON alert_routing_rules_read (organization_id, position, created_at, id)');
    await q.query('CREATE INDEX alert_routing_rules_read_name ON alert_routing_rules_read (organization_id, name, created_at, id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE alert_routing_rules_read, alert_routing_rules');
  }
}
