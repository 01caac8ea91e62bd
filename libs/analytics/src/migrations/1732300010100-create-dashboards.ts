import { createRecordsUnderParent, createTableWithReadModel, TENANT_COLUMNS, TIMESTAMP_READ_INDEXES } from '@taproot/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Dashboards and their panels (docs/dashboards.md), and each caller's default dashboard. A
 * panel's `data` is computed when it is read; the column keeps the empty list events carry.
 */
export class CreateDashboards1732300010100 implements MigrationInterface {
  name = 'CreateDashboards1732300010100';

  async up(q: QueryRunner): Promise<void> {
    await createTableWithReadModel(q, 'dashboards', {
      definition: `
        ${TENANT_COLUMNS},
        name text NOT NULL,
        slug text NOT NULL,
        description text,
        icon text NOT NULL,
        color text,
        owner text NOT NULL,
        user_id integer,
        public boolean NOT NULL DEFAULT false,
        auto_refresh boolean NOT NULL DEFAULT false,
        period text,
        range text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT dashboards_organization_id_id UNIQUE (organization_id, id)`,
      writeIndexes: { slug: 'UNIQUE organization_id, slug text_pattern_ops' },
      readIndexes: { ...TIMESTAMP_READ_INDEXES, name: 'name, created_at, id', slug: 'slug' },
    });
    await createRecordsUnderParent(
      q,
      'dashboard_panels',
      { column: 'dashboard_id', table: 'dashboards' },
      `name text,
      params jsonb NOT NULL,
      position jsonb,
      data jsonb NOT NULL DEFAULT '[]'`,
      Object.fromEntries(Object.entries(TIMESTAMP_READ_INDEXES).map(([name, key]) => [name, `dashboard_id, ${key}`])),
    );
    // Whose default each dashboard is: a user's, or the organization's for callers without one.
    await q.query(`CREATE TABLE dashboard_defaults (
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      owner text NOT NULL,
      dashboard_id uuid NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (organization_id, owner),
      FOREIGN KEY (organization_id, dashboard_id) REFERENCES dashboards (organization_id, id) ON DELETE CASCADE)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE dashboard_defaults, dashboard_panels_read, dashboard_panels, dashboards_read, dashboards');
  }
}
