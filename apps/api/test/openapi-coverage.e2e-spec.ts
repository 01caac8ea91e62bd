import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { startTestApi, type TestApi } from '../src/testing';
import { servedRoutes } from './support/routes';

/**
 * The served OpenAPI document and the router agree: every /v1 operation the api answers is
 * declared (clients generate their calls from the document), and every declared operation is
 * served. Routes come from the router, so a new endpoint without a declaration fails here.
 */
describe('GET /v1/openapi.json declares every /v1 route the api serves', () => {
  let api: TestApi;
  let paths: Record<string, Record<string, unknown>>;
  before(async () => {
    api = await startTestApi();
    paths = (await api.request('GET', '/v1/openapi.json')).body.paths;
  });
  after(() => api.close());

  // HEAD is Fastify's automatic twin of GET; the document itself is not an API operation.
  const operations = () =>
    servedRoutes(api)
      .filter((r) => r.path.startsWith('/v1/') && r.path !== '/v1/openapi.json')
      .flatMap((r) => r.methods.filter((m) => m !== 'HEAD').map((m) => `${m.toLowerCase()} ${r.path.replace(/:(\w+)/g, '{$1}')}`));

  test('every served operation is in the document', () => {
    const served = operations();
    assert.ok(served.includes('get /v1/users/me'), `the router lists /v1/users/me: ${served.join(', ')}`);
    const undeclared = served.filter((op) => {
      const [method, path] = op.split(' ');
      return !paths[path]?.[method];
    });
    assert.deepEqual(undeclared, []);
  });

  test('every operation in the document is served', () => {
    const served = new Set(operations());
    const declared = Object.entries(paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((k) => ['get', 'post', 'put', 'patch', 'delete'].includes(k))
        .map((m) => `${m} ${path}`),
    );
    assert.deepEqual(declared.filter((op) => !served.has(op)), []);
  });

  test('GET /v1/users/me is declared with the user document and the no-user 404', () => {
    const me = paths['/v1/users/me']?.get as { operationId: string; responses: Record<string, unknown> } | undefined;
    assert.equal(me?.operationId, 'getCurrentUser');
    assert.deepEqual(Object.keys(me!.responses).sort(), ['200', '401', '404']);
  });
});
