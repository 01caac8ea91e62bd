import { createTableWithReadModel, TENANT_COLUMNS, TIMESTAMP_READ_INDEXES } from '@taproot/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Grants of permissions on a dashboard to a user or a team (docs/authorizations.md). The ids are
 * text: a grantee is a user (integer) or a team (uuid). One grant per record and grantee.
 */
export class CreateAuthorizations1732300011200 implements MigrationInterface {
  name = 'CreateAuthorizations1732300011200';

  async up(q: QueryRunner): Promise<void> {
    await createTableWithReadModel(q, 'authorizations', {
      definition: `
        ${TENANT_COLUMNS},
        authorizable_type text NOT NULL,
        authorizable_id text NOT NULL,
        grantee_type text NOT NULL,
        grantee_id text NOT NULL,
        permissions text[] NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL`,
      writeIndexes: { grant: 'UNIQUE organization_id, authorizable_type, authorizable_id, grantee_type, grantee_id' },
      readIndexes: { ...TIMESTAMP_READ_INDEXES, authorizable: 'authorizable_id, created_at, id', grantee: 'grantee_id, created_at, id' },
    });
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE authorizations_read, authorizations');
  }
}
