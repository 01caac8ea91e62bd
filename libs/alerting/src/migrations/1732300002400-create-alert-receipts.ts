import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Receipts of the items the inbound alert routes process (`GET /v1/alerts/receipts/{id}`,
 * docs/alert-sources.md): what became of each item. Not a JSON:API resource (no list, no read
 * model): one row per item, read by id within its organization.
 */
export class CreateAlertReceipts1732300002400 implements MigrationInterface {
  name = 'CreateAlertReceipts1732300002400';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE alert_receipts (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        alert_source_id uuid NOT NULL,
        state text NOT NULL,
        reason text,
        resource_type text,
        resource_id text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE alert_receipts');
  }
}
