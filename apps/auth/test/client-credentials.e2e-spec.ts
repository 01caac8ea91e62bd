import { afterAll as after, beforeAll as before, describe, expect, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { startTestAuth, TEST_API_AUDIENCE, type TestAuth } from '../src/testing';
import { insertClientCredentialsApp, postForm, startTestApi, userinfo, type TestApi, type TestApplication } from './oauth-test-helpers';

describe('client credentials', () => {
  let auth: TestAuth;
  let api: TestApi;
  let organizationId: string;
  let app: TestApplication;
  const token = (scope: string, a = app) => postForm(`${auth.url}/oauth/token`, { grant_type: 'client_credentials', scope }, { id: a.clientId, secret: a.clientSecret });

  before(async () => {
    auth = await startTestAuth();
    api = await startTestApi({ databaseUrl: auth.databaseUrl, env: auth.apiEnv });
    ({ organizationId } = await api.newOrganization());
    app = await insertClientCredentialsApp(api, organizationId, 'ir.services:read ir.services:write oc.alerts:read all ir.all oc.all openid');
  });
  after(async () => {
    await api.close();
    await auth.close();
  });

  test('a resource scope gets a 1-hour RS256 JWT for the API: the service user, the organization, the scope', async () => {
    const res = await token('ir.services:read');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.token_type, 'Bearer');
    assert.equal(res.body.expires_in, 3600);
    assert.equal(res.body.scope, 'ir.services:read');
    assert.equal(res.body.refresh_token, undefined);
    const { payload, protectedHeader } = await jwtVerify(res.body.access_token, createRemoteJWKSet(new URL(`${auth.url}/oauth/discovery/keys`)), {
      issuer: auth.url,
      audience: TEST_API_AUDIENCE,
    });
    assert.equal(protectedHeader.alg, 'RS256');
    assert.equal(payload.sub, String(app.serviceUserId));
    assert.equal(payload.org_id, organizationId);
    assert.equal(payload.client_id, app.clientId);
    assert.equal(payload.scope, 'ir.services:read');
  });

  test('the API takes the token, within its scope only (role ∩ scopes)', async () => {
    const { body } = await token('ir.services:read');
    assert.equal((await api.request('GET', '/v1/services', { token: body.access_token })).status, 200);
    const create = await api.request('POST', '/v1/services', { token: body.access_token, body: { data: { type: 'services', attributes: { name: 'x' } } } });
    assert.equal(create.status, 403);
  });

  test('without a resource scope or all: invalid_scope; all, ir.all or oc.all alone is enough', async () => {
    for (const scope of ['', 'openid']) {
      const res = await token(scope);
      assert.equal(res.status, 400, scope);
      assert.equal(res.body.error, 'invalid_scope');
    }
    for (const scope of ['all', 'ir.all', 'oc.all']) assert.equal((await token(scope)).status, 200, scope);
  });

  test('a wrong secret is invalid_client', async () => {
    const res = await token('all', { ...app, clientSecret: 'wrong' });
    assert.equal(res.status, 401);
    assert.equal(res.body.error, 'invalid_client');
  });

  test('a revoked access token stops working at the API', async () => {
    const { body } = await token('ir.services:read');
    assert.equal((await api.request('GET', '/v1/services', { token: body.access_token })).status, 200);
    const revoked = await postForm(`${auth.url}/oauth/revoke`, { token: body.access_token, token_type_hint: 'access_token' }, { id: app.clientId, secret: app.clientSecret });
    assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
    assert.equal((await api.request('GET', '/v1/services', { token: body.access_token })).status, 401);
  });

  test('UserInfo answers a client-credentials token with its service user: sub and all its claims', async () => {
    const [user] = await api.runtime.dataSource.query(
      `SELECT u.email, v.full_name, r.name AS role, oc.name AS on_call_role FROM users u JOIN users_view v ON v.id = u.id
         JOIN roles r ON r.id = u.role_id JOIN on_call_roles oc ON oc.id = u.on_call_role_id WHERE u.id = $1`,
      [app.serviceUserId],
    );
    const claims = { sub: String(app.serviceUserId), email: user.email, name: user.full_name, team_id: organizationId, role: user.role, on_call_role: user.on_call_role };
    for (const scope of ['ir.services:read', 'all openid']) {
      const res = await userinfo(auth.url, (await token(scope)).body.access_token);
      assert.equal(res.status, 200, `${scope}: ${JSON.stringify(res.body)}`);
      expect(res.body).toEqual(claims);
    }
  });

  test('a revoked client-credentials token gets 401 at UserInfo, with the OAuth error', async () => {
    const { body } = await token('ir.services:read');
    assert.equal((await userinfo(auth.url, body.access_token)).status, 200);
    await postForm(`${auth.url}/oauth/revoke`, { token: body.access_token }, { id: app.clientId, secret: app.clientSecret });
    const refused = await userinfo(auth.url, body.access_token);
    assert.equal(refused.status, 401);
    assert.equal(refused.body.error, 'invalid_token');
    assert.match(refused.headers.get('www-authenticate') ?? '', /^Bearer realm="[^"]+", error="invalid_token"/);
  });

  test('a revoked application gets no token', async () => {
    const revokedApp = await insertClientCredentialsApp(api, organizationId, 'all');
    await api.runtime.dataSource.query('UPDATE oauth_applications SET revoked_at = now() WHERE client_id = $1', [revokedApp.clientId]);
    const res = await token('all', revokedApp);
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'invalid_client');
  });
});
