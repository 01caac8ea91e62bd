import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createTableWithReadModel, TENANT_COLUMNS, TIMESTAMP_READ_INDEXES } from '@taproot/persistence';

/** Webhook endpoints and secrets (docs/webhooks.md): each write table and its `*_read` model. */
export class CreateWebhookEndpointsAndSecrets1732300008000 implements MigrationInterface {
  name = 'CreateWebhookEndpointsAndSecrets1732300008000';

  async up(q: QueryRunner): Promise<void> {
    await createTableWithReadModel(q, 'webhooks_endpoints', {
      definition: `${TENANT_COLUMNS},
        name text NOT NULL,
        slug text NOT NULL,
        url text NOT NULL,
        event_types jsonb NOT NULL DEFAULT '[]',
        secret text NOT NULL,
        custom_headers jsonb NOT NULL DEFAULT '[]',
        enabled boolean NOT NULL DEFAULT true,
        -- Since when every attempt failed (null after a success): the dispatcher disables an endpoint failing for days.
        failing_since timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL`,
      writeIndexes: { slug: 'UNIQUE organization_id, slug' },
      readIndexes: { ...TIMESTAMP_READ_INDEXES, name: 'name, created_at, id', slug: 'slug' },
    });
    await createTableWithReadModel(q, 'secrets', {
      definition: `${TENANT_COLUMNS},
        name text NOT NULL,
        kind text NOT NULL DEFAULT 'built_in',
        secret text,
        hashicorp_vault_mount text,
        hashicorp_vault_path text,
        hashicorp_vault_version integer,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL`,
      writeIndexes: { name: 'UNIQUE organization_id, name' },
      readIndexes: { ...TIMESTAMP_READ_INDEXES, name: 'name, created_at, id' },
    });
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE secrets_read, secrets, webhooks_endpoints_read, webhooks_endpoints');
  }
}
