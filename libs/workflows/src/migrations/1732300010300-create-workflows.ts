import { createRecordsUnderParent, createTableWithReadModel, NAMED_LIST_INDEXES, TENANT_COLUMNS, TIMESTAMP_READ_INDEXES } from '@taproot/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Read-model keys of a list under a workflow: each sort after the workflow's id. */
const underWorkflow = (keys: Record<string, string>) => Object.fromEntries(Object.entries(keys).map(([name, key]) => [name, `workflow_id, ${key}`]));

const SELECTED = `
      "values" text[] NOT NULL DEFAULT '{}',
      selected_option_ids text[] NOT NULL DEFAULT '{}',
      selected_catalog_entity_ids text[] NOT NULL DEFAULT '{}',
      selected_user_ids integer[] NOT NULL DEFAULT '{}',
      selected_functionality_ids text[] NOT NULL DEFAULT '{}',
      selected_group_ids text[] NOT NULL DEFAULT '{}',
      selected_service_ids text[] NOT NULL DEFAULT '{}',
      selected_cause_ids text[] NOT NULL DEFAULT '{}',
      selected_environment_ids text[] NOT NULL DEFAULT '{}',
      selected_incident_type_ids text[] NOT NULL DEFAULT '{}'`;

/**
 * Workflows, their groups, and under each workflow its tasks, runs, form field conditions (of
 * incident and of action item fields) and custom field selections (docs/workflows.md). Records
 * under a workflow are keyed to it within the organization; its delete removes them first, each
 * with its event. A workflow names its group without a key: the group's delete ungroups it.
 */
export class CreateWorkflows1732300010300 implements MigrationInterface {
  name = 'CreateWorkflows1732300010300';

  async up(q: QueryRunner): Promise<void> {
    await createTableWithReadModel(q, 'workflow_groups', {
      definition: `
        ${TENANT_COLUMNS},
        name text NOT NULL,
        slug text NOT NULL,
        description text,
        expanded boolean NOT NULL DEFAULT true,
        icon text NOT NULL,
        kind text,
        position integer NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL`,
      ...NAMED_LIST_INDEXES,
    });
    await createTableWithReadModel(q, 'workflows', {
      definition: `
        ${TENANT_COLUMNS},
        name text NOT NULL,
        slug text NOT NULL,
        description text,
        command text,
        command_feedback_enabled boolean,
        wait text,
        repeat_every_duration text,
        repeat_on text[] DEFAULT '{}',
        repeat_condition_duration_since_first_run text,
        repeat_condition_number_of_repeats integer NOT NULL DEFAULT 0,
        continuously_repeat boolean NOT NULL DEFAULT false,
        enabled boolean NOT NULL DEFAULT true,
        locked boolean NOT NULL DEFAULT false,
        position integer NOT NULL,
        priority text,
        workflow_group_id uuid,
        trigger_params jsonb NOT NULL,
        environment_ids text[] NOT NULL DEFAULT '{}',
        severity_ids text[] NOT NULL DEFAULT '{}',
        incident_type_ids text[] NOT NULL DEFAULT '{}',
        incident_role_ids text[] NOT NULL DEFAULT '{}',
        service_ids text[] NOT NULL DEFAULT '{}',
        functionality_ids text[] NOT NULL DEFAULT '{}',
        group_ids text[] NOT NULL DEFAULT '{}',
        cause_ids text[] NOT NULL DEFAULT '{}',
        sub_status_ids text[] NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT workflows_organization_id_id UNIQUE (organization_id, id)`,
      writeIndexes: { ...NAMED_LIST_INDEXES.writeIndexes, group: 'organization_id, workflow_group_id' },
      readIndexes: { ...NAMED_LIST_INDEXES.readIndexes, group: 'workflow_group_id, position, created_at, id' },
    });
    await createRecordsUnderParent(
      q,
      'workflow_tasks',
      { column: 'workflow_id', table: 'workflows' },
      `name text NOT NULL,
      position integer NOT NULL,
      skip_on_failure boolean NOT NULL DEFAULT false,
      enabled boolean NOT NULL DEFAULT true,
      task_params jsonb NOT NULL`,
      underWorkflow({ position: 'position, created_at, id', name: 'name, created_at, id', ...TIMESTAMP_READ_INDEXES }),
    );
    await createRecordsUnderParent(
      q,
      'workflow_runs',
      { column: 'workflow_id', table: 'workflows' },
      `status text NOT NULL,
      status_message text,
      triggered_by text NOT NULL,
      incident_id text,
      post_mortem_id text,
      action_item_id text,
      alert_id text,
      pulse_id text,
      context jsonb NOT NULL DEFAULT '{}',
      started_at timestamptz,
      completed_at timestamptz,
      failed_at timestamptz,
      canceled_at timestamptz`,
      underWorkflow(TIMESTAMP_READ_INDEXES),
    );
    // Conditions on an incident's form fields and on an action item's: the same shape, their condition named for their records.
    for (const [table, condition] of [
      ['workflow_form_field_conditions', 'incident_condition'],
      ['workflow_action_item_form_field_conditions', 'action_item_condition'],
    ]) {
      await createRecordsUnderParent(q, table, { column: 'workflow_id', table: 'workflows' }, `form_field_id uuid NOT NULL, ${condition} text NOT NULL,${SELECTED}`, underWorkflow(TIMESTAMP_READ_INDEXES));
    }
    await createRecordsUnderParent(
      q,
      'workflow_custom_field_selections',
      { column: 'workflow_id', table: 'workflows' },
      `custom_field_id uuid NOT NULL,
      incident_condition text NOT NULL,
      "values" text[] NOT NULL DEFAULT '{}',
      selected_option_ids text[] NOT NULL DEFAULT '{}'`,
      underWorkflow(TIMESTAMP_READ_INDEXES),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['workflow_custom_field_selections', 'workflow_action_item_form_field_conditions', 'workflow_form_field_conditions', 'workflow_runs', 'workflow_tasks', 'workflows', 'workflow_groups']) {
      await q.query(`DROP TABLE ${table}_read, ${table}`);
    }
  }
}
