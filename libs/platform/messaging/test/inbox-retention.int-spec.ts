import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { openTestDataSource } from '@taproot/persistence';
import type { DataSource } from 'typeorm';
import { applyOnce, domainEvent, inboxPruner } from '../src';

const silent = { info: () => undefined, warn: () => undefined, debug: () => undefined };
const HOUR = 3_600_000;

describe('inbox pruner', () => {
  let ds: DataSource;
  before(async () => {
    ds = await openTestDataSource();
  });
  after(() => ds.destroy());

  /** `count` inbox rows of `consumer` processed `hoursAgo` hours ago; answers their event ids. */
  async function rows(consumer: string, count: number, hoursAgo: number): Promise<string[]> {
    const ids = Array.from({ length: count }, () => randomUUID());
    await ds.query(`INSERT INTO inbox (consumer, event_id, processed_at) SELECT $1, unnest($2::uuid[]), now() - make_interval(hours => $3)`, [consumer, ids, hoursAgo]);
    return ids;
  }
  const left = async (consumer: string): Promise<string[]> =>
    (await ds.query('SELECT event_id FROM inbox WHERE consumer = $1 ORDER BY event_id', [consumer])).map((r: { event_id: string }) => r.event_id);

  test('deletes the rows older than the retention, a chunk a statement, and keeps the younger ones', async () => {
    const consumer = `prune-${randomUUID()}`;
    await rows(consumer, 5, 3);
    const young = await rows(consumer, 2, 1);
    const pruner = inboxPruner(ds, { retentionMs: 2 * HOUR, chunk: 2, logger: silent });
    const deleted: number[] = [];
    for (let n = await pruner.pruneChunk(); n > 0; n = await pruner.pruneChunk()) deleted.push(n);
    // The database is this file's: only this test's five old rows are old.
    assert.deepEqual(deleted, [2, 2, 1]);
    assert.deepEqual(await left(consumer), [...young].sort());
  });

  test('an event applied within the retention is still skipped after a prune; one past it is applied again', async () => {
    const consumer = `prune-${randomUUID()}`;
    const event = (id: string) => ({ ...domainEvent({ type: 'probe.happened', organizationId: randomUUID(), aggregateType: 'probes', aggregateId: 'a', actor: { kind: 'system', id: null }, payload: {} }), id });
    const [recent] = await rows(consumer, 1, 1);
    const [old] = await rows(consumer, 1, 5);
    await inboxPruner(ds, { retentionMs: 2 * HOUR, logger: silent }).pruneChunk();
    const applied: string[] = [];
    for (const id of [recent, old]) await applyOnce(ds, consumer, event(id), async () => void applied.push(id));
    assert.deepEqual(applied, [old]);
  });

  test('running, it works through a backlog without waiting for the poll between chunks', async () => {
    const consumer = `prune-${randomUUID()}`;
    await rows(consumer, 7, 48);
    const pruner = inboxPruner(ds, { retentionMs: 24 * HOUR, chunk: 2, pollMs: 60_000, logger: silent });
    pruner.start();
    try {
      const deadline = Date.now() + 5000;
      while ((await left(consumer)).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      // Four chunks; with a minute's poll between them this would take three minutes.
      assert.deepEqual(await left(consumer), []);
    } finally {
      await pruner.stop();
    }
  });
});
