import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { defineResource } from '../resource/resource-schema';
import { existingIds, readIdsMatching, readRecords } from './records';

const schema = defineResource({
  type: 'widgets',
  singular: 'widget',
  path: '/v1/widgets',
  readTable: 'widgets_read',
  defaultSort: 'name',
  operations: ['get'],
  attributes: { name: { type: 'string' } },
});

const ORG = '11111111-1111-4111-8111-111111111111';
const ID = '0E3B0B8A-4C1F-4B7A-9C63-6F0A1D2E3F40';

/** A database that records each statement and answers the given rows. */
function fakeDb(rows: Record<string, unknown>[]) {
  const calls: { sql: string; params: unknown[] }[] = [];
  return {
    calls,
    query: async (sql: string, params: unknown[] = []) => {
      calls.push({ sql, params });
      return rows;
    },
  };
}

describe('records of a table by id', () => {
  test('existingIds asks for the well-formed ids only, lower-cased and once each', async () => {
    const db = fakeDb([{ id: ID.toLowerCase() }]);
    const found = await existingIds(db, 'widgets', ORG, [ID, ID.toLowerCase(), 'not-a-uuid']);
    assert.deepEqual([...found], [ID.toLowerCase()]);
    assert.deepEqual(db.calls, [
      { sql: 'SELECT id::text AS id FROM "widgets" WHERE organization_id = $1 AND id = ANY($2::uuid[])', params: [ORG, [ID.toLowerCase()]] },
    ]);
  });

  test('integer ids: digits only; nothing well-formed means no query at all', async () => {
    const db = fakeDb([{ id: '7' }]);
    assert.deepEqual([...(await existingIds(db, 'users', ORG, ['7', '-1', 'x'], 'integer'))], ['7']);
    assert.match(db.calls[0].sql, /ANY\(\$2::int\[\]\)/);
    assert.deepEqual(db.calls[0].params, [ORG, ['7']]);
    assert.equal((await existingIds(db, 'users', ORG, ['abc'], 'integer')).size, 0);
    assert.equal(db.calls.length, 1);
  });

  test('readRecords serializes the read model rows through the declaration, by id', async () => {
    const db = fakeDb([{ id: ID.toLowerCase(), name: 'Checkout', organization_id: ORG, secret: 'x' }]);
    const records = await readRecords(db, schema, ORG, [ID]);
    assert.equal(db.calls[0].sql, 'SELECT * FROM "widgets_read" WHERE organization_id = $1 AND id = ANY($2::uuid[])');
    assert.deepEqual(records.get(ID.toLowerCase()), { id: ID.toLowerCase(), type: 'widgets', attributes: { name: 'Checkout', created_at: null, updated_at: null } });
  });

  test('readIdsMatching ORs the columns over one list of values', async () => {
    const db = fakeDb([{ id: 'a' }, { id: 'b' }]);
    assert.deepEqual(await readIdsMatching(db, schema, ORG, ['name', 'slug'], ['Checkout', 'checkout']), ['a', 'b']);
    assert.deepEqual(db.calls, [
      {
        sql: 'SELECT id::text AS id FROM "widgets_read" WHERE organization_id = $1 AND ("name" = ANY($2::text[]) OR "slug" = ANY($2::text[]))',
        params: [ORG, ['Checkout', 'checkout']],
      },
    ]);
    assert.deepEqual(await readIdsMatching(db, schema, ORG, ['name'], []), []);
    assert.equal(db.calls.length, 1);
  });
});
