import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createTableWithReadModel, TENANT_COLUMNS, TIMESTAMP_READ_INDEXES } from '@taproot/persistence';
import { seedBuiltInStatuses } from '../statuses/built-in-statuses';

/** The component statuses of status pages (docs/status-pages.md), seeded for every existing organization. */
export class CreateStatuses1732300009010 implements MigrationInterface {
  name = 'CreateStatuses1732300009010';

  async up(q: QueryRunner): Promise<void> {
    await createTableWithReadModel(q, 'statuses', {
      definition: `${TENANT_COLUMNS},
        name text NOT NULL,
        slug text NOT NULL,
        color text NOT NULL,
        description text,
        enabled boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL`,
      writeIndexes: { slug: 'UNIQUE organization_id, slug' },
      readIndexes: { ...TIMESTAMP_READ_INDEXES, slug: 'slug' },
    });
    const organizations = (await q.query('SELECT id FROM organizations')) as { id: string }[];
    await seedBuiltInStatuses(q, organizations.map((o) => o.id), new Date());
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE statuses_read, statuses');
  }
}
