import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Creates look up the next free slug (`slug LIKE 'name-%'`) and the next position
 * (`max(position)`) in the write tables; without these indexes both scan the whole organization
 * (measured: 42 ms per create at 100,000 services, docs/benchmarks.md).
 */
export class IndexWriteTablesForCreates1732300000210 implements MigrationInterface {
  name = 'IndexWriteTablesForCreates1732300000210';

  async up(q: QueryRunner): Promise<void> {
    for (const table of ['severities', 'services']) {
      await q.query(`DROP INDEX ${table}_slug`);
      // text_pattern_ops serves prefix LIKE under any collation, and equality as well.
      await q.query(`CREATE UNIQUE INDEX ${table}_slug ON ${table} (organization_id, slug text_pattern_ops)`);
      await q.query(`CREATE INDEX ${table}_position ON ${table} (organization_id, position)`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['severities', 'services']) {
      await q.query(`DROP INDEX ${table}_position`);
      await q.query(`DROP INDEX ${table}_slug`);
      await q.query(`CREATE UNIQUE INDEX ${table}_slug ON ${table} (organization_id, slug)`);
    }
  }
}
