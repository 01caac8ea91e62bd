import { afterAll as after, beforeAll as before, describe, expect, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { startTestAuth, type TestAuth } from '../src/testing';
import { insertClientCredentialsApp, postForm, postJson, startTestApi, userinfo, type TestApi, type TestApplication } from './oauth-test-helpers';

describe('rate limits on the auth app: every response, per client address', () => {
  let auth: TestAuth;
  let api: TestApi;
  let app: TestApplication;
  const token = (secret = app.clientSecret) => postForm(`${auth.url}/oauth/token`, { grant_type: 'client_credentials', scope: 'all' }, { id: app.clientId, secret });
  const get = (path: string) => fetch(`${auth.url}${path}`);

  before(async () => {
    auth = await startTestAuth({ env: { RATE_LIMIT_READS_PER_MINUTE: '4', RATE_LIMIT_WRITES_PER_MINUTE: '3' } });
    api = await startTestApi({ databaseUrl: auth.databaseUrl, env: auth.apiEnv });
    app = await insertClientCredentialsApp(api, (await api.newOrganization()).organizationId, 'all');
    // The copy carries the template database's windows; and at the start of a minute the sliding
    // window's previous minute is empty: the counts below are exact.
    await auth.runtime.dataSource.query('DELETE FROM rate_limit_windows');
    auth.clock.advance(60 - ((auth.clock.now().getTime() / 1000) % 60));
  });
  after(async () => {
    await api.close();
    await auth.close();
  });

  test('discovery, token and error responses carry the X-RateLimit-* headers; reads and writes are counted apart', async () => {
    const discovery = await get('/.well-known/openid-configuration');
    assert.equal(discovery.status, 200);
    assert.equal(discovery.headers.get('x-ratelimit-limit'), '4, 4;window=60');
    assert.equal(discovery.headers.get('x-ratelimit-used'), '1');
    assert.equal(discovery.headers.get('x-ratelimit-remaining'), '3');
    assert.match(discovery.headers.get('x-ratelimit-reset') ?? '', /^\d{10}$/);

    const issued = await token();
    assert.equal(issued.status, 200);
    expect([issued.headers.get('x-ratelimit-limit'), issued.headers.get('x-ratelimit-used')]).toEqual(['3, 3;window=60', '1']);
    const refused = await token('wrong');
    assert.equal(refused.status, 401);
    assert.equal(refused.body.error, 'invalid_client');
    assert.equal(refused.headers.get('x-ratelimit-used'), '2');

    const unknownToken = await userinfo(auth.url, 'not-a-token');
    assert.equal(unknownToken.status, 401);
    assert.equal(unknownToken.headers.get('x-ratelimit-used'), '2');
    const expiredPage = await get('/interaction/unknown');
    assert.equal(expiredPage.status, 400);
    assert.equal(expiredPage.headers.get('x-ratelimit-used'), '3');
    assert.equal((await get('/healthz')).headers.get('x-ratelimit-limit'), null, 'the probes are not limited');
  });

  test('over the budget: 429 with the spec’s body and Retry-After; another address keeps its own budget', async () => {
    assert.equal((await get('/oauth/discovery/keys')).headers.get('x-ratelimit-remaining'), '0');
    const overRead = await get('/.well-known/openid-configuration');
    assert.equal(overRead.status, 429);
    expect(await overRead.json()).toEqual({ error: 'Rate limit exceeded. Try again later.' });
    assert.match(overRead.headers.get('retry-after') ?? '', /^\d+$/);
    assert.equal(overRead.headers.get('x-ratelimit-remaining'), '0');

    assert.equal((await token()).status, 200);
    const overWrite = await token();
    assert.equal(overWrite.status, 429);
    assert.ok(Number(overWrite.headers.get('retry-after')) > 0);
    expect(overWrite.body).toEqual({ error: 'Rate limit exceeded. Try again later.' });

    const elsewhere = await postJson(`${auth.url}/oauth/register`, { redirect_uris: ['https://app.example.com/cb'] }, '127.0.0.2');
    assert.equal(elsewhere.status, 201);
    assert.equal(elsewhere.headers['x-ratelimit-used'], '1');
  });
});
