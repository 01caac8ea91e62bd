import { describe, expect, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { listOperations, operationDocument } from './operation-documents';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const document = () => ({
  openapi: '3.0.3',
  info: { title: 't', version: '1' },
  security: [{ bearer: [] }],
  paths: {
    '/v1/widgets': {
      get: { operationId: 'listWidgets', responses: { '200': { content: { 'application/json': { schema: ref('widget_list') } } } } },
      post: { operationId: 'createWidget', requestBody: { content: { 'application/json': { schema: ref('new_widget') } } }, responses: {} },
    },
    '/v1/widgets/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'getWidget', responses: { '200': { content: { 'application/json': { schema: ref('widget') } } } } },
    },
  },
  components: {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    schemas: {
      widget_list: { type: 'object', properties: { data: { type: 'array', items: ref('widget') }, meta: ref('meta') } },
      widget: { type: 'object', properties: { owner: ref('user') } },
      user: { type: 'object' },
      meta: { type: 'object' },
      new_widget: { type: 'object' },
      unused: { type: 'object' },
    },
  },
});

describe('the OpenAPI document split by operation', () => {
  test('lists every operation with its method and path', () => {
    expect(listOperations(document())).toEqual([
      { operation_id: 'listWidgets', method: 'GET', path: '/v1/widgets' },
      { operation_id: 'createWidget', method: 'POST', path: '/v1/widgets' },
      { operation_id: 'getWidget', method: 'GET', path: '/v1/widgets/{id}' },
    ]);
  });

  test('one operation keeps only its method and the components it reaches, transitively', () => {
    const list = operationDocument(document(), 'listWidgets')!;
    assert.deepEqual(Object.keys(list.paths), ['/v1/widgets']);
    assert.deepEqual(Object.keys(list.paths['/v1/widgets']), ['get'], 'the POST of the same path is left out');
    assert.deepEqual(Object.keys(list.components!.schemas).sort(), ['meta', 'user', 'widget', 'widget_list']);
    assert.deepEqual(list.components!.securitySchemes, { bearer: { type: 'http', scheme: 'bearer' } }, 'security schemes are named, not referenced: kept');
    assert.deepEqual(list.security, [{ bearer: [] }]);
    assert.equal(list.info.title, 't');
  });

  test('path-level parameters stay with the operation', () => {
    const get = operationDocument(document(), 'getWidget')!;
    assert.equal((get.paths['/v1/widgets/{id}'].parameters as unknown[]).length, 1);
    assert.deepEqual(Object.keys(get.components!.schemas).sort(), ['user', 'widget']);
  });

  test('an unknown operation id is null', () => {
    assert.equal(operationDocument(document(), 'deleteEverything'), null);
  });
});
