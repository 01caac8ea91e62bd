import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { JsonApiError } from '../errors/json-api-error';
import { defineResource } from '../resource/resource-schema';
import {
  BULK_LIMIT,
  bulkDeleteCondition,
  bulkDeleteDocument,
  eachBulkItem,
  parseBulkCreate,
  parseBulkDelete,
  parseBulkItem,
  parseBulkUpsert,
  prunableSources,
  type BulkEntity,
} from './bulk';

const gadgets = defineResource({
  type: 'gadgets',
  singular: 'gadget',
  path: '/v1/gadgets',
  readTable: 'gadgets_read',
  defaultSort: 'created_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  bulk: true,
  attributes: {
    name: { type: 'string', required: true, minLength: 1 },
    slug: { type: 'string', writable: false, derivedFrom: 'name' },
    external_id: { type: 'string', nullable: true },
    managed_by: { type: 'string', enum: ['web', 'admin_web', 'api', 'terraform'], writable: false, default: 'api' },
    size: { type: 'integer', nullable: true, writable: 'create' },
  },
});

/** The JsonApiError `fn` throws (fails the test when it throws nothing or something else). */
async function refusal(fn: () => unknown): Promise<JsonApiError> {
  try {
    await fn();
  } catch (error) {
    assert.ok(error instanceof JsonApiError, String(error));
    return error;
  }
  assert.fail('expected a JsonApiError');
}

const pointers = (e: JsonApiError) => e.errors.map((x) => x.source?.pointer);

describe('parseBulkUpsert', () => {
  test('keeps each entity as sent with its index and upsert key', () => {
    const entities = parseBulkUpsert({ entities: [{ external_id: 'a', name: 'A' }, { external_id: 'b' }] });
    assert.deepEqual(entities, [
      { index: 0, externalId: 'a', input: { external_id: 'a', name: 'A' } },
      { index: 1, externalId: 'b', input: { external_id: 'b' } },
    ]);
    assert.deepEqual(parseBulkUpsert({ entities: [] }), []);
  });

  test('refuses a document without an entities array, or over the limit, on /entities', async () => {
    for (const body of [null, [], {}, { entities: {} }, { entities: Array.from({ length: BULK_LIMIT + 1 }, (_, i) => ({ external_id: `e${i}` })) }]) {
      const e = await refusal(() => parseBulkUpsert(body));
      assert.equal(e.status, 422);
      assert.deepEqual(pointers(e), ['/entities']);
    }
    assert.equal(parseBulkUpsert({ entities: Array.from({ length: BULK_LIMIT }, (_, i) => ({ external_id: `e${i}` })) }).length, BULK_LIMIT);
  });

  test('names the item whose key is missing, empty or repeated', async () => {
    const notObject = await refusal(() => parseBulkUpsert({ entities: [{ external_id: 'a' }, 'b'] }));
    assert.deepEqual(pointers(notObject), ['/entities/1']);
    for (const entity of [{ name: 'x' }, { external_id: '' }, { external_id: 7 }]) {
      const e = await refusal(() => parseBulkUpsert({ entities: [{ external_id: 'a' }, entity] }));
      assert.deepEqual(pointers(e), ['/entities/1/external_id']);
      assert.equal(e.errors[0].code, 'REQUIRED');
      assert.match(e.errors[0].detail ?? '', /^entities\[1\]: external_id is required/);
    }
    const repeated = await refusal(() => parseBulkUpsert({ entities: [{ external_id: 'a' }, { external_id: 'b' }, { external_id: 'a' }] }));
    assert.deepEqual(pointers(repeated), ['/entities/2/external_id']);
    assert.equal(repeated.errors[0].code, 'DUPLICATE');
    assert.match(repeated.errors[0].detail ?? '', /entities\[0\]/);
  });
});

describe('parseBulkCreate', () => {
  test('takes entities without a key; a key sent is non-empty and unique within the batch', async () => {
    assert.deepEqual(parseBulkCreate({ entities: [{ name: 'A' }, { external_id: 'b' }, { external_id: null }] }), [
      { index: 0, externalId: null, input: { name: 'A' } },
      { index: 1, externalId: 'b', input: { external_id: 'b' } },
      { index: 2, externalId: null, input: { external_id: null } },
    ]);
    for (const entity of [{ external_id: '' }, { external_id: 7 }]) {
      const e = await refusal(() => parseBulkCreate({ entities: [{}, entity] }));
      assert.deepEqual(pointers(e), ['/entities/1/external_id']);
      assert.equal(e.errors[0].code, 'INVALID_ATTRIBUTE');
    }
    const repeated = await refusal(() => parseBulkCreate({ entities: [{ external_id: 'a' }, {}, { external_id: 'a' }] }));
    assert.deepEqual(pointers(repeated), ['/entities/2/external_id']);
    assert.equal(repeated.errors[0].code, 'DUPLICATE');
    const over = await refusal(() => parseBulkCreate({ entities: Array.from({ length: BULK_LIMIT + 1 }, () => ({})) }));
    assert.deepEqual(pointers(over), ['/entities']);
  });
});

