import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { openTestDataSource } from '@taproot/persistence';
import type { DataSource } from 'typeorm';
import { Roles1732300000500 } from '../migrations/1732300000500-roles';
import { can, PermissionResolver, type ScopedPrincipal } from '@taproot/auth';

describe('the roles migration on a database that already has organizations', () => {
  let ds: DataSource;
  before(async () => {
    ds = await openTestDataSource();
  });
  after(() => ds.destroy());

  test('down then up seeds each existing organization and gives its users their roles', async () => {
    const migration = new Roles1732300000500();
    const runner = ds.createQueryRunner();
    try {
      await migration.down(runner);
      // An organization as the bootstrap made it before roles existed.
      const organizationId = randomUUID();
      await runner.query('INSERT INTO organizations (id, name) VALUES ($1, $2)', [organizationId, 'Before roles']);
      const [{ id: ownerId }] = await runner.query(`INSERT INTO users (organization_id, email, role) VALUES ($1, 'o@example.test', 'owner') RETURNING id`, [organizationId]);
      const [{ id: observerId }] = await runner.query(`INSERT INTO users (organization_id, email, role) VALUES ($1, 'b@example.test', 'observer') RETURNING id`, [organizationId]);
      await migration.up(runner);

      const roles = await runner.query('SELECT slug, system_role FROM roles_read WHERE organization_id = $1 ORDER BY created_at', [organizationId]);
      assert.deepEqual(roles.map((r: { slug: string }) => r.slug), ['owner', 'admin', 'user', 'observer', 'no-access']);
      const onCall = await runner.query('SELECT slug FROM on_call_roles WHERE organization_id = $1 ORDER BY created_at', [organizationId]);
      assert.deepEqual(onCall.map((r: { slug: string }) => r.slug), ['admin', 'user', 'observer', 'no-access']);
      const users = await runner.query(
        `SELECT u.id, r.system_role AS role, o.system_role AS on_call_role
           FROM users u JOIN roles r ON r.id = u.role_id JOIN on_call_roles o ON o.id = u.on_call_role_id
          WHERE u.organization_id = $1 ORDER BY u.id`,
        [organizationId],
      );
      assert.deepEqual(users, [
        { id: ownerId, role: 'owner', on_call_role: 'admin' },
        { id: observerId, role: 'observer', on_call_role: 'observer' },
      ]);
      const [{ events }] = await runner.query('SELECT count(*)::int AS events FROM outbox WHERE organization_id = $1', [organizationId]);
      assert.equal(events, 0, 'seeding is part of creating the organization, which emits no event');

      // The observer user's OAuth token reads services but cannot create them.
      const resolver = new PermissionResolver(ds);
      const observer = await resolver.resolve({ organizationId, userId: observerId, apiKeyId: null, kind: 'oauth', scopes: ['ir.services:write'] } satisfies ScopedPrincipal);
      assert.ok(can(observer, 'services', 'read'));
      assert.ok(!can(observer, 'services', 'create'));
      const owner = await resolver.resolve({ organizationId, userId: ownerId, apiKeyId: null, kind: 'oauth', scopes: ['ir.services:write'] } satisfies ScopedPrincipal);
      assert.ok(can(owner, 'services', 'create'));
      assert.ok(!can(owner, 'severities', 'read'), 'the scopes limit the owner too');
    } finally {
      await runner.release();
    }
  });
});
