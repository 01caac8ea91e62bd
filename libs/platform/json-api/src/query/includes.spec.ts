import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import type { ResourceObject } from '../document/documents';
import { JsonApiError } from '../errors/json-api-error';
import { defineResource } from '../resource/resource-schema';
import { byIdAttribute, byQuery, defineIncludes, withIncludes, type RecordsById } from './includes';
import { parseInclude } from './list-query';

const schema = defineResource({
  type: 'widgets',
  singular: 'widget',
  path: '/v1/widgets',
  readTable: 'widgets_read',
  defaultSort: 'name',
  operations: ['list', 'get'],
  attributes: { name: { type: 'string' }, owner_id: { type: 'integer', nullable: true }, team_ids: { type: 'array', items: { type: 'string' } } },
  relationships: {
    owner: { type: 'users', many: false, idAttribute: 'owner_id' },
    teams: { type: 'groups', many: true, idAttribute: 'team_ids' },
    schedules: { type: 'schedules', many: true, absent: true },
  },
});

const ORG = '11111111-1111-4111-8111-111111111111';
const widget = (id: string, owner_id: number | null, team_ids: string[]): ResourceObject => ({ id, type: 'widgets', attributes: { name: id, owner_id, team_ids } });

/** A port answering the records it knows among the ids asked, recording each call. */
function port(type: string, known: string[]) {
  const calls: { organizationId: string; ids: readonly string[] }[] = [];
  const find: RecordsById = async (_db, organizationId, ids) => {
    calls.push({ organizationId, ids });
    return new Map(ids.filter((id) => known.includes(id)).map((id) => [id, { id, type, attributes: {} }]));
  };
  return { calls, find };
}

function sources() {
  const users = port('users', ['1', '2']);
  const teams = port('groups', ['t1', 't2']);
  const includes = defineIncludes(schema, { owner: byIdAttribute('owner_id', users.find), teams: byIdAttribute('team_ids', teams.find) });
  return { users, teams, includes };
}

const ctx = { db: { query: async () => [] }, organizationId: ORG };

describe('withIncludes', () => {
  test('one lookup per include for the whole page, scoped by the organization', async () => {
    const { users, teams, includes } = sources();
    await withIncludes(ctx, schema, includes, [widget('a', 1, ['t1']), widget('b', 1, ['t1', 't2']), widget('c', null, [])], ['owner', 'teams']);
    assert.deepEqual(users.calls, [{ organizationId: ORG, ids: ['1'] }]);
    assert.deepEqual(teams.calls, [{ organizationId: ORG, ids: ['t1', 't2'] }]);
  });

  test('linkage on each record (to-one, to-many, absent), related records once, each with relationships', async () => {
    const { includes } = sources();
    const { data, included } = await withIncludes(ctx, schema, includes, [widget('a', 1, ['t1', 'gone']), widget('b', null, ['t1'])], ['owner', 'teams', 'schedules']);
    assert.deepEqual(data[0].relationships, { owner: { data: { type: 'users', id: '1' } }, teams: { data: [{ type: 'groups', id: 't1' }] }, schedules: { data: [] } });
    assert.deepEqual(data[1].relationships, { owner: { data: null }, teams: { data: [{ type: 'groups', id: 't1' }] }, schedules: { data: [] } });
    assert.deepEqual(included, [
      { id: '1', type: 'users', attributes: {}, relationships: {} },
      { id: 't1', type: 'groups', attributes: {}, relationships: {} },
    ]);
  });

  test('an included record keeps the relationships its source gave it', async () => {
    const withLinks: RecordsById = async () => new Map([['1', { id: '1', type: 'users', attributes: {}, relationships: { role: { data: null } } }]]);
    const includes = defineIncludes(schema, { owner: byIdAttribute('owner_id', withLinks), teams: async () => new Map() });
    const { included } = await withIncludes(ctx, schema, includes, [widget('a', 1, [])], ['owner']);
    assert.deepEqual(included?.[0].relationships, { role: { data: null } });
  });

  test('nothing asked: the records as they are, no lookup', async () => {
    const { users, includes } = sources();
    const records = [widget('a', 1, [])];
    assert.deepEqual(await withIncludes(ctx, schema, includes, records, []), { data: records });
    assert.equal(users.calls.length, 0);
  });
});

