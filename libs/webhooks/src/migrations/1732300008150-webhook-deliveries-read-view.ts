import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the API reads of webhook deliveries (docs/webhooks.md, "Deliveries"): the dispatcher's rows
 * as they are, but `status` in the hosted API's words (its SDK parses pending, success, failed):
 * delivered is `success`, and a delivery waiting for its first attempt or for a retry is `pending`.
 * A view, not a projection: the dispatcher is the table's only writer and emits no events.
 */
export class WebhookDeliveriesReadView1732300008150 implements MigrationInterface {
  name = 'WebhookDeliveriesReadView1732300008150';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE VIEW webhooks_deliveries_read AS
      SELECT id, organization_id, endpoint_id, event_id, event_type, payload,
             CASE status WHEN 'delivered' THEN 'success' WHEN 'failed' THEN 'failed' ELSE 'pending' END AS status,
             attempts, response_status, error, last_attempt_at, next_attempt_at, delivered_at, created_at, updated_at
        FROM webhooks_deliveries`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP VIEW webhooks_deliveries_read');
  }
}
