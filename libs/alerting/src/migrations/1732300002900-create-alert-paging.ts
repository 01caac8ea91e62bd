import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The paging engine's durable state (docs/paging.md): each paged target of an alert (a track),
 * the timers (steps) claimed with FOR UPDATE SKIP LOCKED, and the notifications, one per
 * (alert, run, level, repeat, user, channel) by a unique index, so two replicas never send one twice.
 */
export class CreateAlertPaging1732300002900 implements MigrationInterface {
  name = 'CreateAlertPaging1732300002900';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE alert_paging_tracks (
      id uuid PRIMARY KEY,
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      alert_id uuid NOT NULL,
      run integer NOT NULL,
      target_type text NOT NULL,
      target_id text NOT NULL,
      escalation_policy_id uuid,
      escalation_path_id uuid,
      level integer NOT NULL DEFAULT 0,
      repeat integer NOT NULL DEFAULT 0,
      page_reason text,
      active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL)`);
    await q.query('CREATE INDEX alert_paging_tracks_alert ON alert_paging_tracks (organization_id, alert_id) WHERE active');
    await q.query(`CREATE TABLE alert_paging_steps (
      id uuid PRIMARY KEY,
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      alert_id uuid NOT NULL,
      track_id uuid,
      kind text NOT NULL CHECK (kind IN ('level', 'wake', 'retrigger')),
      level integer,
      repeat integer,
      due_at timestamptz NOT NULL,
      fired_at timestamptz,
      created_at timestamptz NOT NULL)`);
    await q.query('CREATE INDEX alert_paging_steps_due ON alert_paging_steps (due_at) WHERE fired_at IS NULL');
    await q.query('CREATE INDEX alert_paging_steps_alert ON alert_paging_steps (alert_id) WHERE fired_at IS NULL');
    await q.query(`CREATE TABLE alert_notifications (
      id uuid PRIMARY KEY,
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      alert_id uuid NOT NULL,
      run integer NOT NULL,
      level integer NOT NULL,
      repeat integer NOT NULL,
      user_id integer NOT NULL,
      channel text NOT NULL,
      address text NOT NULL,
      target_type text NOT NULL,
      target_id text NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed', 'cancelled')),
      attempts integer NOT NULL DEFAULT 0,
      due_at timestamptz NOT NULL,
      claimed_until timestamptz,
      sent_at timestamptz,
      provider_id text,
      last_error text,
      link_used_at timestamptz,
      created_at timestamptz NOT NULL,
      UNIQUE (alert_id, run, level, repeat, user_id, channel))`);
    await q.query(`CREATE INDEX alert_notifications_due ON alert_notifications (due_at) WHERE status = 'pending'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE alert_notifications');
    await q.query('DROP TABLE alert_paging_steps');
    await q.query('DROP TABLE alert_paging_tracks');
  }
}
