import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `external_id` of an incident: the key of an incident imported from another tool
 * (`POST /v1/incidents/import`), unique in the organization so that a re-import finds what an
 * earlier one created instead of creating it twice. On the read model, `filter[external_id]`.
 */
export class AddIncidentExternalIds1732300001400 implements MigrationInterface {
  name = 'AddIncidentExternalIds1732300001400';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE incidents ADD COLUMN external_id text');
    await q.query('CREATE UNIQUE INDEX incidents_external_id ON incidents (organization_id, external_id) WHERE external_id IS NOT NULL');
    await q.query('ALTER TABLE incidents_read ADD COLUMN external_id text');
    await q.query('CREATE INDEX incidents_read_external_id ON incidents_read (organization_id, external_id) WHERE external_id IS NOT NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE incidents_read DROP COLUMN external_id');
    await q.query('ALTER TABLE incidents DROP COLUMN external_id');
  }
}
