import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createTenantTables } from './tenant-tables';

/**
 * Alert groups (docs/alert-groups.md): the write table and its `*_read` model, and on alerts the
 * group an alert is in, its leader (null for the leader itself) and, on the write table only, the
 * key ingestion finds a group's open leader by (index `alerts_group_leaders`).
 */
export class CreateAlertGroups1732300002960 implements MigrationInterface {
  name = 'CreateAlertGroups1732300002960';

  async up(q: QueryRunner): Promise<void> {
    await createTenantTables(q, {
      alert_groups: `
        name text NOT NULL,
        slug text NOT NULL,
        description text,
        time_window integer NOT NULL DEFAULT 10,
        condition_type text NOT NULL DEFAULT 'all',
        conditions jsonb NOT NULL DEFAULT '[]',
        attributes jsonb NOT NULL DEFAULT '[]',
        group_by_alert_title boolean NOT NULL DEFAULT false,
        group_by_alert_urgency boolean NOT NULL DEFAULT false,
        targets jsonb NOT NULL DEFAULT '[]',
        owner_group_ids uuid[] NOT NULL DEFAULT '{}',
        deleted_at timestamptz,`,
    });
    await q.query('CREATE UNIQUE INDEX alert_groups_slug ON alert_groups (organization_id, slug text_pattern_ops)');
    await q.query('CREATE INDEX alert_groups_read_slug ON alert_groups_read (organization_id, slug)');
    await q.query('CREATE INDEX alert_groups_read_name ON alert_groups_read (organization_id, name, created_at, id)');
    for (const table of ['alerts', 'alerts_read']) {
      await q.query(`ALTER TABLE ${table} ADD COLUMN alert_group_id uuid, ADD COLUMN group_leader_alert_id uuid, ADD COLUMN is_group_leader_alert boolean`);
    }
    await q.query('ALTER TABLE alerts ADD COLUMN alert_group_key text');
    await q.query('CREATE INDEX alerts_group_leaders ON alerts (organization_id, alert_group_id, alert_group_key, created_at) WHERE is_group_leader_alert AND status <> \'resolved\'');
    await q.query('CREATE INDEX alerts_group_members ON alerts (organization_id, group_leader_alert_id) WHERE group_leader_alert_id IS NOT NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX alerts_group_members, alerts_group_leaders');
    await q.query('ALTER TABLE alerts DROP COLUMN alert_group_key');
    for (const table of ['alerts', 'alerts_read']) await q.query(`ALTER TABLE ${table} DROP COLUMN alert_group_id, DROP COLUMN group_leader_alert_id, DROP COLUMN is_group_leader_alert`);
    await q.query('DROP TABLE alert_groups_read, alert_groups');
  }
}
