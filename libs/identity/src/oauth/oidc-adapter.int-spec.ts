import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { openTestDataSource } from '@taproot/persistence';
import type { DataSource } from 'typeorm';
import { postgresOidcAdapter, type OidcAdapter } from './oidc-adapter';

describe('postgresOidcAdapter (oauth_payloads)', () => {
  let ds: DataSource;
  let now = new Date('2026-11-23T10:00:00.000Z');
  let Adapter: new (model: string) => OidcAdapter;
  const id = () => randomUUID();

  before(async () => {
    ds = await openTestDataSource();
    Adapter = postgresOidcAdapter(ds, { clock: { now: () => now }, refreshGraceSeconds: 30, jwtId: async (jwt) => (jwt === 'a.b.c' ? 'jti-of-abc' : null) });
  });
  after(() => ds.destroy());

  test('upsert then find, per model; an update replaces the payload', async () => {
    const codes = new Adapter('AuthorizationCode');
    const key = id();
    await codes.upsert(key, { kind: 'AuthorizationCode', grantId: 'g1', n: 1 }, 60);
    assert.deepEqual(await codes.find(key), { kind: 'AuthorizationCode', grantId: 'g1', n: 1 });
    assert.equal(await new Adapter('AccessToken').find(key), undefined, 'another model does not see it');
    await codes.upsert(key, { kind: 'AuthorizationCode', grantId: 'g1', n: 2 }, 60);
    assert.equal((await codes.find(key))?.n, 2);
  });

  test('expiry is judged on the injected clock', async () => {
    const codes = new Adapter('AuthorizationCode');
    const key = id();
    await codes.upsert(key, { kind: 'AuthorizationCode' }, 60);
    now = new Date(now.getTime() + 59_000);
    assert.ok(await codes.find(key));
    now = new Date(now.getTime() + 2_000);
    assert.equal(await codes.find(key), undefined);
  });

  test('payloads without expiry (clients) never expire', async () => {
    const clients = new Adapter('Client');
    const key = id();
    await clients.upsert(key, { client_id: key });
    now = new Date(now.getTime() + 10 * 365 * 86_400_000);
    assert.deepEqual(await clients.find(key), { client_id: key });
  });

  test('findByUid and findByUserCode', async () => {
    const sessions = new Adapter('Session');
    const key = id();
    const uid = id();
    await sessions.upsert(key, { uid, userCode: 'ABCD' }, 600);
    assert.equal((await sessions.findByUid(uid))?.uid, uid);
    assert.equal((await sessions.findByUserCode('ABCD'))?.uid, uid);
    assert.equal(await sessions.findByUid(id()), undefined);
  });

  test('consume marks it consumed (codes at once; refresh tokens after the grace, counted from the first use)', async () => {
    const codes = new Adapter('AuthorizationCode');
    const code = id();
    await codes.upsert(code, { kind: 'AuthorizationCode' }, 60);
    await codes.consume(code);
    assert.equal(typeof (await codes.find(code))?.consumed, 'number');

    const refresh = new Adapter('RefreshToken');
    const token = id();
    await refresh.upsert(token, { kind: 'RefreshToken' }, 3600);
    await refresh.consume(token);
    assert.equal((await refresh.find(token))?.consumed, undefined, 'within the grace');
    now = new Date(now.getTime() + 20_000);
    await refresh.consume(token);
    now = new Date(now.getTime() + 11_000);
    assert.equal(typeof (await refresh.find(token))?.consumed, 'number', '31 s after the first use');
  });

  test('destroy and revokeByGrantId delete', async () => {
    const tokens = new Adapter('AccessToken');
    const [a, b, c] = [id(), id(), id()];
    const grant = id();
    await tokens.upsert(a, { grantId: grant }, 3600);
    await tokens.upsert(b, { grantId: grant }, 3600);
    await tokens.upsert(c, { grantId: id() }, 3600);
    await tokens.revokeByGrantId(grant);
    assert.equal(await tokens.find(a), undefined);
    assert.equal(await tokens.find(b), undefined);
    assert.ok(await tokens.find(c));
    await tokens.destroy(c);
    assert.equal(await tokens.find(c), undefined);
  });

  test('expired rows are deleted now and then (at most every 10 minutes)', async () => {
    const sessions = new Adapter('Session');
    const [old, fresh] = [id(), id()];
    await sessions.upsert(old, {}, 60);
    now = new Date(now.getTime() + 11 * 60_000);
    await sessions.upsert(fresh, {}, 60);
    assert.deepEqual(await ds.query('SELECT id FROM oauth_payloads WHERE id = ANY($1)', [[old, fresh]]), [{ id: fresh }]);
  });

  test('a presented JWT access token is found by its jti, and only once resolved', async () => {
    const tokens = new Adapter('AccessToken');
    await tokens.upsert('jti-of-abc', { kind: 'AccessToken' }, 3600);
    assert.deepEqual(await tokens.find('a.b.c'), { kind: 'AccessToken' });
    assert.equal(await tokens.find('x.y.z'), undefined);
  });
});
