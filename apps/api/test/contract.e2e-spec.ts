import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startTestApi, type RequestOptions, type TestApi, type TestOrganization, type TestResponse } from '../src/testing';
import { JSON_API_MEDIA_TYPE, OpenApiValidator, type OpenApiDocumentLike } from './support/openapi-ajv';

/**
 * The OpenAPI document Taproot serves (`GET /v1/openapi.json`) against what it actually serves:
 * every response body of every severities and services operation is validated against the
 * schema the document declares for that path, method and status (looked up from the document,
 * never by a hard-coded name); then the document's operations and statuses are compared with
 * the ones exercised, both ways.
 */

interface Resource {
  type: string;
  path: string;
  /** Whether the list takes `page[after]` / `page[before]`. */
  cursor: boolean;
  /** Attributes of a valid create, distinct per call. */
  create: (n: string) => Record<string, unknown>;
  /** Attributes of a valid update. */
  update: Record<string, unknown>;
  /** Attributes that fail validation (422). */
  invalid: Record<string, unknown>;
}

const RESOURCES: Resource[] = [
  {
    type: 'severities',
    path: '/v1/severities',
    cursor: false,
    create: (n) => ({ name: `SEV contract ${n}`, severity: 'high', color: '#ff0000', notify_emails: ['oncall@example.com'], slack_channels: [{ id: 'C1', name: 'sev' }] }),
    update: { description: 'updated by the contract test', severity: 'low', position: 7 },
    invalid: { severity: 'urgent', position: 'first' },
  },
  {
    type: 'services',
    path: '/v1/services',
    cursor: true,
    create: (n) => ({
      name: `Contract service ${n}`,
      public_description: 'Payments',
      owner_user_ids: [1, 2],
      alert_broadcast_channel: { id: 'C42', name: 'alerts' },
      properties: [{ catalog_property_id: 'p1', value: 'v1' }],
      show_uptime_last_days: 30,
    }),
    update: { description: 'updated by the contract test', alerts_email_enabled: true, environment_ids: ['env-1'] },
    invalid: { show_uptime_last_days: 45, owner_user_ids: ['x'] },
  },
];

const under = (prefix: string) => (path: string) => path === prefix || path.startsWith(`${prefix}/`);

