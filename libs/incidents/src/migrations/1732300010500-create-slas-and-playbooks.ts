import { createRecordsUnderParent, createTableWithReadModel, NAMED_LIST_INDEXES, TENANT_COLUMNS, TIMESTAMP_READ_INDEXES } from '@taproot/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SLAs (docs/slas.md), with their conditions and notification configurations stored whole as
 * jsonb (an update replaces them), and playbooks with their tasks (docs/playbooks.md), keyed to
 * their playbook within the organization; a playbook's delete removes them first, each with its event.
 */
export class CreateSlasAndPlaybooks1732300010500 implements MigrationInterface {
  name = 'CreateSlasAndPlaybooks1732300010500';

  async up(q: QueryRunner): Promise<void> {
    await createTableWithReadModel(q, 'slas', {
      definition: `${TENANT_COLUMNS},
        name text NOT NULL,
        slug text NOT NULL,
        description text,
        position integer NOT NULL,
        entity_type text NOT NULL DEFAULT 'follow_up',
        condition_match_type text NOT NULL DEFAULT 'ALL',
        assignment_deadline_days integer NOT NULL,
        assignment_deadline_parent_status text NOT NULL,
        assignment_deadline_sub_status_id uuid,
        assignment_skip_weekends boolean NOT NULL DEFAULT false,
        completion_deadline_days integer NOT NULL,
        completion_deadline_parent_status text NOT NULL,
        completion_deadline_sub_status_id uuid,
        completion_skip_weekends boolean NOT NULL DEFAULT false,
        manager_role_id uuid,
        manager_user_id integer,
        conditions jsonb NOT NULL DEFAULT '[]',
        notification_configurations jsonb NOT NULL DEFAULT '[]',
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL`,
      ...NAMED_LIST_INDEXES,
    });
    await createTableWithReadModel(q, 'playbooks', {
      definition: `${TENANT_COLUMNS},
        title text NOT NULL,
        summary text,
        external_url text,
        severity_ids text[],
        environment_ids text[],
        functionality_ids text[],
        service_ids text[],
        group_ids text[],
        incident_type_ids text[],
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT playbooks_organization_id_id UNIQUE (organization_id, id)`,
      readIndexes: { ...TIMESTAMP_READ_INDEXES, title: 'title, created_at, id' },
    });
    await createRecordsUnderParent(
      q,
      'playbook_tasks',
      { column: 'playbook_id', table: 'playbooks' },
      `task text NOT NULL,
      description text,
      position integer NOT NULL`,
      { position: 'playbook_id, position, created_at, id', created: 'playbook_id, created_at, id', updated: 'playbook_id, updated_at, created_at, id' },
    );
    await q.query('CREATE INDEX playbook_tasks_position ON playbook_tasks (organization_id, playbook_id, position)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE playbook_tasks_read, playbook_tasks, playbooks_read, playbooks, slas_read, slas');
  }
}
