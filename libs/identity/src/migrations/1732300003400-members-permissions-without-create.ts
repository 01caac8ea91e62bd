import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * On-call roles' `members_permissions` take read, update and delete (the hosted API's own SDK,
 * rootly 3.0.1, refuses any other value); the system roles were seeded with `create` too.
 */
export class MembersPermissionsWithoutCreate1732300003400 implements MigrationInterface {
  name = 'MembersPermissionsWithoutCreate1732300003400';

  async up(q: QueryRunner): Promise<void> {
    for (const table of ['on_call_roles', 'on_call_roles_read']) {
      await q.query(`UPDATE ${table} SET members_permissions = array_remove(members_permissions, 'create') WHERE 'create' = ANY(members_permissions)`);
    }
  }

  async down(): Promise<void> {
    // Nothing to restore: no rule ever read members' create.
  }
}
