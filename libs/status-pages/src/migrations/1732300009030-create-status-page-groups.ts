import { createRecordsUnderParent } from '@taproot/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The teams granted access to a status page (`status_page_groups`, docs/status-pages.md): one grant per team and page. */
export class CreateStatusPageGroups1732300009030 implements MigrationInterface {
  name = 'CreateStatusPageGroups1732300009030';

  async up(q: QueryRunner): Promise<void> {
    await createRecordsUnderParent(
      q,
      'status_page_groups',
      { column: 'status_page_id', table: 'status_pages' },
      `group_id uuid NOT NULL,
      permission_level text NOT NULL,
      CONSTRAINT status_page_groups_team UNIQUE (organization_id, status_page_id, group_id)`,
      { created: 'status_page_id, created_at, id', updated: 'status_page_id, updated_at, created_at, id' },
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE status_page_groups_read, status_page_groups');
  }
}
