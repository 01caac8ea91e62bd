import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Write tables (`severities`, `services`) and their read models (`*_read`, maintained by the
 * list projections). Read models carry the same columns plus the indexes the list sorts use:
 * keyset pagination needs an index whose order matches the sort.
 */
export class CreateSeveritiesAndServices1732300000200 implements MigrationInterface {
  name = 'CreateSeveritiesAndServices1732300000200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE severities (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name text NOT NULL,
        slug text NOT NULL,
        description text,
        severity text NOT NULL DEFAULT 'medium' CHECK (severity IN ('critical', 'high', 'medium', 'low')),
        color text,
        position integer NOT NULL,
        notify_emails text[],
        slack_aliases jsonb,
        slack_channels jsonb,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE TABLE services (
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
        escalation_policy_id text,
        alerts_email_enabled boolean,
        alerts_email_address text,
        alert_broadcast_enabled boolean,
        alert_broadcast_channel jsonb,
        incident_broadcast_enabled boolean,
        incident_broadcast_channel jsonb,
        backstage_id text,
        cortex_id text,
        opslevel_id text,
        pagerduty_id text,
        opsgenie_id text,
        opsgenie_team_id text,
        service_now_ci_sys_id text,
        github_repository_name text,
        github_repository_branch text,
        gitlab_repository_name text,
        gitlab_repository_branch text,
        kubernetes_deployment_name text,
        show_uptime boolean,
        show_uptime_last_days integer,
        environment_ids text[],
        service_ids text[],
        owner_group_ids text[],
        owner_user_ids integer[],
        properties jsonb,
        slack_aliases jsonb,
        slack_channels jsonb,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    for (const table of ['severities', 'services']) {
      await q.query(`CREATE UNIQUE INDEX ${table}_slug ON ${table} (organization_id, slug)`);
      await q.query(`CREATE TABLE ${table}_read (LIKE ${table} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
      await q.query(`ALTER TABLE ${table}_read ADD PRIMARY KEY (id)`);
      await q.query(`CREATE INDEX ${table}_read_position ON ${table}_read (organization_id, position, created_at, id)`);
      await q.query(`CREATE INDEX ${table}_read_created ON ${table}_read (organization_id, created_at, id)`);
      await q.query(`CREATE INDEX ${table}_read_updated ON ${table}_read (organization_id, updated_at, created_at, id)`);
      await q.query(`CREATE INDEX ${table}_read_name ON ${table}_read (organization_id, name, created_at, id)`);
      await q.query(`CREATE INDEX ${table}_read_slug ON ${table}_read (organization_id, slug)`);
    }
    await q.query('CREATE INDEX services_read_external_id ON services_read (organization_id, external_id)');
    await q.query('CREATE INDEX services_external_id ON services (organization_id, external_id)');
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['services_read', 'services', 'severities_read', 'severities']) await q.query(`DROP TABLE ${table}`);
  }
}
