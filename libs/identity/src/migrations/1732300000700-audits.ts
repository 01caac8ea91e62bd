import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateAudits1732300000700 implements MigrationInterface {
  name = 'CreateAudits1732300000700';

  async up(q: QueryRunner): Promise<void> {
    // Integer ids, as the reference's audit has; one row per domain event (event_id unique).
    await q.query(`
      CREATE TABLE audits (
        id bigserial PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        event_id uuid NOT NULL UNIQUE,
        event text NOT NULL,
        item_type text,
        item_type_display text,
        item_id text,
        object jsonb,
        object_changes jsonb,
        user_id integer,
        user_email text,
        user_name text,
        api_key_id text,
        source text,
        ip_address text,
        user_agent text,
        request_id text,
        session_id text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX audits_created ON audits (organization_id, created_at, id)');
    await q.query('CREATE INDEX audits_item ON audits (organization_id, item_type, item_id, id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE audits');
  }
}
