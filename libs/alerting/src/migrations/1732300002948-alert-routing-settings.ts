import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Alert routing's organization settings (the spec's "advanced alert routing" feature, and rule
 * updates processed asynchronously) and the asynchronous rule updates of routes, each found by the
 * request id its client sent (docs/alert-routing.md). An organization without a settings row has
 * the defaults.
 */
export class AlertRoutingSettings1732300002948 implements MigrationInterface {
  name = 'AlertRoutingSettings1732300002948';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE alert_routing_settings (
      organization_id uuid PRIMARY KEY,
      advanced_alert_routing boolean NOT NULL DEFAULT true,
      asynchronous_rule_updates boolean NOT NULL DEFAULT false,
      updated_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE TABLE alert_route_rule_updates (
      organization_id uuid NOT NULL,
      request_id text NOT NULL,
      alert_route_id uuid NOT NULL,
      rules jsonb NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'completed', 'failed')),
      errors jsonb NOT NULL DEFAULT '[]',
      created_at timestamptz NOT NULL,
      completed_at timestamptz,
      PRIMARY KEY (organization_id, request_id)
    )`);
    await q.query(`CREATE INDEX alert_route_rule_updates_pending ON alert_route_rule_updates (created_at) WHERE status = 'pending'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE alert_route_rule_updates, alert_routing_settings');
  }
}
