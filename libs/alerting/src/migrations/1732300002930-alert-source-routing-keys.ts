import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `POST /v2/enqueue` finds the alert source by its secret (the PagerDuty routing key, in the
 * body): one index lookup. Secrets are random (16 or 32 bytes), so they are unique.
 */
export class AlertSourceRoutingKeys1732300002930 implements MigrationInterface {
  name = 'AlertSourceRoutingKeys1732300002930';

  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE UNIQUE INDEX alert_sources_secret ON alert_sources (secret)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX alert_sources_secret');
  }
}
