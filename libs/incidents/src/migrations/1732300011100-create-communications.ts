import { createTableWithReadModel, NAMED_LIST_INDEXES, TENANT_COLUMNS, TIMESTAMP_READ_INDEXES } from '@taproot/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

const NAMED = `name text NOT NULL,
        slug text NOT NULL,
        description text`;
const STAMPS = `created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL`;

/**
 * Incident communications' settings (docs/communications.md): types and stages, ordered lists;
 * templates of a type with their per-stage contents (jsonb, replaced whole by an update); groups
 * of a type with their members, conditions and external members (jsonb). A type's key on its
 * templates and groups is NO ACTION: its delete answers 409 while they name it.
 */
export class CreateCommunications1732300011100 implements MigrationInterface {
  name = 'CreateCommunications1732300011100';

  async up(q: QueryRunner): Promise<void> {
    await createTableWithReadModel(q, 'communications_types', {
      definition: `${TENANT_COLUMNS}, ${NAMED}, color text, position integer NOT NULL, ${STAMPS}`,
      ...NAMED_LIST_INDEXES,
    });
    await createTableWithReadModel(q, 'communications_stages', {
      definition: `${TENANT_COLUMNS}, ${NAMED}, position integer NOT NULL, ${STAMPS}`,
      ...NAMED_LIST_INDEXES,
    });
    await createTableWithReadModel(q, 'communications_templates', {
      definition: `${TENANT_COLUMNS}, ${NAMED},
        position integer NOT NULL,
        communication_type_id uuid NOT NULL REFERENCES communications_types(id),
        communication_type jsonb,
        communication_template_stages jsonb NOT NULL DEFAULT '[]',
        ${STAMPS}`,
      writeIndexes: { ...NAMED_LIST_INDEXES.writeIndexes, type: 'communication_type_id' },
      readIndexes: { ...NAMED_LIST_INDEXES.readIndexes, type: 'communication_type_id, position, created_at, id' },
    });
    await createTableWithReadModel(q, 'communications_groups', {
      definition: `${TENANT_COLUMNS}, ${NAMED},
        communication_type_id uuid NOT NULL REFERENCES communications_types(id),
        is_private boolean NOT NULL DEFAULT false,
        condition_type text NOT NULL DEFAULT 'any',
        sms_channel boolean NOT NULL DEFAULT false,
        email_channel boolean NOT NULL DEFAULT false,
        member_ids integer[],
        communication_group_members jsonb,
        slack_channel_ids text[],
        communication_group_conditions jsonb,
        communication_external_group_members jsonb,
        ${STAMPS}`,
      writeIndexes: { slug: 'UNIQUE organization_id, slug text_pattern_ops', type: 'communication_type_id' },
      readIndexes: { ...TIMESTAMP_READ_INDEXES, name: 'name, created_at, id', slug: 'slug', type: 'communication_type_id, created_at, id' },
    });
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE communications_groups_read, communications_groups, communications_templates_read, communications_templates, communications_stages_read, communications_stages, communications_types_read, communications_types');
  }
}
