import type { QueryRunner } from 'typeorm';

/**
 * Creates each write table (id, organization, its columns, timestamps) and its `*_read` model
 * with the keyset indexes every list has (created, updated). Used by this context's migrations;
 * the SQL it runs must never change once a migration that calls it has shipped.
 */
export async function createTenantTables(q: QueryRunner, tables: Record<string, string>): Promise<void> {
  for (const [table, columns] of Object.entries(tables)) {
    await q.query(`
        CREATE TABLE ${table} (
          id uuid PRIMARY KEY,
          organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,${columns}
          created_at timestamptz NOT NULL,
          updated_at timestamptz NOT NULL
        )`);
    await q.query(`CREATE TABLE ${table}_read (LIKE ${table} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
    await q.query(`ALTER TABLE ${table}_read ADD PRIMARY KEY (id)`);
    await q.query(`CREATE INDEX ${table}_read_created ON ${table}_read (organization_id, created_at, id)`);
    await q.query(`CREATE INDEX ${table}_read_updated ON ${table}_read (organization_id, updated_at, created_at, id)`);
  }
}
