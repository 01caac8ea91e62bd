import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createTenantTables } from './tenant-tables';

/** Each table's columns after tenancy; each read model copies its write table. */
const TABLES: Record<string, string> = {
  alerts: `
    short_id text NOT NULL,
    summary text NOT NULL,
    description text,
    source text NOT NULL DEFAULT 'api',
    status text NOT NULL,
    noise text,
    external_id text,
    external_url text,
    deduplication_key text,
    alert_urgency_id uuid,
    notification_target_type text,
    notification_target_id text,
    notification_targets jsonb,
    service_ids text[],
    group_ids text[],
    environment_ids text[],
    functionality_ids text[],
    labels jsonb NOT NULL DEFAULT '[]',
    data jsonb,
    started_at timestamptz,
    ended_at timestamptz,
    snoozed_until timestamptz,`,
  alert_events: `
    alert_id uuid NOT NULL,
    kind text NOT NULL,
    action text NOT NULL,
    details text,
    user_id text,`,
};

/**
 * Alerts and their events (the alert's timeline): write tables and `*_read` models maintained by
 * the list projections, indexed for the lists' sorts and filters and for deduplication.
 */
export class CreateAlerts1732300002100 implements MigrationInterface {
  name = 'CreateAlerts1732300002100';

  async up(q: QueryRunner): Promise<void> {
    await createTenantTables(q, TABLES);
    await q.query('ALTER TABLE alert_events ADD FOREIGN KEY (alert_id) REFERENCES alerts(id)');
    await q.query('CREATE INDEX alert_events_alert ON alert_events (alert_id)');
    await q.query('CREATE INDEX alert_events_read_alert ON alert_events_read (organization_id, alert_id, created_at, id)');
    // Deduplication looks up the organization's unresolved alert of a source with the key.
    await q.query("CREATE INDEX alerts_dedup ON alerts (organization_id, source, deduplication_key) WHERE status <> 'resolved' AND deduplication_key IS NOT NULL");
    for (const column of ['status', 'source', 'started_at', 'ended_at']) {
      await q.query(`CREATE INDEX alerts_read_${column} ON alerts_read (organization_id, ${column}, created_at, id)`);
    }
    await q.query('CREATE INDEX alerts_read_urgency ON alerts_read (organization_id, alert_urgency_id, created_at, id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE alert_events_read, alert_events, alerts_read, alerts');
  }
}
