import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per-organization read and write limits (per API key per minute). NULL means the deployment's
 * default (RATE_LIMIT_READS_PER_MINUTE / RATE_LIMIT_WRITES_PER_MINUTE); operators set them with
 * `taproot org limits`.
 */
export class OrganizationRateLimits1732300000800 implements MigrationInterface {
  name = 'OrganizationRateLimits1732300000800';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE organizations
        ADD COLUMN rate_limit_reads_per_minute integer CHECK (rate_limit_reads_per_minute > 0),
        ADD COLUMN rate_limit_writes_per_minute integer CHECK (rate_limit_writes_per_minute > 0)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE organizations DROP COLUMN rate_limit_reads_per_minute, DROP COLUMN rate_limit_writes_per_minute');
  }
}
