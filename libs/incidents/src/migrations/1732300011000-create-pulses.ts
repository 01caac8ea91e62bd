import { createTableWithReadModel, TENANT_COLUMNS, TIMESTAMP_READ_INDEXES } from '@taproot/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The lists `filter[services]`, `filter[environments]`, `filter[labels]` and `filter[refs]` overlap. */
const LISTS = ['service_ids', 'environment_ids', 'label_pairs', 'ref_pairs'];

/**
 * Pulses (docs/pulses.md): deploy and change events. The read model has `label_pairs` and
 * `ref_pairs`, the `key:value` texts of the `[{key, value}]` labels and refs, generated so their
 * list filters are overlaps on GIN indexes like the service and environment ids'.
 */
export class CreatePulses1732300011000 implements MigrationInterface {
  name = 'CreatePulses1732300011000';

  async up(q: QueryRunner): Promise<void> {
    await createTableWithReadModel(q, 'pulses', {
      definition: `${TENANT_COLUMNS},
        source text,
        summary text NOT NULL,
        service_ids text[],
        environment_ids text[],
        started_at timestamptz NOT NULL,
        ended_at timestamptz,
        external_url text,
        labels jsonb,
        refs jsonb,
        data jsonb,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL`,
      readIndexes: { ...TIMESTAMP_READ_INDEXES, started: 'started_at, created_at, id', source: 'source' },
    });
    await q.query(`
      CREATE FUNCTION pulse_pairs(pairs jsonb) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT COALESCE(array_agg((p ->> 'key') || ':' || (p ->> 'value') ORDER BY p ->> 'key'), '{}')
          FROM jsonb_array_elements(CASE WHEN jsonb_typeof(pairs) = 'array' THEN pairs ELSE '[]'::jsonb END) AS p
         WHERE jsonb_typeof(p) = 'object'
      $$`);
    await q.query('ALTER TABLE pulses_read ADD COLUMN label_pairs text[] GENERATED ALWAYS AS (pulse_pairs(labels)) STORED, ADD COLUMN ref_pairs text[] GENERATED ALWAYS AS (pulse_pairs(refs)) STORED');
    for (const list of LISTS) await q.query(`CREATE INDEX pulses_read_${list} ON pulses_read USING gin (${list})`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE pulses_read, pulses');
    await q.query('DROP FUNCTION pulse_pairs(jsonb)');
  }
}
