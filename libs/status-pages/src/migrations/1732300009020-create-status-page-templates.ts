import { createRecordsUnderParent, TIMESTAMP_READ_INDEXES } from '@taproot/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The update templates of status pages (docs/status-pages.md), keyed to their page. */
export class CreateStatusPageTemplates1732300009020 implements MigrationInterface {
  name = 'CreateStatusPageTemplates1732300009020';

  async up(q: QueryRunner): Promise<void> {
    const byPage = Object.fromEntries(Object.entries({ position: 'position, created_at, id', ...TIMESTAMP_READ_INDEXES }).map(([name, key]) => [name, `status_page_id, ${key}`]));
    await createRecordsUnderParent(
      q,
      'status_page_templates',
      { column: 'status_page_id', table: 'status_pages' },
      `title text NOT NULL,
      body text NOT NULL,
      update_title text,
      update_status text,
      kind text NOT NULL DEFAULT 'normal',
      should_notify_subscribers boolean NOT NULL DEFAULT false,
      enabled boolean NOT NULL DEFAULT true,
      position integer NOT NULL`,
      byPage,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE status_page_templates_read, status_page_templates');
  }
}
