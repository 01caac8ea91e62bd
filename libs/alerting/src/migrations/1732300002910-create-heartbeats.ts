import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createTenantTables } from './tenant-tables';

/**
 * The heartbeat's columns after tenancy (docs/heartbeats.md). `expires_at` is the durable deadline
 * the heartbeat monitor claims with FOR UPDATE SKIP LOCKED; `alert_id` (no attribute) is the alert
 * its last expiry opened, which the next ping resolves.
 */
const TABLES: Record<string, string> = {
  heartbeats: `
    name text NOT NULL,
    description text,
    alert_summary text NOT NULL,
    alert_description text,
    alert_urgency_id uuid,
    interval integer NOT NULL,
    interval_unit text NOT NULL,
    notification_target_id text NOT NULL,
    notification_target_type text NOT NULL,
    enabled boolean NOT NULL DEFAULT true,
    status text NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting', 'active', 'expired')),
    ping_url text,
    secret text NOT NULL,
    email_address text NOT NULL,
    owner_group_ids text[],
    last_pinged_at timestamptz,
    expires_at timestamptz,
    alert_id uuid,`,
};

export class CreateHeartbeats1732300002910 implements MigrationInterface {
  name = 'CreateHeartbeats1732300002910';

  async up(q: QueryRunner): Promise<void> {
    await createTenantTables(q, TABLES);
    await q.query('CREATE INDEX heartbeats_read_name ON heartbeats_read (organization_id, name, created_at, id)');
    // The monitor's claim: active, enabled heartbeats by deadline.
    await q.query(`CREATE INDEX heartbeats_due ON heartbeats (expires_at) WHERE status = 'active' AND enabled`);
    // Mail pings find their heartbeat by the address it was given.
    await q.query('CREATE UNIQUE INDEX heartbeats_email_address ON heartbeats (lower(email_address))');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE heartbeats_read, heartbeats');
  }
}
