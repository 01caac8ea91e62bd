import { createTableWithReadModel, TENANT_COLUMNS, TIMESTAMP_READ_INDEXES } from '@taproot/persistence';
import type { QueryRunner } from 'typeorm';

/**
 * Creates each write table (tenancy, its columns, timestamps) and its `*_read` model with the
 * keyset indexes every list has (created, updated). Used by this context's migrations.
 */
export async function createTenantTables(q: QueryRunner, tables: Record<string, string>): Promise<void> {
  for (const [table, columns] of Object.entries(tables)) {
    await createTableWithReadModel(q, table, {
      definition: `${TENANT_COLUMNS},${columns}
          created_at timestamptz NOT NULL,
          updated_at timestamptz NOT NULL`,
      readIndexes: TIMESTAMP_READ_INDEXES,
    });
  }
}
