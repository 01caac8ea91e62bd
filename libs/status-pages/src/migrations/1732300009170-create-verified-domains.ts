import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createTableWithReadModel, TENANT_COLUMNS, TIMESTAMP_READ_INDEXES } from '@taproot/persistence';

/** The organization's custom domains and their DNS TXT challenges (docs/status-pages.md, "Verified domains"). */
export class CreateVerifiedDomains1732300009170 implements MigrationInterface {
  name = 'CreateVerifiedDomains1732300009170';

  async up(q: QueryRunner): Promise<void> {
    await createTableWithReadModel(q, 'verified_domains', {
      definition: `${TENANT_COLUMNS},
        domain text NOT NULL,
        verification_status text NOT NULL DEFAULT 'pending',
        verification_token text NOT NULL,
        txt_host text NOT NULL,
        txt_value text NOT NULL,
        verified_at timestamptz,
        last_checked_at timestamptz,
        last_check_passed_at timestamptz,
        check_failures_count integer NOT NULL DEFAULT 0,
        source text NOT NULL DEFAULT 'manual',
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL`,
      writeIndexes: { domain: 'UNIQUE organization_id, domain' },
      readIndexes: { ...TIMESTAMP_READ_INDEXES, domain: 'domain, created_at, id' },
    });
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE verified_domains_read, verified_domains');
  }
}
