/**
 * Cross-tenant walk: every route with an id parameter, given a record of another organization,
 * answers 404 like a missing id and reveals nothing of that record. Routes come from the router
 * (Fastify's route tree), request bodies from the served OpenAPI document, so a new route is
 * either exercised here or fails the suite.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startTestApi, type TestApi, type TestOrganization, type TestResponse } from '../src/testing';
import { servedRoutes, type Route } from './support/routes';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** A minimal valid value for a JSON schema (required properties only), strings carrying `marker`. */
function minimal(schema: Json, doc: Json, marker: string): Json {
  if (schema?.$ref) return minimal(doc.components.schemas[schema.$ref.split('/').pop()], doc, marker);
  if (schema?.enum) return schema.enum[0];
  if (schema?.nullable && schema.type !== 'object' && schema.type !== 'string') return null;
  switch (schema?.type) {
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((k: string) => [k, minimal(schema.properties?.[k], doc, marker)]));
    case 'array':
      return [];
    case 'boolean':
      return false;
    case 'integer':
    case 'number':
      return schema.minimum ?? 0;
    case 'string':
      if (schema.format === 'date-time') return new Date(Date.now() + 86_400_000).toISOString();
      return marker.slice(0, schema.maxLength ?? marker.length);
    default:
      return null;
  }
}

/** Per-type attributes where the first enum value or a minimal body is not enough. */
const FALLBACK_ATTRIBUTES: Record<string, Record<string, unknown>> = {
  api_keys: { kind: 'organization' },
};

const openApiPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, '{$1}');
const ID_PARAM = /\/:([A-Za-z_]*id)\b/;

