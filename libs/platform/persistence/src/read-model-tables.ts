import type { QueryRunner } from 'typeorm';

/** A tenant table and its read model, as a context's migration declares them. */
export interface TableWithReadModel {
  /** Everything inside the write table's parentheses, `id` and `organization_id` included. */
  definition: string;
  /**
   * Write-table indexes: name suffix → key columns (written after nothing: give
   * `organization_id, ...` yourself). A key starting with `UNIQUE ` makes a unique index.
   */
  writeIndexes?: Record<string, string>;
  /** Read-model indexes: name suffix → key columns after `organization_id` (keyset sorts end in created_at, id). */
  readIndexes: Record<string, string>;
}

/**
 * Creates a write table, its indexes, and its `<table>_read` model (same columns, defaults and
 * checks; primary key id) with its list indexes `<table>_read_<suffix>`. Shared by the
 * contexts' migrations: the SQL a shipped migration ran must never change, so this function's
 * statements are frozen; a new shape gets a new option.
 */
export async function createTableWithReadModel(q: QueryRunner, table: string, t: TableWithReadModel): Promise<void> {
  await q.query(`CREATE TABLE ${table} (${t.definition})`);
  for (const [suffix, key] of Object.entries(t.writeIndexes ?? {})) {
    const unique = key.startsWith('UNIQUE ');
    await q.query(`CREATE ${unique ? 'UNIQUE ' : ''}INDEX ${table}_${suffix} ON ${table} (${unique ? key.slice('UNIQUE '.length) : key})`);
  }
  await q.query(`CREATE TABLE ${table}_read (LIKE ${table} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
  await q.query(`ALTER TABLE ${table}_read ADD PRIMARY KEY (id)`);
  for (const [suffix, key] of Object.entries(t.readIndexes)) await q.query(`CREATE INDEX ${table}_read_${suffix} ON ${table}_read (organization_id, ${key})`);
}

/** The tenancy columns every tenant table starts with. */
export const TENANT_COLUMNS = `
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE`;

/** The read-model indexes of every list: by creation and by last update. */
export const TIMESTAMP_READ_INDEXES = { created: 'created_at, id', updated: 'updated_at, created_at, id' };

/**
 * The indexes of a named, ordered list (catalog taxonomies, sub-statuses, incident roles): the
 * create's next free slug (text_pattern_ops serves its prefix LIKE, and equality) and next
 * position on the write table; one read index per list sort, and lookups by slug.
 */
export const NAMED_LIST_INDEXES: Pick<TableWithReadModel, 'writeIndexes' | 'readIndexes'> = {
  writeIndexes: { slug: 'UNIQUE organization_id, slug text_pattern_ops', position: 'organization_id, position' },
  readIndexes: { position: 'position, created_at, id', ...TIMESTAMP_READ_INDEXES, name: 'name, created_at, id', slug: 'slug' },
};

/**
 * A write table of records under a parent (`id`, `organization_id`, the parent's id `column`,
 * `columns`, the timestamps), keyed to the parent within the organization, and its `_read` model
 * with indexes on `(organization_id, <key>)`. The key is NO ACTION: a parent's delete removes its
 * records through the generic path first, each with its event (a cascade would announce nothing).
 */
export function createRecordsUnderParent(q: QueryRunner, table: string, parent: { column: string; table: string }, columns: string, readIndexes: Record<string, string>): Promise<void> {
  return createTableWithReadModel(q, table, {
    definition: `
    id uuid PRIMARY KEY,
    organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    ${parent.column} uuid NOT NULL,
    ${columns},
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    CONSTRAINT ${table}_parent FOREIGN KEY (organization_id, ${parent.column}) REFERENCES ${parent.table} (organization_id, id)`,
    // Serves the key's check when a parent is deleted.
    writeIndexes: { parent: `organization_id, ${parent.column}` },
    readIndexes,
  });
}
