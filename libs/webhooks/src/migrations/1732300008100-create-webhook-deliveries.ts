import type { MigrationInterface, QueryRunner } from 'typeorm';
import { TENANT_COLUMNS } from '@taproot/persistence';

/**
 * Webhook deliveries (docs/webhooks.md): one row per (endpoint, event), written by the dispatcher
 * when it consumes the event and updated by each attempt. Not a resource with a `*_read` model:
 * the dispatcher is its only writer, the api reads it as it is.
 */
export class CreateWebhookDeliveries1732300008100 implements MigrationInterface {
  name = 'CreateWebhookDeliveries1732300008100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE webhooks_deliveries (${TENANT_COLUMNS},
      endpoint_id uuid NOT NULL REFERENCES webhooks_endpoints(id) ON DELETE CASCADE,
      event_id uuid NOT NULL,
      event_type text NOT NULL,
      payload text NOT NULL,
      status text NOT NULL DEFAULT 'pending',
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz,
      leased_until timestamptz,
      response_status integer,
      response_body text,
      error text,
      last_attempt_at timestamptz,
      delivered_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      CONSTRAINT webhooks_deliveries_status CHECK (status IN ('pending', 'retrying', 'delivered', 'failed')),
      CONSTRAINT webhooks_deliveries_once UNIQUE (endpoint_id, event_id))`);
    // The dispatcher claims due rows; only unsettled ones carry next_attempt_at.
    await q.query('CREATE INDEX webhooks_deliveries_due ON webhooks_deliveries (next_attempt_at) WHERE next_attempt_at IS NOT NULL');
    await q.query('CREATE INDEX webhooks_deliveries_list ON webhooks_deliveries (organization_id, created_at, id)');
    await q.query('CREATE INDEX webhooks_deliveries_endpoint ON webhooks_deliveries (organization_id, endpoint_id, created_at, id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE webhooks_deliveries');
  }
}