describe('cross-tenant walk: another organization\'s id answers 404 on every route', () => {
  let api: TestApi;
  let a: TestOrganization;
  let b: TestOrganization;
  let doc: Json;
  let routes: Route[];
  before(async () => {
    api = await startTestApi();
    a = await api.newOrganization();
    b = await api.newOrganization();
    doc = (await api.request('GET', '/v1/openapi.json', { token: a.token })).body;
    routes = servedRoutes(api);
  });
  after(() => api.close());

  const bodyFor = (path: string, method: string, marker: string): unknown => {
    const op = doc.paths[openApiPath(path)]?.[method.toLowerCase()];
    const schema = op?.requestBody?.content?.['application/vnd.api+json']?.schema;
    if (!schema) return undefined;
    const body = minimal(schema, doc, marker);
    // `data` and `attributes` are required but may be empty objects for update schemas.
    const type = path.split('/')[2];
    body.data ??= {};
    body.data.type ??= type;
    body.data.attributes = { ...(body.data.attributes ?? {}), ...(method === 'POST' && !ID_PARAM.test(path) ? FALLBACK_ATTRIBUTES[type] : {}) };
    return body;
  };

  test('the router lists id routes under /v1 and every one of them is walked', async () => {
    // Collections the API cannot create into (the reference has no POST /v1/users): seeded directly.
    const SEEDERS: Record<string, (organizationId: string, marker: string) => Promise<string>> = {
      '/v1/users': async (organizationId, marker) => {
        const [row] = await api.runtime.dataSource.query(
          "INSERT INTO users (organization_id, email, name, role) VALUES ($1, $2, $3, 'user') RETURNING id",
          [organizationId, `${marker}@example.test`, marker],
        );
        return String(row.id);
      },
    };
    const idRoutes = routes.filter((r) => r.path.startsWith('/v1/') && ID_PARAM.test(r.path));
    assert.ok(idRoutes.length >= 5, `expected id routes in:\n${JSON.stringify(routes, null, 1)}`);
    const exercised = new Set<string>();
    const records = new Map<string, { id: string; marker: string }>();

    for (const route of idRoutes) {
      const collection = route.path.slice(0, route.path.search(ID_PARAM));
      assert.ok(!ID_PARAM.test(collection), `nested id route ${route.path}: the walk needs a parent record; extend it`);
      let record = records.get(collection);
      if (!record) {
        const marker = `xtenant-${randomUUID().slice(0, 8)}`;
        const seed = SEEDERS[collection];
        if (seed) {
          record = { id: await seed(a.organizationId, marker), marker };
        } else {
          const created = await api.request('POST', collection, { token: a.token, body: bodyFor(collection, 'POST', marker) });
          assert.equal(created.status, 201, `POST ${collection} in org A: ${JSON.stringify(created.body)} (no POST? add a seeder)`);
          record = { id: created.body.data.id, marker };
        }
        records.set(collection, record);
      }
      const { id, marker } = record;
      const own = await api.request('GET', `${collection}/${id}`, { token: a.token });
      assert.equal(own.status, 200, `org A reads its own ${collection}/${id}`);
      assert.ok(JSON.stringify(own.body).includes(marker), 'the marker is in the record (so its absence below means something)');

      const concrete = route.path.replace(ID_PARAM, `/${id}`);
      const missing = route.path.replace(ID_PARAM, `/${randomUUID()}`);
      for (const method of route.methods) {
        const label = `${method} ${route.path} with org B's token and org A's id`;
        const body = bodyFor(route.path, method, `b-${marker}`);
        const res = await api.request(method, concrete, { token: b.token, body });
        assert.ok(res.status === 404 || res.status === 403, `${label}: expected 404, got ${res.status} ${JSON.stringify(res.body)}`);
        assertRevealsNothing(res, id, marker, label);
        // Exactly like an id that does not exist at all.
        const ghost = await api.request(method, missing, { token: b.token, body });
        assert.equal(res.status, ghost.status, `${label}: answers like a missing id`);
        if (method !== 'HEAD') {
          const codes = (r: TestResponse) => (r.body?.errors ?? []).map((e: Json) => `${e.status}/${e.code}/${e.title}`);
          assert.deepEqual(codes(res), codes(ghost), `${label}: same errors as a missing id`);
        }
        exercised.add(`${method} ${route.path}`);
      }
    }

    // Nothing of A's records changed through B's PUT/PATCH/DELETE/POST attempts.
    for (const [collection, { id, marker }] of records) {
      const after = await api.request('GET', `${collection}/${id}`, { token: a.token });
      assert.equal(after.status, 200, `${collection}/${id} still exists for org A`);
      assert.ok(JSON.stringify(after.body).includes(marker), `${collection}/${id} is unchanged`);
      assert.ok(!JSON.stringify(after.body).includes(`b-${marker}`), `${collection}/${id} was not written by org B`);
    }

    const expected = idRoutes.flatMap((r) => r.methods.map((m) => `${m} ${r.path}`));
    const missed = expected.filter((e) => !exercised.has(e));
    assert.deepEqual(missed, [], 'every id route and method from the router is exercised');
    // The OpenAPI document and the router agree, so no documented id route escapes the walk.
    const documented = Object.keys(doc.paths).filter((p) => /\{[A-Za-z_]*id\}/.test(p));
    assert.deepEqual(documented.sort(), idRoutes.map((r) => openApiPath(r.path)).sort(), 'router and OpenAPI list the same id routes');
  });

  test('a list of B never contains A\'s records', async () => {
    const collections = routes.filter((r) => r.path.startsWith('/v1/') && !r.path.includes(':') && r.methods.includes('POST') && r.methods.includes('GET'));
    assert.ok(collections.length >= 4);
    for (const { path } of collections) {
      const marker = `xlist-${randomUUID().slice(0, 8)}`;
      const created = await api.request('POST', path, { token: a.token, body: bodyFor(path, 'POST', marker) });
      assert.equal(created.status, 201, `POST ${path}: ${JSON.stringify(created.body)}`);
      const list = await api.request('GET', path, { token: b.token });
      assert.equal(list.status, 200, path);
      const text = JSON.stringify(list.body);
      assert.ok(!text.includes(created.body.data.id) && !text.includes(marker), `GET ${path} as org B shows org A's record`);
    }
  });
});

function assertRevealsNothing(res: TestResponse, id: string, marker: string, label: string): void {
  if (res.body === undefined || res.body === '') return;
  assert.ok(!JSON.stringify(res.body).includes(marker), `${label}: the body reveals A's record's name`);
  // The id may only be echoed in an error's detail ("... not found").
  const scrubbed = structuredClone(res.body);
  for (const error of scrubbed?.errors ?? []) if (typeof error.detail === 'string') error.detail = error.detail.replaceAll(id, '<id>');
  assert.ok(!JSON.stringify(scrubbed).includes(id), `${label}: the body reveals A's id outside an error detail: ${JSON.stringify(res.body)}`);
  assert.ok(!('data' in (res.body ?? {})), `${label}: an error carries no data`);
}
