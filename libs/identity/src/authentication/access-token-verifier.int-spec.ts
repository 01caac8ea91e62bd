import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { openTestDataSource } from '@taproot/persistence';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import type { DataSource } from 'typeorm';
import { createOrganization } from '../bootstrap/bootstrap-organization';
import { JwtAccessTokenVerifier, sessionFingerprint } from '@taproot/auth';

const ISSUER = 'http://127.0.0.1:3001';
const AUDIENCE = 'http://127.0.0.1:3000';

describe('JwtAccessTokenVerifier (tokens signed by a test key)', () => {
  let ds: DataSource;
  let signingKey: CryptoKey;
  let strangerKey: CryptoKey;
  let verifier: JwtAccessTokenVerifier;
  let now = new Date('2026-11-23T10:00:00.000Z');
  let org: { organizationId: string; userId: number };
  let otherOrg: { organizationId: string; userId: number };

  before(async () => {
    ds = await openTestDataSource();
    const pair = await generateKeyPair('ES256');
    signingKey = pair.privateKey;
    strangerKey = (await generateKeyPair('ES256')).privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'test-key', alg: 'ES256', use: 'sig' };
    verifier = new JwtAccessTokenVerifier(ds, { issuer: ISSUER, audience: AUDIENCE, keys: { keys: [jwk] }, clock: { now: () => now } });
    org = await ds.transaction((m) => createOrganization(m, { name: 'OAuth org', ownerEmail: 'o@example.test' }));
    otherOrg = await ds.transaction((m) => createOrganization(m, { name: 'Other org', ownerEmail: 'x@example.test' }));
  });
  after(() => ds.destroy());

  // The provider stores every access token it issues under its jti (revocation deletes it).
  const stored = async (jti: string) => {
    await ds.query(`INSERT INTO oauth_payloads (model, id, payload) VALUES ('AccessToken', $1, '{}')`, [jti]);
    return jti;
  };
  const sign = async (claims: Record<string, unknown>, opts: { key?: CryptoKey; issuer?: string; audience?: string; expiresIn?: string } = {}) =>
    new SignJWT({ scope: 'ir.services:read oc.alerts:write', client_id: 'cli-1', org_id: org.organizationId, jti: await stored(randomUUID()), ...claims })
      .setProtectedHeader({ alg: 'ES256', kid: 'test-key' })
      .setIssuer(opts.issuer ?? ISSUER)
      .setAudience(opts.audience ?? AUDIENCE)
      .setSubject(String(org.userId))
      .setIssuedAt(Math.floor(now.getTime() / 1000))
      .setExpirationTime(Math.floor(now.getTime() / 1000) + 3600)
      .sign(opts.key ?? signingKey);

  test('a valid token resolves to its user, organization, scopes and client', async () => {
    const principal = await verifier.verify(await sign({}));
    assert.deepEqual(principal, {
      organizationId: org.organizationId,
      userId: org.userId,
      apiKeyId: null,
      kind: 'oauth',
      scopes: ['ir.services:read', 'oc.alerts:write'],
      clientId: 'cli-1',
      rateLimits: { readsPerMinute: null, writesPerMinute: null },
      sessionId: null,
    });
  });

  test("the token's login session (sid) is kept only as a SHA-256 fingerprint", async () => {
    const principal = await verifier.verify(await sign({ sid: 'session-cookie-value' }));
    assert.equal(principal?.sessionId, sessionFingerprint('session-cookie-value'));
    assert.match(principal?.sessionId ?? '', /^[0-9a-f]{64}$/);
    assert.notEqual(principal?.sessionId, 'session-cookie-value');
  });

  test('a token the provider no longer stores (revoked) or never stored is unknown', async () => {
    const token = await sign({});
    assert.ok(await verifier.verify(token));
    await ds.query(`DELETE FROM oauth_payloads WHERE model = 'AccessToken'`);
    assert.equal(await verifier.verify(token), null);
    assert.equal(await verifier.verify(await sign({ jti: 'never-issued' })), null);
  });

  test('a token signed by another key, for another issuer or audience, is unknown', async () => {
    assert.equal(await verifier.verify(await sign({}, { key: strangerKey })), null);
    assert.equal(await verifier.verify(await sign({}, { issuer: 'http://evil.test' })), null);
    assert.equal(await verifier.verify(await sign({}, { audience: 'http://other-api.test' })), null);
  });

  test('an expired token is unknown (the clock is injected)', async () => {
    const token = await sign({});
    const saved = now;
    now = new Date(saved.getTime() + 3601_000);
    try {
      assert.equal(await verifier.verify(token), null);
    } finally {
      now = saved;
    }
  });

  test('a user who is not in the token’s organization is refused', async () => {
    assert.equal(await verifier.verify(await sign({ org_id: otherOrg.organizationId })), null);
    assert.equal(await verifier.verify(await sign({ org_id: randomUUID() })), null);
  });

  test('something that is not a JWT is not an access token', async () => {
    assert.equal(await verifier.verify('tpr_not-a-jwt-at-all-0123456789'), null);
    assert.equal(await verifier.verify('a.b.c'), null);
  });
});
