import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createRecordsUnderParent, TIMESTAMP_READ_INDEXES } from '@taproot/persistence';

/** A status page's component groups and components (docs/status-pages.md, "Components"), each with its `_read` model. */
export class CreateStatusPageComponents1732300009100 implements MigrationInterface {
  name = 'CreateStatusPageComponents1732300009100';

  async up(q: QueryRunner): Promise<void> {
    const readIndexes = { ...TIMESTAMP_READ_INDEXES, position: 'status_page_id, position, created_at, id' };
    await createRecordsUnderParent(
      q,
      'status_page_component_groups',
      { column: 'status_page_id', table: 'status_pages' },
      `name text NOT NULL,
        description text,
        position integer NOT NULL,
        collapsed_by_default boolean NOT NULL DEFAULT false,
        -- The key a component's group references: a group of the component's own page.
        CONSTRAINT status_page_component_groups_page_id UNIQUE (organization_id, status_page_id, id)`,
      readIndexes,
    );
    await createRecordsUnderParent(
      q,
      'status_page_components',
      { column: 'status_page_id', table: 'status_pages' },
      `status_page_component_group_id uuid,
        name text NOT NULL,
        description text,
        status text NOT NULL DEFAULT 'operational',
        position integer NOT NULL,
        service_ids uuid[] NOT NULL DEFAULT '{}',
        functionality_ids uuid[] NOT NULL DEFAULT '{}',
        CONSTRAINT status_page_components_group FOREIGN KEY (organization_id, status_page_id, status_page_component_group_id)
          REFERENCES status_page_component_groups (organization_id, status_page_id, id)`,
      readIndexes,
    );
    // Serves the group's key check on delete and the "group in use" count.
    await q.query('CREATE INDEX status_page_components_group_id ON status_page_components (organization_id, status_page_component_group_id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE status_page_components_read, status_page_components, status_page_component_groups_read, status_page_component_groups');
  }
}
