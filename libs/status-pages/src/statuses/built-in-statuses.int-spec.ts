import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { openTestDataSource } from '@taproot/persistence';
import type { DataSource } from 'typeorm';
import { CreateStatuses1732300009010 } from '../migrations/1732300009010-create-statuses';
import { BUILT_IN_STATUSES, seedBuiltInStatuses } from './built-in-statuses';

describe('built-in statuses for organizations created before them', () => {
  let ds: DataSource;
  before(async () => {
    ds = await openTestDataSource();
  });
  after(() => ds.destroy());

  const statusesOf = (table: string, organizationId: string) =>
    ds.query(`SELECT id, slug, name, color FROM ${table} WHERE organization_id = $1 ORDER BY created_at, id`, [organizationId]) as Promise<{ id: string; slug: string }[]>;

  test('down then up gives each existing organization the set, in the write table and the read model; seeding again adds nothing', async () => {
    const migration = new CreateStatuses1732300009010();
    const runner = ds.createQueryRunner();
    try {
      // Tables under the page's records do not reference statuses: the table may go and come back.
      await migration.down(runner);
      const organizationId = randomUUID();
      await runner.query('INSERT INTO organizations (id, name) VALUES ($1, $2)', [organizationId, 'Before statuses']);
      await migration.up(runner);
      const written = await statusesOf('statuses', organizationId);
      assert.deepEqual(written.map((s) => s.slug), BUILT_IN_STATUSES.map((s) => s.slug));
      assert.deepEqual(await statusesOf('statuses_read', organizationId), written);
      await seedBuiltInStatuses(runner, [organizationId], new Date());
      assert.deepEqual(await statusesOf('statuses', organizationId), written);
    } finally {
      await runner.release();
    }
  });
});
