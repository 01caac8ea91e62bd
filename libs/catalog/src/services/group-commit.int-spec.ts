import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createOrganization } from '@taproot/identity';
import { openTestDataSource } from '@taproot/persistence';
import { GroupCommitter, ResourceWriteHandler, unitOfWorkWithReadModels, type GroupScope } from '@taproot/resources';
import type { DataSource } from 'typeorm';
import { serviceDefinition } from './service.schema';

const actor = { kind: 'api_key' as const, id: randomUUID() };
const clock = { now: () => new Date('2026-11-24T10:00:00.000Z') };

/** Creates services through a group commit, the way IngestAlerts commits inbound requests. */
class GroupedCreates extends ResourceWriteHandler {
  readonly group = new GroupCommitter<GroupScope>((runs) => this.commitGroup(runs), { maxBatch: 10, maxInFlight: 1 });

  create(organizationId: string, name: string, failAfterWrite = false): Promise<{ id: string; txid: string }> {
    return this.group.submit((scope) =>
      scope.write({ definition: serviceDefinition, organizationId, actor }, async (writer, ctx, keep) => {
        const snapshot = keep(await writer.create(ctx, { name }));
        if (failAfterWrite) throw new Error(`${name} refused after its row was written`);
        const [{ txid }] = await ctx.manager.query('SELECT txid_current()::text AS txid');
        return { id: snapshot.id, txid };
      }),
    );
  }
}

describe('group commit (ResourceWriteHandler.commitGroup + GroupCommitter)', () => {
  let ds: DataSource;
  let handler: GroupedCreates;
  before(async () => {
    ds = await openTestDataSource();
    handler = new GroupedCreates(unitOfWorkWithReadModels(ds, [serviceDefinition]), clock);
  });
  after(() => ds.destroy());

  test('concurrent requests commit in one transaction; a failing one rolls back alone, with its events', async () => {
    const [a, b] = await Promise.all(
      ['Group A', 'Group B'].map(async (name) => (await ds.transaction((m) => createOrganization(m, { name, ownerEmail: 'g@example.test' }))).organizationId),
    );
    const outcomes = await Promise.allSettled([
      handler.create(a, 'Checkout'),
      handler.create(b, 'Refused', true),
      handler.create(b, 'Search'),
    ]);
    assert.equal(outcomes[1].status, 'rejected');
    assert.match(String((outcomes[1] as PromiseRejectedResult).reason), /Refused refused/);
    const [first, third] = [outcomes[0], outcomes[2]].map((o) => (o as PromiseFulfilledResult<{ id: string; txid: string }>).value);
    assert.equal(first.txid, third.txid, 'one transaction for the group');
    const names = async (table: string) =>
      ((await ds.query(`SELECT name FROM ${table} WHERE organization_id = ANY($1::uuid[]) ORDER BY name`, [[a, b]])) as { name: string }[]).map((r) => r.name);
    assert.deepEqual(await names('services'), ['Checkout', 'Search']);
    assert.deepEqual(await names('services_read'), ['Checkout', 'Search']);
    const events: { type: string; aggregate_id: string }[] = await ds.query(
      "SELECT event->>'type' AS type, aggregate_id FROM outbox WHERE organization_id = ANY($1::uuid[]) ORDER BY seq",
      [[a, b]],
    );
    assert.deepEqual(events, [
      { type: 'service.created', aggregate_id: first.id },
      { type: 'service.created', aggregate_id: third.id },
    ]);
  });

  test('a lone request that fails rolls its transaction back', async () => {
    const org = (await ds.transaction((m) => createOrganization(m, { name: 'Alone', ownerEmail: 'g@example.test' }))).organizationId;
    await assert.rejects(handler.create(org, 'Lonely', true), /Lonely refused/);
    const [{ count }] = await ds.query('SELECT count(*)::int AS count FROM services WHERE organization_id = $1', [org]);
    assert.equal(count, 0);
  });
});