describe('parseBulkItem', () => {
  const entity = (input: Record<string, unknown>): BulkEntity => ({ index: 0, externalId: String(input.external_id), input });

  test('checks a new record as a create: required attributes, create-only ones, defaults', async () => {
    assert.deepEqual(parseBulkItem(gadgets, entity({ external_id: 'a', name: 'A', size: 3 }), 'create').attributes, { external_id: 'a', name: 'A', size: 3 });
    const e = await refusal(() => parseBulkItem(gadgets, entity({ external_id: 'a' }), 'create'));
    assert.deepEqual(pointers(e), ['/data/attributes/name']);
  });

  test('checks an existing record as an update: nothing required, create-only attributes dropped', () => {
    assert.deepEqual(parseBulkItem(gadgets, entity({ external_id: 'a', size: 3 }), 'update').attributes, { external_id: 'a' });
  });

  test('warns about a submitted derived slug', () => {
    assert.equal(parseBulkItem(gadgets, entity({ external_id: 'a', slug: 's' }), 'update').warnings.length, 1);
  });
});

describe('eachBulkItem', () => {
  const entities: BulkEntity[] = ['a', 'b', 'c', 'd'].map((externalId, index) => ({ index, externalId, input: { external_id: externalId } }));

  test('answers the results in order', async () => {
    assert.deepEqual(await eachBulkItem(entities, async (e) => e.externalId.toUpperCase()), ['A', 'B', 'C', 'D']);
  });

  test('runs every item, then fails with the errors of each bad one, pointed at the item', async () => {
    const ran: string[] = [];
    const e = await refusal(() =>
      eachBulkItem(entities, async (entity) => {
        ran.push(entity.externalId);
        if (entity.index === 1) throw JsonApiError.invalidAttributes([{ attribute: 'name', detail: 'name is required' }]);
        if (entity.index === 3) throw JsonApiError.of(409, 'Conflict', null);
      }),
    );
    assert.deepEqual(ran, ['a', 'b', 'c', 'd']);
    assert.equal(e.status, 422);
    assert.deepEqual(pointers(e), ['/entities/1/name', '/entities/3']);
    assert.deepEqual(
      e.errors.map((x) => x.detail),
      ['entities[1] (external_id "b"): name is required', 'entities[3] (external_id "d"): Conflict'],
    );
  });

  test('lets other errors through at once', async () => {
    let ran = 0;
    await assert.rejects(
      eachBulkItem(entities, async () => {
        ran++;
        throw new Error('connection lost');
      }),
      /connection lost/,
    );
    assert.equal(ran, 1);
  });
});

describe('parseBulkDelete', () => {
  test('external_ids mode: 1 to BULK_LIMIT non-empty strings, nothing else', async () => {
    assert.deepEqual(parseBulkDelete(gadgets, { external_ids: ['a', 'b'] }), { externalIds: ['a', 'b'] });
    for (const body of [{ external_ids: [] }, { external_ids: [''] }, { external_ids: [1] }, { external_ids: Array(BULK_LIMIT + 1).fill('a') }, { external_ids: ['a'], managed_by: 'api' }]) {
      const e = await refusal(() => parseBulkDelete(gadgets, body));
      assert.equal(e.status, 422, JSON.stringify(body));
      assert.deepEqual(pointers(e), ['/external_ids']);
    }
  });

  test('managed_by mode: a prunable source of the declaration, optional kept ids', async () => {
    assert.deepEqual(prunableSources(gadgets), ['api', 'terraform']);
    assert.deepEqual(parseBulkDelete(gadgets, { managed_by: 'terraform' }), { managedBy: 'terraform', keep: [] });
    assert.deepEqual(parseBulkDelete(gadgets, { managed_by: 'api', keep_external_ids: ['k'] }), { managedBy: 'api', keep: ['k'] });
    for (const [body, pointer] of [
      [{ managed_by: 'web' }, '/managed_by'],
      [{ managed_by: 'pulumi' }, '/managed_by'],
      [{ managed_by: 'api', keep_external_ids: 'k' }, '/keep_external_ids'],
      [{ managed_by: 'api', keep_external_ids: null }, '/keep_external_ids'],
      [{ managed_by: 'api', other: 1 }, ''],
      [{}, ''],
      ['x', ''],
    ] as const) {
      const e = await refusal(() => parseBulkDelete(gadgets, body));
      assert.deepEqual(pointers(e), [pointer], JSON.stringify(body));
    }
  });
});

describe('bulk delete rows and answer', () => {
  test('selects by external id, or a source\'s records with an external id not kept', () => {
    assert.deepEqual(bulkDeleteCondition({ externalIds: ['a'] }), { sql: '"external_id" = ANY($2)', params: [['a']] });
    const prune = bulkDeleteCondition({ managedBy: 'api', keep: ['k'] });
    assert.match(prune.sql, /"managed_by" = \$2 AND "external_id" IS NOT NULL AND NOT \("external_id" = ANY\(\$3\)\)/);
    assert.deepEqual(prune.params, ['api', ['k']]);
  });

  test('lists deleted ids once and, by external ids, those not found', () => {
    assert.deepEqual(bulkDeleteDocument({ externalIds: ['a', 'b', 'b', 'c'] }, ['a', 'a']).data, {
      deleted_external_ids: ['a'],
      failed_external_ids: [],
      not_found_external_ids: ['b', 'c'],
    });
    assert.deepEqual(bulkDeleteDocument({ managedBy: 'api', keep: [] }, ['x']).data.not_found_external_ids, []);
  });
});

test('defineResource refuses bulk without the upsert key and provenance attributes', () => {
  assert.throws(() => defineResource({ ...gadgets, attributes: { name: { type: 'string' } } }), /external_id, managed_by/);
});
