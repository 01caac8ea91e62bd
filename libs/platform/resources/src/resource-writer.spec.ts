import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { JsonApiError } from '@taproot/json-api';
import type { DomainEvent } from '@taproot/messaging';
import type { EntityManager } from 'typeorm';
import { ORG, ROLE, ROLE_PARENT, roleTasks, TASK } from './nested-resource.fixture';
import type { ResourceDefinition, Row, WriteContext } from './resource-definition';
import { ResourceWriter } from './resource-writer';

const tasks: ResourceDefinition = { schema: roleTasks(), context: 'incidents', table: 'incident_role_tasks' };

/**
 * A write transaction over one role of ORG and, in `stored`, the rows written. `refuseDelete`:
 * the table's delete fails like a foreign key still pointing at the row.
 */
function transaction(refuseDelete?: Error) {
  const stored: Row[] = [];
  const manager = {
    async query(sql: string, params: unknown[] = []) {
      if (sql.startsWith('SELECT id FROM "incident_roles"')) return params[0] === ROLE && params[1] === ORG ? [{ id: ROLE }] : [];
      if (sql.startsWith('INSERT')) {
        const columns = /\(([^)]*)\)/.exec(sql)![1].split(', ').map((c) => c.replace(/"/g, ''));
        const row = Object.fromEntries(columns.map((c, i) => [c, params[i]]));
        stored.push(row);
        return [row];
      }
      if (sql.startsWith('SELECT * FROM "incident_role_tasks"')) return [{ id: TASK, organization_id: ORG, incident_role_id: ROLE, task: 't', created_at: new Date(), updated_at: new Date() }];
      // TypeORM answers an UPDATE with [rows, rowCount]: the task with its new text.
      if (sql.startsWith('UPDATE')) return [[{ id: TASK, organization_id: ORG, incident_role_id: ROLE, task: params[0], created_at: new Date(), updated_at: new Date() }], 1];
      if (sql.startsWith('DELETE') && refuseDelete) throw refuseDelete;
      return [];
    },
  };
  const ctx: WriteContext = { organizationId: ORG, actor: { kind: 'system', id: null }, manager: manager as unknown as EntityManager, now: new Date() };
  return { ctx, stored };
}

const failsWith = (status: number, check: (error: JsonApiError) => void) => (error: unknown) => {
  assert.ok(error instanceof JsonApiError, String(error));
  assert.equal(error.status, status);
  check(error);
  return true;
};

describe('ResourceWriter under a parent', () => {
  const writer = new ResourceWriter(tasks);

  test('a create takes its parent from the path, in the snapshot and its event', async () => {
    const { ctx, stored } = transaction();
    const { snapshot, events } = await writer.create(ctx, { task: 'Page the DBA' }, ROLE);
    assert.equal(stored[0].incident_role_id, ROLE);
    assert.equal(snapshot.incident_role_id, ROLE);
    assert.equal(events[0].payload.incident_role_id, ROLE);
  });

  test('the body may name the same parent, in any case; another one is a 422 naming the attribute', async () => {
    const { ctx } = transaction();
    assert.equal((await writer.create(ctx, { task: 't', incident_role_id: ROLE.toUpperCase() }, ROLE)).snapshot.incident_role_id, ROLE);
    const other = transaction();
    await assert.rejects(
      writer.create(other.ctx, { task: 't', incident_role_id: TASK }, ROLE),
      failsWith(422, (e) => assert.deepEqual([e.errors[0].code, e.errors[0].source], ['PARENT_MISMATCH', { pointer: '/data/attributes/incident_role_id' }])),
    );
    assert.deepEqual(other.stored, []);
  });

  test('a parent missing from the organization is a 404, and nothing is written', async () => {
    const { ctx, stored } = transaction();
    await assert.rejects(writer.create(ctx, { task: 't' }, TASK), failsWith(404, (e) => assert.equal(e.errors[0].detail, `No incident_roles with id ${TASK}`)));
    assert.deepEqual(stored, []);
  });
});

describe('ResourceWriter appends under a parent', () => {
  const positioned = (distinctPositions: boolean): ResourceDefinition => ({
    schema: roleTasks({
      parent: { ...ROLE_PARENT, distinctPositions },
      attributes: { incident_role_id: { type: 'string', format: 'uuid', writable: 'create' }, task: { type: 'string', required: true }, position: { type: 'integer', nullable: true } },
    }),
    context: 'incidents',
    table: 'incident_role_tasks',
  });
  /** The statements a create without a position runs, in order. */
  const statements = async (definition: ResourceDefinition, position?: number) => {
    const { ctx } = transaction();
    const seen: string[] = [];
    const query = ctx.manager.query.bind(ctx.manager);
    ctx.manager.query = ((sql: string, params?: unknown[]) => (seen.push(sql), query(sql, params))) as EntityManager['query'];
    await new ResourceWriter(definition).create(ctx, { task: 't', ...(position === undefined ? {} : { position }) }, ROLE);
    return seen.map((sql) => sql.split(' ')[0] + (sql.includes('pg_advisory_xact_lock') ? ' lock' : ''));
  };

  test('take turns for their position (a lock per parent before the insert) only where the parent declares distinct positions', async () => {
    assert.deepEqual(await statements(positioned(true)), ['SELECT', 'SELECT lock', 'INSERT']);
    assert.deepEqual(await statements(positioned(false)), ['SELECT', 'INSERT']);
    assert.deepEqual(await statements(positioned(true), 3), ['SELECT', 'INSERT'], 'a sent position takes no turn');
  });
});

describe('ResourceWriter delete', () => {
  const writer = new ResourceWriter(tasks);
  const violation = (code: string) => Object.assign(new Error('violates foreign key constraint'), { driverError: { code, table: 'task_notes' } });

  test('a record others still point at is a 409 naming them', async () => {
    const { ctx } = transaction(violation('23503'));
    await assert.rejects(
      writer.delete(ctx, TASK),
      failsWith(409, (e) => {
        assert.equal(e.errors[0].code, 'STILL_REFERENCED');
        assert.equal(e.errors[0].detail, `incident_role_task ${TASK} still has task_notes; delete them first`);
      }),
    );
  });

  test('a declared child must declare onParentDelete cascade (the OpenAPI document reads it): one left at restrict is a programming error', async () => {
    const notes = (onParentDelete?: 'cascade'): ResourceDefinition => ({
      schema: roleTasks({ type: 'task_notes', parent: { ...ROLE_PARENT, table: 'incident_role_tasks', onParentDelete } }),
      context: 'incidents',
      table: 'task_notes',
    });
    const withChild = (child: ResourceDefinition) => new ResourceWriter({ ...tasks, children: () => [child] });
    await assert.rejects(withChild(notes()).delete(transaction().ctx, TASK), /task_notes is deleted with its incident_role_tasks but declares onParentDelete 'restrict'/);
    assert.equal((await withChild(notes('cascade')).delete(transaction().ctx, TASK)).events.length, 1, 'the task deleted, no notes to take along');
  });

  test('other database failures are not mistaken for it', async () => {
    const failure = violation('40001');
    await assert.rejects(writer.delete(transaction(failure).ctx, TASK), (error) => error === failure);
  });
});

describe('ResourceWriter update', () => {
  test("afterUpdate sees the stored row and the one it replaced, in the update's transaction; its events follow the update's", async () => {
    const seen: [unknown, unknown][] = [];
    const followed = { type: 'incident_role.updated' } as DomainEvent;
    const writer = new ResourceWriter({
      ...tasks,
      rules: {
        async afterUpdate(updated, previous) {
          seen.push([updated.task, previous.task]);
          return [followed];
        },
      },
    });
    const { events } = await writer.update(transaction().ctx, TASK, { task: 'renamed' });
    assert.deepEqual(seen, [['renamed', 't']]);
    assert.deepEqual(events.map((e) => e.type), ['incident_role_task.updated', 'incident_role.updated']);
    assert.deepEqual((await new ResourceWriter(tasks).update(transaction().ctx, TASK, { task: 'x' })).events.map((e) => e.type), ['incident_role_task.updated']);
  });
});

describe('ResourceWriter createMany', () => {
  const writer = new ResourceWriter(tasks);
  const OTHER_ROLE = '7d6c5b4a-3e2f-4a1b-9c8d-7e6f5a4b3c2d';

  /** A transaction whose INSERT answers its rows in reverse (the database promises no order), with the roles of ORG given. */
  function bulkTransaction(roles: string[]) {
    const statements: string[] = [];
    const manager = {
      async query(sql: string, params: unknown[] = []) {
        statements.push(sql);
        if (sql.startsWith('SELECT id FROM "incident_roles" WHERE id = ANY')) return (params[0] as string[]).map((id) => id.toLowerCase()).filter((id) => roles.includes(id) && params[1] === ORG).map((id) => ({ id }));
        if (sql.startsWith('INSERT')) return (JSON.parse(params[0] as string) as Row[]).reverse();
        return [];
      },
    };
    const ctx: WriteContext = { organizationId: ORG, actor: { kind: 'system', id: null }, manager: manager as unknown as EntityManager, now: new Date() };
    return { ctx, statements };
  }

  test('checks every parent in one query and inserts in one statement; results follow the items, each with its event', async () => {
    const { ctx, statements } = bulkTransaction([ROLE, OTHER_ROLE]);
    const results = await writer.createMany(ctx, [
      { input: { task: 'one' }, parentId: ROLE },
      { input: { task: 'two' }, parentId: OTHER_ROLE.toUpperCase() },
      { input: { task: 'three' }, parentId: ROLE },
    ]);
    assert.equal(statements.length, 2);
    assert.match(statements[1], /json_populate_recordset/);
    assert.deepEqual(
      results.map((r) => [r.snapshot.task, r.snapshot.incident_role_id, r.events[0].type, r.events[0].payload.task]),
      [
        ['one', ROLE, 'incident_role_task.created', 'one'],
        ['two', OTHER_ROLE, 'incident_role_task.created', 'two'],
        ['three', ROLE, 'incident_role_task.created', 'three'],
      ],
    );
  });

  test('one parent missing from the organization is a 404 naming it, and nothing is inserted', async () => {
    const { ctx, statements } = bulkTransaction([ROLE]);
    await assert.rejects(
      writer.createMany(ctx, [
        { input: { task: 'one' }, parentId: ROLE },
        { input: { task: 'two' }, parentId: OTHER_ROLE },
      ]),
      failsWith(404, (e) => assert.equal(e.errors[0].detail, `No incident_roles with id ${OTHER_ROLE}`)),
    );
    assert.ok(!statements.some((s) => s.startsWith('INSERT')));
  });

  test('records with different attributes given, and resources with derived slugs, are refused as a programming error', async () => {
    const { ctx } = bulkTransaction([ROLE]);
    await assert.rejects(writer.createMany(ctx, [{ input: { task: 'one' }, parentId: ROLE }, { input: { task: 'two', external_id: 'x' }, parentId: ROLE }]), /same attributes/);
    const slugged = new ResourceWriter({ ...tasks, schema: roleTasks({ attributes: { ...roleTasks().attributes, slug: { type: 'string', derivedFrom: 'task' } } }) });
    await assert.rejects(slugged.createMany(ctx, [{ input: { task: 'one' }, parentId: ROLE }]), /does not derive slugs/);
  });
});
