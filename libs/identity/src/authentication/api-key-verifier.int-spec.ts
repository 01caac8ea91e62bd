import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { openTestDataSource } from '@taproot/persistence';
import type { DataSource } from 'typeorm';
import { bootstrapIfEmpty, createOrganization } from '../bootstrap/bootstrap-organization';
import { ApiKeyVerifier, generateApiKeyToken, hashToken, tokenPrefix } from '@taproot/auth';

function manualClock(iso: string) {
  let now = new Date(iso).getTime();
  return { now: () => new Date(now), set: (at: string) => void (now = new Date(at).getTime()) };
}

describe('ApiKeyVerifier and bootstrap', () => {
  let ds: DataSource;
  before(async () => {
    ds = await openTestDataSource();
  });
  after(() => ds.destroy());

  test('bootstrap on an empty database creates one organization with exactly the given token, once', async () => {
    const token = 'tk_bootstrap_int_0123456789';
    const first = await bootstrapIfEmpty(ds, token);
    assert.ok(first);
    assert.equal(first.token, token);
    assert.equal(first.generated, false);
    assert.equal(await bootstrapIfEmpty(ds, 'tk_another_token_0123456789'), null);
    const [{ stored }] = await ds.query('SELECT count(*)::int AS stored FROM api_keys WHERE token_hash = $1 OR token_prefix = $2 AND token_hash = $3', [token, token, token]);
    assert.equal(stored, 0, 'the token itself is never stored');
    const principal = await new ApiKeyVerifier(ds).verify(token);
    assert.equal(principal?.organizationId, first.organizationId);
    assert.equal(principal?.kind, 'global');
  });

  test('resolves a key to its organization, user and kind; unknown tokens resolve to null', async () => {
    const org = await ds.transaction((m) => createOrganization(m, { name: 'Verifier org', ownerEmail: 'v@example.test' }));
    const verifier = new ApiKeyVerifier(ds);
    const principal = await verifier.verify(org.token);
    assert.deepEqual(principal, {
      organizationId: org.organizationId,
      userId: org.userId,
      apiKeyId: org.apiKeyId,
      kind: 'global',
      teamId: null,
      rateLimits: { readsPerMinute: null, writesPerMinute: null },
      sessionId: null,
    });
    // The organization's own limits come with the key (no query of the rate limiter's own).
    await ds.query('UPDATE organizations SET rate_limit_reads_per_minute = 10, rate_limit_writes_per_minute = 4 WHERE id = $1', [org.organizationId]);
    assert.deepEqual((await verifier.verify(org.token))?.rateLimits, { readsPerMinute: 10, writesPerMinute: 4 });
    const last = org.token.at(-1) === 'X' ? 'Y' : 'X';
    assert.equal(await verifier.verify(`${org.token.slice(0, -1)}${last}`), null, 'same prefix, wrong secret');
    assert.equal(await verifier.verify('short'), null);
  });

  test('an expired or revoked key resolves to null', async () => {
    const verifier = new ApiKeyVerifier(ds);
    const expired = await ds.transaction((m) => createOrganization(m, { name: 'Expired', ownerEmail: 'e@example.test' }));
    await ds.query("UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1", [expired.apiKeyId]);
    assert.equal(await verifier.verify(expired.token), null);
    const revoked = await ds.transaction((m) => createOrganization(m, { name: 'Revoked', ownerEmail: 'r@example.test' }));
    await ds.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [revoked.apiKeyId]);
    assert.equal(await verifier.verify(revoked.token), null);
  });

  test('time comes from the clock: expires_at is exclusive', async () => {
    const org = await ds.transaction((m) => createOrganization(m, { name: 'Clocked', ownerEmail: 'c@example.test' }));
    await ds.query("UPDATE api_keys SET expires_at = '2026-11-23T12:00:00Z' WHERE id = $1", [org.apiKeyId]);
    const clock = manualClock('2026-11-23T11:59:59.999Z');
    const verifier = new ApiKeyVerifier(ds, clock);
    assert.equal((await verifier.verify(org.token))?.apiKeyId, org.apiKeyId);
    clock.set('2026-11-23T12:00:00.000Z');
    assert.equal(await verifier.verify(org.token), null);
  });

  test('the previous token of a rotation works until grace_period_ends_at (exclusive); the current one regardless', async () => {
    const org = await ds.transaction((m) => createOrganization(m, { name: 'Rotated', ownerEmail: 'r@example.test' }));
    const next = generateApiKeyToken();
    await ds.query(
      `UPDATE api_keys SET previous_token_prefix = token_prefix, previous_token_hash = token_hash,
              token_prefix = $1, token_hash = $2, grace_period_ends_at = '2026-11-24T10:00:00Z' WHERE id = $3`,
      [tokenPrefix(next), hashToken(next), org.apiKeyId],
    );
    const clock = manualClock('2026-11-24T09:59:59.999Z');
    const uses: [string, string][] = [];
    const verifier = new ApiKeyVerifier(ds, clock, { record: (id, at) => uses.push([id, at.toISOString()]) });
    assert.equal((await verifier.verify(org.token))?.apiKeyId, org.apiKeyId, 'old token inside the grace period');
    assert.equal((await verifier.verify(next))?.apiKeyId, org.apiKeyId);
    clock.set('2026-11-24T10:00:00.000Z');
    assert.equal(await verifier.verify(org.token), null, 'old token at the end of the grace period');
    assert.equal((await verifier.verify(next))?.apiKeyId, org.apiKeyId);
    assert.equal(await verifier.verify(`${next.slice(0, -1)}${next.at(-1) === 'X' ? 'Y' : 'X'}`), null);
    assert.deepEqual(uses, [
      [org.apiKeyId, '2026-11-24T09:59:59.999Z'],
      [org.apiKeyId, '2026-11-24T09:59:59.999Z'],
      [org.apiKeyId, '2026-11-24T10:00:00.000Z'],
    ], 'only successful verifications are reported, at the clock’s time');
  });
});
