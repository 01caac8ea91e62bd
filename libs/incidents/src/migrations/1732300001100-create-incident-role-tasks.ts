import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Read-model indexes, after organization_id and incident_role_id: lists are per role, every sort ends in created_at, id. */
const READ_INDEXES: Record<string, string> = {
  created: 'created_at, id',
  updated: 'updated_at, created_at, id',
};

/**
 * Incident role tasks: the write table and its `_read` model, indexed as migration 1000's.
 *
 * A task's role is of the same organization: the foreign key is (organization_id,
 * incident_role_id), so no write can put a task under another tenant's role. Deleting a role
 * that still has tasks is refused (the key is NO ACTION; the API answers 409): a cascade here
 * would drop the tasks without their `incident_role_task.deleted` events, so the read model,
 * the audit log and webhooks would never hear of it. An organization's deletion still removes
 * both, in one statement.
 */
export class CreateIncidentRoleTasks1732300001100 implements MigrationInterface {
  name = 'CreateIncidentRoleTasks1732300001100';

  async up(q: QueryRunner): Promise<void> {
    // The target of the composite key below.
    await q.query('ALTER TABLE incident_roles ADD CONSTRAINT incident_roles_organization_id_id UNIQUE (organization_id, id)');
    await q.query(`CREATE TABLE incident_role_tasks (
      id uuid PRIMARY KEY,
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      incident_role_id uuid NOT NULL,
      task text NOT NULL,
      description text,
      priority text NOT NULL DEFAULT 'medium' CHECK (priority IN ('high', 'medium', 'low')),
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      CONSTRAINT incident_role_tasks_role FOREIGN KEY (organization_id, incident_role_id) REFERENCES incident_roles (organization_id, id)
    )`);
    // Serves the key's check when a role is deleted.
    await q.query('CREATE INDEX incident_role_tasks_role ON incident_role_tasks (organization_id, incident_role_id)');
    await q.query('CREATE TABLE incident_role_tasks_read (LIKE incident_role_tasks INCLUDING DEFAULTS INCLUDING CONSTRAINTS)');
    await q.query('ALTER TABLE incident_role_tasks_read ADD PRIMARY KEY (id)');
    for (const [index, key] of Object.entries(READ_INDEXES)) {
      await q.query(`CREATE INDEX incident_role_tasks_read_${index} ON incident_role_tasks_read (organization_id, incident_role_id, ${key})`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE incident_role_tasks_read, incident_role_tasks');
    await q.query('ALTER TABLE incident_roles DROP CONSTRAINT incident_roles_organization_id_id');
  }
}
