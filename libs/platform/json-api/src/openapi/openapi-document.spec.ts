import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { attributesSchema, requestDocumentSchema } from '../resource/json-schema';
import { defineResource, type AttributeDef, type ResourceSchema } from '../resource/resource-schema';
import { buildOpenApiDocument, resourceListDocument, resourceObjectSchema, type OpenApiDocument } from './openapi-document';

const MEDIA = 'application/vnd.api+json';
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

const widgets = () =>
  defineResource({
    type: 'widgets',
    singular: 'widget',
    path: '/v1/widgets',
    readTable: 'widgets_read',
    defaultSort: 'position',
    operations: ['list', 'create', 'get', 'update', 'delete'],
    relationships: { owner: { type: 'users', many: false, idAttribute: 'owner_id' } },
    extraFilters: { owner: { description: 'Owner id or email' } },
    attributes: {
      name: { type: 'string', required: true, minLength: 1, maxLength: 255, filter: true, sortable: true, searchable: true, description: 'The name' },
      slug: { type: 'string', writable: false, derivedFrom: 'name', filter: ['eq', 'in', 'gt'] },
      severity: { type: 'string', enum: ['critical', 'high', 'medium', 'low'], default: 'medium', filter: true },
      position: { type: 'integer', nullable: true, minimum: 0, filter: true, sortable: true },
      enabled: { type: 'boolean', nullable: true, filter: true },
      owner_id: { type: 'string', format: 'uuid', nullable: true },
      uptime_days: { type: 'integer', nullable: true, enum: [30, 60, 90], default: 60, writable: 'create' },
      managed_by: { type: 'string', enum: ['web', 'api'], writable: false, default: 'api' },
      slack_channels: {
        type: 'array',
        nullable: true,
        items: { type: 'object', properties: { id: { type: 'string', required: true }, name: { type: 'string', required: true } } },
      },
      settings: { type: 'object', nullable: true },
      labels: { type: 'array', filter: true, items: { type: 'string' } },
    },
  });

const alertRoutes = () =>
  defineResource({
    type: 'alert_routes',
    singular: 'alert_route',
    path: '/v1/alert_routes',
    readTable: 'alert_routes_read',
    defaultSort: 'created_at',
    cursor: true,
    operations: ['list', 'get'],
    attributes: { name: { type: 'string', required: true } },
  });

const severities = () =>
  defineResource({
    type: 'severities',
    singular: 'severity',
    path: '/v1/severities',
    readTable: 'severities_read',
    defaultSort: 'position',
    operations: ['list', 'create', 'get', 'update', 'delete'],
    attributes: { name: { type: 'string', required: true } },
  });

const build = (resources: ResourceSchema[] = [widgets(), alertRoutes(), severities()]) =>
  buildOpenApiDocument(resources, { title: 'Taproot API', version: 'v1', serverUrl: 'http://localhost:3000' });

type Obj = Record<string, unknown>;
interface Param {
  in: string;
  name: string;
  required?: boolean;
  description?: string;
  schema: Obj;
}
interface Res {
  description: string;
  content?: Record<string, { schema: { $ref: string } }>;
  headers?: Record<string, { schema?: Obj }>;
}
interface Op {
  operationId: string;
  tags?: string[];
  parameters?: Param[];
  requestBody?: { required: boolean; content: Record<string, { schema: { $ref: string } }> };
  responses: Record<string, Res>;
}
interface PathItem {
  parameters?: Param[];
  get?: Op;
  post?: Op;
  put?: Op;
  delete?: Op;
}

/** The value at a path of keys, failing the test when a step is missing. */
function get(value: unknown, ...path: (string | number)[]): unknown {
  return path.reduce<unknown>((node, key) => {
    assert.ok(node !== null && typeof node === 'object', `no ${String(key)} in ${JSON.stringify(node)}`);
    return (node as Obj)[key];
  }, value);
}

const pathItem = (doc: OpenApiDocument, path: string) => doc.paths[path] as PathItem;
const listParams = (doc: OpenApiDocument, path: string): Param[] => pathItem(doc, path).get?.parameters ?? [];

function operations(doc: OpenApiDocument): [string, string, Op][] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => [path, method, op as Op] as [string, string, Op]),
  );
}

/** Calls `visit` on every object under `node`, with its JSON path. */
function walk(node: unknown, visit: (value: Obj, at: string) => void, at = '#'): void {
  if (Array.isArray(node)) node.forEach((v, i) => walk(v, visit, `${at}/${i}`));
  else if (node && typeof node === 'object') {
    visit(node as Obj, at);
    for (const [k, v] of Object.entries(node)) walk(v, visit, `${at}/${k}`);
  }
}

/** A validator of `#/components/schemas/<name>` with the document's own refs resolvable. */
function validatorOf(doc: OpenApiDocument) {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc as object, 'openapi.json');
  return (name: string) => {
    const validate = ajv.getSchema(`openapi.json#/components/schemas/${name}`);
    assert.ok(validate, `no schema ${name}`);
    return (value: unknown) => {
      const ok = validate(value) as boolean;
      return { ok, errors: validate.errors ?? [] };
    };
  };
}

