import type { MigrationInterface, QueryRunner } from 'typeorm';

/** `GET /v1/alerts/{id}` also takes the alert's `short_id`: looked up in the read model. */
export class AlertShortIdLookup1732300002800 implements MigrationInterface {
  name = 'AlertShortIdLookup1732300002800';

  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE INDEX alerts_read_short_id ON alerts_read (organization_id, short_id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX alerts_read_short_id');
  }
}
