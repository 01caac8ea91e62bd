import { createRecordsUnderParent, createTableWithReadModel, NAMED_LIST_INDEXES, TENANT_COLUMNS, TIMESTAMP_READ_INDEXES } from '@taproot/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Read-model keys of a list under a parent: each sort after the parent's id. */
const under = (column: string, keys: Record<string, string>) => Object.fromEntries(Object.entries(keys).map(([name, key]) => [name, `${column}, ${key}`]));

/**
 * Custom catalogs (docs/catalogs.md): catalogs, the properties of catalogs (a custom catalog's,
 * or a built-in catalog's such as services', `catalog_id` null), the entities of a custom
 * catalog, and the deprecated per-entity property values. Records under a catalog are keyed to it
 * within the organization; its delete removes them first, each with its event.
 */
export class CreateCatalogs1732300009700 implements MigrationInterface {
  name = 'CreateCatalogs1732300009700';

  async up(q: QueryRunner): Promise<void> {
    await createTableWithReadModel(q, 'catalogs', {
      definition: `
        ${TENANT_COLUMNS},
        name text NOT NULL,
        slug text NOT NULL,
        description text,
        icon text NOT NULL,
        external_id text,
        managed_by text NOT NULL DEFAULT 'api',
        position integer NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT catalogs_organization_id_id UNIQUE (organization_id, id)`,
      ...NAMED_LIST_INDEXES,
    });
    await createTableWithReadModel(q, 'catalog_properties', {
      definition: `
        ${TENANT_COLUMNS},
        -- Null for a built-in catalog's property (catalog_type names it).
        catalog_id uuid,
        catalog_type text NOT NULL,
        name text NOT NULL,
        slug text NOT NULL,
        kind text NOT NULL,
        kind_catalog_id uuid,
        multiple boolean NOT NULL DEFAULT false,
        required boolean NOT NULL DEFAULT false,
        position integer NOT NULL,
        external_id text,
        managed_by text NOT NULL DEFAULT 'api',
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT catalog_properties_catalog FOREIGN KEY (organization_id, catalog_id) REFERENCES catalogs (organization_id, id)`,
      writeIndexes: {
        slug: 'UNIQUE organization_id, slug text_pattern_ops',
        catalog: 'organization_id, catalog_id, position',
        catalog_type: 'organization_id, catalog_type, position',
      },
      readIndexes: { ...under('catalog_id', { position: 'position, created_at, id', ...TIMESTAMP_READ_INDEXES }), type: 'catalog_type, position, created_at, id', slug: 'slug' },
    });
    await createRecordsUnderParent(
      q,
      'catalog_entities',
      { column: 'catalog_id', table: 'catalogs' },
      `name text NOT NULL,
      slug text NOT NULL,
      description text,
      public_description text,
      external_id text,
      backstage_id text,
      managed_by text NOT NULL DEFAULT 'api',
      position integer NOT NULL,
      properties jsonb NOT NULL DEFAULT '[]',
      CONSTRAINT catalog_entities_organization_id_id UNIQUE (organization_id, id)`,
      { ...under('catalog_id', { position: 'position, created_at, id', name: 'name, created_at, id', ...TIMESTAMP_READ_INDEXES }), slug: 'slug' },
    );
    await q.query('CREATE UNIQUE INDEX catalog_entities_slug ON catalog_entities (organization_id, slug text_pattern_ops)');
    await q.query('CREATE INDEX catalog_entities_position ON catalog_entities (organization_id, catalog_id, position)');
    // A bulk upsert finds each entity of its catalog by external id.
    await q.query('CREATE INDEX catalog_entities_external_id ON catalog_entities (organization_id, catalog_id, external_id)');
    await createRecordsUnderParent(
      q,
      'catalog_entity_properties',
      { column: 'catalog_entity_id', table: 'catalog_entities' },
      `catalog_field_id uuid NOT NULL,
      key text NOT NULL,
      value text NOT NULL`,
      under('catalog_entity_id', TIMESTAMP_READ_INDEXES),
    );
    // A property's delete removes the values naming it.
    await q.query('CREATE INDEX catalog_entity_properties_field ON catalog_entity_properties (organization_id, catalog_field_id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE catalog_entity_properties_read, catalog_entity_properties, catalog_entities_read, catalog_entities, catalog_properties_read, catalog_properties, catalogs_read, catalogs');
  }
}
