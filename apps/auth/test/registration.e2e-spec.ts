import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { SUPPORTED_SCOPES } from '@taproot/auth';
import { startTestAuth, type TestAuth } from '../src/testing';
import { postJson } from './oauth-test-helpers';

describe('dynamic client registration (RFC 7591) at /oauth/register', () => {
  let auth: TestAuth;
  // Each request comes from its own loopback address (127.0.0.0/8) so the hourly limit per IP
  // only counts where a test means it to.
  let ip = 1;
  const register = (body: unknown, from = `127.0.1.${++ip}`) => postJson(`${auth.url}/oauth/register`, body, from);

  before(async () => {
    auth = await startTestAuth();
  });
  after(() => auth.close());

  test('a public client: echoed metadata, client_id, issued-at, no secret, all scopes when omitted, an application row', async () => {
    const res = await register({ client_name: 'CLI', redirect_uris: ['http://127.0.0.1:8765/callback'], token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], response_types: ['code'] });
    assert.equal(res.status, 201);
    assert.equal(res.body.client_name, 'CLI');
    assert.deepEqual(res.body.redirect_uris, ['http://127.0.0.1:8765/callback']);
    assert.equal(res.body.token_endpoint_auth_method, 'none');
    assert.deepEqual(res.body.response_types, ['code']);
    assert.ok(res.body.grant_types.includes('authorization_code'));
    assert.equal(typeof res.body.client_id, 'string');
    assert.equal(typeof res.body.client_id_issued_at, 'number');
    assert.equal(res.body.client_secret, undefined);
    assert.deepEqual(res.body.scope.split(' ').sort(), [...SUPPORTED_SCOPES].sort());
    const [row] = await auth.runtime.dataSource.query('SELECT organization_id, name, kind FROM oauth_applications WHERE client_id = $1', [res.body.client_id]);
    assert.deepEqual(row, { organization_id: null, name: 'CLI', kind: 'registered' });
  });

  test('a confidential client gets a secret once, never expiring (client_secret_expires_at 0); a given scope is kept', async () => {
    for (const method of ['client_secret_basic', 'client_secret_post']) {
      const res = await register({ client_name: 'Web', redirect_uris: ['https://app.example.com/cb'], token_endpoint_auth_method: method, scope: 'openid ir.all ai.chat:read' });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(typeof res.body.client_secret, 'string');
      assert.equal(res.body.client_secret_expires_at, 0);
      assert.equal(res.body.scope, 'openid ir.all ai.chat:read');
    }
  });

  test('loopback redirect URIs may be http (127.0.0.1, [::1], localhost); others must be https', async () => {
    for (const uri of ['http://[::1]:9000/cb', 'http://localhost/cb']) {
      assert.equal((await register({ redirect_uris: [uri], token_endpoint_auth_method: 'none' })).status, 201, uri);
    }
    for (const uri of ['http://app.example.com/cb', 'http://10.1.2.3/cb', 'ftp://example.com/cb']) {
      const res = await register({ redirect_uris: [uri], token_endpoint_auth_method: 'none' });
      assert.equal(res.status, 400, uri);
      assert.equal(res.body.error, 'invalid_redirect_uri');
    }
  });

  test('client credentials, other grants, response types, auth methods and unknown scopes are refused', async () => {
    const base = { redirect_uris: ['https://app.example.com/cb'] };
    const refused = [
      { grant_types: ['client_credentials'] },
      { grant_types: ['authorization_code', 'client_credentials'] },
      { grant_types: ['implicit'], response_types: ['id_token'] },
      { response_types: ['code id_token'] },
      { token_endpoint_auth_method: 'private_key_jwt' },
      { scope: 'ir.nothing:read' },
      { organization_id: '00000000-0000-0000-0000-000000000000' },
    ];
    for (const extra of refused) {
      const res = await register({ ...base, ...extra });
      assert.equal(res.status, 400, JSON.stringify(extra));
      assert.match(res.body.error, /^invalid_(client_metadata|redirect_uri)$/, JSON.stringify(extra));
      assert.equal(typeof res.body.error_description, 'string');
    }
    const [{ count }] = await auth.runtime.dataSource.query(`SELECT count(*)::int AS count FROM oauth_applications WHERE name <> 'CLI' AND name <> 'Web'`);
    assert.equal(count, 2, 'only the two loopback registrations above were stored');
  });

  test('10 registrations per hour per IP; the 11th answers 429 with the spec body and Retry-After', async () => {
    const body = { redirect_uris: ['https://app.example.com/cb'], token_endpoint_auth_method: 'none' };
    for (let i = 0; i < 10; i++) assert.equal((await register(body, '127.0.9.9')).status, 201, `registration ${i + 1}`);
    const limited = await register(body, '127.0.9.9');
    assert.equal(limited.status, 429);
    assert.deepEqual(limited.body, { error: 'Rate limit exceeded. Try again later.' });
    assert.ok(Number(limited.headers['retry-after']) > 0);
    assert.equal((await register(body, '127.0.9.10')).status, 201, 'another address is not limited');
  });
});
