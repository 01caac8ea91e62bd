import { afterAll as after, beforeAll as before, describe, expect, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { SUPPORTED_SCOPES } from '@taproot/auth';
import { startTestAuth, type TestAuth } from '../src/testing';
import type { Json } from './oauth-test-helpers';

describe('discovery and keys', () => {
  let auth: TestAuth;
  before(async () => {
    auth = await startTestAuth();
  });
  after(() => auth.close());

  for (const path of ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server']) {
    test(`${path} advertises the endpoints, scopes, grants, PKCE S256 and RS256`, async () => {
      const res = await fetch(`${auth.url}${path}`);
      assert.equal(res.status, 200);
      const doc: Json = await res.json();
      assert.equal(doc.issuer, auth.url);
      assert.equal(doc.authorization_endpoint, `${auth.url}/oauth/authorize`);
      assert.equal(doc.token_endpoint, `${auth.url}/oauth/token`);
      assert.equal(doc.introspection_endpoint, `${auth.url}/oauth/introspect`);
      assert.equal(doc.revocation_endpoint, `${auth.url}/oauth/revoke`);
      assert.equal(doc.userinfo_endpoint, `${auth.url}/oauth/userinfo`);
      assert.equal(doc.registration_endpoint, `${auth.url}/oauth/register`);
      assert.equal(doc.jwks_uri, `${auth.url}/oauth/discovery/keys`);
      expect([...doc.scopes_supported].sort()).toEqual([...SUPPORTED_SCOPES].sort());
      assert.ok(doc.scopes_supported.includes('ir.incidents:write') && doc.scopes_supported.includes('ai.chat:read'));
      expect([...doc.grant_types_supported].sort()).toEqual(['authorization_code', 'client_credentials', 'refresh_token']);
      expect(doc.response_types_supported).toEqual(['code']);
      expect(doc.code_challenge_methods_supported).toEqual(['S256']);
      expect(doc.id_token_signing_alg_values_supported).toEqual(['RS256']);
      expect([...doc.token_endpoint_auth_methods_supported].sort()).toEqual(['client_secret_basic', 'client_secret_post', 'none']);
    });
  }

  test('the JWKS publishes one RS256 public key, no private parts', async () => {
    const res = await fetch(`${auth.url}/oauth/discovery/keys`);
    assert.equal(res.status, 200);
    const { keys }: Json = await res.json();
    assert.equal(keys.length, 1);
    assert.equal(keys[0].kty, 'RSA');
    assert.equal(keys[0].alg, 'RS256');
    assert.equal(keys[0].d, undefined);
  });

  test('errors answer without stack traces', async () => {
    const res = await fetch(`${auth.url}/oauth/authorize?client_id=nobody&response_type=code`);
    const body = await res.text();
    assert.equal(res.status, 400);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(body, /<h1>Sign-in error<\/h1>/);
    assert.match(body, /invalid_client/);
    assert.doesNotMatch(body, /at .*\.[jt]s:\d+|Error:/);
  });
});
