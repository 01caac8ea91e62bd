import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Lets the inbox pruner find the oldest rows without reading the whole table. A B-tree, not BRIN:
 * once old rows are deleted and vacuumed, new rows fill the freed space anywhere in the table, so
 * the physical order BRIN relies on does not last. `processed_at` only grows, so inserts land on
 * the index's rightmost page.
 */
export class InboxProcessedAtIndex1732300009600 implements MigrationInterface {
  name = 'InboxProcessedAtIndex1732300009600';

  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE INDEX inbox_processed_at ON inbox (processed_at)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX inbox_processed_at');
  }
}
