import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The alert event attributes the paging issue fills (null until then); write table and read model alike. */
const EVENT_COLUMNS = ['page_reason text', 'escalation_level integer', 'escalation_target_type text'];
/** The id lists `filter[services]`, `filter[groups]` and `filter[environments]` are rewritten into. */
const ID_LISTS = ['service_ids', 'group_ids', 'environment_ids'];

/**
 * `GET /v1/alerts` filters on services, groups, environments and labels (docs/alerts.md): GIN
 * indexes for the overlap (`&&`) the list filters use, and `label_pairs`, the `key:value` texts
 * of the `[{key, value}]` labels, generated so `filter[labels]` is an overlap too. Alert events
 * gain `page_reason`, `escalation_level` and `escalation_target_type`.
 */
export class AlertListFilters1732300002500 implements MigrationInterface {
  name = 'AlertListFilters1732300002500';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION alert_label_pairs(labels jsonb) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT COALESCE(array_agg((l ->> 'key') || ':' || (l ->> 'value') ORDER BY l ->> 'key'), '{}')
          FROM jsonb_array_elements(CASE WHEN jsonb_typeof(labels) = 'array' THEN labels ELSE '[]'::jsonb END) AS l
         WHERE jsonb_typeof(l) = 'object' AND l ? 'key' AND l ? 'value'
      $$`);
    await q.query('ALTER TABLE alerts_read ADD COLUMN label_pairs text[] GENERATED ALWAYS AS (alert_label_pairs(labels)) STORED');
    for (const list of [...ID_LISTS, 'label_pairs']) await q.query(`CREATE INDEX alerts_read_${list} ON alerts_read USING gin (${list})`);
    for (const table of ['alert_events', 'alert_events_read']) {
      await q.query(`ALTER TABLE ${table} ${EVENT_COLUMNS.map((c) => `ADD COLUMN ${c}`).join(', ')}`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['alert_events_read', 'alert_events']) {
      await q.query(`ALTER TABLE ${table} ${EVENT_COLUMNS.map((c) => `DROP COLUMN ${c.split(' ')[0]}`).join(', ')}`);
    }
    for (const list of ID_LISTS) await q.query(`DROP INDEX alerts_read_${list}`);
    await q.query('ALTER TABLE alerts_read DROP COLUMN label_pairs');
    await q.query('DROP FUNCTION alert_label_pairs(jsonb)');
  }
}
