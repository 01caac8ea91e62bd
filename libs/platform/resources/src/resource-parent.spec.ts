import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { JsonApiError } from '@taproot/json-api';
import { ORG, ROLE, ROLE_PARENT as PARENT, roleTasks } from './nested-resource.fixture';
import { findParent, nestedCollectionPath, parentScope } from './resource-parent';

/** A database holding one role of ORG; records the queries it is asked. */
function database() {
  const queries: { sql: string; params: unknown[] }[] = [];
  return {
    queries,
    async query(sql: string, params: unknown[] = []) {
      queries.push({ sql, params });
      return params[0] === ROLE && params[1] === ORG ? [{ id: ROLE }] : [];
    },
  };
}

const notFound = (detail: string) => (error: unknown) => {
  assert.ok(error instanceof JsonApiError);
  assert.equal(error.status, 404);
  assert.equal(error.errors[0].detail, detail);
  return true;
};

describe('findParent', () => {
  test('answers the id of the organization\'s parent, looked up in its table', async () => {
    const db = database();
    assert.equal(await findParent(db, PARENT, ORG, ROLE), ROLE);
    assert.deepEqual(db.queries, [{ sql: 'SELECT id FROM "incident_roles" WHERE id = $1 AND organization_id = $2', params: [ROLE, ORG] }]);
  });

  test('locks the parent against deletion inside a write', async () => {
    const db = database();
    await findParent(db, PARENT, ORG, ROLE, true);
    assert.match(db.queries[0].sql, / FOR KEY SHARE$/);
  });

  test('a parent of another organization answers 404 like a missing one', async () => {
    await assert.rejects(findParent(database(), PARENT, '00000000-0000-4000-8000-000000000000', ROLE), notFound(`No incident_roles with id ${ROLE}`));
    const missing = '11111111-1111-4111-8111-111111111111';
    await assert.rejects(findParent(database(), PARENT, ORG, missing), notFound(`No incident_roles with id ${missing}`));
  });

  test('a parameter that is no uuid answers 404 without a query', async () => {
    const db = database();
    await assert.rejects(findParent(db, PARENT, ORG, 'commander'), notFound('No incident_roles with id commander'));
    assert.deepEqual(db.queries, []);
  });

  test('a parent with integer ids (users) is looked up by an integer; anything else answers 404 without a query', async () => {
    const db = database();
    const USERS = { ...PARENT, integerIds: true };
    await assert.rejects(findParent(db, USERS, ORG, '42'), notFound('No incident_roles with id 42'));
    assert.deepEqual(db.queries.map((q) => q.params), [['42', ORG]]);
    await assert.rejects(findParent(db, USERS, ORG, ROLE), notFound(`No incident_roles with id ${ROLE}`));
    await assert.rejects(findParent(db, USERS, ORG, '1234567890'), notFound('No incident_roles with id 1234567890'));
    assert.equal(db.queries.length, 1, 'a uuid or an integer beyond int4 names no user');
  });
});

describe('parentScope and nestedCollectionPath', () => {
  const tasks = roleTasks();

  test('the list condition is the parent attribute equal to the parent', () => {
    assert.deepEqual(parentScope(PARENT, ROLE), { attribute: 'incident_role_id', operator: 'eq', values: [ROLE], parameter: 'incident_role_id' });
  });

  test('the links of a nested list name the parent as the client did, encoded', () => {
    assert.equal(nestedCollectionPath(tasks, ROLE), `/v1/incident_roles/${ROLE}/incident_role_tasks`);
    assert.equal(nestedCollectionPath(tasks, 'a/b'), '/v1/incident_roles/a%2Fb/incident_role_tasks');
  });
});
