import { createTableWithReadModel, NAMED_LIST_INDEXES } from '@taproot/persistence';
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
    for (const [table, columns] of Object.entries(TABLES)) await createTableWithReadModel(q, table, { definition: `${COMMON_COLUMNS},${columns}`, ...NAMED_LIST_INDEXES });
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
