import { afterAll as after, beforeAll as before, describe, expect, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { SigningKeys } from '@taproot/identity';
import { decodeProtectedHeader } from 'jose';
import { startTestAuth, type TestAuth } from '../src/testing';
import { insertClientCredentialsApp, postForm, startTestApi, type Json, type TestApi, type TestApplication } from './oauth-test-helpers';

describe('signing key rotation', () => {
  let auth: TestAuth;
  let api: TestApi;
  let app: TestApplication;
  const accessToken = async () => {
    const res = await postForm(`${auth.url}/oauth/token`, { grant_type: 'client_credentials', scope: 'all' }, { id: app.clientId, secret: app.clientSecret });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.access_token as string;
  };
  const published = async () => ((await (await fetch(`${auth.url}/oauth/discovery/keys`)).json()) as Json).keys.map((k: { kid: string }) => k.kid);
  const apiStatus = async (token: string) => (await api.request('GET', '/v1/services', { token })).status;

  before(async () => {
    auth = await startTestAuth();
    api = await startTestApi({ databaseUrl: auth.databaseUrl, env: auth.apiEnv });
    const { organizationId } = await api.newOrganization();
    app = await insertClientCredentialsApp(api, organizationId, 'all');
  });
  after(async () => {
    await api.close();
    await auth.close();
  });

  test('a rotated key signs new tokens; the retired key stays in the JWKS and its tokens keep working until they expire', async () => {
    const before = await accessToken();
    const oldKid = decodeProtectedHeader(before).kid;
    expect(await published()).toEqual([oldKid]);
    assert.equal(await apiStatus(before), 200);

    const keys = new SigningKeys(auth.runtime.dataSource, { clock: auth.clock, encryptionKey: auth.runtime.config.oauthKeyEncryptionKey, retiredKeyTtlSeconds: 3600 });
    const newKid = await keys.rotate();
    await auth.restart();
    expect(await published()).toEqual([newKid, oldKid]);
    const afterRotation = await accessToken();
    assert.equal(decodeProtectedHeader(afterRotation).kid, newKid);
    // The API refetches the key set for an unknown kid at most once a second.
    await new Promise((r) => setTimeout(r, 1100));
    assert.equal(await apiStatus(afterRotation), 200);
    assert.equal(await apiStatus(before), 200, 'a token signed by the retired key still works');

    auth.clock.advance(3601);
    await auth.restart();
    // Once its tokens have expired the retired key is withdrawn.
    expect(await published()).toEqual([newKid]);
  });
});
