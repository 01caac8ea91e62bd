import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createOrganization } from '@taproot/identity';
import { openTestDataSource } from '@taproot/persistence';
import { GROUP_COMMIT, GroupCommitter, ResourceWriteHandler, unitOfWorkWithReadModels, type GroupScope, type WriteWork } from '@taproot/resources';
import type { DataSource } from 'typeorm';
import { serviceDefinition } from './service.schema';

const actor = { kind: 'api_key' as const, id: randomUUID() };
const clock = { now: () => new Date('2026-11-24T10:00:00.000Z') };

/** Creates services through a group commit (`writeInGroup`), the way alerts are committed. */
class GroupedCreates extends ResourceWriteHandler {
  /** Groups of two, two at once: the deadlock test decides who meets whom. */
  readonly pairs = new GroupCommitter<GroupScope>((runs) => this.commitGroup(runs), { ...GROUP_COMMIT, maxBatch: 2, maxInFlight: 2 });

  create(organizationId: string, name: string, failAfterWrite = false): Promise<{ id: string; txid: string }> {
    return this.writeInGroup({ definition: serviceDefinition, organizationId, actor }, async (writer, ctx, keep) => {
      const snapshot = keep(await writer.create(ctx, { name }));
      if (failAfterWrite) throw new Error(`${name} refused after its row was written`);
      const [{ txid }] = await ctx.manager.query('SELECT txid_current()::text AS txid');
      return { id: snapshot.id, txid };
    });
  }

  inPairs<T>(organizationId: string, work: WriteWork<T>): Promise<T> {
    return this.pairs.submit((scope) => scope.write({ definition: serviceDefinition, organizationId, actor }, work));
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

  test('a request that two groups deadlock over is run again alone, not failed', async () => {
    const org = (await ds.transaction((m) => createOrganization(m, { name: 'Deadlock', ownerEmail: 'g@example.test' }))).organizationId;
    const lock = (ctx: { manager: { query(q: string, p: unknown[]): Promise<unknown> } }, key: number) => ctx.manager.query('SELECT pg_advisory_xact_lock(424242, $1)', [key]);
    const pause = () => new Promise((r) => setTimeout(r, 100));
    // Groups [1, 2] and [3, 4]: 1 takes lock 1 and 3 takes lock 2, then 2 waits for lock 2 and 4
    // for lock 1, which PostgreSQL breaks by failing one of them (after deadlock_timeout, 1 s).
    const takes = (key: number, name: string): WriteWork<string> => async (writer, ctx, keep) => {
      await lock(ctx, key);
      await pause();
      keep(await writer.create(ctx, { name }));
      return name;
    };
    const outcomes = await Promise.allSettled([
      handler.inPairs(org, takes(1, 'One')),
      handler.inPairs(org, takes(2, 'Two')),
      handler.inPairs(org, takes(2, 'Three')),
      handler.inPairs(org, takes(1, 'Four')),
    ]);
    assert.deepEqual(
      outcomes.map((o) => (o.status === 'fulfilled' ? o.value : String(o.reason))),
      ['One', 'Two', 'Three', 'Four'],
    );
    const stored = ((await ds.query('SELECT name FROM services_read WHERE organization_id = $1 ORDER BY name', [org])) as { name: string }[]).map((r) => r.name);
    assert.deepEqual(stored, ['Four', 'One', 'Three', 'Two']);
  });
});
