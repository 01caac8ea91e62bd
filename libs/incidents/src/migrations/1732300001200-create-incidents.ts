import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Relationship id lists of an incident, each with a GIN index on the read model (filters by overlap). */
const ID_LISTS = ['service_ids', 'environment_ids', 'functionality_ids', 'group_ids', 'cause_ids', 'incident_type_ids', 'alert_ids', 'muted_service_ids'];

/** List sorts of the reference (every sort ends in created_at, id), as read-model indexes. */
const SORTS = ['updated_at', 'started_at', 'in_triage_at', 'mitigated_at', 'resolved_at'];

/**
 * Incidents and their timeline: write tables, `*_read` models, the per-organization counter of
 * sequential ids, and the indexes of the list's sorts and filters (docs/incidents.md).
 */
export class CreateIncidents1732300001200 implements MigrationInterface {
  name = 'CreateIncidents1732300001200';

  async up(q: QueryRunner): Promise<void> {
    // One row per organization, locked by each create until it commits: ids without gaps or duplicates.
    await q.query(`
      CREATE TABLE incident_counters (
        organization_id uuid PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
        last_sequential_id integer NOT NULL
      )`);
    await q.query(`
      CREATE TABLE incidents (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        sequential_id integer NOT NULL,
        title text NOT NULL,
        slug text NOT NULL,
        summary text,
        public_title text,
        kind text NOT NULL,
        status text NOT NULL,
        private boolean NOT NULL DEFAULT false,
        source text,
        url text,
        user_id text,
        creator jsonb,
        severity_id text,
        ${ID_LISTS.map((c) => `${c} text[]`).join(', ')},
        labels jsonb,
        notify_emails text[],
        parent_incident_id uuid,
        duplicate_incident_id uuid,
        in_triage_at timestamptz, started_at timestamptz, detected_at timestamptz, acknowledged_at timestamptz,
        mitigated_at timestamptz, resolved_at timestamptz, closed_at timestamptz, cancelled_at timestamptz,
        scheduled_for timestamptz, scheduled_until timestamptz,
        in_triage_by jsonb, started_by jsonb, mitigated_by jsonb, resolved_by jsonb, closed_by jsonb, cancelled_by jsonb,
        mitigation_message text, resolution_message text, cancellation_message text,
        retrospective_progress_status text,
        slack_channel_id text, slack_channel_name text, slack_channel_url text, slack_channel_archived boolean,
        jira_issue_id text, jira_issue_key text, jira_issue_url text,
        google_drive_parent_id text, google_drive_url text,
        subscriber_ids text[] NOT NULL DEFAULT '{}',
        role_assignments jsonb NOT NULL DEFAULT '[]',
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query('CREATE UNIQUE INDEX incidents_sequential_id ON incidents (organization_id, sequential_id)');
    // text_pattern_ops serves the create's prefix LIKE for the next free slug, and equality.
    await q.query('CREATE UNIQUE INDEX incidents_slug ON incidents (organization_id, slug text_pattern_ops)');
    // Deleting an incident detaches its sub-incidents and unmarks its duplicates.
    await q.query('CREATE INDEX incidents_parent ON incidents (organization_id, parent_incident_id) WHERE parent_incident_id IS NOT NULL');
    await q.query('CREATE INDEX incidents_duplicate ON incidents (organization_id, duplicate_incident_id) WHERE duplicate_incident_id IS NOT NULL');

    await q.query('CREATE TABLE incidents_read (LIKE incidents INCLUDING DEFAULTS INCLUDING CONSTRAINTS)');
    await q.query('ALTER TABLE incidents_read ADD PRIMARY KEY (id)');
    // filter[labels]=key:value matches the pairs of the labels object.
    await q.query(`
      CREATE FUNCTION incident_label_pairs(labels jsonb) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT COALESCE(array_agg(key || ':' || value ORDER BY key), '{}')
          FROM jsonb_each_text(CASE WHEN jsonb_typeof(labels) = 'object' THEN labels ELSE '{}'::jsonb END)
      $$`);
    await q.query('ALTER TABLE incidents_read ADD COLUMN label_pairs text[] GENERATED ALWAYS AS (incident_label_pairs(labels)) STORED');
    await q.query('CREATE INDEX incidents_read_created ON incidents_read (organization_id, created_at, id)');
    for (const sort of SORTS) await q.query(`CREATE INDEX incidents_read_${sort} ON incidents_read (organization_id, ${sort}, created_at, id)`);
    // The filters that matter: status alone, status with severity (the dashboard's list).
    await q.query('CREATE INDEX incidents_read_status ON incidents_read (organization_id, status, created_at, id)');
    await q.query('CREATE INDEX incidents_read_status_severity ON incidents_read (organization_id, status, severity_id, created_at, id)');
    await q.query('CREATE INDEX incidents_read_severity ON incidents_read (organization_id, severity_id, created_at, id)');
    await q.query('CREATE INDEX incidents_read_sequential_id ON incidents_read (organization_id, sequential_id)');
    await q.query('CREATE INDEX incidents_read_slug ON incidents_read (organization_id, slug)');
    for (const list of [...ID_LISTS, 'label_pairs']) await q.query(`CREATE INDEX incidents_read_${list} ON incidents_read USING gin (${list})`);

    await q.query(`
      CREATE TABLE incident_events (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        incident_id uuid NOT NULL REFERENCES incidents(id),
        event text NOT NULL,
        visibility text NOT NULL DEFAULT 'internal' CHECK (visibility IN ('internal', 'external')),
        kind text NOT NULL,
        user_id text,
        occurred_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query('CREATE INDEX incident_events_incident ON incident_events (incident_id)');
    await q.query('CREATE TABLE incident_events_read (LIKE incident_events INCLUDING DEFAULTS INCLUDING CONSTRAINTS)');
    await q.query('ALTER TABLE incident_events_read ADD PRIMARY KEY (id)');
    await q.query('CREATE INDEX incident_events_read_timeline ON incident_events_read (organization_id, incident_id, occurred_at, created_at, id)');
    await q.query('CREATE INDEX incident_events_read_created ON incident_events_read (organization_id, incident_id, created_at, id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE incident_events_read, incident_events, incidents_read, incidents, incident_counters');
    await q.query('DROP FUNCTION incident_label_pairs(jsonb)');
  }
}
