import { createRecordsUnderParent, createTableWithReadModel, TENANT_COLUMNS, TIMESTAMP_READ_INDEXES } from '@taproot/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Edge connectors and their actions (docs/edge-connectors.md): each write table and its read model. */
export class CreateEdgeConnectors1732300010600 implements MigrationInterface {
  name = 'CreateEdgeConnectors1732300010600';

  async up(q: QueryRunner): Promise<void> {
    await createTableWithReadModel(q, 'edge_connectors', {
      definition: `${TENANT_COLUMNS},
        name text NOT NULL,
        description text,
        status text NOT NULL DEFAULT 'active',
        subscriptions text[] NOT NULL DEFAULT '{}',
        filters jsonb,
        online boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT edge_connectors_organization_id_id UNIQUE (organization_id, id)`,
      readIndexes: { ...TIMESTAMP_READ_INDEXES, name: 'name, created_at, id' },
    });
    await createRecordsUnderParent(
      q,
      'edge_connector_actions',
      { column: 'edge_connector_id', table: 'edge_connectors' },
      `name text NOT NULL,
      slug text NOT NULL,
      action_type text NOT NULL,
      description text,
      icon text NOT NULL DEFAULT 'bolt',
      timeout integer,
      parameters jsonb NOT NULL DEFAULT '[]',
      last_executed_at timestamptz`,
      { ...Object.fromEntries(Object.entries(TIMESTAMP_READ_INDEXES).map(([name, key]) => [name, `edge_connector_id, ${key}`])), slug: 'slug' },
    );
    await q.query('CREATE UNIQUE INDEX edge_connector_actions_slug ON edge_connector_actions (organization_id, slug text_pattern_ops)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE edge_connector_actions_read, edge_connector_actions, edge_connectors_read, edge_connectors');
  }
}
