import { createRecordsUnderParent, createTableWithReadModel, TENANT_COLUMNS, TIMESTAMP_READ_INDEXES } from '@taproot/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Read-model keys of a set's records: each sort after the set's id. */
const underSet = (keys: Record<string, string>) => Object.fromEntries(Object.entries(keys).map(([name, key]) => [name, `incident_permission_set_id, ${key}`]));

/**
 * Incident permission sets (docs/incident-permission-sets.md), their booleans and resources (each
 * keyed to its set within the organization; a set's delete removes them first, each with its
 * event), and the input-only `severity_params` of those records, kept by record id.
 */
export class CreateIncidentPermissionSets1732300009900 implements MigrationInterface {
  name = 'CreateIncidentPermissionSets1732300009900';

  async up(q: QueryRunner): Promise<void> {
    await createTableWithReadModel(q, 'incident_permission_sets', {
      definition: `${TENANT_COLUMNS},
        name text NOT NULL,
        slug text NOT NULL,
        description text,
        private_incident_permissions text[] NOT NULL DEFAULT '{}',
        public_incident_permissions text[] NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT incident_permission_sets_organization_id_id UNIQUE (organization_id, id)`,
      writeIndexes: { slug: 'UNIQUE organization_id, slug text_pattern_ops' },
      readIndexes: { ...TIMESTAMP_READ_INDEXES, name: 'name, created_at, id', slug: 'slug' },
    });
    await createRecordsUnderParent(
      q,
      'incident_permission_set_booleans',
      { column: 'incident_permission_set_id', table: 'incident_permission_sets' },
      `kind text NOT NULL,
      private boolean NOT NULL DEFAULT false,
      enabled boolean NOT NULL DEFAULT true`,
      underSet({ ...TIMESTAMP_READ_INDEXES, kind: 'kind, created_at, id' }),
    );
    await createRecordsUnderParent(
      q,
      'incident_permission_set_resources',
      { column: 'incident_permission_set_id', table: 'incident_permission_sets' },
      `kind text NOT NULL,
      private boolean NOT NULL DEFAULT false,
      resource_id uuid,
      resource_type text NOT NULL`,
      underSet({ ...TIMESTAMP_READ_INDEXES, kind: 'kind, created_at, id' }),
    );
    // Written before its record (whose id the rule assigns), so keyed to the set only; the record's
    // delete removes it, and the set's takes any left.
    await q.query(`
      CREATE TABLE incident_permission_severity_params (
        record_id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        incident_permission_set_id uuid NOT NULL,
        fully_enabled boolean NOT NULL,
        create_enabled boolean NOT NULL,
        applies_to_unassigned boolean NOT NULL,
        severity_ids uuid[] NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT incident_permission_severity_params_set FOREIGN KEY (organization_id, incident_permission_set_id) REFERENCES incident_permission_sets (organization_id, id) ON DELETE CASCADE
      )`);
    await q.query('CREATE INDEX incident_permission_severity_params_set ON incident_permission_severity_params (organization_id, incident_permission_set_id)');
    // A role names a set of its organization; the set's delete unsets it through the roles' own path.
    await q.query('CREATE INDEX roles_incident_permission_set_id ON roles (organization_id, incident_permission_set_id) WHERE incident_permission_set_id IS NOT NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX roles_incident_permission_set_id');
    await q.query(
      'DROP TABLE incident_permission_severity_params, incident_permission_set_resources_read, incident_permission_set_resources, incident_permission_set_booleans_read, incident_permission_set_booleans, incident_permission_sets_read, incident_permission_sets',
    );
  }
}