const TIMESTAMPS = { created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-02T00:00:00.000Z' };

describe('attributesSchema', () => {
  test('lists only client-writable attributes for create, with required ones, closed', () => {
    const schema = attributesSchema(widgets(), 'create');
    assert.deepEqual(Object.keys(get(schema, 'properties') as Obj), [
      'name',
      'severity',
      'position',
      'enabled',
      'owner_id',
      'uptime_days',
      'slack_channels',
      'settings',
      'labels',
    ]);
    assert.deepEqual(schema.required, ['name']);
    assert.equal(schema.additionalProperties, false);
  });

  test('drops create-only attributes and required for update', () => {
    const schema = attributesSchema(widgets(), 'update');
    assert.equal('uptime_days' in (get(schema, 'properties') as Obj), false);
    assert.equal('required' in schema, false);
    assert.equal(schema.additionalProperties, false);
  });

  test('lists every attribute for output, requiring the timestamps and required ones', () => {
    const schema = attributesSchema(widgets(), 'output');
    assert.deepEqual(Object.keys(get(schema, 'properties') as Obj), Object.keys(widgets().attributes));
    assert.deepEqual(schema.required, ['name', 'created_at', 'updated_at']);
    assert.deepEqual(get(schema, 'properties', 'created_at'), { type: 'string', format: 'date-time' });
  });

  test('maps types in the OpenAPI 3.0 dialect', () => {
    const p = get(attributesSchema(widgets(), 'create'), 'properties') as Obj;
    assert.deepEqual(p.name, { type: 'string', minLength: 1, maxLength: 255, description: 'The name' });
    assert.deepEqual(p.position, { type: 'integer', minimum: 0, maximum: 2147483647, nullable: true });
    assert.deepEqual(p.owner_id, { type: 'string', format: 'uuid', nullable: true });
    assert.deepEqual(p.uptime_days, { type: 'integer', minimum: -2147483648, maximum: 2147483647, enum: [30, 60, 90, null], nullable: true, default: 60 });
    assert.deepEqual(p.settings, { type: 'object', nullable: true });
    assert.deepEqual(p.slack_channels, {
      type: 'array',
      nullable: true,
      items: {
        type: 'object',
        properties: { id: { type: 'string' }, name: { type: 'string' } },
        required: ['id', 'name'],
      },
    });
  });

  test('shapes request documents like the reference', () => {
    const create = requestDocumentSchema(widgets(), 'create');
    assert.deepEqual(create.required, ['data']);
    assert.deepEqual(get(create, 'properties', 'data', 'required'), ['type', 'attributes']);
    assert.deepEqual(get(create, 'properties', 'data', 'properties', 'type'), { type: 'string', enum: ['widgets'] });
    assert.equal(get(create, 'properties', 'data', 'properties', 'id'), undefined);
    const update = requestDocumentSchema(widgets(), 'update');
    assert.deepEqual(get(update, 'properties', 'data', 'properties', 'id', 'type'), 'string');
    assert.equal(get(update, 'properties', 'data', 'properties', 'attributes', 'required'), undefined);
  });
});

describe('buildOpenApiDocument', () => {
  describe('as an OpenAPI 3.0 document', () => {
    test('has the version, info, servers and a global bearer security scheme', () => {
      const doc = build();
      assert.match(doc.openapi, /^3\.0\.\d+$/);
      assert.deepEqual(doc.info, { title: 'Taproot API', version: 'v1' });
      assert.deepEqual(doc.servers, [{ url: 'http://localhost:3000' }]);
      assert.deepEqual(doc.security, [{ bearer_auth: [] }]);
      assert.deepEqual(doc.components.securitySchemes, { bearer_auth: { type: 'http', scheme: 'bearer' } });
      assert.equal('servers' in buildOpenApiDocument([], { title: 't', version: '1' }), false);
    });

    test('is plain JSON', () => {
      const doc = build();
      assert.deepEqual(JSON.parse(JSON.stringify(doc)), doc);
    });

    test('has unique operation ids, tags and described responses on every operation', () => {
      const ops = operations(build());
      const ids = ops.map(([, , op]) => op.operationId);
      assert.equal(new Set(ids).size, ids.length);
      for (const [path, method, op] of ops) {
        assert.ok(path.startsWith('/'), path);
        assert.equal(typeof op.operationId, 'string');
        assert.ok(Array.isArray(op.tags) && op.tags.length > 0, `${method} ${path} has tags`);
        assert.ok(Object.keys(op.responses).length > 0);
        for (const [status, res] of Object.entries(op.responses)) {
          assert.match(status, /^[1-5]\d\d$/);
          assert.equal(typeof res.description, 'string', `${method} ${path} ${status} has a description`);
          assert.deepEqual(Object.keys(res.content ?? { [MEDIA]: {} }), [MEDIA]);
        }
        if (op.requestBody) assert.deepEqual(Object.keys(op.requestBody.content), [MEDIA]);
      }
    });

    test('documents 400, 401 and 429 on every operation', () => {
      for (const [path, method, op] of operations(build())) {
        for (const status of ['400', '401', '429']) assert.ok(op.responses[status], `${method} ${path} documents ${status}`);
        assert.deepEqual(get(op.responses, '401', 'content', MEDIA, 'schema'), { $ref: '#/components/schemas/errors_list' });
        assert.deepEqual(get(op.responses, '400', 'content', MEDIA, 'schema'), { $ref: '#/components/schemas/errors_list' });
        assert.ok(get(op.responses, '429', 'headers', 'X-RateLimit-Reset', 'schema'));
      }
    });

    test('declares every templated path segment as a required path parameter', () => {
      const nested = defineResource({ ...severities(), type: 'status_page_groups', singular: 'status_page_group', path: '/v1/status-pages/{status_page_id}/teams' });
      const doc = build([nested]);
      for (const path of Object.keys(doc.paths)) {
        const declared = (pathItem(doc, path).parameters ?? []).filter((p) => p.in === 'path');
        const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
        assert.deepEqual(declared.map((p) => p.name).sort(), templated.sort(), path);
        for (const p of declared) assert.equal(p.required, true);
      }
    });

    test('gives every parameter a name, a location and a schema, once per operation', () => {
      const doc = build();
      for (const [path, method, op] of operations(doc)) {
        const params = [...(pathItem(doc, path).parameters ?? []), ...(op.parameters ?? [])];
        const keys = params.map((p) => `${p.in}:${p.name}`);
        assert.equal(new Set(keys).size, keys.length, `${method} ${path} repeats a parameter`);
        for (const p of params) {
          assert.ok(['query', 'path', 'header', 'cookie'].includes(p.in));
          assert.equal(typeof p.name, 'string');
          assert.ok(p.schema, `${p.name} has a schema`);
        }
      }
    });

    test('resolves every $ref to a component schema', () => {
      const doc = build();
      walk(doc, (node, at) => {
        if (typeof node.$ref !== 'string') return;
        const match = /^#\/components\/schemas\/(.+)$/.exec(node.$ref);
        assert.ok(match, `${at}: ${node.$ref}`);
        assert.ok(match[1] in doc.components.schemas, `${at}: ${node.$ref} does not resolve`);
      });
    });

    test('uses the 3.0 dialect: a single type, nullable only beside a type', () => {
      walk(build(), (node, at) => {
        // A `properties` map may hold an attribute named `type`; everywhere else `type` is one string.
        if ('type' in node && typeof node.type !== 'string' && !at.endsWith('/properties')) {
          assert.fail(`${at}: type ${JSON.stringify(node.type)}`);
        }
        if (node.nullable === true) assert.equal(typeof node.type, 'string', `${at}: nullable without type`);
      });
    });

    test('compiles every component schema as JSON Schema', () => {
      const doc = build();
      const validator = validatorOf(doc);
      for (const name of Object.keys(doc.components.schemas)) assert.doesNotThrow(() => validator(name), name);
    });
  });

  describe('operations', () => {
    test('names operations in the reference camel case', () => {
      const ids = operations(build()).map(([path, method, op]) => `${method} ${path} ${op.operationId}`);
      assert.deepEqual(ids, [
        'get /v1/widgets listWidgets',
        'post /v1/widgets createWidget',
        'get /v1/widgets/{id} getWidget',
        'put /v1/widgets/{id} updateWidget',
        'delete /v1/widgets/{id} deleteWidget',
        'get /v1/alert_routes listAlertRoutes',
        'get /v1/alert_routes/{id} getAlertRoute',
        'get /v1/severities listSeverities',
        'post /v1/severities createSeverity',
        'get /v1/severities/{id} getSeverity',
        'put /v1/severities/{id} updateSeverity',
        'delete /v1/severities/{id} deleteSeverity',
      ]);
      assert.deepEqual(build().tags, [{ name: 'Widgets' }, { name: 'AlertRoutes' }, { name: 'Severities' }]);
    });

    test('wires request and response schemas by operation', () => {
      const doc = build();
      const schemaOf = (res: unknown) => String(get(res, 'content', MEDIA, 'schema', '$ref')).replace('#/components/schemas/', '');
      const list = pathItem(doc, '/v1/widgets').get as Op;
      const create = pathItem(doc, '/v1/widgets').post as Op;
      const item = pathItem(doc, '/v1/widgets/{id}') as Required<PathItem>;
      assert.equal(schemaOf(list.responses['200']), 'widget_list');
      assert.equal(schemaOf(create.requestBody), 'new_widget');
      assert.equal(create.requestBody?.required, true);
      assert.equal(schemaOf(create.responses['201']), 'widget_response');
      assert.equal(schemaOf(create.responses['422']), 'errors_list');
      assert.equal(schemaOf(item.get.responses['200']), 'widget_response');
      assert.equal(schemaOf(item.get.responses['404']), 'errors_list');
      assert.equal(schemaOf(item.put.requestBody), 'update_widget');
      assert.equal(schemaOf(item.put.responses['200']), 'widget_response');
      assert.equal(schemaOf(item.delete.responses['200']), 'widget_response');
      assert.equal(schemaOf(item.delete.responses['404']), 'errors_list');
    });

    test('declares the update with the method the resource serves it with (updateMethod)', () => {
      const item = pathItem(buildOpenApiDocument([{ ...widgets(), updateMethod: 'patch' }], { title: 't', version: '1' }), '/v1/widgets/{id}') as PathItem & { patch?: Op };
      assert.equal(item.put, undefined);
      assert.equal(item.patch?.operationId, 'updateWidget');
      assert.equal(String(get(item.patch?.requestBody, 'content', MEDIA, 'schema', '$ref')), '#/components/schemas/update_widget');
    });

    test('updateMethod both declares PUT (update...) and PATCH (patch..., as the reference names it)', () => {
      const item = pathItem(buildOpenApiDocument([{ ...widgets(), updateMethod: 'both' }], { title: 't', version: '1' }), '/v1/widgets/{id}') as PathItem & { patch?: Op };
      assert.equal(item.put?.operationId, 'updateWidget');
      assert.equal(item.patch?.operationId, 'patchWidget');
    });

    test("names operations as the reference does where it says so (operationIds), the others as generated", () => {
      const doc = buildOpenApiDocument([{ ...widgets(), operationIds: { list: 'getWidgets', get: 'showWidget' } }], { title: 't', version: '1' });
      const collection = pathItem(doc, '/v1/widgets') as PathItem & { get: Op; post: Op };
      const item = pathItem(doc, '/v1/widgets/{id}') as PathItem & { get: Op; put: Op; delete: Op };
      assert.deepEqual(
        [collection.get, collection.post, item.get, item.put, item.delete].map((op) => op.operationId),
        ['getWidgets', 'createWidget', 'showWidget', 'updateWidget', 'deleteWidget'],
      );
    });

    test('accepts a uuid or, when the resource has a slug, a slug as {id}', () => {
      const doc = build();
      const idOf = (path: string) => pathItem(doc, path).parameters?.find((p) => p.name === 'id');
      assert.deepEqual(
        (get(idOf('/v1/widgets/{id}'), 'schema', 'anyOf') as Obj[]).map((s) => s.format ?? s.pattern),
        ['uuid', '^[a-z0-9_-]+$'],
      );
      assert.equal(get(idOf('/v1/severities/{id}'), 'schema', 'format'), 'uuid');
    });

    test('documents only the declared operations', () => {
      const doc = build();
      assert.deepEqual(Object.keys(doc.paths['/v1/alert_routes']), ['get']);
      assert.deepEqual(Object.keys(doc.paths['/v1/alert_routes/{id}']), ['parameters', 'get']);
    });
  });

  describe('list parameters', () => {
    const names = (resource: ResourceSchema) =>
      listParams(build([resource]), resource.path).map((p) => p.name);

    test('has include, pages and sort; cursors only for a cursor list', () => {
      const widgetParams = names(widgets());
      for (const p of ['include', 'page[number]', 'page[size]', 'sort']) assert.ok(widgetParams.includes(p), p);
      assert.equal(widgetParams.includes('page[after]'), false);
      const routeParams = names(alertRoutes());
      assert.ok(routeParams.includes('page[after]') && routeParams.includes('page[before]'));
    });

    test('include: the declared relationships as the enum, on the list and on the get; none declared, no enum and no get parameter', () => {
      const doc = build([widgets(), alertRoutes()]);
      const include = (params: Param[]) => params.find((p) => p.name === 'include');
      assert.deepEqual(get(include(listParams(doc, '/v1/widgets')), 'schema', 'enum'), ['owner']);
      assert.deepEqual(get(include(pathItem(doc, '/v1/widgets/{id}').get?.parameters ?? []), 'schema', 'enum'), ['owner']);
      assert.equal(get(include(listParams(doc, '/v1/alert_routes')), 'schema', 'enum'), undefined);
      assert.equal(include(pathItem(doc, '/v1/alert_routes/{id}').get?.parameters ?? []), undefined);
    });

    test('has filter[search] only when an attribute is searchable', () => {
      assert.ok(names(widgets()).includes('filter[search]'));
      assert.equal(names(alertRoutes()).includes('filter[search]'), false);
    });

    test('offers each type its operators', () => {
      const filters = (attr: string) =>
        names(widgets())
          .filter((n) => n.startsWith(`filter[${attr}]`))
          .map((n) => n.slice(`filter[${attr}]`.length));
      const equality = ['', '[eq]', '[not_eq]', '[in]', '[not_in]', '[null]', '[not_null]'];
      assert.deepEqual(filters('name'), equality);
      assert.deepEqual(filters('enabled'), equality);
      assert.deepEqual(filters('position'), ['', '[eq]', '[not_eq]', '[gt]', '[gte]', '[lt]', '[lte]', '[in]', '[not_in]', '[null]', '[not_null]']);
      assert.deepEqual(filters('created_at'), ['', '[eq]', '[not_eq]', '[gt]', '[gte]', '[lt]', '[lte]', '[in]', '[not_in]', '[null]', '[not_null]']);
      // An explicit list restricts; an operator the type does not support stays out.
      assert.deepEqual(filters('slug'), ['', '[eq]', '[in]']);
      // Not declared filterable, or not a scalar.
      assert.deepEqual(filters('owner_id'), []);
      assert.deepEqual(filters('labels'), []);
    });

    test('types filter values by attribute', () => {
      const params = listParams(build([widgets()]), '/v1/widgets');
      const schemaOf = (name: string) => params.find((p) => p.name === name)?.schema;
      assert.deepEqual(schemaOf('filter[position][gte]'), { type: 'integer' });
      assert.deepEqual(schemaOf('filter[enabled]'), { type: 'boolean' });
      assert.deepEqual(schemaOf('filter[severity]'), { type: 'string', enum: ['critical', 'high', 'medium', 'low'] });
      assert.equal(schemaOf('filter[severity][in]')?.type, 'string');
    });

    test('lists the filters named otherwise than their column as it lists attributes', () => {
      const owner: AttributeDef = { type: 'string', format: 'uuid', column: 'owner_id', filter: ['eq', 'not_in'] };
      const aliased = defineResource({ ...widgets(), listFilters: { owner_ids: owner, tag_names: { type: 'array', items: { type: 'string' }, column: 'labels', filter: ['eq'] } } });
      const doc = build([aliased]);
      assert.deepEqual(listParams(doc, '/v1/widgets').filter((p) => /^filter\[(owner_ids|tag_names)\]/.test(p.name)).map((p) => [p.name, p.schema]), [
        ['filter[owner_ids]', { type: 'string', format: 'uuid' }],
        ['filter[owner_ids][eq]', { type: 'string', format: 'uuid' }],
        ['filter[owner_ids][not_in]', { type: 'string', description: 'Comma-separated values' }],
      ]);
      assert.ok(!/owner_ids|tag_names/.test(JSON.stringify(doc.components.schemas)), 'no attribute of those names');
    });

    test('adds the extra filters', () => {
      const params = listParams(build([widgets()]), '/v1/widgets');
      assert.deepEqual(params.find((p) => p.name === 'filter[owner]'), {
        in: 'query',
        name: 'filter[owner]',
        required: false,
        description: 'Owner id or email',
        schema: { type: 'string' },
      });
    });
  });

  describe('component schemas', () => {
    test('has the per-resource and shared schemas', () => {
      const names = Object.keys(build([widgets()]).components.schemas).sort();
      assert.deepEqual(names, [
        'errors_list',
        'jsonapi_included_resource',
        'links',
        'meta',
        'new_widget',
        'rate_limit_error',
        'update_widget',
        'widget',
        'widget_list',
        'widget_response',
      ]);
    });

    test('shapes the shared schemas like the reference', () => {
      const s = build([]).components.schemas;
      const errorItem = get(s, 'errors_list', 'properties', 'errors', 'items');
      assert.deepEqual(get(errorItem, 'required'), ['title', 'status']);
      assert.deepEqual(get(errorItem, 'properties', 'code'), { type: 'string', nullable: true });
      assert.deepEqual(get(errorItem, 'properties', 'detail'), { type: 'string', nullable: true });
      assert.deepEqual(get(s, 'links', 'required'), ['self', 'first', 'prev', 'next', 'last']);
      assert.deepEqual(get(s, 'links', 'properties', 'next'), { type: 'string', nullable: true });
      assert.deepEqual(get(s, 'meta', 'required'), ['current_page', 'next_page', 'prev_page', 'total_count', 'total_pages']);
      assert.deepEqual(get(s, 'meta', 'properties', 'next_cursor'), { type: 'string', nullable: true });
      assert.deepEqual(get(s, 'jsonapi_included_resource', 'required'), ['id', 'type']);
      assert.deepEqual(get(s, 'jsonapi_included_resource', 'properties', 'relationships'), { type: 'object', additionalProperties: true });
    });

    const valid = {
      data: {
        type: 'widgets',
        attributes: { name: 'Checkout', severity: 'high', position: null, slack_channels: [{ id: 'C1', name: 'ops' }], uptime_days: 30 },
      },
    };

    test('new_<x> accepts a valid create document and rejects invalid ones', () => {
      const check = validatorOf(build([widgets()]))('new_widget');
      assert.deepEqual(check(valid).errors, []);
      assert.equal(check({ data: { ...valid.data, type: 'gadgets' } }).ok, false);
      assert.equal(check({ data: { type: 'widgets', attributes: { severity: 'high' } } }).ok, false, 'name is required');
      assert.equal(check({ data: { type: 'widgets', attributes: { name: 'x', severity: 'urgent' } } }).ok, false);
      assert.equal(check({ data: { type: 'widgets', attributes: { name: 'x', slug: 'x' } } }).ok, false, 'slug is output-only');
      assert.equal(check({ data: { type: 'widgets', attributes: { name: 'x', slack_channels: [{ id: 'C1' }] } } }).ok, false);
      assert.equal(check({ data: { type: 'widgets' } }).ok, false);
      assert.equal(check({}).ok, false);
    });

    test('update_<x> accepts a partial document without create-only attributes', () => {
      const check = validatorOf(build([widgets()]))('update_widget');
      assert.equal(check({ data: { id: 'abc', type: 'widgets', attributes: { position: 3 } } }).ok, true);
      assert.equal(check({ data: { type: 'widgets', attributes: { uptime_days: 30 } } }).ok, false);
    });

    const record = {
      id: '0b0c6a52-9a4e-4b8f-8d55-3c4bb0a3a2a1',
      type: 'widgets',
      attributes: {
        name: 'Checkout',
        slug: 'checkout',
        severity: 'high',
        position: 1,
        enabled: null,
        owner_id: null,
        uptime_days: 60,
        managed_by: 'api',
        slack_channels: null,
        settings: { any: 'thing' },
        labels: ['a'],
        ...TIMESTAMPS,
      },
    };

    test('<x>_response accepts a serialized record and rejects invalid ones', () => {
      const check = validatorOf(build([widgets()]))('widget_response');
      assert.deepEqual(check({ data: record }).errors, []);
      assert.equal(check({ data: record, included: [{ id: '1', type: 'users', attributes: {} }] }).ok, true);
      const { created_at: _, ...withoutCreatedAt } = record.attributes;
      assert.equal(check({ data: { ...record, attributes: withoutCreatedAt } }).ok, false);
      assert.equal(check({ data: { ...record, attributes: { ...record.attributes, managed_by: 'fax' } } }).ok, false);
      assert.equal(check({ data: { ...record, attributes: { ...record.attributes, name: null } } }).ok, false);
      assert.equal(check({ data: { ...record, type: 'gadgets' } }).ok, false);
      assert.equal(check({ data: { type: 'widgets', attributes: record.attributes } }).ok, false, 'id is required');
    });

    test('<x>_list accepts a collection document and requires links and meta', () => {
      const check = validatorOf(build([widgets()]))('widget_list');
      const links = { self: '/v1/widgets', first: '/v1/widgets?page[number]=1', prev: null, next: null, last: '/v1/widgets?page[number]=1' };
      const meta = { current_page: 1, next_page: null, prev_page: null, total_count: 1, total_pages: 1, next_cursor: null };
      assert.deepEqual(check({ data: [record], links, meta }).errors, []);
      assert.equal(check({ data: [record], links }).ok, false);
      assert.equal(check({ data: [record], links: { ...links, prev: undefined }, meta }).ok, false);
      assert.equal(check({ data: [record], links, meta: { ...meta, total_count: null } }).ok, false);
    });
  });

  describe('bulk operations', () => {
    const bulkWidgets = () =>
      defineResource({ ...widgets(), path: '/v1/gizmos', bulk: true, attributes: { ...widgets().attributes, external_id: { type: 'string', nullable: true } } });

    test('are listed only for a resource declared with bulk, named after its collection path', () => {
      assert.equal(Object.keys(build().paths).some((p) => p.includes('bulk')), false);
      const doc = build([bulkWidgets()]);
      const upsert = pathItem(doc, '/v1/gizmos/bulk_upsert').post!;
      const remove = pathItem(doc, '/v1/gizmos/bulk_delete').post!;
      assert.deepEqual(Object.keys(pathItem(doc, '/v1/gizmos/bulk_upsert')), ['post']);
      assert.deepEqual([upsert.operationId, remove.operationId], ['bulkUpsertWidgets', 'bulkDeleteWidgets']);
      assert.deepEqual(upsert.requestBody?.content[MEDIA].schema, { $ref: '#/components/schemas/bulk_upsert_gizmos' });
      assert.deepEqual(remove.requestBody?.content[MEDIA].schema, { $ref: '#/components/schemas/bulk_destroy_gizmos' });
      assert.deepEqual(get(upsert.responses, '200', 'content', MEDIA, 'schema'), { $ref: '#/components/schemas/bulk_upsert_gizmos_response' });
      assert.deepEqual(get(remove.responses, '200', 'content', MEDIA, 'schema'), { $ref: '#/components/schemas/bulk_destroy_gizmos_response' });
      for (const op of [upsert, remove]) for (const status of ['400', '401', '403', '415', '422', '429']) assert.ok(op.responses[status], status);
    });

    test('describe the documents the parsers take and the answers', () => {
      const schema = validatorOf(build([bulkWidgets()]));
      const upsert = schema('bulk_upsert_gizmos');
      assert.deepEqual(upsert({ entities: [{ external_id: 'a', name: 'A', uptime_days: 30 }, { external_id: 'b' }] }).errors, []);
      assert.equal(upsert({ entities: [{ name: 'no key' }] }).ok, false);
      assert.equal(upsert({ entities: [{ external_id: '' }] }).ok, false);
      assert.equal(upsert({ entities: [{ external_id: 'a', unknown: 1 }] }).ok, false);
      assert.equal(upsert({ entities: Array.from({ length: 101 }, (_, i) => ({ external_id: `e${i}` })) }).ok, false);
      const destroy = schema('bulk_destroy_gizmos');
      assert.deepEqual(destroy({ external_ids: ['a'] }).errors, []);
      assert.deepEqual(destroy({ managed_by: 'api', keep_external_ids: ['a'] }).errors, []);
      for (const body of [{ external_ids: [] }, { managed_by: 'web' }, { external_ids: ['a'], managed_by: 'api' }, {}]) assert.equal(destroy(body).ok, false, JSON.stringify(body));
      const record = { id: 'x', type: 'widgets', attributes: { name: 'A', ...TIMESTAMPS } };
      assert.deepEqual(schema('bulk_upsert_gizmos_response')({ data: [record] }).errors, []);
      assert.deepEqual(schema('bulk_destroy_gizmos_response')({ data: { deleted_external_ids: ['a'], failed_external_ids: [], not_found_external_ids: [] } }).errors, []);
    });
  });

  describe('nested collections', () => {
    const parts = (flatList = false, onParentDelete?: 'cascade' | 'restrict') =>
      defineResource({
        type: 'widget_parts',
        singular: 'widget_part',
        path: '/v1/widget_parts',
        readTable: 'widget_parts_read',
        defaultSort: 'created_at',
        operations: ['list', 'create', 'get', 'update', 'delete'],
        parent: { path: '/v1/widgets', param: 'widget_id', attribute: 'widget_id', table: 'widgets', flatList, onParentDelete },
        attributes: { widget_id: { type: 'string', format: 'uuid', writable: 'create' }, label: { type: 'string', required: true } },
      });
    const ids = (doc: OpenApiDocument, prefix: string) =>
      operations(doc)
        .filter(([path]) => path.includes(prefix))
        .map(([path, method, op]) => `${method} ${path} ${op.operationId}`);

    test('serve the collection under the parent record, the records at their own path', () => {
      const doc = build([widgets(), parts()]);
      assert.deepEqual(ids(doc, 'parts'), [
        'get /v1/widgets/{widget_id}/widget_parts listWidgetParts',
        'post /v1/widgets/{widget_id}/widget_parts createWidgetPart',
        'get /v1/widget_parts/{id} getWidgetPart',
        'put /v1/widget_parts/{id} updateWidgetPart',
        'delete /v1/widget_parts/{id} deleteWidgetPart',
      ]);
      const collection = pathItem(doc, '/v1/widgets/{widget_id}/widget_parts');
      assert.deepEqual(collection.parameters, [{ in: 'path', name: 'widget_id', required: true, schema: { type: 'string' } }]);
      assert.deepEqual(pathItem(doc, '/v1/widget_parts/{id}').parameters?.map((p) => p.name), ['id']);
      // A parent missing from the caller's organization: 404.
      for (const op of [collection.get!, collection.post!]) assert.deepEqual(get(op.responses, '404', 'content', MEDIA, 'schema'), { $ref: '#/components/schemas/errors_list' });
    });

    test('the lists take filters on the parent\'s attributes declared filterable', () => {
      const filtered = defineResource({
        ...parts(true),
        parent: { ...parts(true).parent!, readTable: 'widgets_read', attributes: { widget_color: { type: 'string', column: 'color', filter: ['eq'] }, widget_hidden: { type: 'boolean', column: 'hidden' } } },
      });
      const names = pathItem(build([widgets(), filtered]), '/v1/widget_parts').get?.parameters?.map((p) => p.name) ?? [];
      assert.ok(names.includes('filter[widget_color]') && names.includes('filter[widget_color][eq]'), names.join(', '));
      assert.ok(!names.some((n) => n.startsWith('filter[widget_hidden]')), 'not filterable by clients');
    });

    test('list across parents only when declared', () => {
      const flat = pathItem(build([widgets(), parts(true)]), '/v1/widget_parts');
      assert.deepEqual(Object.keys(flat), ['get']);
      assert.equal(flat.get?.operationId, 'listAllWidgetParts');
      assert.deepEqual(flat.get?.parameters, pathItem(build([widgets(), parts(true)]), '/v1/widgets/{widget_id}/widget_parts').get?.parameters);
    });

    test('a parent\'s delete may answer 409 while records are under it; other deletes do not', () => {
      const doc = build([widgets(), severities(), parts()]);
      assert.deepEqual(get(pathItem(doc, '/v1/widgets/{id}').delete, 'responses', '409', 'content', MEDIA, 'schema'), { $ref: '#/components/schemas/errors_list' });
      assert.equal(pathItem(doc, '/v1/severities/{id}').delete?.responses['409'], undefined);
      assert.equal(pathItem(doc, '/v1/widget_parts/{id}').delete?.responses['409'], undefined);
      assert.equal(pathItem(build([widgets()]), '/v1/widgets/{id}').delete?.responses['409'], undefined);
    });

    test('records its delete takes along (onParentDelete cascade) give the parent no 409; one kind that restricts does', () => {
      const cascading = { ...parts(false, 'cascade'), type: 'widget_logs', singular: 'widget_log', path: '/v1/widget_logs' };
      assert.equal(pathItem(build([widgets(), cascading]), '/v1/widgets/{id}').delete?.responses['409'], undefined);
      const both = pathItem(build([widgets(), cascading, parts(false, 'restrict')]), '/v1/widgets/{id}').delete?.responses['409'] as { description: string };
      assert.equal(both.description, 'the widget still has records under it; delete them first');
    });

    test('records naming it without living under it (deleteRefusedWhileNamedBy) give its delete a 409 saying so', () => {
      const named = pathItem(build([{ ...widgets(), deleteRefusedWhileNamedBy: ['widget_labels'] }]), '/v1/widgets/{id}').delete?.responses['409'] as { description: string };
      assert.equal(named.description, 'the widget still has widget labels naming it; delete them first');
    });
  });

  describe('extra', () => {
    test('merges hand-written paths and schemas', () => {
      const doc = buildOpenApiDocument([widgets()], { title: 't', version: '1' }, {
        paths: {
          '/health': { get: { operationId: 'getHealth', security: [], responses: { '200': { description: 'ok' } } } },
          '/v1/widgets': { patch: { operationId: 'reorderWidgets', responses: { '204': { description: 'reordered' } } } },
        },
        schemas: { health: { type: 'object', properties: { status: { type: 'string' } } } },
      });
      assert.deepEqual(Object.keys(doc.paths['/health']), ['get']);
      assert.deepEqual(Object.keys(doc.paths['/v1/widgets']), ['get', 'post', 'patch']);
      assert.ok(doc.components.schemas.health);
      assert.ok(doc.components.schemas.widget);
    });

    test('resourceObjectSchema is the generated documents\' resource object; resourceListDocument lists them without pages', () => {
      const generated = build([widgets()]).components.schemas;
      assert.deepEqual(resourceObjectSchema('widgets', 'widget', { idDescription: 'Unique ID of the widget' }), get(generated, 'widget_response', 'properties', 'data'));
      const relationships = { type: 'object', properties: { owner: { type: 'object' } } };
      const included = { type: 'array', items: { type: 'object' } };
      const list = resourceListDocument('widgets', 'widget', { description: 'Widgets made', relationships, included });
      assert.deepEqual(list, {
        type: 'object',
        description: 'Widgets made',
        properties: {
          data: {
            type: 'array',
            items: {
              type: 'object',
              properties: { id: { type: 'string' }, type: { type: 'string', enum: ['widgets'] }, attributes: { type: 'object', allOf: [{ $ref: '#/components/schemas/widget' }] }, relationships },
              required: ['id', 'type', 'attributes'],
            },
          },
          included,
        },
        required: ['data'],
      });
      // Options not given leave their members out (no undefined keys in the served JSON).
      assert.deepEqual(Object.keys(resourceListDocument('widgets', 'widget')), ['type', 'properties', 'required']);
      assert.deepEqual(Object.keys(get(resourceListDocument('widgets', 'widget'), 'properties', 'data', 'items', 'properties') as object), ['id', 'type', 'attributes']);
      const validate = validatorOf(buildOpenApiDocument([widgets()], { title: 't', version: '1' }, { schemas: { made: list } }))('made');
      const widget = { id: '1', type: 'widgets', attributes: { name: 'w', ...TIMESTAMPS } };
      assert.ok(validate({ data: [widget] }).ok);
      assert.ok(!validate({ data: [{ ...widget, type: 'gadgets' }] }).ok);
    });
  });

  test('every authenticated POST takes the optional Idempotency-Key header; public ones do not', () => {
    const doc = buildOpenApiDocument([widgets()], { title: 't', version: '1' }, {
      paths: { '/v1/hooks': { post: { operationId: 'receiveHook', security: [], responses: { '202': { description: 'accepted' } } } } },
    });
    const headers = (op: unknown) => ((op as Op).parameters ?? []).filter((p) => p.in === 'header');
    const create = pathItem(doc, '/v1/widgets').post as Op;
    assert.deepEqual(
      headers(create).map((p) => [p.name, p.required]),
      [['Idempotency-Key', false]],
    );
    assert.ok(create.responses['409'] && create.responses['422']);
    assert.deepEqual(headers(pathItem(doc, '/v1/hooks').post), []);
    assert.deepEqual(headers((pathItem(doc, '/v1/widgets/{id}') as Required<PathItem>).put), []);
    // A fragment built by the same function and merged into the whole document (alerts, pulses) declares it once.
    const merged = buildOpenApiDocument([], { title: 't', version: '1' }, { paths: doc.paths });
    assert.deepEqual(headers(pathItem(merged, '/v1/widgets').post).map((p) => p.name), ['Idempotency-Key']);
  });
});
