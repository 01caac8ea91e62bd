import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the api app's test harness (not exported by @taproot/api), for an API trusting this auth app
import { startTestApi, type TestApi, type TestOrganization } from '../../api/src/testing';
import { startTestAuth, TEST_API_AUDIENCE, type TestAuth } from '../src/testing';
import { postForm, userinfo } from './oauth-test-helpers';

/**
 * Client-credentials applications end to end: created by an administrator over the admin API
 * (`/v1/oauth_applications`), tokens from /oauth/token with HTTP Basic, the API applying
 * role ∩ scopes to the service user, scope changes, secret rotation and revocation seen by the
 * provider and the API.
 */
describe('client-credentials applications: admin-created, their tokens accepted by the API', () => {
  let auth: TestAuth;
  let api: TestApi;
  let org: TestOrganization;
  before(async () => {
    auth = await startTestAuth();
    api = await startTestApi({ databaseUrl: auth.databaseUrl, env: auth.apiEnv });
    org = await api.newOrganization();
  });
  after(async () => {
    await api?.close();
    await auth?.close();
  });

  const newApp = async (scope: string) => {
    const res = await api.request('POST', '/v1/oauth_applications', { token: org.token, body: { data: { type: 'oauth_applications', attributes: { name: 'Reporter', scope } } } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const { client_id: id, client_secret: secret, service_user_id: serviceUserId } = res.body.data.attributes;
    return { id: id as string, secret: secret as string, serviceUserId: serviceUserId as number };
  };
  const token = (app: { id: string; secret: string }, scope: string) => postForm(`${auth.url}/oauth/token`, { grant_type: 'client_credentials', scope }, app);

  test('token with HTTP Basic; GET allowed by the scope, POST refused (role ∩ scopes); /v1/users/me is the service user', async () => {
    const app = await newApp('ir.services:read');
    const res = await token(app, 'ir.services:read');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.token_type, 'Bearer');
    assert.equal(res.body.expires_in, 3600);
    assert.equal(res.body.scope, 'ir.services:read');
    assert.equal(res.body.refresh_token, undefined, 'no refresh token without a user');
    const claims = decodeJwt(res.body.access_token);
    assert.equal(claims.org_id, org.organizationId);
    assert.equal(claims.sub, String(app.serviceUserId));
    assert.equal(claims.client_id, app.id);
    assert.equal(claims.aud, TEST_API_AUDIENCE);

    const bearer = res.body.access_token as string;
    assert.equal((await api.request('GET', '/v1/services', { token: bearer })).status, 200);
    const write = await api.request('POST', '/v1/services', { token: bearer, body: { data: { type: 'services', attributes: { name: 'Checkout' } } } });
    assert.equal(write.status, 403, JSON.stringify(write.body));
    assert.equal(write.body.errors[0].code, 'PERMISSION_DENIED');
    assert.equal((await api.request('GET', '/v1/severities', { token: bearer })).status, 403, 'no scope for severities');
    assert.equal((await api.request('GET', '/v1/oauth_applications', { token: bearer })).status, 403, 'an application does not manage applications without the scope');
    const me = await api.request('GET', '/v1/users/me', { token: bearer });
    assert.equal(me.status, 200, JSON.stringify(me.body));
    assert.equal(me.body.data.id, String(app.serviceUserId));
    assert.equal(me.body.data.attributes.email, `app-${app.id}@apps.taproot.invalid`);
    assert.equal(me.body.data.attributes.full_name, 'Reporter');
  });

  test('UserInfo answers an application’s token with its service user, no OpenID scope needed', async () => {
    const app = await newApp('oc.alerts:read');
    const res = await userinfo(auth.url, (await token(app, 'oc.alerts:read')).body.access_token);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.sub, String(app.serviceUserId));
    assert.equal(res.body.email, `app-${app.id}@apps.taproot.invalid`);
    assert.equal(res.body.name, 'Reporter');
    assert.equal(res.body.team_id, org.organizationId);
  });

  test('the provider refuses a wrong secret and scopes beyond the application', async () => {
    const app = await newApp('ir.services:read');
    const wrong = await token({ id: app.id, secret: `${app.secret}x` }, 'ir.services:read');
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error, 'invalid_client');
    const beyond = await token(app, 'ir.services:write');
    assert.equal(beyond.status, 400, JSON.stringify(beyond.body));
    assert.equal(beyond.body.error, 'invalid_scope');
  });

  test('rotate_secret: the old secret is refused at once, the new one works', async () => {
    const app = await newApp('oc.alerts:read');
    const rotated = await api.request('POST', `/v1/oauth_applications/${app.id}/rotate_secret`, { token: org.token });
    assert.equal(rotated.status, 200);
    assert.equal((await token(app, 'oc.alerts:read')).body.error, 'invalid_client');
    const fresh = await token({ id: app.id, secret: rotated.body.data.attributes.client_secret }, 'oc.alerts:read');
    assert.equal(fresh.status, 200, JSON.stringify(fresh.body));
    assert.equal((await api.request('GET', '/v1/alerts', { token: fresh.body.access_token })).status, 200);
  });

  test('a scope change applies to the next token request', async () => {
    const app = await newApp('ir.services:read');
    const res = await api.request('PUT', `/v1/oauth_applications/${app.id}`, {
      token: org.token,
      body: { data: { type: 'oauth_applications', attributes: { scope: 'ir.services:write' } } },
    });
    assert.equal(res.status, 200);
    const wider = await token(app, 'ir.services:write');
    assert.equal(wider.status, 200, JSON.stringify(wider.body));
    const created = await api.request('POST', '/v1/services', { token: wider.body.access_token, body: { data: { type: 'services', attributes: { name: 'Billing' } } } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
  });

  test('revoked: the token endpoint refuses the client, and tokens already issued grant nothing', async () => {
    const app = await newApp('ir.services:read');
    const issued = await token(app, 'ir.services:read');
    assert.equal(issued.status, 200);
    const revoked = await api.request('DELETE', `/v1/oauth_applications/${app.id}`, { token: org.token });
    assert.equal(revoked.status, 200);
    const refused = await token(app, 'ir.services:read');
    assert.equal(refused.status, 401, JSON.stringify(refused.body));
    assert.equal(refused.body.error, 'invalid_client');
    // Its stored token was deleted with the client: the API no longer accepts it.
    assert.equal((await api.request('GET', '/v1/services', { token: issued.body.access_token })).status, 401);
  });
});
