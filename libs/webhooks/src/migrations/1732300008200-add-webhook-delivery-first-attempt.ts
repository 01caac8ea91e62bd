import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When a delivery's retry window opened (docs/webhook-delivery.md, "Retries"): its first attempt,
 * or the first after a redelivery. Retries go on until an attempt fails 24 h after it.
 */
export class AddWebhookDeliveryFirstAttempt1732300008200 implements MigrationInterface {
  name = 'AddWebhookDeliveryFirstAttempt1732300008200';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE webhooks_deliveries ADD COLUMN first_attempt_at timestamptz');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE webhooks_deliveries DROP COLUMN first_attempt_at');
  }
}
