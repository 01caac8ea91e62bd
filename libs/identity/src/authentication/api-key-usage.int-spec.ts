import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { openTestDataSource } from '@taproot/persistence';
import type { DataSource } from 'typeorm';
import { createOrganization } from '../bootstrap/bootstrap-organization';
import { ApiKeyUsageTracker } from '@taproot/auth';

function manualClock(iso: string) {
  let now = new Date(iso).getTime();
  return { now: () => new Date(now), advance: (ms: number) => void (now += ms) };
}

/** The data source, with every statement the tracker sends recorded. */
function counting(ds: DataSource): { ds: DataSource; statements: string[] } {
  const statements: string[] = [];
  const proxy = new Proxy(ds, {
    get(target, property, receiver) {
      if (property === 'query') {
        return (sql: string, params?: unknown[]) => {
          statements.push(sql.trim().split(/\s+/)[0].toUpperCase());
          return target.query(sql, params);
        };
      }
      return Reflect.get(target, property, receiver);
    },
  });
  return { ds: proxy, statements };
}

describe('ApiKeyUsageTracker (last_used_at batching)', () => {
  let ds: DataSource;
  before(async () => {
    ds = await openTestDataSource();
  });
  after(() => ds.destroy());

  const newKey = async () => (await ds.transaction((m) => createOrganization(m, { name: 'Usage', ownerEmail: 'u@example.test' }))).apiKeyId;
  const lastUsed = async (id: string): Promise<string | null> => {
    const [row] = await ds.query('SELECT last_used_at FROM api_keys WHERE id = $1', [id]);
    return row.last_used_at ? row.last_used_at.toISOString() : null;
  };

  test('many uses of many keys cost one UPDATE per flush, and nothing before it', async () => {
    const clock = manualClock('2026-11-23T10:00:00.000Z');
    const { ds: spy, statements } = counting(ds);
    const tracker = new ApiKeyUsageTracker(spy, clock, { flushIntervalMs: 30_000 });
    const [a, b] = [await newKey(), await newKey()];
    for (let i = 0; i < 5; i++) {
      clock.advance(1000);
      tracker.record(a, clock.now());
      tracker.record(b, clock.now());
    }
    assert.deepEqual(statements, [], 'recording writes nothing');
    assert.equal(await tracker.flushIfDue(), 0, 'not due: 5 s of 30 s');
    assert.deepEqual(statements, []);
    clock.advance(25_000);
    assert.equal(await tracker.flushIfDue(), 2);
    assert.deepEqual(statements, ['UPDATE']);
    assert.equal(tracker.flushCount, 1);
    assert.equal(await lastUsed(a), '2026-11-23T10:00:05.000Z');
    assert.equal(await lastUsed(b), '2026-11-23T10:00:05.000Z');
    assert.equal(await tracker.flush(), 0, 'an empty flush');
    assert.deepEqual(statements, ['UPDATE'], 'sends nothing');
  });

  test('an older use never overwrites a newer one (replicas flush independently)', async () => {
    const clock = manualClock('2026-11-23T10:00:00.000Z');
    const key = await newKey();
    const replica1 = new ApiKeyUsageTracker(ds, clock);
    const replica2 = new ApiKeyUsageTracker(ds, clock);
    replica1.record(key, new Date('2026-11-23T10:00:20.000Z'));
    replica2.record(key, new Date('2026-11-23T10:00:10.000Z'));
    replica2.record(key, new Date('2026-11-23T10:00:05.000Z'));
    await replica1.flush();
    await replica2.flush();
    assert.equal(await lastUsed(key), '2026-11-23T10:00:20.000Z');
  });

  test('a failed flush keeps the uses for the next one', async () => {
    const clock = manualClock('2026-11-23T10:00:00.000Z');
    const key = await newKey();
    let fail = true;
    const errors: unknown[] = [];
    const flaky = new Proxy(ds, {
      get(target, property, receiver) {
        if (property === 'query' && fail) return async () => Promise.reject(new Error('connection lost'));
        return Reflect.get(target, property, receiver);
      },
    });
    const tracker = new ApiKeyUsageTracker(flaky, clock, { onError: (e) => errors.push(e) });
    tracker.record(key, clock.now());
    assert.equal(await tracker.flush(), 0);
    assert.equal(errors.length, 1);
    assert.equal(tracker.pendingCount, 1);
    fail = false;
    assert.equal(await tracker.flush(), 1);
    assert.equal(await lastUsed(key), '2026-11-23T10:00:00.000Z');
  });

  test('the timer flushes once the interval has passed on the clock; shutdown flushes the rest', async () => {
    const clock = manualClock('2026-11-23T10:00:00.000Z');
    const key = await newKey();
    const tracker = new ApiKeyUsageTracker(ds, clock, { flushIntervalMs: 30_000, checkEveryMs: 10 });
    await tracker.onApplicationBootstrap();
    try {
      tracker.record(key, clock.now());
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(await lastUsed(key), null, 'not due yet');
      clock.advance(30_000);
      const deadline = Date.now() + 5_000;
      while ((await lastUsed(key)) === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.equal(await lastUsed(key), '2026-11-23T10:00:00.000Z');
      clock.advance(1000);
      tracker.record(key, clock.now());
    } finally {
      await tracker.onApplicationShutdown();
    }
    assert.equal(await lastUsed(key), '2026-11-23T10:00:31.000Z');
  });
});
