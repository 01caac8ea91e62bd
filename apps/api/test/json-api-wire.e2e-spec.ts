import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { startTestApi, type TestApi, type TestOrganization } from '../src/testing';

const MEDIA = 'application/vnd.api+json';

describe('JSON:API wire rules', () => {
  let api: TestApi;
  let org: TestOrganization;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
  });
  after(() => api.close());

  test('health probes answer without a token', async () => {
    const health = await api.request('GET', '/healthz');
    assert.equal(health.status, 200);
    assert.deepEqual(health.body, { status: 'ok' });
    const ready = await api.request('GET', '/readyz');
    assert.equal(ready.status, 200);
    assert.deepEqual(ready.body.checks, { database: 'up', bus: 'up' });
  });

  test('a missing token answers 401 with an errors list', async () => {
    const res = await api.request('GET', '/v1/services');
    assert.equal(res.status, 401);
    assert.equal(res.headers.get('content-type'), MEDIA);
    assert.equal(res.body.errors[0].status, '401');
    assert.match(res.body.errors[0].detail, /Authorization header is missing/);
  });

  test('an unknown token answers 401', async () => {
    const res = await api.request('GET', '/v1/services', { token: 'tpr_this-token-does-not-exist-anywhere' });
    assert.equal(res.status, 401);
    assert.equal(res.body.errors[0].title, 'Unauthorized');
  });

  test('a body that is not application/vnd.api+json answers 415 and creates nothing', async () => {
    const res = await api.request('POST', '/v1/severities', {
      token: org.token,
      body: { data: { type: 'severities', attributes: { name: 'SEV-json' } } },
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.status, 415);
    assert.equal(res.body.errors[0].status, '415');
    assert.match(res.body.errors[0].detail, /application\/vnd\.api\+json/);
    const list = await api.request('GET', '/v1/severities?filter[name]=SEV-json', { token: org.token });
    assert.equal(list.body.data.length, 0);
  });

  test('malformed JSON answers 400 naming the problem', async () => {
    const res = await api.request('POST', '/v1/severities', { token: org.token, rawBody: '{"data": {' });
    assert.equal(res.status, 400);
    assert.match(res.body.errors[0].detail, /not valid JSON/);
  });

  test('a body with a __proto__ key is refused, saying why (no prototype pollution through JSON)', async () => {
    for (const rawBody of ['{"data": {"type": "severities", "attributes": {"name": "x"}}, "__proto__": {"polluted": true}}', '{"constructor": {"prototype": {"polluted": true}}}']) {
      const res = await api.request('POST', '/v1/severities', { token: org.token, rawBody });
      assert.equal(res.status, 400, rawBody);
      assert.equal(res.body.errors[0].code, 'FORBIDDEN_PROTOTYPE_MEMBER');
      assert.match(res.body.errors[0].detail, /__proto__/);
    }
    assert.equal(({} as { polluted?: boolean }).polluted, undefined);
  });

  test('every /v1 response is application/vnd.api+json', async () => {
    const res = await api.request('GET', '/v1/severities', { token: org.token });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), MEDIA);
  });

  test('an unknown route answers 404 with an errors list', async () => {
    const res = await api.request('GET', '/v1/nothing-here', { token: org.token });
    assert.equal(res.status, 404);
    assert.equal(res.body.errors[0].status, '404');
  });

  test('a method a served path does not take answers 405 with Allow; a record missing on a served route stays 404', async () => {
    for (const [method, path, allow] of [
      ['PATCH', '/v1/severities', 'GET, HEAD, POST'],
      ['POST', '/v1/severities/00000000-0000-4000-8000-000000000000', 'GET, HEAD, PUT, DELETE'],
      // The path's own resource, not `PUT /v1/causes/{id}` taking "properties" for an id.
      ['PATCH', '/v1/causes/properties', 'GET, HEAD, POST'],
      // A method with a body and no Content-Type: Fastify refuses it before routing.
      ['QUERY', '/v1/severities', 'GET, HEAD, POST'],
    ]) {
      const res = await api.request(method, path, { token: org.token });
      assert.equal(res.status, 405, `${method} ${path}`);
      assert.equal(res.headers.get('allow'), allow);
      assert.equal(res.body.errors[0].code, 'METHOD_NOT_ALLOWED');
      assert.match(res.body.errors[0].detail, new RegExp(`^${method} is not allowed on ${path}`));
    }
    const missing = await api.request('GET', '/v1/severities/00000000-0000-4000-8000-000000000000', { token: org.token });
    assert.equal(missing.status, 404);
  });

  test('the OpenAPI document is served without a token and lists the resources', async () => {
    const res = await api.request('GET', '/v1/openapi.json');
    assert.equal(res.status, 200);
    assert.match(res.body.openapi, /^3\./);
    assert.ok(res.body.paths['/v1/services/{id}'].put);
    assert.ok(res.body.components.schemas.severity_response);
  });
});
