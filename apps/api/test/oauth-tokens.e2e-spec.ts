import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { eventually, startTestApi, type TestApi, type TestOrganization, type TestResponse } from '../src/testing';

const ISSUER = 'http://127.0.0.1/test-issuer';
const AUDIENCE = 'taproot-api';

describe('OAuth access tokens at the api (API keys first, then OAuth)', () => {
  let jwks: Server;
  let key: CryptoKey;
  let api: TestApi;
  let org: TestOrganization;
  let ownerId: number;

  before(async () => {
    const pair = await generateKeyPair('ES256');
    key = pair.privateKey;
    const body = JSON.stringify({ keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' }] });
    jwks = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
    await new Promise<void>((r) => jwks.listen(0, '127.0.0.1', r));
    const { port } = jwks.address() as AddressInfo;
    api = await startTestApi({ env: { OAUTH_ISSUER: ISSUER, OAUTH_AUDIENCE: AUDIENCE, OAUTH_JWKS_URL: `http://127.0.0.1:${port}/jwks` } });
    org = await api.newOrganization();
    [{ id: ownerId }] = await api.runtime.dataSource.query('SELECT id FROM users WHERE organization_id = $1', [org.organizationId]);
  });
  after(async () => {
    await api.close();
    jwks.close();
  });

  // As the auth app does, the token is stored under its jti (revocation deletes it).
  const token = async (scope: string, claims: Record<string, string> = {}) => {
    const jti = randomUUID();
    await api.runtime.dataSource.query(`INSERT INTO oauth_payloads (model, id, payload) VALUES ('AccessToken', $1, '{}')`, [jti]);
    return new SignJWT({ scope, org_id: org.organizationId, client_id: 'cli-e2e', jti, ...claims })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(String(ownerId))
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(key);
  };
  const service = { data: { type: 'services', attributes: { name: 'Via OAuth' } } };

  test('a read scope lets the owner read services but not create them (role ∩ scopes)', async () => {
    const bearer = await token('ir.services:read');
    assert.equal((await api.request('GET', '/v1/services', { token: bearer })).status, 200);
    const post = await api.request('POST', '/v1/services', { token: bearer, body: service });
    assert.equal(post.status, 403);
    assert.equal(post.body.errors[0].status, '403');
    assert.equal((await api.request('GET', '/v1/severities', { token: bearer })).status, 403, 'no scope for severities');
  });

  test('a write scope includes read and allows the create', async () => {
    const bearer = await token('ir.services:write');
    assert.equal((await api.request('POST', '/v1/services', { token: bearer, body: service })).status, 201);
    assert.equal((await api.request('GET', '/v1/services', { token: bearer })).status, 200);
  });

  test('a token from another signer is a 401, like an unknown API key', async () => {
    const stranger = (await generateKeyPair('ES256')).privateKey;
    const forged = await new SignJWT({ scope: 'all', org_id: org.organizationId })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(String(ownerId))
      .setExpirationTime('1h')
      .sign(stranger);
    const res = await api.request('GET', '/v1/services', { token: forged });
    assert.equal(res.status, 401);
    assert.equal(res.body.errors[0].status, '401');
    // RFC 6750: the refused token is named invalid, the signal for a client to refresh; no token, no error code.
    assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="taproot", error="invalid_token"');
    assert.equal((await api.request('GET', '/v1/services')).headers.get('www-authenticate'), 'Bearer realm="taproot"');
  });

  test("the audit log records a fingerprint of the token's login session (sid), and none for API keys", async () => {
    const viaToken = await api.request('POST', '/v1/services', { token: await token('all', { sid: 'login-session-1' }), body: { data: { type: 'services', attributes: { name: 'Session audited' } } } });
    assert.equal(viaToken.status, 201);
    const viaKey = await api.request('POST', '/v1/services', { token: org.token, body: { data: { type: 'services', attributes: { name: 'Key audited' } } } });
    assert.equal(viaKey.status, 201);
    const find = (res: TestResponse, id: string) => res.body.data.find((a: { attributes: { item_id: string } }) => a.attributes.item_id === id);
    const audits = await eventually(
      () => api.request('GET', '/v1/audits?filter[item_type]=Service&page[size]=100', { token: org.token }),
      (res) => res.status !== 200 || (!!find(res, viaToken.body.data.id) && !!find(res, viaKey.body.data.id)),
    );
    assert.equal(audits.status, 200);
    const sessionOf = (id: string) => find(audits, id)?.attributes.session_id;
    assert.equal(sessionOf(viaToken.body.data.id), createHash('sha256').update('login-session-1').digest('hex'));
    assert.equal(sessionOf(viaKey.body.data.id), null);
  });

  test('API keys still authenticate when OAuth is configured', async () => {
    assert.equal((await api.request('GET', '/v1/services', { token: org.token })).status, 200);
  });
});
