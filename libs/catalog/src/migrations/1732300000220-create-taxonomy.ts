import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Columns of every taxonomy table: tenancy, name and derived slug, descriptions, list order. */
const COMMON_COLUMNS = `
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name text NOT NULL,
  slug text NOT NULL,
  description text,
  public_description text,
  position integer NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL`;

/** Each table's own columns. `properties` of causes and incident types is never null (reference). */
const TABLES: Record<string, string> = {
  environments: `
    external_id text,
    managed_by text NOT NULL DEFAULT 'api',
    color text,
    notify_emails text[],
    properties jsonb,
    slack_aliases jsonb,
    slack_channels jsonb`,
  functionalities: `
    external_id text,
    managed_by text NOT NULL DEFAULT 'api',
    color text,
    notify_emails text[],
    escalation_policy_id text,
    backstage_id text,
    cortex_id text,
    opslevel_id text,
    pagerduty_id text,
    opsgenie_id text,
    service_now_ci_sys_id text,
    opsgenie_team_id text,
    show_uptime boolean,
    show_uptime_last_days integer,
    environment_ids text[],
    service_ids text[],
    owner_group_ids text[],
    owner_user_ids integer[],
    properties jsonb,
    slack_aliases jsonb,
    slack_channels jsonb`,
  causes: `
    properties jsonb NOT NULL DEFAULT '[]'`,
  incident_types: `
    color text,
    notify_emails text[],
    properties jsonb NOT NULL DEFAULT '[]',
    slack_aliases jsonb,
    slack_channels jsonb`,
};

/**
 * The incident taxonomy (environments, functionalities, causes, incident types): write tables
 * and their `*_read` models, indexed as 0200 and 0210 index severities and services.
 */
export class CreateTaxonomy1732300000220 implements MigrationInterface {
  name = 'CreateTaxonomy1732300000220';

  async up(q: QueryRunner): Promise<void> {
    for (const [table, columns] of Object.entries(TABLES)) {
      await q.query(`CREATE TABLE ${table} (${COMMON_COLUMNS},${columns})`);
      // text_pattern_ops serves the create's prefix LIKE for the next free slug, and equality.
      await q.query(`CREATE UNIQUE INDEX ${table}_slug ON ${table} (organization_id, slug text_pattern_ops)`);
      await q.query(`CREATE INDEX ${table}_position ON ${table} (organization_id, position)`);
      await q.query(`CREATE TABLE ${table}_read (LIKE ${table} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
      await q.query(`ALTER TABLE ${table}_read ADD PRIMARY KEY (id)`);
      await q.query(`CREATE INDEX ${table}_read_position ON ${table}_read (organization_id, position, created_at, id)`);
      await q.query(`CREATE INDEX ${table}_read_created ON ${table}_read (organization_id, created_at, id)`);
      await q.query(`CREATE INDEX ${table}_read_updated ON ${table}_read (organization_id, updated_at, created_at, id)`);
      await q.query(`CREATE INDEX ${table}_read_name ON ${table}_read (organization_id, name, created_at, id)`);
      await q.query(`CREATE INDEX ${table}_read_slug ON ${table}_read (organization_id, slug)`);
    }
    // Bulk upserts (spec) will match environments and functionalities by external_id.
    for (const table of ['environments', 'functionalities']) {
      await q.query(`CREATE INDEX ${table}_external_id ON ${table} (organization_id, external_id)`);
    }
    await q.query('CREATE INDEX functionalities_read_external_id ON functionalities_read (organization_id, external_id)');
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of Object.keys(TABLES)) await q.query(`DROP TABLE ${table}_read, ${table}`);
  }
}
