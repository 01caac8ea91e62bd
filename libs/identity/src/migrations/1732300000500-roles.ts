import type { MigrationInterface, QueryRunner } from 'typeorm';
import { seedSystemRoles } from '../roles/system-roles';

/** Permission columns as of this migration (a later field comes with its own migration). */
const ROLE_FIELDS = [
  'alerts_permissions', 'api_keys_permissions', 'audits_permissions', 'billing_permissions', 'catalogs_permissions',
  'communication_permissions', 'edge_connector_permissions', 'environments_permissions', 'form_fields_permissions',
  'functionalities_permissions', 'groups_permissions', 'incident_causes_permissions', 'incident_communication_permissions',
  'incident_feedbacks_permissions', 'incident_roles_permissions', 'incident_types_permissions', 'incidents_permissions',
  'integrations_permissions', 'invitations_permissions', 'paging_permissions', 'playbooks_permissions',
  'private_incidents_permissions', 'pulses_permissions', 'retrospective_permissions', 'roles_permissions',
  'secrets_permissions', 'services_permissions', 'severities_permissions', 'slas_permissions', 'status_pages_permissions',
  'sub_statuses_permissions', 'webhooks_permissions', 'workflows_permissions',
];
const ON_CALL_ROLE_FIELDS = [
  'alert_fields_permissions', 'alert_groups_permissions', 'alert_routing_rules_permissions', 'alert_sources_permissions',
  'alert_urgency_permissions', 'alerts_permissions', 'api_keys_permissions', 'audits_permissions', 'catalogs_permissions',
  'contacts_permissions', 'escalation_policies_permissions', 'functionalities_permissions', 'groups_permissions',
  'heartbeats_permissions', 'integrations_permissions', 'invitations_permissions', 'live_call_routing_permissions',
  'members_permissions', 'on_call_readiness_report_permissions', 'on_call_roles_permissions',
  'schedule_override_permissions', 'schedules_permissions', 'services_permissions', 'webhooks_permissions',
  'workflows_permissions',
];

const permissionColumns = (fields: string[]) => fields.map((f) => `${f} text[] NOT NULL DEFAULT '{}'`).join(',\n        ');

/**
 * Incident response roles (`roles`) and on-call roles (`on_call_roles`) with their read models,
 * the role assignments of API keys and users, and the system roles of existing organizations.
 */
export class Roles1732300000500 implements MigrationInterface {
  name = 'Roles1732300000500';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE roles (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name text NOT NULL,
        slug text NOT NULL,
        system_role text NOT NULL DEFAULT 'custom' CHECK (system_role IN ('owner', 'admin', 'user', 'observer', 'no_access', 'custom')),
        incident_permission_set_id text,
        ${permissionColumns(ROLE_FIELDS)},
        is_editable boolean NOT NULL DEFAULT true,
        is_deletable boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE TABLE on_call_roles (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name text NOT NULL,
        slug text NOT NULL,
        system_role text NOT NULL DEFAULT 'custom' CHECK (system_role IN ('admin', 'user', 'custom', 'observer', 'no_access')),
        team_id text,
        ${permissionColumns(ON_CALL_ROLE_FIELDS)},
        is_editable boolean NOT NULL DEFAULT true,
        is_deletable boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    for (const table of ['roles', 'on_call_roles']) {
      await q.query(`CREATE UNIQUE INDEX ${table}_slug ON ${table} (organization_id, slug)`);
      await q.query(`CREATE TABLE ${table}_read (LIKE ${table} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
      await q.query(`ALTER TABLE ${table}_read ADD PRIMARY KEY (id)`);
      await q.query(`CREATE INDEX ${table}_read_created ON ${table}_read (organization_id, created_at, id)`);
      await q.query(`CREATE INDEX ${table}_read_updated ON ${table}_read (organization_id, updated_at, created_at, id)`);
      await q.query(`CREATE INDEX ${table}_read_name ON ${table}_read (organization_id, name, created_at, id)`);
      await q.query(`CREATE INDEX ${table}_read_slug ON ${table}_read (organization_id, slug)`);
    }
    // Which roles apply to a caller (docs/permissions.md). IF NOT EXISTS: the API keys work may
    // add the same key columns (the reference's `role_id` / `on_call_role_id` of `api_key`).
    // No foreign keys: deleting an assigned role is refused by the role rules, and an id whose
    // role is gone grants nothing.
    await q.query('ALTER TABLE api_keys ADD COLUMN IF NOT EXISTS role_id uuid, ADD COLUMN IF NOT EXISTS on_call_role_id uuid');
    await q.query('ALTER TABLE users ADD COLUMN IF NOT EXISTS role_id uuid, ADD COLUMN IF NOT EXISTS on_call_role_id uuid');
    const organizations: { id: string }[] = await q.query('SELECT id FROM organizations ORDER BY created_at');
    for (const { id } of organizations) {
      await seedSystemRoles(q.manager, id, { roleFields: ROLE_FIELDS, onCallRoleFields: ON_CALL_ROLE_FIELDS });
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE users DROP COLUMN IF EXISTS role_id, DROP COLUMN IF EXISTS on_call_role_id');
    // The api_keys columns stay: the API keys migration may own them too.
    for (const table of ['on_call_roles_read', 'on_call_roles', 'roles_read', 'roles']) await q.query(`DROP TABLE ${table}`);
  }
}
