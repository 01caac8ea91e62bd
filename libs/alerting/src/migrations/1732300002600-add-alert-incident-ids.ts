import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The incidents an alert is attached to (`POST /v1/incidents/{id}/alerts`): the alert's side of
 * the link, kept in the same transaction as the incident's `alert_ids`, and the filter that lists
 * an incident's alerts.
 */
export class AddAlertIncidentIds1732300002600 implements MigrationInterface {
  name = 'AddAlertIncidentIds1732300002600';

  async up(q: QueryRunner): Promise<void> {
    for (const table of ['alerts', 'alerts_read']) await q.query(`ALTER TABLE ${table} ADD COLUMN incident_ids text[] NOT NULL DEFAULT '{}'`);
    await q.query('CREATE INDEX alerts_read_incident_ids ON alerts_read USING gin (incident_ids)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX alerts_read_incident_ids');
    for (const table of ['alerts', 'alerts_read']) await q.query(`ALTER TABLE ${table} DROP COLUMN incident_ids`);
  }
}
