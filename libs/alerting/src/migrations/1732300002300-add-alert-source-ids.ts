import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The alert source an alert came in through (`alert_source_id`, NULL for `POST /v1/alerts`):
 * deduplication and resolution by key are scoped to it, so two sources of one `source_type` no
 * longer share alerts (docs/alerts.md). The dedup index gains the column; NULLs (API alerts) keep
 * deduplicating among themselves by `source`.
 */
export class AddAlertSourceIds1732300002300 implements MigrationInterface {
  name = 'AddAlertSourceIds1732300002300';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE alerts ADD COLUMN alert_source_id uuid');
    await q.query('ALTER TABLE alerts_read ADD COLUMN alert_source_id uuid');
    await q.query('DROP INDEX alerts_dedup');
    await q.query(
      "CREATE INDEX alerts_dedup ON alerts (organization_id, source, alert_source_id, deduplication_key) WHERE status <> 'resolved' AND deduplication_key IS NOT NULL",
    );
    await q.query('CREATE INDEX alerts_read_alert_source ON alerts_read (organization_id, alert_source_id, created_at, id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX alerts_read_alert_source');
    await q.query('DROP INDEX alerts_dedup');
    await q.query("CREATE INDEX alerts_dedup ON alerts (organization_id, source, deduplication_key) WHERE status <> 'resolved' AND deduplication_key IS NOT NULL");
    await q.query('ALTER TABLE alerts_read DROP COLUMN alert_source_id');
    await q.query('ALTER TABLE alerts DROP COLUMN alert_source_id');
  }
}
