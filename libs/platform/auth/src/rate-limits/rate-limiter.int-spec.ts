import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { openTestDataSource } from '@taproot/persistence';
import type { DataSource } from 'typeorm';
import { leaseSize, rateLimitHeaders, RateLimiter } from './rate-limiter';

/** A clock the test moves by hand (architecture rule 10). */
function manualClock(iso: string) {
  let now = new Date(iso).getTime();
  return { now: () => new Date(now), advance: (ms: number) => void (now += ms) };
}

describe('RateLimiter (sliding window on PostgreSQL)', () => {
  let ds: DataSource;
  before(async () => {
    ds = await openTestDataSource();
  });
  after(() => ds.destroy());

  test('allows up to the limit within a window and refuses the next request', async () => {
    const clock = manualClock('2026-11-23T10:00:10.000Z');
    const limiter = new RateLimiter(ds, clock);
    const bucket = randomUUID();
    for (let i = 1; i <= 3; i++) {
      const d = await limiter.hit(bucket, 3);
      assert.equal(d.allowed, true);
      assert.equal(d.used, i);
      assert.equal(d.remaining, 3 - i);
    }
    const over = await limiter.hit(bucket, 3);
    assert.equal(over.allowed, false);
    assert.equal(over.remaining, 0);
    assert.equal(over.resetAt, Date.parse('2026-11-23T10:01:00.000Z') / 1000);
    assert.equal(over.retryAfterSeconds, 50);
  });

  test('the previous window still counts, weighted by its overlap with the last minute', async () => {
    const clock = manualClock('2026-11-23T10:00:00.000Z');
    const limiter = new RateLimiter(ds, clock);
    const bucket = randomUUID();
    for (let i = 0; i < 4; i++) await limiter.hit(bucket, 4);
    // 15 s into the next window, 75 % of the previous window is still inside the last 60 s.
    clock.advance(75_000);
    const d = await limiter.hit(bucket, 4);
    assert.equal(d.used, 4); // floor(4 * 0.75) + 1
    assert.equal(d.allowed, true);
    assert.equal((await limiter.hit(bucket, 4)).allowed, false);
    // At the very end of that window only a sliver of the old one remains.
    clock.advance(44_999);
    const late = await limiter.hit(bucket, 4);
    assert.equal(late.used, 3); // floor(4 * 0.0000167) + 3
    assert.equal(late.allowed, true);
  });

  test('a window two minutes old no longer counts at all', async () => {
    const clock = manualClock('2026-11-23T10:00:30.000Z');
    const limiter = new RateLimiter(ds, clock);
    const bucket = randomUUID();
    for (let i = 0; i < 5; i++) await limiter.hit(bucket, 5);
    clock.advance(120_000);
    assert.equal((await limiter.hit(bucket, 5)).used, 1);
  });

  test('peek reads the sliding count without adding to it', async () => {
    const clock = manualClock('2026-11-23T10:00:00.000Z');
    const limiter = new RateLimiter(ds, clock, 900);
    const bucket = randomUUID();
    assert.equal((await limiter.peek(bucket, 2)).allowed, true);
    await limiter.hit(bucket, 2);
    await limiter.hit(bucket, 2);
    const full = await limiter.peek(bucket, 2);
    assert.equal(full.allowed, false, 'one more would exceed the limit');
    assert.equal(full.retryAfterSeconds, 900);
    assert.equal((await limiter.peek(bucket, 2)).allowed, false, 'peeking never counts');
    assert.equal((await limiter.peek(bucket, 3)).allowed, true);
    clock.advance(1800_000);
    assert.equal((await limiter.peek(bucket, 2)).allowed, true);
  });

  test('a minute limiter’s cleanup leaves longer windows alone', async () => {
    const clock = manualClock('2026-11-23T10:00:00.000Z');
    const bucket = randomUUID();
    const quarter = new RateLimiter(ds, clock, 900);
    await quarter.hit(bucket, 2);
    await quarter.hit(bucket, 2);
    // A new limiter cleans up on its first hit (not awaited by hit: give it a moment).
    await new RateLimiter(ds, clock).hit(randomUUID(), 10);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal((await quarter.peek(bucket, 2)).allowed, false);
  });

  test('two limiters on one database share the count (several api replicas)', async () => {
    const clock = manualClock('2026-11-23T10:00:05.000Z');
    const other = await openTestDataSource((ds.options as { url: string }).url);
    try {
      const a = new RateLimiter(ds, clock);
      const b = new RateLimiter(other, clock);
      const bucket = randomUUID();
      await a.hit(bucket, 2);
      await b.hit(bucket, 2);
      assert.equal((await a.hit(bucket, 2)).allowed, false);
    } finally {
      await other.destroy();
    }
  });

  test('take admits a lease of requests per database round trip, counting each one in the headers', async () => {
    const clock = manualClock('2026-11-23T10:00:05.000Z');
    let statements = 0;
    const counted = { query: (sql: string, params?: unknown[]) => (statements++, ds.query(sql, params)) } as unknown as DataSource;
    const limiter = new RateLimiter(counted, clock);
    const bucket = randomUUID();
    assert.equal(leaseSize(3000), 60);
    const used: number[] = [];
    for (let i = 0; i < 60; i++) used.push((await limiter.take(bucket, 3000)).used);
    assert.deepEqual(used, Array.from({ length: 60 }, (_, i) => i + 1));
    // One claim (the cleanup of old windows runs once a minute beside it).
    assert.equal(statements, 2);
    const [{ count }] = await ds.query('SELECT count FROM rate_limit_windows WHERE bucket = $1', [bucket]);
    assert.equal(count, 60, 'the lease is counted in the database before any of it is used');
    await limiter.take(bucket, 3000);
    assert.equal(statements, 3, 'the 61st request renews the lease');
  });

  test('replicas taking leases together never admit more than the limit, and leave at most a lease each unused', async () => {
    const clock = manualClock('2026-11-23T10:00:05.000Z');
    const other = await openTestDataSource((ds.options as { url: string }).url);
    try {
      const replicas = [new RateLimiter(ds, clock), new RateLimiter(other, clock)];
      const bucket = randomUUID();
      const limit = 400; // leases of 8
      let admitted = 0;
      await Promise.all(
        replicas.map(async (replica) => {
          for (let i = 0; i < 300; i++) if ((await replica.take(bucket, limit)).allowed) admitted++;
        }),
      );
      assert.ok(admitted <= limit, `admitted ${admitted} of a limit of ${limit}`);
      assert.ok(admitted >= limit - 2 * leaseSize(limit), `admitted only ${admitted}: more than a lease per replica went unused`);
    } finally {
      await other.destroy();
    }
  });

  test('a lease does not outlive its window', async () => {
    const clock = manualClock('2026-11-23T10:00:50.000Z');
    const limiter = new RateLimiter(ds, clock);
    const bucket = randomUUID();
    await limiter.take(bucket, 1000); // a lease of 20 in the 10:00 window
    clock.advance(20_000);
    await limiter.take(bucket, 1000);
    const rows: { count: number }[] = await ds.query('SELECT count FROM rate_limit_windows WHERE bucket = $1 ORDER BY window_start', [bucket]);
    assert.deepEqual(rows.map((r) => r.count), [20, 20], 'the new window claimed its own lease');
  });

  test('takeLeased answers from the lease in memory without waiting, and leaves a used-up or past lease to take', async () => {
    const clock = manualClock('2026-11-23T10:00:50.000Z');
    const limiter = new RateLimiter(ds, clock);
    const bucket = randomUUID();
    assert.equal(limiter.takeLeased(bucket, 1000), undefined, 'no lease yet');
    assert.equal((await limiter.take(bucket, 1000)).used, 1); // a lease of 20
    const used: (number | undefined)[] = [];
    for (let i = 0; i < 20; i++) used.push(limiter.takeLeased(bucket, 1000)?.used);
    assert.deepEqual(used, [...Array.from({ length: 19 }, (_, i) => i + 2), undefined], 'the lease counts on where take left it, then is used up');
    assert.equal((await limiter.take(bucket, 1000)).used, 21, 'take claims the next lease');
    assert.equal(limiter.takeLeased(bucket, 1000)?.used, 22);
    clock.advance(20_000);
    assert.equal(limiter.takeLeased(bucket, 1000), undefined, 'a lease of the past window');
  });

  test('headers follow the spec’s format', () => {
    const h = rateLimitHeaders({ allowed: true, limit: 3000, used: 1, remaining: 2999, resetAt: 1795000000, retryAfterSeconds: 1, windowSeconds: 60 });
    assert.deepEqual(h, {
      'X-RateLimit-Limit': '3000, 3000;window=60',
      'X-RateLimit-Remaining': '2999',
      'X-RateLimit-Used': '1',
      'X-RateLimit-Reset': '1795000000',
    });
  });
});
