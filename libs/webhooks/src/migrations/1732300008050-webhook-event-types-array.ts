import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An endpoint's `event_types` as a native `text[]`: the resource framework stores arrays of
 * scalars as native arrays (jsonb is for objects), and the dispatcher matches an event's type with
 * `= ANY(event_types)` (an empty array: every type).
 */
export class WebhookEventTypesArray1732300008050 implements MigrationInterface {
  name = 'WebhookEventTypesArray1732300008050';

  async up(q: QueryRunner): Promise<void> {
    // A transform expression takes no subquery; a function of the session may hold one.
    await q.query(`CREATE FUNCTION pg_temp.jsonb_texts(j jsonb) RETURNS text[] LANGUAGE sql IMMUTABLE AS $$ SELECT coalesce(array_agg(e), '{}') FROM jsonb_array_elements_text(j) e $$`);
    for (const table of ['webhooks_endpoints', 'webhooks_endpoints_read']) {
      await q.query(`ALTER TABLE ${table} ALTER COLUMN event_types DROP DEFAULT, ALTER COLUMN event_types TYPE text[] USING pg_temp.jsonb_texts(event_types), ALTER COLUMN event_types SET DEFAULT '{}'`);
    }
    await q.query('DROP FUNCTION pg_temp.jsonb_texts(jsonb)');
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['webhooks_endpoints', 'webhooks_endpoints_read']) {
      await q.query(`ALTER TABLE ${table} ALTER COLUMN event_types DROP DEFAULT, ALTER COLUMN event_types TYPE jsonb USING to_jsonb(event_types), ALTER COLUMN event_types SET DEFAULT '[]'`);
    }
  }
}
