import type { MigrationInterface, QueryRunner } from 'typeorm';
import { REFERENCE_ITEM_TYPES } from '../audits/audit-log.projection';

/**
 * Audits serve the reference's `item_type` (its enum's name of the kind, or null: the hosted
 * API's SDK refuses any other value); the kind every row had there moves to `item_kind`, which
 * finds an item's previous object.
 */
export class AuditReferenceItemTypes1732300003500 implements MigrationInterface {
  name = 'AuditReferenceItemTypes1732300003500';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE audits ADD COLUMN item_kind text');
    await q.query(
      `UPDATE audits SET item_kind = item_type,
              item_type = (SELECT m.name FROM unnest($1::text[], $2::text[]) AS m(kind, name) WHERE m.kind = audits.item_type)`,
      [Object.keys(REFERENCE_ITEM_TYPES), Object.values(REFERENCE_ITEM_TYPES)],
    );
    await q.query('DROP INDEX audits_item');
    await q.query('CREATE INDEX audits_item ON audits (organization_id, item_kind, item_id, id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX audits_item');
    await q.query('UPDATE audits SET item_type = item_kind');
    await q.query('ALTER TABLE audits DROP COLUMN item_kind');
    await q.query('CREATE INDEX audits_item ON audits (organization_id, item_type, item_id, id)');
  }
}
