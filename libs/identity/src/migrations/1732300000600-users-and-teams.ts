import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Users get the reference's profile columns and a read view (`users_view`); teams are `groups`
 * (write table) with their read model `groups_read`, maintained from `group.*` events.
 */
export class UsersAndTeams1732300000600 implements MigrationInterface {
  name = 'UsersAndTeams1732300000600';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE users ADD COLUMN IF NOT EXISTS first_name text, ADD COLUMN IF NOT EXISTS last_name text, ADD COLUMN IF NOT EXISTS time_zone text');
    // Users are created outside the event path (organization bootstrap, invitations later), so
    // reads go to a view over the write table, as for API keys (`api_keys_view`).
    await q.query(`
      CREATE VIEW users_view AS
      SELECT id, organization_id, email, first_name, last_name,
             COALESCE(NULLIF(btrim(concat_ws(' ', first_name, last_name)), ''), name) AS full_name,
             NULL::text AS full_name_with_team, time_zone, created_at, updated_at
        FROM users`);
    await q.query('CREATE INDEX IF NOT EXISTS users_created ON users (organization_id, created_at, id)');
    await q.query(`
      CREATE TABLE groups (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name text NOT NULL,
        slug text NOT NULL,
        description text,
        public_description text,
        external_id text,
        managed_by text NOT NULL DEFAULT 'api',
        color text,
        position integer NOT NULL,
        notify_emails text[],
        alert_urgency_id text,
        alerts_email_enabled boolean,
        alerts_email_address text,
        alert_broadcast_enabled boolean,
        alert_broadcast_channel jsonb,
        incident_broadcast_enabled boolean,
        incident_broadcast_channel jsonb,
        auto_add_members_when_attached boolean,
        auto_add_members_scope text,
        backstage_id text,
        cortex_id text,
        opslevel_id text,
        pagerduty_id text,
        pagerduty_service_id text,
        opsgenie_id text,
        opsgenie_team_id text,
        victor_ops_id text,
        pagertree_id text,
        service_now_ci_sys_id text,
        user_ids integer[] NOT NULL DEFAULT '{}',
        admin_ids integer[] NOT NULL DEFAULT '{}',
        properties jsonb,
        slack_channels jsonb,
        slack_aliases jsonb,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query('CREATE UNIQUE INDEX groups_slug ON groups (organization_id, slug)');
    // bulk_upsert matches on external_id: one team per external id in an organization.
    await q.query('CREATE UNIQUE INDEX groups_external_id ON groups (organization_id, external_id) WHERE external_id IS NOT NULL');
    await q.query('CREATE TABLE groups_read (LIKE groups INCLUDING DEFAULTS INCLUDING CONSTRAINTS)');
    await q.query('ALTER TABLE groups_read ADD PRIMARY KEY (id)');
    await q.query('CREATE INDEX groups_read_created ON groups_read (organization_id, created_at, id)');
    await q.query('CREATE INDEX groups_read_updated ON groups_read (organization_id, updated_at, created_at, id)');
    await q.query('CREATE INDEX groups_read_name ON groups_read (organization_id, name, created_at, id)');
    await q.query('CREATE INDEX groups_read_position ON groups_read (organization_id, position, created_at, id)');
    await q.query('CREATE INDEX groups_read_slug ON groups_read (organization_id, slug)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE groups_read');
    await q.query('DROP TABLE groups');
    await q.query('DROP VIEW users_view');
    await q.query('DROP INDEX IF EXISTS users_created');
    await q.query('ALTER TABLE users DROP COLUMN IF EXISTS first_name, DROP COLUMN IF EXISTS last_name, DROP COLUMN IF EXISTS time_zone');
  }
}
