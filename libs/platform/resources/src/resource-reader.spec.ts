import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { byIdAttribute, defineIncludes, JsonApiError } from '@taproot/json-api';
import type { DataSource } from 'typeorm';
import { ORG, ROLE, ROLE_PARENT, roleTasks, TASK } from './nested-resource.fixture';
import { ResourceReader } from './resource-reader';

const tasks = roleTasks({ parent: { ...ROLE_PARENT, flatList: true } });

/** A read model without rows beside one role of ORG; records the queries it is asked. */
function database() {
  const queries: { sql: string; params: unknown[] }[] = [];
  const db = {
    async query(sql: string, params: unknown[] = []) {
      queries.push({ sql, params });
      if (sql.includes('"incident_roles"')) return params[0] === ROLE && params[1] === ORG ? [{ id: ROLE }] : [];
      return sql.includes('count(*)') ? [{ count: 0 }] : [];
    },
  };
  return { queries, reader: new ResourceReader(db as unknown as DataSource, 'secret') };
}

describe('ResourceReader.list of a nested collection', () => {
  test('lists the parent\'s records only, with links under the parent', async () => {
    const { queries, reader } = database();
    const doc = await reader.list(tasks, ORG, { 'page[size]': '5' }, ROLE);
    const [lookup, ...list] = queries;
    assert.match(lookup.sql, /^SELECT id FROM "incident_roles"/);
    for (const { sql, params } of list) {
      assert.match(sql, /WHERE "organization_id" = \$1 AND "incident_role_id" = \$2/);
      assert.deepEqual(params.slice(0, 2), [ORG, ROLE]);
    }
    assert.equal(doc.links.self, `/v1/incident_roles/${ROLE}/incident_role_tasks?page%5Bnumber%5D=1&page%5Bsize%5D=5`);
  });

  test('a parent missing from the organization is a 404 before any list query', async () => {
    const { queries, reader } = database();
    await assert.rejects(reader.list(tasks, '00000000-0000-4000-8000-000000000000', {}, ROLE), (e) => e instanceof JsonApiError && e.status === 404);
    assert.equal(queries.length, 1);
  });

  test('the route\'s conditions apply beside the parent\'s, in both lists', async () => {
    const hidden = { attribute: 'managed_by', operator: 'not_eq' as const, values: ['terraform'], parameter: 'scope' };
    for (const parent of [ROLE, undefined]) {
      const { queries, reader } = database();
      await reader.list(tasks, ORG, {}, parent, [hidden]);
      const counted = queries.find(({ sql }) => sql.includes('count(*)'))!;
      assert.match(counted.sql, /\("managed_by" IS NULL OR "managed_by" <> \$\d\)$/);
      assert.ok(counted.params.includes('terraform'));
    }
  });

  test('without a parent it is the list across parents', async () => {
    const { queries, reader } = database();
    const doc = await reader.list(tasks, ORG, {});
    assert.ok(queries.every(({ sql }) => !sql.includes('"incident_roles"') && !sql.includes('"incident_role_id" =')), 'no parent lookup or condition');
    assert.match(doc.links.self, /^\/v1\/incident_role_tasks\?/);
  });
});

describe('ResourceReader: include', () => {
  const withRole = roleTasks({ relationships: { incident_role: { type: 'incident_roles', many: false, idAttribute: 'incident_role_id' } } });
  const role = { id: ROLE, type: 'incident_roles', attributes: {} };
  /** A read model holding TASK under ROLE; the role's source records the organization it is asked for. */
  function withTask() {
    const asked: string[] = [];
    const db = { query: async (sql: string) => (sql.includes('count(*)') ? [{ count: 1 }] : [{ id: TASK, incident_role_id: ROLE, task: 'Page' }]) };
    const includes = defineIncludes(withRole, {
      incident_role: byIdAttribute('incident_role_id', async (_db, organizationId) => {
        asked.push(organizationId);
        return new Map([[ROLE, role]]);
      }),
    });
    return { asked, includes, reader: new ResourceReader(db as unknown as DataSource, 'secret') };
  }

  test('the list and the get answer the asked relationship and its record, looked up in the organization', async () => {
    const { asked, includes, reader } = withTask();
    const list = await reader.list(withRole, ORG, { include: 'incident_role' }, undefined, [], includes);
    const one = await reader.get(withRole, ORG, TASK, { include: 'incident_role' }, includes);
    for (const doc of [{ data: list.data[0], included: list.included }, one]) {
      assert.deepEqual(doc.data.relationships, { incident_role: { data: { type: 'incident_roles', id: ROLE } } });
      assert.deepEqual(doc.included, [{ ...role, relationships: {} }]);
    }
    assert.deepEqual(asked, [ORG, ORG]);
  });

  test('an include the declaration does not list is a 400 on the get, before any query', async () => {
    const { queries, reader } = database();
    await assert.rejects(reader.get(tasks, ORG, TASK, { include: 'incident_role' }), (e) => e instanceof JsonApiError && e.status === 400);
    assert.equal(queries.length, 0);
  });
});
