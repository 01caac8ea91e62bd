import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createTenantTables } from './tenant-tables';

/** Each table's columns after tenancy; both lists end with `created_at, id`. */
const TABLES: Record<string, string> = {
  alert_urgencies: `
    name text NOT NULL,
    description text NOT NULL,
    position integer NOT NULL,
    color text,
    retrigger_timeout_minutes integer CHECK (retrigger_timeout_minutes > 0),`,
  alert_fields: `
    name text NOT NULL,
    slug text NOT NULL,
    kind text NOT NULL DEFAULT 'custom',`,
};

/**
 * Alert urgencies and custom alert fields: write tables and their `*_read` models (maintained by
 * the list projections), indexed for the sorts their lists offer as the catalog's tables are.
 */
export class CreateAlertUrgenciesAndFields1732300002000 implements MigrationInterface {
  name = 'CreateAlertUrgenciesAndFields1732300002000';

  async up(q: QueryRunner): Promise<void> {
    await createTenantTables(q, TABLES);
    for (const table of Object.keys(TABLES)) await q.query(`CREATE INDEX ${table}_read_name ON ${table}_read (organization_id, name, created_at, id)`);
    // The writer assigns the next position (MAX + 1) per organization.
    await q.query('CREATE INDEX alert_urgencies_position ON alert_urgencies (organization_id, position)');
    await q.query('CREATE INDEX alert_urgencies_read_position ON alert_urgencies_read (organization_id, position, created_at, id)');
    // text_pattern_ops serves the create's prefix LIKE for the next free slug, and equality.
    await q.query('CREATE UNIQUE INDEX alert_fields_slug ON alert_fields (organization_id, slug text_pattern_ops)');
    await q.query('CREATE INDEX alert_fields_read_slug ON alert_fields_read (organization_id, slug)');
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of Object.keys(TABLES)) await q.query(`DROP TABLE ${table}_read, ${table}`);
  }
}
