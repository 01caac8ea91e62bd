import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A status page's announcements (docs/status-pages.md, "Announcements"). What the API reads is a
 * view over the write table, not a projection: `active` depends on the time of the read
 * (enabled, started, not ended), which no stored column can follow.
 */
export class CreateStatusPageAnnouncements1732300009140 implements MigrationInterface {
  name = 'CreateStatusPageAnnouncements1732300009140';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE status_page_announcements (
      id uuid PRIMARY KEY,
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      status_page_id uuid NOT NULL,
      title text NOT NULL,
      body text NOT NULL,
      starts_at timestamptz NOT NULL,
      ends_at timestamptz,
      enabled boolean NOT NULL DEFAULT true,
      notify_subscribers boolean NOT NULL DEFAULT true,
      published_at timestamptz NOT NULL,
      user_id integer,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      CONSTRAINT status_page_announcements_parent FOREIGN KEY (organization_id, status_page_id) REFERENCES status_pages (organization_id, id),
      CONSTRAINT status_page_announcements_period CHECK (ends_at IS NULL OR ends_at > starts_at))`);
    for (const [suffix, key] of Object.entries({ parent: 'status_page_id, created_at, id', updated: 'updated_at, created_at, id', created: 'created_at, id', starts: 'starts_at, created_at, id' })) {
      await q.query(`CREATE INDEX status_page_announcements_${suffix} ON status_page_announcements (organization_id, ${key})`);
    }
    await q.query(`CREATE VIEW status_page_announcements_read AS
      SELECT *, enabled AND starts_at <= now() AND (ends_at IS NULL OR ends_at > now()) AS active
        FROM status_page_announcements`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP VIEW status_page_announcements_read');
    await q.query('DROP TABLE status_page_announcements');
  }
}