describe('byQuery', () => {
  test('one query with the organization and the page\'s ids; rows linked to their owner and serialized', async () => {
    const calls: unknown[][] = [];
    const db = {
      query: async (_sql: string, params: unknown[] = []) => {
        calls.push(params);
        return [{ owner_id: 'b', id: 't1', name: 'Ops', secret: 'x' }];
      },
    };
    const teams = defineResource({ ...schema, type: 'groups', relationships: undefined, attributes: { name: { type: 'string' } } });
    const found = await byQuery(teams, 'SELECT ...')({ db, organizationId: ORG }, [widget('a', null, []), widget('b', null, [])]);
    assert.deepEqual(calls, [[ORG, ['a', 'b']]]);
    assert.deepEqual(found.get('a'), []);
    assert.deepEqual(found.get('b')?.map((r) => [r.type, r.id, r.attributes.name, 'secret' in r.attributes]), [['groups', 't1', 'Ops', false]]);
  });
});

describe('defineIncludes', () => {
  test('refuses a served relationship without a source, and a source for a name not served', () => {
    const none = async () => new Map();
    assert.throws(() => defineIncludes(schema, { owner: none }), /include 'teams' has no source/);
    assert.throws(() => defineIncludes(schema, { owner: none, teams: none, schedules: none }), /'schedules'/);
    assert.throws(() => defineIncludes(schema, { owner: none, teams: none, bogus: none }), /'bogus'/);
  });
});

describe('parseInclude', () => {
  test('names each once; an absent one is accepted; an undeclared one is a 400 naming include', () => {
    assert.deepEqual(parseInclude(schema, 'teams, owner,teams'), ['teams', 'owner']);
    assert.deepEqual(parseInclude(schema, 'schedules'), ['schedules']);
    assert.deepEqual(parseInclude(schema, undefined), []);
    assert.throws(
      () => parseInclude(schema, 'owner,devices'),
      (e: unknown) => e instanceof JsonApiError && e.status === 400 && e.errors[0].source?.parameter === 'include' && /'devices'/.test(e.message),
    );
  });

  test('a linked relationship is answered unasked, its records not included: from its id attribute without a lookup, else from its source', async () => {
    const linkedSchema = defineResource({
      ...schema,
      relationships: { owner: { ...schema.relationships!.owner, linked: true }, teams: schema.relationships!.teams, gadgets: { type: 'gadgets', many: true, linked: true } },
    });
    const users = port('users', ['1']);
    const gadgetRows = [{ owner_id: 'a', id: 'g1', name: 'G' }];
    const gadgetSchema = defineResource({ ...schema, type: 'gadgets', relationships: {} });
    const includes = defineIncludes(linkedSchema, { owner: byIdAttribute('owner_id', users.find), teams: byIdAttribute('team_ids', port('groups', []).find), gadgets: byQuery(gadgetSchema, 'SELECT') });
    const db = { query: async () => gadgetRows };
    const plain = await withIncludes({ db, organizationId: ORG }, linkedSchema, includes, [widget('a', 1, []), widget('b', null, [])], []);
    assert.deepEqual(
      plain.data.map((d) => d.relationships),
      [
        { owner: { data: { type: 'users', id: '1' } }, gadgets: { data: [{ type: 'gadgets', id: 'g1' }] } },
        { owner: { data: null }, gadgets: { data: [] } },
      ],
    );
    assert.equal(plain.included, undefined);
    assert.deepEqual(users.calls, [], 'the owner came from owner_id');
    const asked = await withIncludes({ db, organizationId: ORG }, linkedSchema, includes, [widget('a', 1, [])], ['owner']);
    assert.deepEqual(asked.included?.map((r) => `${r.type}/${r.id}`), ['users/1'], 'only what include names is included');
    assert.deepEqual(asked.data[0].relationships?.gadgets, { data: [{ type: 'gadgets', id: 'g1' }] });
  });
});
