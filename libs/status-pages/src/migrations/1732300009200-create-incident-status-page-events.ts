import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createTableWithReadModel, TENANT_COLUMNS, TIMESTAMP_READ_INDEXES } from '@taproot/persistence';

/**
 * An incident's status page events (docs/status-pages.md, Status page events): the updates posted
 * to a status page about an incident or a scheduled maintenance. The incident belongs to another
 * context, so `incident_id` is checked through its port when written and not keyed (as an alert's
 * `incident_ids`); the status page is this context's, keyed within the organization. The key is NO
 * ACTION: a page's delete is refused while events name it (a cascade would announce nothing).
 */
export class CreateIncidentStatusPageEvents1732300009200 implements MigrationInterface {
  name = 'CreateIncidentStatusPageEvents1732300009200';

  async up(q: QueryRunner): Promise<void> {
    await createTableWithReadModel(q, 'incident_status_page_events', {
      definition: `${TENANT_COLUMNS},
        incident_id uuid NOT NULL,
        status_page_id uuid,
        event text NOT NULL,
        status text NOT NULL CHECK (status IN ('investigating', 'identified', 'monitoring', 'resolved', 'scheduled', 'in_progress', 'completed')),
        notify_subscribers boolean NOT NULL DEFAULT false,
        should_tweet boolean NOT NULL DEFAULT false,
        started_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT incident_status_page_events_status_page FOREIGN KEY (organization_id, status_page_id) REFERENCES status_pages (organization_id, id)`,
      // Serves the key's check when a status page is deleted.
      writeIndexes: { status_page: 'organization_id, status_page_id' },
      readIndexes: {
        ...TIMESTAMP_READ_INDEXES,
        incident: 'incident_id, created_at, id',
        incident_started: 'incident_id, started_at, created_at, id',
        status_page: 'status_page_id, started_at, created_at, id',
      },
    });
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE incident_status_page_events_read, incident_status_page_events');
  }
}
