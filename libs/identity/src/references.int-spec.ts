import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { openTestDataSource } from '@taproot/persistence';
import type { DataSource } from 'typeorm';
import { createOrganization } from './bootstrap/bootstrap-organization';
import { existingTeamIds, existingUserIds, teamIdsNamed, teamRecords, userRecords } from './references';

describe('identity references (users and teams other contexts refer to)', () => {
  let ds: DataSource;
  before(async () => {
    ds = await openTestDataSource();
  });
  after(() => ds.destroy());

  const newOrg = async () => (await ds.transaction((m) => createOrganization(m, { name: 'References', ownerEmail: `${randomUUID()}@example.test` }))).organizationId;
  const user = async (organizationId: string): Promise<string> =>
    String((await ds.query("INSERT INTO users (organization_id, email, name, role) VALUES ($1, $2, 'Ann Smith', 'user') RETURNING id", [organizationId, `${randomUUID()}@example.test`]))[0].id);
  /** A team in the write table and its read model, as the teams projection leaves it. */
  const team = async (organizationId: string, name: string): Promise<string> => {
    const id = randomUUID();
    const slug = name.toLowerCase().replace(/ /g, '-');
    for (const table of ['groups', 'groups_read']) {
      await ds.query(`INSERT INTO ${table} (id, organization_id, name, slug, position, user_ids, admin_ids, created_at, updated_at) VALUES ($1, $2, $3, $4, 1, '{}', '{}', now(), now())`, [id, organizationId, name, slug]);
    }
    return id;
  };

  test('users: ids of the organization only, and their /v1/users records', async () => {
    const [mine, theirs] = [await newOrg(), await newOrg()];
    const ann = await user(mine);
    const other = await user(theirs);
    assert.deepEqual([...(await existingUserIds(ds, mine, [ann, other, 'x', '-4']))], [ann]);
    const records = await userRecords(ds, mine, [ann, other]);
    assert.deepEqual([...records.keys()], [ann]);
    assert.equal(records.get(ann)?.type, 'users');
    assert.equal(records.get(ann)?.attributes.full_name, 'Ann Smith');
  });

  test('teams: ids of the organization only, records, and ids by name or slug', async () => {
    const [mine, theirs] = [await newOrg(), await newOrg()];
    const sre = await team(mine, 'Site Reliability');
    const other = await team(theirs, 'Site Reliability');
    assert.deepEqual([...(await existingTeamIds(ds, mine, [sre, other, 'sre']))], [sre]);
    assert.equal((await teamRecords(ds, mine, [sre, other])).get(sre)?.attributes.name, 'Site Reliability');
    assert.deepEqual(await teamIdsNamed(ds, mine, ['site-reliability']), [sre]);
    assert.deepEqual(await teamIdsNamed(ds, mine, ['Site Reliability'], ['name']), [sre]);
  });
});
