import { createTableWithReadModel, TENANT_COLUMNS, TIMESTAMP_READ_INDEXES } from '@taproot/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Catalog checklist templates and the checklists their triggers make (docs/catalog-checklists.md).
 * A template's fields and owners, and a checklist's, are lists kept with their record (jsonb).
 */
export class CreateCatalogChecklists1732300011250 implements MigrationInterface {
  name = 'CreateCatalogChecklists1732300011250';

  async up(q: QueryRunner): Promise<void> {
    await createTableWithReadModel(q, 'catalog_checklist_templates', {
      definition: `
        ${TENANT_COLUMNS},
        name text NOT NULL,
        slug text NOT NULL,
        description text,
        catalog_type text NOT NULL,
        scope_type text NOT NULL,
        scope_id text,
        fields jsonb,
        owners jsonb,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL`,
      writeIndexes: { slug: 'UNIQUE organization_id, slug text_pattern_ops' },
      readIndexes: { ...TIMESTAMP_READ_INDEXES, name: 'name, created_at, id', slug: 'slug' },
    });
    await createTableWithReadModel(q, 'catalog_entity_checklists', {
      definition: `
        ${TENANT_COLUMNS},
        catalog_checklist_template_id uuid NOT NULL,
        auditable_type text NOT NULL,
        auditable_id text NOT NULL,
        status text NOT NULL,
        started_at timestamptz,
        completed_at timestamptz,
        completed_by_user_id text,
        checklist_fields jsonb,
        checklist_owners jsonb,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL`,
      // A trigger looks up a template's open checklists; a template's delete, all of them.
      writeIndexes: { template: 'organization_id, catalog_checklist_template_id, auditable_id' },
      readIndexes: { ...TIMESTAMP_READ_INDEXES, template: 'catalog_checklist_template_id, created_at, id', auditable: 'auditable_id, created_at, id' },
    });
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE catalog_entity_checklists_read, catalog_entity_checklists, catalog_checklist_templates_read, catalog_checklist_templates');
  }
}
