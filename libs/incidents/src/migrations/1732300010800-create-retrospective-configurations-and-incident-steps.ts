import { createRecordsUnderParent, createTableWithReadModel, TENANT_COLUMNS, TIMESTAMP_READ_INDEXES } from '@taproot/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { seedRetrospectiveConfigurations } from '../retrospectives/retrospective-configurations/built-in-retrospective-configurations';

/**
 * Retrospective configurations, one per kind and organization (seeded here for the existing
 * ones), and incidents' retrospective steps, keyed to their incident (docs/retrospectives.md). An
 * incident's step keeps the id of the process step it copies without a key: that step may go.
 */
export class CreateRetrospectiveConfigurationsAndIncidentSteps1732300010800 implements MigrationInterface {
  name = 'CreateRetrospectiveConfigurationsAndIncidentSteps1732300010800';

  async up(q: QueryRunner): Promise<void> {
    await createTableWithReadModel(q, 'retrospective_configurations', {
      definition: `
        ${TENANT_COLUMNS},
        kind text NOT NULL,
        severity_ids text[],
        group_ids text[],
        incident_type_ids text[],
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL`,
      writeIndexes: { kind: 'UNIQUE organization_id, kind' },
      readIndexes: TIMESTAMP_READ_INDEXES,
    });
    const organizations = (await q.query('SELECT id FROM organizations')) as { id: string }[];
    await seedRetrospectiveConfigurations(q, organizations.map((o) => o.id), new Date());
    await createRecordsUnderParent(
      q,
      'incident_retrospective_steps',
      { column: 'incident_id', table: 'incidents' },
      `retrospective_step_id uuid NOT NULL,
      title text NOT NULL,
      description text,
      due_date timestamptz,
      kind text,
      position integer NOT NULL,
      skippable boolean NOT NULL DEFAULT false,
      status text NOT NULL DEFAULT 'todo'`,
      { position: 'incident_id, position, created_at, id', created: 'incident_id, created_at, id', updated: 'incident_id, updated_at, created_at, id' },
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE incident_retrospective_steps_read, incident_retrospective_steps, retrospective_configurations_read, retrospective_configurations');
  }
}
