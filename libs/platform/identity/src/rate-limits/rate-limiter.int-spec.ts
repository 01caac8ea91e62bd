import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { openTestDataSource } from '@taproot/persistence';
import type { DataSource } from 'typeorm';
import { rateLimitHeaders, RateLimiter } from './rate-limiter';

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
