import type { MigrationInterface, QueryRunner } from 'typeorm';
import { seedBuiltInAlertFields } from '../alert-fields/built-in-alert-fields';

/**
 * Alert fields at work (docs/alert-fields.md): one built-in field of each kind per organization
 * (the existing organizations get theirs here, new ones from the organization seeder), and the
 * values an alert source's `alert_source_fields_attributes` give each alert (`alert_field_values`,
 * the reference's attribute of the alert).
 */
export class AlertFieldValues1732300002920 implements MigrationInterface {
  name = 'AlertFieldValues1732300002920';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE UNIQUE INDEX alert_fields_built_in ON alert_fields (organization_id, kind) WHERE kind <> 'custom'`);
    for (const table of ['alerts', 'alerts_read']) await q.query(`ALTER TABLE ${table} ADD COLUMN alert_field_values jsonb NOT NULL DEFAULT '[]'`);
    // Every organization, as the tenant tables' foreign keys name them.
    const organizations = (await q.query('SELECT id FROM organizations')) as { id: string }[];
    await seedBuiltInAlertFields(q, organizations.map((o) => o.id), new Date());
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['alert_fields_read', 'alert_fields']) await q.query(`DELETE FROM ${table} WHERE kind <> 'custom'`);
    for (const table of ['alerts', 'alerts_read']) await q.query(`ALTER TABLE ${table} DROP COLUMN alert_field_values`);
    await q.query('DROP INDEX alert_fields_built_in');
  }
}
