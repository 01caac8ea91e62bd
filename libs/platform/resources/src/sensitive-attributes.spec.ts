import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { defineResource, REDACTED } from '@taproot/json-api';
import type { DomainEvent } from '@taproot/messaging';
import type { EntityManager } from 'typeorm';
import type { ResourceDefinition, Row, WriteContext } from './resource-definition';
import { ResourceListProjection } from './resource-projection';
import { ResourceWriter } from './resource-writer';

const ORG = '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d';

/** A resource with a secret its owner reads back (`signing_key`) and one nobody reads back (`password`). */
const schema = defineResource({
  type: 'vaults',
  singular: 'vault',
  path: '/v1/vaults',
  readTable: 'vaults_read',
  defaultSort: 'created_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  attributes: {
    name: { type: 'string' },
    signing_key: { type: 'string', sensitive: 'answered' },
    password: { type: 'string', nullable: true, sensitive: 'write-only' },
  },
});

/** A transaction whose INSERT stores and answers what it was given; `announced` is what the announce rule saw. */
function transaction() {
  const stored: Row[] = [];
  const announced: Row[] = [];
  const manager = {
    async query(sql: string, params: unknown[] = []) {
      const columns = /\(([^)]*)\)/.exec(sql)![1].split(', ').map((c) => c.replace(/"/g, ''));
      const row = Object.fromEntries(columns.map((c, i) => [c, params[i]]));
      stored.push(row);
      return [row];
    },
  };
  const ctx: WriteContext = { organizationId: ORG, actor: { kind: 'system', id: null }, manager: manager as unknown as EntityManager, now: new Date() };
  const definition: ResourceDefinition = { schema, context: 'vaults', table: 'vaults', rules: { announce: (snapshot) => (announced.push(snapshot), []) } };
  return { ctx, stored, announced, writer: new ResourceWriter(definition), definition };
}

describe('sensitive attributes', () => {
  test('the write table keeps both values; events carry both redacted; the answer shows the answered one only', async () => {
    const { ctx, stored, announced, writer } = transaction();
    const { snapshot, events } = await writer.create(ctx, { name: 'n', signing_key: 'whsec_abc', password: 'hunter2' });
    assert.deepEqual([stored[0].signing_key, stored[0].password], ['whsec_abc', 'hunter2']);
    assert.deepEqual([events[0].payload.signing_key, events[0].payload.password], [REDACTED, REDACTED]);
    assert.deepEqual([snapshot.signing_key, snapshot.password], ['whsec_abc', REDACTED]);
    assert.deepEqual([announced[0].signing_key, announced[0].password], [REDACTED, REDACTED], 'the announce rule builds events: it sees them redacted');
    assert.equal(writer.snapshot(stored[0]).signing_key, REDACTED, "a stored row as its events carry it");
    assert.equal(events[0].payload.name, 'n');
  });

  test('a null stays null: there is nothing to hide', async () => {
    const { ctx, writer } = transaction();
    const { snapshot, events } = await writer.create(ctx, { name: 'n', signing_key: 'k', password: null });
    assert.equal(snapshot.password, null);
    assert.equal(events[0].payload.password, null);
  });

  test("the read model takes an answered value from the write table and a write-only one as the event carries it", async () => {
    const { ctx, writer, definition } = transaction();
    const { events } = await writer.create(ctx, { name: 'n', signing_key: 'whsec_abc', password: 'hunter2' });
    const statements: { sql: string; params: unknown[] }[] = [];
    const manager = { query: async (sql: string, params: unknown[] = []) => (statements.push({ sql, params }), []) };
    await new ResourceListProjection(definition).applyBatch(events as DomainEvent[], manager as unknown as EntityManager);
    const [{ sql, params }] = statements;
    assert.match(sql, /\(\$1, \$2, \$3, \(SELECT "signing_key" FROM "vaults" WHERE id = \$1\), \$4,/);
    assert.ok(!params.includes('whsec_abc') && params.includes(REDACTED), JSON.stringify(params));
  });

  test('only a string attribute may be sensitive: REDACTED must keep its declared type', () => {
    assert.throws(() => defineResource({ ...schema, attributes: { pin: { type: 'integer', sensitive: 'write-only' } } }), /sensitive attribute pin must be a string/);
  });
});