describe('the served OpenAPI document describes what severities and services answer', () => {
  let api: TestApi;
  let org: TestOrganization;
  let doc: OpenApiValidator;
  /** `METHOD path-template` -> statuses answered. */
  const exercised = new Map<string, Set<number>>();
  /** Query parameters sent that the operation does not declare. */
  const undeclaredParams = new Set<string>();

  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
    const res = await api.request('GET', '/v1/openapi.json');
    assert.equal(res.status, 200, 'GET /v1/openapi.json');
    doc = new OpenApiValidator(res.body as OpenApiDocumentLike, 'taproot');
  });
  after(() => api?.close());

  /**
   * Sends a request to `template` (with `{id}` filled), asserts the status, and validates the
   * body against the schema the document declares for template+method+status under
   * application/vnd.api+json.
   */
  async function call(
    method: string,
    template: string,
    expected: number,
    opts: RequestOptions & { id?: string; query?: string } = {},
  ): Promise<TestResponse> {
    const path = template.replace('{id}', encodeURIComponent(opts.id ?? '')) + (opts.query ? `?${opts.query}` : '');
    const res = await api.request(method, path, opts);
    const what = `${method} ${path}`;
    assert.equal(res.status, expected, `${what}: expected ${expected}, got ${res.status} ${JSON.stringify(res.body)}`);
    const key = `${method.toLowerCase()} ${template}`;
    if (!exercised.has(key)) exercised.set(key, new Set());
    exercised.get(key)!.add(res.status);

    const op = doc.operation(template, method);
    assert.ok(op, `${what}: the document has no operation ${method.toUpperCase()} ${template}`);
    for (const name of new URLSearchParams(opts.query ?? '').keys()) {
      if (!op.parameters.includes(name)) undeclaredParams.add(`${key} ?${name}`);
    }
    // The request documents agree with the declared request body: what the server took is
    // valid, what it refused as invalid (422) is invalid.
    const requestSchema = doc.requestSchema(template, method);
    if (opts.body !== undefined && requestSchema !== undefined && (res.status < 300 || res.status === 422)) {
      const problems = doc.errorsAgainst(requestSchema, opts.body);
      if (res.status < 300) assert.deepEqual(problems, [], `${what}: accepted a body the declared request schema refuses:\n  ${problems.join('\n  ')}`);
      else assert.notDeepEqual(problems, [], `${what}: refused (422) a body the declared request schema accepts: ${JSON.stringify(opts.body)}`);
    }
    assert.equal(res.headers.get('content-type')?.split(';')[0], JSON_API_MEDIA_TYPE, `${what}: content-type`);
    const schema = doc.responseSchema(template, method, res.status);
    if (schema !== undefined) {
      const problems = doc.errorsAgainst(schema, res.body);
      assert.deepEqual(problems, [], `${what} ${res.status}: body does not match the declared ${JSON.stringify(schema)}:\n  ${problems.join('\n  ')}\nbody: ${JSON.stringify(res.body)}`);
    } else {
      // Not declared (the last test reports it); the body must still be an errors list, the
      // shape every error answers with (spec "Errors").
      assert.ok(res.status >= 400, `${what}: undeclared success status ${res.status}`);
      doc.assertValid('errors_list', res.body, `${what} ${res.status} (undeclared)`);
    }
    return res;
  }

  for (const r of RESOURCES) {
    describe(`${r.type}`, () => {
      const item = `${r.path}/{id}`;
      const body = (attributes: Record<string, unknown>) => ({ data: { type: r.type, attributes } });
      const created: string[] = [];
      const create = async (n: string) => {
        const res = await call('POST', r.path, 201, { token: org.token, body: body(r.create(n)) });
        created.push(res.body.data.id);
        return res;
      };

      test('POST creates a record: 201 with the declared response document', async () => {
        const res = await create(randomUUID().slice(0, 8));
        assert.equal(res.body.data.type, r.type);
      });

      test('GET lists records: 200 with data present', async () => {
        for (let i = 0; i < 4; i++) await create(`list ${i} ${randomUUID().slice(0, 8)}`);
        const res = await call('GET', r.path, 200, { token: org.token });
        assert.ok(res.body.data.length >= 5, `expected at least 5 ${r.type}, got ${res.body.data.length}`);
        assert.ok(res.body.data.every((d: { type: string }) => d.type === r.type));
      });

      test('GET lists a page by number and size: 200 with links and meta', async () => {
        const res = await call('GET', r.path, 200, { token: org.token, query: 'page[number]=2&page[size]=2' });
        assert.equal(res.body.data.length, 2);
        assert.equal(res.body.meta.current_page, 2);
        assert.equal(typeof res.body.links.prev, 'string');
        const filtered = await call('GET', r.path, 200, { token: org.token, query: `filter[name]=${encodeURIComponent('no such name')}&sort=-position` });
        assert.deepEqual(filtered.body.data, []);
      });

      if (r.cursor) {
        test('GET walks cursor pages: 200 for the first and the following page', async () => {
          const first = await call('GET', r.path, 200, { token: org.token, query: 'page[size]=2' });
          const cursor = first.body.meta.next_cursor;
          assert.equal(typeof cursor, 'string', 'meta.next_cursor of a full first page');
          const second = await call('GET', r.path, 200, { token: org.token, query: `page[size]=2&page[after]=${encodeURIComponent(cursor)}` });
          assert.equal(second.body.data.length, 2);
          assert.notDeepEqual(second.body.data.map((d: { id: string }) => d.id), first.body.data.map((d: { id: string }) => d.id));
        });
      }

      test('GET retrieves one record by id and by slug: 200', async () => {
        const id = created[0];
        const res = await call('GET', item, 200, { token: org.token, id });
        assert.equal(res.body.data.id, id);
        const bySlug = await call('GET', item, 200, { token: org.token, id: res.body.data.attributes.slug });
        assert.equal(bySlug.body.data.id, id);
      });

      test('PUT updates a record: 200', async () => {
        const res = await call('PUT', item, 200, { token: org.token, id: created[0], body: body(r.update) });
        for (const [name, value] of Object.entries(r.update)) assert.deepEqual(res.body.data.attributes[name], value, name);
      });

      test('the declared response schema is not vacuous: it refuses a mangled copy of a real response', async () => {
        const res = await call('GET', item, 200, { token: org.token, id: created[0] });
        const schema = doc.responseSchema(item, 'GET', 200);
        const mangled = structuredClone(res.body);
        delete mangled.data.attributes.created_at;
        mangled.data.type = 'not-' + r.type;
        mangled.data.attributes.name = 42;
        const problems = doc.errorsAgainst(schema, mangled).join('\n');
        for (const expected of ['created_at', '/data/type', '/data/attributes/name']) assert.ok(problems.includes(expected), `no complaint about ${expected}:\n${problems}`);
      });

      test('DELETE deletes a record: 200 with the deleted record', async () => {
        const id = created.pop()!;
        const res = await call('DELETE', item, 200, { token: org.token, id });
        assert.equal(res.body.data.id, id);
      });

      test('without a token every operation answers 401', async () => {
        const id = created[0];
        await call('GET', r.path, 401);
        await call('POST', r.path, 401, { body: body(r.create('no token')) });
        await call('GET', item, 401, { id });
        await call('PUT', item, 401, { id, body: body(r.update) });
        await call('DELETE', item, 401, { id });
        await call('GET', r.path, 401, { token: 'tpr_this-token-does-not-exist-anywhere' });
      });

      test('an unknown id answers 404 on get, update and delete', async () => {
        const id = randomUUID();
        await call('GET', item, 404, { token: org.token, id });
        await call('PUT', item, 404, { token: org.token, id, body: body(r.update) });
        await call('DELETE', item, 404, { token: org.token, id });
      });

      test('invalid attributes answer 422 on create and update', async () => {
        await call('POST', r.path, 422, { token: org.token, body: body({ ...r.create('invalid'), ...r.invalid }) });
        await call('POST', r.path, 422, { token: org.token, body: body({ ...r.create('unknown'), no_such_attribute: 1 }) });
        await call('PUT', item, 422, { token: org.token, id: created[0], body: body(r.invalid) });
      });

      test('malformed bodies and query parameters answer 400', async () => {
        await call('GET', r.path, 400, { token: org.token, query: 'sort=no_such_field' });
        await call('GET', r.path, 400, { token: org.token, query: 'filter[created_at][gte]=yesterday' });
        await call('POST', r.path, 400, { token: org.token, body: { name: 'no data member' } });
        await call('POST', r.path, 400, { token: org.token, rawBody: '{"data": {' });
        await call('PUT', item, 400, { token: org.token, id: created[0], body: { name: 'no data member' } });
      });

      test('a body that is not application/vnd.api+json answers 415', async () => {
        const headers = { 'content-type': 'application/json' };
        await call('POST', r.path, 415, { token: org.token, body: body(r.create('json')), headers });
        await call('PUT', item, 415, { token: org.token, id: created[0], body: body(r.update), headers });
      });
    });
  }

  describe('services bulk operations', () => {
    const upsert = '/v1/services/bulk_upsert';
    const remove = '/v1/services/bulk_delete';
    const key = () => `contract-${randomUUID().slice(0, 8)}`;

    test('the document lists bulk_upsert and bulk_delete of every bulk resource, teams included', () => {
      for (const path of [upsert, remove, '/v1/teams/bulk_upsert', '/v1/teams/bulk_delete']) assert.ok(doc.operation(path, 'POST'), `POST ${path}`);
    });

    test('bulk_upsert creates and updates: 200 with the declared document', async () => {
      const [a, b] = [key(), key()];
      const created = await call('POST', upsert, 200, { token: org.token, body: { entities: [{ external_id: a, name: `Bulk ${a}`, show_uptime_last_days: 30 }, { external_id: b, name: `Bulk ${b}` }] } });
      assert.equal(created.body.data.length, 2);
      const updated = await call('POST', upsert, 200, { token: org.token, body: { entities: [{ external_id: a, description: 'bulk updated' }] } });
      assert.equal(updated.body.data[0].id, created.body.data[0].id);
    });

    test('bulk_delete by external ids and by managed_by: 200 with the declared document', async () => {
      const a = key();
      await call('POST', upsert, 200, { token: org.token, body: { entities: [{ external_id: a, name: `Delete ${a}` }] } });
      const res = await call('POST', remove, 200, { token: org.token, body: { external_ids: [a, key()] } });
      assert.deepEqual(res.body.data.deleted_external_ids, [a]);
      const own = await api.newOrganization();
      await call('POST', remove, 200, { token: own.token, body: { managed_by: 'terraform', keep_external_ids: [] } });
    });

    test('invalid documents answer 422, without a token 401, another media type 415', async () => {
      await call('POST', upsert, 422, { token: org.token, body: { entities: [{ external_id: key(), name: 'Fine' }, { external_id: key(), name: 42 }] } });
      await call('POST', upsert, 422, { token: org.token, body: { entities: [{ name: 'no key' }] } });
      await call('POST', upsert, 422, { token: org.token, body: { entities: Array.from({ length: 101 }, (_, i) => ({ external_id: `over-${i}` })) } });
      await call('POST', remove, 422, { token: org.token, body: { external_ids: [] } });
      await call('POST', remove, 422, { token: org.token, body: { managed_by: 'web' } });
      await call('POST', upsert, 401, { body: { entities: [] } });
      await call('POST', remove, 401, { body: { external_ids: ['x'] } });
      const headers = { 'content-type': 'application/json' };
      await call('POST', upsert, 415, { token: org.token, body: { entities: [] }, headers });
      await call('POST', remove, 415, { token: org.token, body: { external_ids: ['x'] }, headers });
    });
  });

  describe("the services catalog's properties (/v1/services/properties)", () => {
    const path = '/v1/services/properties';
    const property = (attributes: Record<string, unknown>) => ({ data: { type: 'catalog_properties', attributes } });

    test('list and create answer the declared documents; invalid 422, without a token 401, another media type 415', async () => {
      await call('POST', path, 201, { token: org.token, body: property({ name: 'Language', kind: 'text', multiple: true }) });
      await call('GET', path, 200, { token: org.token, query: 'filter[kind]=text&page[size]=5' });
      await call('POST', path, 422, { token: org.token, body: property({ name: 'Owner', kind: 'person' }) });
      await call('GET', path, 401);
      await call('POST', path, 415, { token: org.token, body: property({ name: 'Tier', kind: 'text' }), headers: { 'content-type': 'application/json' } });
    });
  });

  describe("a service's charts (/v1/services/{id}/incidents_chart, uptime_chart)", () => {
    test('answer the declared documents; a bad period 400, an unknown service 404, without a token 401', async () => {
      const service = await call('POST', '/v1/services', 201, { token: org.token, body: { data: { type: 'services', attributes: { name: 'Charted' } } } });
      const id = service.body.data.id;
      await call('GET', '/v1/services/{id}/incidents_chart', 200, { token: org.token, id, query: 'period=week' });
      await call('GET', '/v1/services/{id}/incidents_chart', 400, { token: org.token, id, query: 'period=year' });
      await call('GET', '/v1/services/{id}/incidents_chart', 404, { token: org.token, id: '00000000-0000-4000-8000-000000000000', query: 'period=day' });
      await call('GET', '/v1/services/{id}/uptime_chart', 200, { token: org.token, id });
      await call('GET', '/v1/services/{id}/uptime_chart', 401, { id });
    });
  });

  const served = () => doc.operations((p) => RESOURCES.some((r) => under(r.path)(p)));

  test('every severities and services operation the document lists was exercised', () => {
    const declared = served().map((o) => `${o.method} ${o.path}`);
    assert.ok(declared.length > 0, 'the document lists no severities or services operations');
    const missed = declared.filter((k) => !exercised.has(k));
    assert.deepEqual(missed, [], `declared in /v1/openapi.json but not exercised (or not served): ${missed.join(', ')}`);
    // And the other way round: `call` refuses operations the document lacks, so each exercised
    // one is declared.
    assert.deepEqual([...exercised.keys()].filter((k) => !declared.includes(k)), []);
  });

  test('every query parameter sent is declared for its operation', () => {
    assert.deepEqual([...undeclaredParams], []);
  });

  test('every status the server answered is declared in the document for that operation', () => {
    const undeclared: string[] = [];
    for (const op of served()) {
      for (const status of exercised.get(`${op.method} ${op.path}`) ?? []) {
        if (!op.statuses.includes(String(status)) && !op.statuses.includes('default')) {
          undeclared.push(`${op.method.toUpperCase()} ${op.path} ${status}`);
        }
      }
    }
    assert.deepEqual(undeclared, [], `statuses answered but missing from /v1/openapi.json:\n  ${undeclared.join('\n  ')}`);
  });
});
