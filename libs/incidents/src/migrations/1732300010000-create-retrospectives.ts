import { createRecordsUnderParent, createTableWithReadModel, TENANT_COLUMNS, TIMESTAMP_READ_INDEXES } from '@taproot/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Read-model keys of a list under a parent: each sort after the parent's id. */
const under = (column: string) => ({ position: `${column}, position, created_at, id`, created: `${column}, created_at, id`, updated: `${column}, updated_at, created_at, id` });

/**
 * Retrospectives (docs/retrospectives.md): retrospective processes, their steps and groups, the
 * groups' steps, and post-mortem templates. Records under a process or group are keyed to it
 * within the organization; its delete removes them first, each with its event.
 */
export class CreateRetrospectives1732300010000 implements MigrationInterface {
  name = 'CreateRetrospectives1732300010000';

  async up(q: QueryRunner): Promise<void> {
    await createTableWithReadModel(q, 'retrospective_processes', {
      definition: `
        ${TENANT_COLUMNS},
        name text NOT NULL,
        description text,
        is_default boolean DEFAULT false,
        retrospective_process_matching_criteria jsonb,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT retrospective_processes_organization_id_id UNIQUE (organization_id, id)`,
      readIndexes: { ...TIMESTAMP_READ_INDEXES, name: 'name, created_at, id' },
    });
    await createRecordsUnderParent(
      q,
      'retrospective_steps',
      { column: 'retrospective_process_id', table: 'retrospective_processes' },
      `title text NOT NULL,
      slug text NOT NULL,
      description text,
      due_after_days integer,
      incident_role_id uuid,
      position integer NOT NULL,
      skippable boolean NOT NULL DEFAULT false,
      CONSTRAINT retrospective_steps_organization_id_id UNIQUE (organization_id, id)`,
      { ...under('retrospective_process_id'), slug: 'slug', title: 'title, created_at, id' },
    );
    await q.query('CREATE UNIQUE INDEX retrospective_steps_slug ON retrospective_steps (organization_id, slug text_pattern_ops)');
    await q.query('CREATE INDEX retrospective_steps_position ON retrospective_steps (organization_id, retrospective_process_id, position)');
    await createRecordsUnderParent(
      q,
      'retrospective_process_groups',
      { column: 'retrospective_process_id', table: 'retrospective_processes' },
      `sub_status_id uuid NOT NULL,
      position integer NOT NULL,
      CONSTRAINT retrospective_process_groups_organization_id_id UNIQUE (organization_id, id)`,
      under('retrospective_process_id'),
    );
    await q.query('CREATE INDEX retrospective_process_groups_position ON retrospective_process_groups (organization_id, retrospective_process_id, position)');
    await createRecordsUnderParent(
      q,
      'retrospective_process_group_steps',
      { column: 'retrospective_process_group_id', table: 'retrospective_process_groups' },
      `retrospective_step_id uuid NOT NULL,
      position integer NOT NULL,
      CONSTRAINT retrospective_process_group_steps_step FOREIGN KEY (organization_id, retrospective_step_id) REFERENCES retrospective_steps (organization_id, id)`,
      under('retrospective_process_group_id'),
    );
    await q.query('CREATE INDEX retrospective_process_group_steps_position ON retrospective_process_group_steps (organization_id, retrospective_process_group_id, position)');
    // A step's delete removes the group steps placing it.
    await q.query('CREATE INDEX retrospective_process_group_steps_step ON retrospective_process_group_steps (organization_id, retrospective_step_id)');
    await createTableWithReadModel(q, 'post_mortem_templates', {
      definition: `
        ${TENANT_COLUMNS},
        name text NOT NULL,
        slug text NOT NULL,
        content text NOT NULL DEFAULT '',
        content_html text,
        content_json jsonb,
        "default" boolean DEFAULT false,
        format text NOT NULL DEFAULT 'html',
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL`,
      writeIndexes: { slug: 'UNIQUE organization_id, slug text_pattern_ops' },
      readIndexes: { ...TIMESTAMP_READ_INDEXES, name: 'name, created_at, id', slug: 'slug' },
    });
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      'DROP TABLE post_mortem_templates_read, post_mortem_templates, retrospective_process_group_steps_read, retrospective_process_group_steps, retrospective_process_groups_read, retrospective_process_groups, retrospective_steps_read, retrospective_steps, retrospective_processes_read, retrospective_processes',
    );
  }
}
