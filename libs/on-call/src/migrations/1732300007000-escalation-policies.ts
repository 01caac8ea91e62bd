import { createTableWithReadModel, TENANT_COLUMNS, TIMESTAMP_READ_INDEXES } from '@taproot/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Escalation policies (docs/escalation-policies.md) and their read model. */
export class EscalationPolicies1732300007000 implements MigrationInterface {
  name = 'EscalationPolicies1732300007000';

  async up(q: QueryRunner): Promise<void> {
    await createTableWithReadModel(q, 'escalation_policies', {
      definition: `${TENANT_COLUMNS},
        name text NOT NULL,
        description text,
        repeat_count integer NOT NULL DEFAULT 0,
        group_ids text[] NOT NULL DEFAULT '{}',
        service_ids text[] NOT NULL DEFAULT '{}',
        business_hours jsonb,
        created_by_user_id integer,
        last_updated_by_user_id integer,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT escalation_policies_organization_id_id UNIQUE (organization_id, id)`,
      readIndexes: { ...TIMESTAMP_READ_INDEXES, name: 'name, created_at, id' },
    });
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE escalation_policies_read, escalation_policies');
  }
}
