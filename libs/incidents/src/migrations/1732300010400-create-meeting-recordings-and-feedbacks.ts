import { createRecordsUnderParent, createTableWithReadModel, TENANT_COLUMNS, TIMESTAMP_READ_INDEXES } from '@taproot/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Meeting recordings (docs/meeting-recordings.md) and incident feedbacks. A recording belongs to an
 * incident or, standalone, to its owner (`owner`, never answered, like the pause bookkeeping and the
 * import's external id: write table only). The list and get read `meeting_recordings_visible`:
 * the read model with who may see each record and whether its incident is private.
 */
export class CreateMeetingRecordingsAndFeedbacks1732300010400 implements MigrationInterface {
  name = 'CreateMeetingRecordingsAndFeedbacks1732300010400';

  async up(q: QueryRunner): Promise<void> {
    await createTableWithReadModel(q, 'meeting_recordings', {
      definition: `
        ${TENANT_COLUMNS},
        incident_id uuid,
        title text,
        platform text NOT NULL,
        session_number integer NOT NULL,
        status text NOT NULL,
        created_by text,
        meeting_url text,
        started_at timestamptz,
        ended_at timestamptz,
        duration_minutes integer,
        speaker_count integer NOT NULL DEFAULT 0,
        word_count integer NOT NULL DEFAULT 0,
        transcript_summary text,
        has_video boolean NOT NULL DEFAULT false,
        video_url text,
        owner text,
        recall_recording_id uuid,
        paused_at timestamptz,
        paused_seconds integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT meeting_recordings_incident FOREIGN KEY (organization_id, incident_id) REFERENCES incidents (organization_id, id)`,
      writeIndexes: { incident: 'organization_id, incident_id, platform', owner: 'organization_id, owner' },
      readIndexes: { ...TIMESTAMP_READ_INDEXES, incident: 'incident_id, session_number, created_at, id' },
    });
    await q.query('ALTER TABLE meeting_recordings_read DROP COLUMN owner, DROP COLUMN recall_recording_id, DROP COLUMN paused_at, DROP COLUMN paused_seconds');
    await q.query(`
      CREATE VIEW meeting_recordings_visible AS
      SELECT r.*, CASE WHEN r.incident_id IS NULL THEN w.owner ELSE 'incident' END AS audience, COALESCE(i.private, false) AS incident_private
      FROM meeting_recordings_read r
      JOIN meeting_recordings w ON w.id = r.id
      LEFT JOIN incidents_read i ON i.id = r.incident_id AND i.organization_id = r.organization_id`);
    await createRecordsUnderParent(
      q,
      'incident_feedbacks',
      { column: 'incident_id', table: 'incidents' },
      `rating integer NOT NULL,
      feedback text NOT NULL,
      anonymous boolean NOT NULL DEFAULT false`,
      { created: 'incident_id, created_at, id', updated: 'incident_id, updated_at, created_at, id' },
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS incident_feedbacks_read, incident_feedbacks');
    await q.query('DROP VIEW IF EXISTS meeting_recordings_visible');
    await q.query('DROP TABLE IF EXISTS meeting_recordings_read, meeting_recordings');
  }
}
