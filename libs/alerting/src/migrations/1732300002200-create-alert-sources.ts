import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createTenantTables } from './tenant-tables';

/** The alert source's columns after tenancy; the read model copies the write table. */
const TABLES: Record<string, string> = {
  alert_sources: `
    name text NOT NULL,
    source_type text NOT NULL DEFAULT 'generic_webhook',
    status text NOT NULL DEFAULT 'setup_complete',
    enabled boolean NOT NULL DEFAULT true,
    secret text NOT NULL,
    webhook_endpoint text,
    email text,
    owner_group_ids text[],
    alert_urgency_id uuid,
    alert_template_attributes jsonb,
    alert_source_fields_attributes jsonb,
    alert_source_urgency_rules_attributes jsonb,
    sourceable_attributes jsonb,
    resolution_rule_attributes jsonb,
    deduplicate_alerts_by_key boolean NOT NULL DEFAULT false,
    deduplication_key_kind text,
    deduplication_key_path text,
    deduplication_key_regexp text,`,
};

/** Alert sources (docs/alert-sources.md): write table and `alert_sources_read`, listed by name. */
export class CreateAlertSources1732300002200 implements MigrationInterface {
  name = 'CreateAlertSources1732300002200';

  async up(q: QueryRunner): Promise<void> {
    await createTenantTables(q, TABLES);
    await q.query('CREATE INDEX alert_sources_read_name ON alert_sources_read (organization_id, name, created_at, id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE alert_sources_read, alert_sources');
  }
}
