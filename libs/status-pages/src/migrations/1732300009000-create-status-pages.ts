import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createTableWithReadModel, TENANT_COLUMNS, TIMESTAMP_READ_INDEXES } from '@taproot/persistence';

/** Status pages (docs/status-pages.md): the write table and its `_read` model. */
export class CreateStatusPages1732300009000 implements MigrationInterface {
  name = 'CreateStatusPages1732300009000';

  async up(q: QueryRunner): Promise<void> {
    await createTableWithReadModel(q, 'status_pages', {
      definition: `${TENANT_COLUMNS},
        title text NOT NULL,
        slug text NOT NULL,
        description text,
        public_title text,
        public_description text,
        header_color text,
        footer_color text,
        allow_search_engine_index boolean NOT NULL DEFAULT true,
        authentication_enabled boolean NOT NULL DEFAULT false,
        authentication_method text NOT NULL DEFAULT 'none',
        authentication_password text,
        saml_idp_cert text,
        saml_idp_cert_fingerprint text,
        saml_idp_sso_service_url text,
        saml_idp_slo_service_url text,
        saml_name_identifier_format text,
        success_message text,
        failure_message text,
        website_url text,
        website_privacy_url text,
        website_support_url text,
        ga_tracking_id text,
        time_zone text NOT NULL DEFAULT 'Etc/UTC',
        public boolean NOT NULL DEFAULT false,
        enabled boolean NOT NULL DEFAULT true,
        show_uptime boolean NOT NULL DEFAULT true,
        show_uptime_last_days integer NOT NULL DEFAULT 90,
        section_order text[] NOT NULL DEFAULT '{maintenance,system_status,incidents}',
        service_ids uuid[] NOT NULL DEFAULT '{}',
        functionality_ids uuid[] NOT NULL DEFAULT '{}',
        external_domain_names text[] NOT NULL DEFAULT '{}',
        cname_records jsonb,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        -- The key the records under a page (components, templates, team grants, ...) reference.
        CONSTRAINT status_pages_organization_id_id UNIQUE (organization_id, id)`,
      writeIndexes: { slug: 'UNIQUE organization_id, slug text_pattern_ops' },
      readIndexes: { ...TIMESTAMP_READ_INDEXES, title: 'title, created_at, id', slug: 'slug' },
    });
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE status_pages_read, status_pages');
  }
}
