import { afterAll as after, beforeAll as before, describe, expect, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import { TEST_API_AUDIENCE } from '../src/testing';
import { authorize, publicClient, startFlowEnv, tokensFor, type FlowEnv } from './code-flow';
import { postForm, postJson, userinfo as callUserinfo } from './oauth-test-helpers';

const GRACE_SECONDS = 30;

describe('authorization code flow with PKCE, tokens, refresh, revocation, userinfo', () => {
  let env: FlowEnv;
  let clientId: string;
  const token = (form: Record<string, string>) => postForm(`${env.auth.url}/oauth/token`, { client_id: clientId, ...form });
  const exchange = (code: string, verifier: string) => token({ grant_type: 'authorization_code', code, redirect_uri: env.redirectUri, code_verifier: verifier });
  const refresh = (refreshToken: string) => token({ grant_type: 'refresh_token', refresh_token: refreshToken });
  const apiStatus = async (accessToken: string) => (await env.api.request('GET', '/v1/services', { token: accessToken })).status;
  const userinfo = (accessToken: string) => callUserinfo(env.auth.url, accessToken);

  before(async () => {
    env = await startFlowEnv({ OAUTH_REFRESH_GRACE_SECONDS: String(GRACE_SECONDS) });
    clientId = await publicClient(env);
  });
  after(() => env.close());

  test('the token response: Bearer, 3600 s, a refresh token, an RS256 ID token verified against the JWKS, the scope', async () => {
    const { params, request } = await authorize(env, clientId, 'openid profile ir.services:read');
    const res = await exchange(params.get('code') ?? '', request.verifier);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.token_type, 'Bearer');
    assert.equal(res.body.expires_in, 3600);
    assert.equal(typeof res.body.refresh_token, 'string');
    expect(res.body.scope.split(' ').sort()).toEqual(['ir.services:read', 'openid', 'profile']);
    const jwks = createRemoteJWKSet(new URL(`${env.auth.url}/oauth/discovery/keys`));
    const id = await jwtVerify(res.body.id_token, jwks, { issuer: env.auth.url, audience: clientId, algorithms: ['RS256'] });
    assert.equal(id.payload.sub, String(env.person.userId));
    const access = await jwtVerify(res.body.access_token, jwks, { issuer: env.auth.url, audience: TEST_API_AUDIENCE, algorithms: ['RS256'] });
    assert.equal(access.payload.sub, String(env.person.userId));
    assert.equal(access.payload.org_id, env.person.organizationId);
    assert.equal(access.payload.client_id, clientId);
    assert.equal(typeof access.payload.sid, 'string');
    assert.equal(access.payload.exp! - access.payload.iat!, 3600);
    assert.equal(await apiStatus(res.body.access_token), 200, 'the API accepts it');
  });

  test('without openid there is no ID token', async () => {
    const body = await tokensFor(env, clientId, 'ir.services:read');
    assert.equal(body.id_token, undefined);
    assert.equal(typeof body.refresh_token, 'string');
  });

  test('PKCE is required: a request without a challenge or with plain is refused', async () => {
    const missing = await authorize(env, clientId, 'openid', { code_challenge: null, code_challenge_method: null });
    assert.equal(missing.params.get('error'), 'invalid_request');
    assert.match(missing.params.get('error_description') ?? '', /PKCE/);
    const plain = await authorize(env, clientId, 'openid', { code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' });
    assert.equal(plain.params.get('error'), 'invalid_request');
  });

  test('PKCE is verified: a wrong or missing verifier gets invalid_grant', async () => {
    const { params, request } = await authorize(env, clientId, 'openid');
    const wrong = await exchange(params.get('code') ?? '', `${request.verifier.slice(0, -1)}x`);
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.error, 'invalid_grant');
    const second = await authorize(env, clientId, 'openid');
    const none = await token({ grant_type: 'authorization_code', code: second.params.get('code') ?? '', redirect_uri: env.redirectUri });
    assert.equal(none.status, 400);
    assert.match(none.body.error, /invalid_(grant|request)/);
  });

  test('a code is single use: the second exchange fails and revokes what the first issued', async () => {
    const { params, request } = await authorize(env, clientId, 'ir.services:read');
    const first = await exchange(params.get('code') ?? '', request.verifier);
    assert.equal(first.status, 200);
    const again = await exchange(params.get('code') ?? '', request.verifier);
    assert.equal(again.status, 400);
    assert.equal(again.body.error, 'invalid_grant');
    assert.equal(await apiStatus(first.body.access_token), 401);
  });

  test('a code expires after 60 seconds (injected clock)', async () => {
    const fresh = await authorize(env, clientId, 'openid');
    env.auth.clock.advance(55);
    assert.equal((await exchange(fresh.params.get('code') ?? '', fresh.request.verifier)).status, 200, 'still valid at 55 s');
    const stale = await authorize(env, clientId, 'openid');
    env.auth.clock.advance(61);
    const late = await exchange(stale.params.get('code') ?? '', stale.request.verifier);
    assert.equal(late.status, 400);
    assert.equal(late.body.error, 'invalid_grant');
  });

  test('refresh tokens rotate; the previous one works only during the grace period', async () => {
    const first = await tokensFor(env, clientId, 'openid ir.services:read');
    const second = await refresh(first.refresh_token);
    assert.equal(second.status, 200, JSON.stringify(second.body));
    assert.notEqual(second.body.refresh_token, first.refresh_token, 'rotated');
    assert.equal(second.body.expires_in, 3600);
    assert.equal(await apiStatus(second.body.access_token), 200);
    env.auth.clock.advance(GRACE_SECONDS - 5);
    const retried = await refresh(first.refresh_token);
    assert.equal(retried.status, 200, 'within the grace the previous token still works');
    const third = await refresh(second.body.refresh_token);
    assert.equal(third.status, 200);
    assert.equal((await refresh(third.body.refresh_token)).status, 200);
  });

  test('reuse after the grace period fails and revokes the whole grant', async () => {
    const first = await tokensFor(env, clientId, 'openid ir.services:read');
    const second = await refresh(first.refresh_token);
    assert.equal(second.status, 200);
    env.auth.clock.advance(GRACE_SECONDS + 1);
    const reused = await refresh(first.refresh_token);
    assert.equal(reused.status, 400);
    assert.equal(reused.body.error, 'invalid_grant');
    const latest = await refresh(second.body.refresh_token);
    assert.equal(latest.status, 400, 'the newest refresh token of the chain is revoked too');
    assert.equal(await apiStatus(second.body.access_token), 401, 'and its access tokens');
  });

  test('revoking a refresh token (logout) ends it; revoking an access token makes the API answer 401', async () => {
    const tokens = await tokensFor(env, clientId, 'openid ir.services:read');
    const revoke = (t: string, hint: string) => postForm(`${env.auth.url}/oauth/revoke`, { token: t, token_type_hint: hint, client_id: clientId });
    assert.equal(await apiStatus(tokens.access_token), 200);
    assert.equal((await revoke(tokens.access_token, 'access_token')).status, 200);
    assert.equal(await apiStatus(tokens.access_token), 401);
    assert.equal((await revoke(tokens.refresh_token, 'refresh_token')).status, 200);
    const after = await refresh(tokens.refresh_token);
    assert.equal(after.status, 400);
    assert.equal(after.body.error, 'invalid_grant');
  });

  test('introspection reports a live access token and a revoked one as inactive', async () => {
    const tokens = await tokensFor(env, clientId, 'openid ir.services:read');
    const introspect = () => postForm(`${env.auth.url}/oauth/introspect`, { token: tokens.access_token, client_id: clientId });
    const live = await introspect();
    assert.equal(live.status, 200);
    assert.equal(live.body.active, true);
    assert.equal(live.body.sub, String(env.person.userId));
    await postForm(`${env.auth.url}/oauth/revoke`, { token: tokens.access_token, client_id: clientId });
    expect((await introspect()).body).toEqual({ active: false });
  });

  test('UserInfo returns the claims of the granted scopes, for the same token the API takes', async () => {
    const all = await tokensFor(env, clientId, 'openid profile email ir.services:read');
    const [user] = await env.api.runtime.dataSource.query(
      `SELECT v.full_name, r.name AS role, oc.name AS on_call_role FROM users u JOIN users_view v ON v.id = u.id
         JOIN roles r ON r.id = u.role_id JOIN on_call_roles oc ON oc.id = u.on_call_role_id WHERE u.id = $1`,
      [env.person.userId],
    );
    expect((await userinfo(all.access_token)).body).toEqual({
      sub: String(env.person.userId),
      email: env.person.email,
      name: user.full_name,
      team_id: env.person.organizationId,
      role: user.role,
      on_call_role: user.on_call_role,
    });
    assert.equal(await apiStatus(all.access_token), 200);
    expect((await userinfo((await tokensFor(env, clientId, 'openid')).access_token)).body).toEqual({ sub: String(env.person.userId) });
    expect((await userinfo((await tokensFor(env, clientId, 'openid email')).access_token)).body).toEqual({ sub: String(env.person.userId), email: env.person.email });
    assert.equal((await userinfo('not-a-token')).status, 401);
  });

  test('UserInfo answers a token granted without openid too: sub, and the claims of its other scopes', async () => {
    const sub = String(env.person.userId);
    const plain = await userinfo((await tokensFor(env, clientId, 'ir.services:read')).access_token);
    assert.equal(plain.status, 200, JSON.stringify(plain.body));
    assert.equal(plain.headers.get('cache-control'), 'no-store');
    expect(plain.body).toEqual({ sub });
    expect((await userinfo((await tokensFor(env, clientId, 'email ir.services:read')).access_token)).body).toEqual({ sub, email: env.person.email });
    const revoked = await tokensFor(env, clientId, 'ir.services:read');
    await postForm(`${env.auth.url}/oauth/revoke`, { token: revoked.access_token, client_id: clientId });
    assert.equal((await userinfo(revoked.access_token)).status, 401);
  });

  test('a confidential client authenticates with HTTP Basic', async () => {
    const reg = await postJson(`${env.auth.url}/oauth/register`, { redirect_uris: [env.redirectUri], token_endpoint_auth_method: 'client_secret_basic' }, '127.0.77.1');
    assert.equal(reg.status, 201);
    const { params, request } = await authorize(env, reg.body.client_id, 'openid ir.services:read');
    const basic = { id: reg.body.client_id, secret: reg.body.client_secret };
    const form = { grant_type: 'authorization_code', code: params.get('code') ?? '', redirect_uri: env.redirectUri, code_verifier: request.verifier };
    const res = await postForm(`${env.auth.url}/oauth/token`, form, basic);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(decodeJwt(res.body.access_token).client_id, reg.body.client_id);
    assert.equal((await postForm(`${env.auth.url}/oauth/token`, { grant_type: 'refresh_token', refresh_token: res.body.refresh_token }, { ...basic, secret: 'wrong' })).status, 401);
    assert.equal((await postForm(`${env.auth.url}/oauth/token`, { grant_type: 'refresh_token', refresh_token: res.body.refresh_token }, basic)).status, 200);
  });
});
