import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { JsonApiError } from '@taproot/json-api';
import type { EntityManager } from 'typeorm';
import { ORG, ROLE, roleTasks, TASK } from './nested-resource.fixture';
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

  test('other database failures are not mistaken for it', async () => {
    const failure = violation('40001');
    await assert.rejects(writer.delete(transaction(failure).ctx, TASK), (error) => error === failure);
  });
});
