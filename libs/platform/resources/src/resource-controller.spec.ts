import 'reflect-metadata';
import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { REQUIRED_PERMISSION } from '@taproot/auth';
import type { ResourceSchema } from '@taproot/json-api';
import { ROLE_PARENT, roleTasks } from './nested-resource.fixture';
import { resourceController } from './resource-controller';
import type { ResourceDefinition } from './resource-definition';

/** The fixture's resource declared at its path, without a parent unless `extra` gives one. */
const schema = (extra: Partial<ResourceSchema> = {}) => roleTasks({ parent: undefined, ...extra });

/** `METHOD path` of every route handler the controller declares, sorted. */
function routes(resource: ResourceSchema): string[] {
  const controller = resourceController({ schema: resource, context: 'tests', table: 'incident_role_tasks' });
  const prototypes = [controller.prototype, Object.getPrototypeOf(controller.prototype)];
  return prototypes
    .flatMap((proto) => Object.getOwnPropertyNames(proto).map((name) => proto[name]))
    .filter((handler) => typeof handler === 'function' && Reflect.hasMetadata(METHOD_METADATA, handler))
    .flatMap((handler) => {
      const paths: string | string[] = Reflect.getMetadata(PATH_METADATA, handler);
      return [paths].flat().map((path) => `${RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler)]} ${path}`);
    })
    .sort();
}

describe('resourceController routes', () => {
  test('a resource without parent: its collection and records at its path, bulk operations when declared', () => {
    const plain = ['DELETE v1/incident_role_tasks/:id', 'GET v1/incident_role_tasks', 'GET v1/incident_role_tasks/:id', 'POST v1/incident_role_tasks', 'PUT v1/incident_role_tasks/:id'];
    assert.deepEqual(routes(schema()), plain);
    assert.deepEqual(routes(schema({ bulk: true })), [...plain, 'POST v1/incident_role_tasks/bulk_delete', 'POST v1/incident_role_tasks/bulk_upsert'].sort());
  });

  test('under a parent: the collection under the parent record, the records at their own path', () => {
    assert.deepEqual(routes(schema({ parent: ROLE_PARENT })), [
      'DELETE v1/incident_role_tasks/:id',
      'GET v1/incident_role_tasks/:id',
      'GET v1/incident_roles/:incident_role_id/incident_role_tasks',
      'POST v1/incident_roles/:incident_role_id/incident_role_tasks',
      'PUT v1/incident_role_tasks/:id',
    ]);
  });

  test('only the declared operations are routed: no create nor delete for a resource without them', () => {
    assert.deepEqual(routes(schema({ parent: ROLE_PARENT, operations: ['list', 'get', 'update'], updateMethod: 'both' })), [
      'GET v1/incident_role_tasks/:id',
      'GET v1/incident_roles/:incident_role_id/incident_role_tasks',
      'PATCH v1/incident_role_tasks/:id',
      'PUT v1/incident_role_tasks/:id',
    ]);
  });

  test('the update is served with the declared method only: PATCH for updateMethod patch', () => {
    const served = routes(schema({ updateMethod: 'patch' }));
    assert.ok(served.includes('PATCH v1/incident_role_tasks/:id'));
    assert.ok(!served.some((r) => r.startsWith('PUT ')));
  });

  test('updateMethod both serves PUT and PATCH', () => {
    const served = routes(schema({ updateMethod: 'both' }));
    assert.ok(served.includes('PUT v1/incident_role_tasks/:id'));
    assert.ok(served.includes('PATCH v1/incident_role_tasks/:id'));
  });

  test('the list across parents is served at the resource path when declared', () => {
    assert.ok(routes(schema({ parent: { ...ROLE_PARENT, flatList: true } })).includes('GET v1/incident_role_tasks'));
  });
});

describe('resourceController permissions and parent access', () => {
  const parentAccess = { find: async (_db: unknown, _caller: unknown, raw: string) => raw };

  test('each route checks its own action on the family, or the declared one for every write', () => {
    const required = (permission?: ResourceDefinition['permission']) => {
      const controller = resourceController({ schema: schema(), context: 'tests', table: 'incident_role_tasks', permission });
      const proto = controller.prototype as Record<string, object>;
      return ['list', 'get', 'create', 'update', 'remove'].map((name) => Reflect.getMetadata(REQUIRED_PERMISSION, proto[name])?.action);
    };
    assert.deepEqual(required({ family: 'incident_roles' }), ['read', 'read', 'create', 'update', 'delete']);
    assert.deepEqual(required({ family: 'incidents', writes: 'update' }), ['read', 'read', 'update', 'update', 'update']);
  });

  test('parent access needs a parent, and conditions for the list across parents', () => {
    const definition = (extra: Partial<ResourceSchema>, access: ResourceDefinition['parentAccess']) => () =>
      resourceController({ schema: schema(extra), context: 'tests', table: 'incident_role_tasks', parentAccess: access });
    assert.throws(definition({}, parentAccess), /parentAccess needs a parent/);
    assert.throws(definition({ parent: { ...ROLE_PARENT, flatList: true } }, parentAccess), /needs parentAccess.listScope/);
    assert.doesNotThrow(definition({ parent: ROLE_PARENT }, parentAccess));
    assert.doesNotThrow(definition({ parent: { ...ROLE_PARENT, flatList: true } }, { ...parentAccess, listScope: () => [] }));
  });
});
