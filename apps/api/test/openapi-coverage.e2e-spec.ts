import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { startTestApi, type TestApi } from '../src/testing';
import { servedRoutes } from './support/routes';

/**
 * The served OpenAPI document and the router agree: every /v1 operation the api answers (and the
 * PagerDuty Events API's /v2 ones) is declared (clients generate their calls from the document),
 * and every declared operation is served. Routes come from the router, so a new endpoint without a declaration fails here.
 */
describe('GET /v1/openapi.json declares every /v1 route the api serves', () => {
  let api: TestApi;
  let paths: Record<string, Record<string, unknown>>;
  before(async () => {
    api = await startTestApi();
    paths = (await api.request('GET', '/v1/openapi.json')).body.paths;
  });
  after(() => api.close());

  // HEAD is Fastify's automatic twin of GET; the document itself (whole or split) is not an API operation.
  const operations = () =>
    servedRoutes(api)
      .filter((r) => /^\/v[12]\//.test(r.path) && r.path !== '/v1/openapi.json' && !r.path.startsWith('/v1/openapi/'))
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

  // Endpoints' deliveries, users' contact methods, incidents' timelines, schedules', rotations',
  // policies' and status pages' records go with them; a role's tasks, an event's links, a page's
  // status page events and the notification rules naming a contact method refuse the delete.
  test('a delete declares 409 only where the API refuses it with records still there', () => {
    const refusable = Object.entries(paths).filter(([, item]) => (item.delete as { responses: Record<string, unknown> } | undefined)?.responses['409']);
    assert.deepEqual(refusable.map(([path]) => path).sort(), ['/v1/communications/stages/{id}', '/v1/communications/types/{id}', '/v1/email_addresses/{id}', '/v1/events/{id}', '/v1/incident_roles/{id}', '/v1/phone_numbers/{id}', '/v1/status-pages/{id}']);
  });
});

describe('the OpenAPI document split by operation (spec, Versioning)', () => {
  let api: TestApi;
  let whole: { paths: Record<string, Record<string, { operationId?: string }>> };
  before(async () => {
    api = await startTestApi();
    whole = (await api.request('GET', '/v1/openapi.json')).body;
  });
  after(() => api.close());

  const refsOf = (value: unknown): string[] =>
    Array.isArray(value) ? value.flatMap(refsOf) : value && typeof value === 'object' ? Object.entries(value).flatMap(([k, v]) => (k === '$ref' ? [v as string] : refsOf(v))) : [];

  test('the index lists every operation of the whole document, and each one is a standalone document that resolves', async () => {
    const index = await api.request('GET', '/v1/openapi/operations.json');
    assert.equal(index.status, 200);
    assert.match(index.headers.get('x-ratelimit-limit') ?? '', /window=60/);
    const listed = index.body.operations as { operation_id: string; method: string; path: string; href: string }[];
    const declared = Object.values(whole.paths).flatMap((item) => Object.values(item).flatMap((op) => (op && typeof op === 'object' && op.operationId ? [op.operationId] : [])));
    assert.deepEqual(listed.map((o) => o.operation_id).sort(), [...declared].sort());
    assert.ok(listed.length > 100, `${listed.length} operations`);
    for (const entry of listed) {
      const res = await api.request('GET', entry.href);
      assert.equal(res.status, 200, entry.href);
      const doc = res.body;
      assert.deepEqual(Object.keys(doc.paths), [entry.path]);
      assert.deepEqual(Object.keys(doc.paths[entry.path]).filter((k) => k !== 'parameters'), [entry.method.toLowerCase()]);
      for (const ref of refsOf(doc)) {
        const [, section, name] = /^#\/components\/([^/]+)\/([^/]+)$/.exec(ref) ?? [];
        assert.ok(doc.components?.[section]?.[name] !== undefined, `${entry.operation_id}: ${ref} resolves inside its document`);
      }
    }
  });

  test('an unknown operation is a 404 errors document', async () => {
    const res = await api.request('GET', '/v1/openapi/operations/deleteEverything.json');
    assert.equal(res.status, 404);
    assert.match(res.body.errors[0].detail, /No operation deleteEverything/);
  });
});
