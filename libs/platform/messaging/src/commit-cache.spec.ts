import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { CommitCache } from './commit-cache';
import type { DomainEvent } from './event-envelope';

const event = (type: string) => ({ type }) as DomainEvent;

describe('CommitCache', () => {
  test('an entry lives ttlMs, and never past its own expiry', () => {
    const cache = new CommitCache<string>({ ttlMs: 1000, invalidatedBy: /^x\./ });
    cache.set('a', 'A', 0);
    cache.set('b', 'B', 0, 300);
    assert.equal(cache.get('a', 999), 'A');
    assert.equal(cache.get('a', 1000), undefined);
    assert.equal(cache.get('b', 299), 'B');
    assert.equal(cache.get('b', 300), undefined);
  });

  test('a commit of an invalidating event type clears it; other commits do not', () => {
    const cache = new CommitCache<string>({ ttlMs: 1000, invalidatedBy: /^x\./ });
    cache.set('a', 'A', 0);
    cache.committed([event('y.updated')]);
    assert.equal(cache.get('a', 1), 'A');
    cache.committed([event('y.updated'), event('x.updated')]);
    assert.equal(cache.get('a', 1), undefined);
  });

  test('a value read before a clear is not kept: set with a mark taken before it keeps nothing', () => {
    const cache = new CommitCache<string>({ ttlMs: 1000, invalidatedBy: /^x\./ });
    const before = cache.mark();
    cache.committed([event('y.updated')]);
    cache.set('a', 'A', 0, Infinity, before);
    assert.equal(cache.get('a', 1), 'A', 'no clear in between');
    const stale = cache.mark();
    cache.committed([event('x.updated')]);
    cache.set('b', 'B', 0, Infinity, stale);
    assert.equal(cache.get('b', 1), undefined);
    cache.set('b', 'B', 0, Infinity, cache.mark());
    assert.equal(cache.get('b', 1), 'B');
  });

  test('ttl 0 keeps nothing; at maxEntries the oldest entry goes', () => {
    const off = new CommitCache<string>({ ttlMs: 0, invalidatedBy: /^x\./ });
    off.set('a', 'A', 0);
    assert.equal(off.get('a', 0), undefined);
    const small = new CommitCache<string>({ ttlMs: 1000, invalidatedBy: /^x\./, maxEntries: 2 });
    for (const key of ['a', 'b', 'c']) small.set(key, key.toUpperCase(), 0);
    assert.deepEqual(['a', 'b', 'c'].map((k) => small.get(k, 1)), [undefined, 'B', 'C']);
  });

  test('with refreshMs, the first get past the ttl misses and the others get the old value until a set or refreshMs', () => {
    const cache = new CommitCache<string>({ ttlMs: 1000, invalidatedBy: /^x\./, refreshMs: 500 });
    cache.set('a', 'A', 0);
    assert.equal(cache.get('a', 999), 'A');
    assert.equal(cache.get('a', 1000), undefined, 'the first caller past the ttl refreshes');
    assert.equal(cache.get('a', 1001), 'A', 'the others are answered meanwhile');
    cache.set('a', 'A2', 1100);
    assert.equal(cache.get('a', 2099), 'A2');
    assert.equal(cache.get('a', 2100), undefined);
    assert.equal(cache.get('a', 2599), 'A2', 'a refresh that never sets');
    assert.equal(cache.get('a', 2600), undefined, 'ends refreshMs after the ttl');
    assert.equal(cache.get('a', 2601), undefined);
  });

  test('with refreshMs, nothing is answered past the value\'s own expiry or after a clear', () => {
    const cache = new CommitCache<string>({ ttlMs: 1000, invalidatedBy: /^x\./, refreshMs: 500 });
    cache.set('a', 'A', 0, 1200);
    assert.equal(cache.get('a', 1000), undefined);
    assert.equal(cache.get('a', 1100), 'A');
    assert.equal(cache.get('a', 1200), undefined, 'its own expiry');
    cache.set('b', 'B', 0);
    assert.equal(cache.get('b', 1000), undefined);
    cache.committed([event('x.updated')]);
    assert.equal(cache.get('b', 1001), undefined, 'cleared');
  });
});
