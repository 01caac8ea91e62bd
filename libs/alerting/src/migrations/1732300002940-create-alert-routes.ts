import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createTenantTables } from './tenant-tables';

/**
 * Alert routes (docs/alert-routing.md): the write table and its `*_read` model. The rule graph is
 * one jsonb document, written and read whole with its route; ingestion finds a source's routes by
 * the GIN index on `alerts_source_ids`.
 */
export class CreateAlertRoutes1732300002940 implements MigrationInterface {
  name = 'CreateAlertRoutes1732300002940';

  async up(q: QueryRunner): Promise<void> {
    await createTenantTables(q, {
      alert_routes: `
        name text NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        alerts_source_ids uuid[] NOT NULL DEFAULT '{}',
        owning_team_ids uuid[] NOT NULL DEFAULT '{}',
        rules jsonb NOT NULL DEFAULT '[]',`,
    });
    await q.query('CREATE INDEX alert_routes_sources ON alert_routes USING gin (alerts_source_ids) WHERE enabled');
    await q.query('CREATE INDEX alert_routes_read_name ON alert_routes_read (organization_id, name, created_at, id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE alert_routes_read, alert_routes');
  }
}
