import { afterAll as after, beforeAll as before, describe, expect, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { createScratchDatabase, openTestDataSource } from '@taproot/persistence';
import { exportJWK, generateKeyPair } from 'jose';
import type { DataSource } from 'typeorm';
import { decryptJwk, encryptJwk, SigningKeys } from './signing-keys';

const SECRET = 'a-test-key-encryption-secret-of-32-chars';

describe('SigningKeys (oauth_signing_keys)', () => {
  let ds: DataSource;
  let now = new Date('2026-11-23T10:00:00.000Z');
  const keys = (opts: { secret?: string } = {}) =>
    new SigningKeys(ds, { clock: { now: () => now }, encryptionKey: opts.secret ?? SECRET, retiredKeyTtlSeconds: 3600 });

  before(async () => {
    ds = await openTestDataSource(await createScratchDatabase());
  });
  after(() => ds.destroy());

  test('the first load generates one RS256 key, stored with its private half encrypted; later loads reuse it', async () => {
    const [first, second] = await Promise.all([keys().load(), keys().load()]);
    assert.equal(first.keys.length, 1);
    assert.deepEqual(second.keys.map((k) => k.kid), first.keys.map((k) => k.kid), 'replicas starting together agree on one key');
    const [key] = first.keys;
    assert.equal(key.alg, 'RS256');
    assert.equal(key.kty, 'RSA');
    assert.equal(typeof key.d, 'string');
    const rows = await ds.query('SELECT kid, public_jwk, private_jwk_encrypted FROM oauth_signing_keys');
    assert.equal(rows.length, 1);
    assert.equal(rows[0].public_jwk.d, undefined);
    assert.doesNotMatch(rows[0].private_jwk_encrypted, new RegExp(String(key.d).slice(0, 20)));
    assert.deepEqual(decryptJwk(rows[0].private_jwk_encrypted, SECRET), key);
  });

  test('another encryption key cannot read the stored keys (AES-GCM authenticates)', async () => {
    await assert.rejects(keys({ secret: 'another-secret-of-at-least-32-characters' }).load());
  });

  test('encryption round-trips and uses a fresh IV each time', async () => {
    const jwk = await exportJWK((await generateKeyPair('RS256', { extractable: true })).privateKey);
    const a = encryptJwk(jwk, SECRET);
    assert.notEqual(a, encryptJwk(jwk, SECRET));
    expect(decryptJwk(a, SECRET)).toEqual(jwk);
  });

  test('rotation: the new key signs first; the retired one stays published until its tokens expire', async () => {
    const [old] = (await keys().load()).keys;
    const newKid = await keys().rotate();
    let loaded = await keys().load();
    assert.deepEqual(loaded.keys.map((k) => k.kid), [newKid, old.kid]);
    now = new Date(now.getTime() + 3599_000);
    assert.equal((await keys().load()).keys.length, 2, 'still within the longest token lifetime');
    now = new Date(now.getTime() + 2_000);
    loaded = await keys().load();
    assert.deepEqual(loaded.keys.map((k) => k.kid), [newKid]);
  });

  test('a configured key signs; stored keys stay published', async () => {
    const configured = { ...(await exportJWK((await generateKeyPair('RS256', { extractable: true })).privateKey)), kid: 'configured' };
    const loaded = await new SigningKeys(ds, { clock: { now: () => now }, encryptionKey: SECRET, configuredKey: configured, retiredKeyTtlSeconds: 3600 }).load();
    assert.equal(loaded.keys[0].kid, 'configured');
    assert.equal(loaded.keys.length, 2);
  });
});
