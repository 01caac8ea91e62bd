import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import type { DomainEvent } from '@taproot/messaging';
import { openTestDataSource } from '@taproot/persistence';
import type { DataSource } from 'typeorm';
import { ApiKeyVerifier, CallerResolver, FULL_ACCESS, noAccessTokens, PermissionResolver } from '@taproot/auth';
import { createOrganization } from '../bootstrap/bootstrap-organization';

function manualClock(iso: string) {
  let now = new Date(iso).getTime();
  return { now: () => new Date(now), advance: (ms: number) => void (now += ms) };
}

const event = (type: string) => ({ type }) as DomainEvent;

describe('CallerResolver (one caller per request, verified keys reused for a bounded time)', () => {
  let ds: DataSource;
  before(async () => {
    ds = await openTestDataSource();
  });
  after(() => ds.destroy());

  /** A resolver over a pool that counts its statements, for an organization of its own. */
  async function setup(ttlMs = 5000) {
    const clock = manualClock('2026-11-24T10:00:00.000Z');
    let statements = 0;
    const counted = { query: (sql: string, params?: unknown[]) => (statements++, ds.query(sql, params)) } as unknown as DataSource;
    const resolver = new CallerResolver(new ApiKeyVerifier(counted, clock), noAccessTokens, new PermissionResolver(counted), clock, { ttlMs });
    const org = await ds.transaction((m) => createOrganization(m, { name: 'Callers', ownerEmail: 'c@example.test' }));
    return { clock, resolver, org, statements: () => statements };
  }

  test('resolves principal and permissions once; the same token within the bound costs no query', async () => {
    const { resolver, org, statements } = await setup();
    const first = await resolver.resolve(org.token);
    assert.equal(first?.organizationId, org.organizationId);
    assert.equal(first?.apiKeyId, org.apiKeyId);
    assert.deepEqual(first?.permissions, FULL_ACCESS); // the bootstrap key has no role: full access
    const spent = statements();
    assert.ok(spent >= 2, 'the key and its roles were looked up');
    assert.equal(await resolver.resolve(org.token), first);
    assert.equal(statements(), spent);
    assert.equal(await resolver.resolve(`${org.token}x`), null);
  });

  test('a revocation by another replica is honoured once the bound has passed', async () => {
    const { clock, resolver, org } = await setup(5000);
    assert.ok(await resolver.resolve(org.token));
    // Another replica (or the CLI) revokes the key: this process is not told.
    await ds.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [org.apiKeyId]);
    clock.advance(4999);
    assert.ok(await resolver.resolve(org.token), 'within the bound the verified key is reused');
    clock.advance(2);
    assert.equal(await resolver.resolve(org.token), null, 'past the bound the key is looked up again');
  });

  test('an identity change committed in this process takes effect at once', async () => {
    const { resolver, org } = await setup(60_000);
    assert.ok(await resolver.resolve(org.token));
    await ds.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [org.apiKeyId]);
    resolver.committed([event('service.updated')]);
    assert.ok(await resolver.resolve(org.token), 'an unrelated change keeps the cache');
    resolver.committed([event('api_key.updated')]);
    assert.equal(await resolver.resolve(org.token), null);
  });

  test('a cached key never outlives its expiry', async () => {
    const { clock, resolver, org } = await setup(60_000);
    await ds.query("UPDATE api_keys SET expires_at = '2026-11-24T10:00:02.000Z' WHERE id = $1", [org.apiKeyId]);
    assert.ok(await resolver.resolve(org.token));
    clock.advance(1999);
    assert.ok(await resolver.resolve(org.token));
    clock.advance(1);
    assert.equal(await resolver.resolve(org.token), null);
  });

  test('a zero bound verifies every request', async () => {
    const { resolver, org, statements } = await setup(0);
    await resolver.resolve(org.token);
    const once = statements();
    await resolver.resolve(org.token);
    assert.equal(statements(), 2 * once);
  });
});
