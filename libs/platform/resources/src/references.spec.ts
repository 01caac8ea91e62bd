import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { JsonApiError } from '@taproot/json-api';
import type { EntityManager } from 'typeorm';
import { checkReferenced, type KeyedReference, type Reference } from './references';
import type { WriteContext } from './resource-definition';

const ctx = { organizationId: 'org', actor: { kind: 'system', id: 'test' }, manager: {} as EntityManager, now: new Date() } as WriteContext;
const KNOWN = ['0b7e4d1c-2a3f-4e5d-8c9b-1a2b3c4d5e6f', '1c8f5e2d-3b4a-4f6e-9dac-2b3c4d5e6f70'];
const SLUGS: Record<string, string> = { checkout: KNOWN[0], search: KNOWN[1] };
const teams: Reference = { noun: 'team', code: 'UNKNOWN_REFERENCE', existing: async (_db, _org, ids) => new Set(ids.filter((id) => KNOWN.includes(id))) };
const services: KeyedReference = {
  noun: 'service',
  code: 'UNKNOWN_REFERENCE',
  resolve: async (_db, _org, values) => new Map(values.flatMap((v) => [KNOWN.includes(v) ? v : SLUGS[v]].filter(Boolean).map((id) => [v, id] as [string, string]))),
};

async function pointers(work: Promise<unknown>): Promise<string[]> {
  try {
    await work;
    return [];
  } catch (error) {
    assert.ok(error instanceof JsonApiError);
    return error.errors.map((e) => `${e.source?.pointer} ${e.detail}`);
  }
}

describe('checkReferenced', () => {
  test('ids come back lower-cased and once; an unknown one is refused at the place it was sent, repeats before it not counted', async () => {
    assert.deepEqual(await checkReferenced(ctx, { group_ids: [KNOWN[0].toUpperCase(), KNOWN[0]] }, { group_ids: teams }), { group_ids: [KNOWN[0]] });
    assert.deepEqual(await pointers(checkReferenced(ctx, { group_ids: [KNOWN[0], KNOWN[0], 'nope'] }, { group_ids: teams })), ['/data/attributes/group_ids/2 group_ids[2]: nope is not a team of this organization']);
  });

  test('a keyed reference takes ids or slugs and stores the ids, once per record; an entry naming nothing is refused naming it', async () => {
    assert.deepEqual(await checkReferenced(ctx, { service_ids: ['checkout', KNOWN[1], KNOWN[0]], summary: 'x' }, { service_ids: services }), { service_ids: [KNOWN[0], KNOWN[1]], summary: 'x' });
    assert.deepEqual(await checkReferenced(ctx, { service_ids: null }, { service_ids: services }), { service_ids: null });
    assert.deepEqual(await pointers(checkReferenced(ctx, { service_ids: ['search', 'elasticsearch-prod'] }, { service_ids: services })), [
      '/data/attributes/service_ids/1 service_ids[1]: elasticsearch-prod is not a service of this organization',
    ]);
  });
});
