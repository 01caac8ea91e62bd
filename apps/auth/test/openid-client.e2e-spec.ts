import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import * as client from 'openid-client';
import { approve, publicClient, startFlowEnv, type FlowEnv } from './code-flow';
import { insertClientCredentialsApp } from './oauth-test-helpers';

/** A standard OAuth/OIDC client library, used as documented, against the running provider. */
describe('openid-client (v6) against the provider', () => {
  let env: FlowEnv;
  // The test issuer is plain http on loopback.
  const insecure = { execute: [client.allowInsecureRequests] };
  before(async () => {
    env = await startFlowEnv();
  });
  after(() => env.close());

  test('discovery, authorization code with PKCE, ID token, UserInfo, refresh', async () => {
    const clientId = await publicClient(env);
    const config = await client.discovery(new URL(env.auth.url), clientId, { redirect_uris: [env.redirectUri] }, client.None(), insecure);
    assert.equal(config.serverMetadata().issuer, env.auth.url);
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const scope = 'openid profile email ir.services:read';
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: env.redirectUri,
      scope,
      state,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const back = await approve(env, url.href, scope);
    const tokens = await client.authorizationCodeGrant(config, new URL(back.url), { pkceCodeVerifier: verifier, expectedState: state });
    assert.equal(tokens.token_type.toLowerCase(), 'bearer');
    assert.equal(tokens.expires_in, 3600);
    assert.equal(tokens.claims()?.sub, String(env.person.userId));
    const userinfo = await client.fetchUserInfo(config, tokens.access_token, String(env.person.userId));
    assert.equal(userinfo.email, env.person.email);
    assert.equal(userinfo.team_id, env.person.organizationId);
    assert.equal((await env.api.request('GET', '/v1/services', { token: tokens.access_token })).status, 200);

    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    assert.notEqual(refreshed.refresh_token, tokens.refresh_token);
    assert.equal((await env.api.request('GET', '/v1/services', { token: refreshed.access_token })).status, 200);
  });

  test('client credentials with HTTP Basic', async () => {
    const app = await insertClientCredentialsApp(env.api, env.person.organizationId, 'ir.services:read');
    const config = await client.discovery(new URL(env.auth.url), app.clientId, undefined, client.ClientSecretBasic(app.clientSecret), insecure);
    const tokens = await client.clientCredentialsGrant(config, { scope: 'ir.services:read' });
    assert.equal(tokens.scope, 'ir.services:read');
    assert.equal((await env.api.request('GET', '/v1/services', { token: tokens.access_token })).status, 200);
  });
});
