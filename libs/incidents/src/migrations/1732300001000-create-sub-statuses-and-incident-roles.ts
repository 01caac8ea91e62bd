import { createTableWithReadModel, NAMED_LIST_INDEXES } from '@taproot/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Columns of both tables: tenancy, name and derived slug, description, list order. */
const COMMON_COLUMNS = `
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name text NOT NULL,
  slug text NOT NULL,
  description text,
  position integer NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL`;

/** Each table's own columns; the booleans' defaults are those of the incident role declaration. */
const TABLES: Record<string, string> = {
  sub_statuses: `
    parent_status text NOT NULL CHECK (parent_status IN ('started', 'retrospective'))`,
  incident_roles: `
    summary text,
    enabled boolean NOT NULL DEFAULT true,
    optional boolean NOT NULL DEFAULT false,
    allow_multi_user_assignment boolean NOT NULL DEFAULT false`,
};

/**
 * Sub-statuses and incident roles: write tables and their `*_read` models, indexed as the
 * catalog's lists are (catalog migrations 0200 and 0210): the create's next free slug and next
 * position on the write table; on the read model, one index per list sort (keyset pages) and
 * one for lookups by slug.
 */
export class CreateSubStatusesAndIncidentRoles1732300001000 implements MigrationInterface {
  name = 'CreateSubStatusesAndIncidentRoles1732300001000';

  async up(q: QueryRunner): Promise<void> {
    for (const [table, columns] of Object.entries(TABLES)) await createTableWithReadModel(q, table, { definition: `${COMMON_COLUMNS},${columns}`, ...NAMED_LIST_INDEXES });
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of Object.keys(TABLES)) await q.query(`DROP TABLE ${table}_read, ${table}`);
  }
}
