import { createRecordsUnderParent, createTableWithReadModel, NAMED_LIST_INDEXES, TIMESTAMP_READ_INDEXES } from '@taproot/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Read-model keys of a list under a parent: each sort after the parent's id. */
const under = (column: string, keys: Record<string, string>) => Object.fromEntries(Object.entries(keys).map(([name, key]) => [name, `${column}, ${key}`]));
const POSITIONED = { position: 'position, created_at, id', ...TIMESTAMP_READ_INDEXES };
const TENANT = `
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE`;
const TIMESTAMPS = `
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL`;
const INCIDENT = { column: 'incident_id', table: 'incidents' };

/**
 * The forms family (docs/forms.md): form fields with their options, placements (in form sets,
 * with their conditions) and positions; form sets with their conditions; custom forms; the
 * deprecated custom fields with their options; and incidents' selections of both kinds of field.
 * Records under a parent are keyed to it within the organization (NO ACTION: the parent's delete
 * removes them first, each with its event). Fields that conditions and selections name are
 * checked when written, not keyed: the field's delete removes those records itself.
 */
export class CreateForms1732300009800 implements MigrationInterface {
  name = 'CreateForms1732300009800';

  async up(q: QueryRunner): Promise<void> {
    await createTableWithReadModel(q, 'form_fields', {
      definition: `${TENANT},
        kind text NOT NULL,
        input_kind text NOT NULL,
        value_kind text NOT NULL,
        value_kind_catalog_id text,
        name text NOT NULL,
        slug text NOT NULL,
        description text,
        shown text[] NOT NULL DEFAULT '{}',
        required text[] NOT NULL DEFAULT '{}',
        show_on_incident_details boolean NOT NULL DEFAULT false,
        enabled boolean NOT NULL DEFAULT true,
        default_values text[] NOT NULL DEFAULT '{}',
        auto_set_by_catalog_property_id text,
        resource_type text NOT NULL DEFAULT 'incident',
        position integer NOT NULL,${TIMESTAMPS},
        CONSTRAINT form_fields_organization_id_id UNIQUE (organization_id, id)`,
      ...NAMED_LIST_INDEXES,
    });
    await createTableWithReadModel(q, 'form_sets', {
      definition: `${TENANT},
        name text NOT NULL,
        slug text NOT NULL,
        is_default boolean NOT NULL DEFAULT false,
        forms text[] NOT NULL DEFAULT '{}',${TIMESTAMPS},
        CONSTRAINT form_sets_organization_id_id UNIQUE (organization_id, id)`,
      writeIndexes: { slug: 'UNIQUE organization_id, slug text_pattern_ops' },
      readIndexes: { ...TIMESTAMP_READ_INDEXES, slug: 'slug' },
    });
    await createTableWithReadModel(q, 'custom_forms', {
      definition: `${TENANT},
        name text NOT NULL,
        slug text NOT NULL,
        command text NOT NULL,
        description text,
        enabled boolean NOT NULL DEFAULT true,${TIMESTAMPS}`,
      writeIndexes: { slug: 'UNIQUE organization_id, slug text_pattern_ops' },
      readIndexes: { ...TIMESTAMP_READ_INDEXES, name: 'name, created_at, id', slug: 'slug' },
    });
    await createTableWithReadModel(q, 'custom_fields', {
      definition: `${TENANT},
        label text NOT NULL,
        slug text NOT NULL,
        kind text NOT NULL DEFAULT 'text',
        enabled boolean NOT NULL DEFAULT true,
        description text,
        "default" text,
        shown text[] NOT NULL DEFAULT '{}',
        required text[],
        resource_type text NOT NULL DEFAULT 'incident',
        position integer NOT NULL,${TIMESTAMPS},
        CONSTRAINT custom_fields_organization_id_id UNIQUE (organization_id, id)`,
      writeIndexes: { slug: 'UNIQUE organization_id, slug text_pattern_ops', position: 'organization_id, position' },
      readIndexes: { ...POSITIONED, label: 'label, created_at, id', slug: 'slug' },
    });

    const option = `value text NOT NULL, color text NOT NULL, "default" boolean NOT NULL DEFAULT false, position integer NOT NULL`;
    await createRecordsUnderParent(q, 'form_field_options', { column: 'form_field_id', table: 'form_fields' }, option, under('form_field_id', POSITIONED));
    await createRecordsUnderParent(q, 'custom_field_options', { column: 'custom_field_id', table: 'custom_fields' }, option, under('custom_field_id', POSITIONED));
    await createRecordsUnderParent(
      q,
      'form_field_placements',
      { column: 'form_field_id', table: 'form_fields' },
      `form_set_id uuid NOT NULL,
      form text NOT NULL,
      position integer NOT NULL,
      required boolean NOT NULL DEFAULT false,
      non_editable boolean NOT NULL DEFAULT false,
      placement_operator text NOT NULL DEFAULT 'and',
      required_operator text NOT NULL DEFAULT 'and',
      CONSTRAINT form_field_placements_organization_id_id UNIQUE (organization_id, id)`,
      under('form_field_id', POSITIONED),
    );
    // A form set's delete removes the placements in it.
    await q.query('CREATE INDEX form_field_placements_form_set ON form_field_placements (organization_id, form_set_id)');
    await createRecordsUnderParent(
      q,
      'form_field_placement_conditions',
      { column: 'form_field_placement_id', table: 'form_field_placements' },
      `conditioned text NOT NULL, position integer NOT NULL, form_field_id uuid NOT NULL, comparison text NOT NULL, "values" text[] NOT NULL DEFAULT '{}'`,
      under('form_field_placement_id', POSITIONED),
    );
    await createRecordsUnderParent(q, 'form_field_positions', { column: 'form_field_id', table: 'form_fields' }, 'form text NOT NULL, position integer NOT NULL', under('form_field_id', POSITIONED));
    await createRecordsUnderParent(
      q,
      'form_set_conditions',
      { column: 'form_set_id', table: 'form_sets' },
      `form_field_id uuid NOT NULL, comparison text NOT NULL, "values" text[] NOT NULL DEFAULT '{}'`,
      under('form_set_id', TIMESTAMP_READ_INDEXES),
    );
    await createRecordsUnderParent(
      q,
      'incident_form_field_selections',
      INCIDENT,
      `form_field_id uuid NOT NULL,
      value text,
      selected_catalog_entity_ids text[] NOT NULL DEFAULT '{}',
      selected_cause_ids text[] NOT NULL DEFAULT '{}',
      selected_environment_ids text[] NOT NULL DEFAULT '{}',
      selected_functionality_ids text[] NOT NULL DEFAULT '{}',
      selected_group_ids text[] NOT NULL DEFAULT '{}',
      selected_incident_type_ids text[] NOT NULL DEFAULT '{}',
      selected_option_ids text[] NOT NULL DEFAULT '{}',
      selected_service_ids text[] NOT NULL DEFAULT '{}',
      selected_user_ids integer[] NOT NULL DEFAULT '{}'`,
      under('incident_id', TIMESTAMP_READ_INDEXES),
    );
    await createRecordsUnderParent(
      q,
      'incident_custom_field_selections',
      INCIDENT,
      `custom_field_id uuid NOT NULL, value text, selected_option_ids text[] NOT NULL DEFAULT '{}'`,
      under('incident_id', TIMESTAMP_READ_INDEXES),
    );
    // A field's delete removes the conditions and selections naming it.
    for (const [table, column] of [
      ['form_field_placement_conditions', 'form_field_id'],
      ['form_set_conditions', 'form_field_id'],
      ['incident_form_field_selections', 'form_field_id'],
      ['incident_custom_field_selections', 'custom_field_id'],
    ]) {
      await q.query(`CREATE INDEX ${table}_${column} ON ${table} (organization_id, ${column})`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'incident_custom_field_selections',
      'incident_form_field_selections',
      'form_set_conditions',
      'form_field_positions',
      'form_field_placement_conditions',
      'form_field_placements',
      'custom_field_options',
      'form_field_options',
      'custom_fields',
      'custom_forms',
      'form_sets',
      'form_fields',
    ]) {
      await q.query(`DROP TABLE ${table}_read, ${table}`);
    }
  }
}
