import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { collectionPath, defineResource, type AttributeDef, type ParentDef, type ResourceSchema } from './resource-schema';

const PARENT: ParentDef = { path: '/v1/incidents', param: 'incident_id', attribute: 'incident_id', table: 'incidents' };

const items = (parent: ParentDef | undefined, incidentId: AttributeDef = { type: 'string', format: 'uuid', writable: false }, extra: Partial<ResourceSchema> = {}) =>
  defineResource({
    type: 'action_items',
    singular: 'action_item',
    path: '/v1/action_items',
    readTable: 'action_items_read',
    defaultSort: 'created_at',
    operations: ['list', 'create', 'get', 'update', 'delete'],
    ...(parent ? { parent } : {}),
    ...extra,
    attributes: { incident_id: incidentId, summary: { type: 'string', required: true }, external_id: { type: 'string' }, managed_by: { type: 'string' } },
  });

describe('defineResource with a parent', () => {
  test('accepts a declared parent attribute that updates cannot change', () => {
    assert.deepEqual(items(PARENT).parent, PARENT);
    assert.deepEqual(items(PARENT, { type: 'string', format: 'uuid', writable: 'create' }).parent, PARENT);
  });

  test('refuses an undeclared parent attribute, one an update could change, and one that is no uuid', () => {
    assert.throws(() => items({ ...PARENT, attribute: 'incident' }), /the parent attribute incident must be declared/);
    assert.throws(() => items(PARENT, { type: 'string', format: 'uuid' }), /must not be writable on update/);
    assert.throws(() => items(PARENT, { type: 'string', format: 'uuid', writable: true }), /must not be writable on update/);
    assert.throws(() => items(PARENT, { type: 'string', writable: false }), /must be declared with format uuid/);
  });

  test('a parent with integer ids (users) takes an integer parent attribute, and only that', () => {
    const USERS = { ...PARENT, integerIds: true };
    assert.deepEqual(items(USERS, { type: 'integer', writable: false }).parent, USERS);
    assert.throws(() => items(USERS, { type: 'string', format: 'uuid', writable: false }), /must be declared an integer/);
    assert.throws(() => items(PARENT, { type: 'integer', writable: false }), /must be declared with format uuid/);
  });

  test('takes attributes of the parent to filter on, read from its read model, under names of their own', () => {
    const status: AttributeDef = { type: 'string', column: 'status', filter: true };
    assert.deepEqual(items({ ...PARENT, readTable: 'incidents_read', attributes: { incident_status: status } }).parent?.attributes, { incident_status: status });
    assert.throws(() => items({ ...PARENT, attributes: { incident_status: status } }), /the parent's attributes need its readTable/);
    assert.throws(() => items({ ...PARENT, readTable: 'incidents_read', attributes: { summary: status } }), /the parent attribute summary hides an attribute/);
    assert.throws(() => items({ ...PARENT, readTable: 'incidents_read', attributes: { incident_status: { ...status, sortable: true } } }), /incident_status filters, it does not sort/);
  });
});

describe('defineResource with list filters named otherwise', () => {
  const teams: AttributeDef = { type: 'array', items: { type: 'string' }, column: 'group_ids', filter: ['eq', 'in'] };

  test('takes a filter on a column under a name of its own', () => {
    assert.deepEqual(items(undefined, undefined, { listFilters: { team_ids: teams } }).listFilters, { team_ids: teams });
  });

  test('refuses one that hides an attribute, one without a column or operators, and one that sorts, searches or is virtual', () => {
    assert.throws(() => items(undefined, undefined, { listFilters: { summary: teams } }), /the list filter summary hides an attribute/);
    assert.throws(() => items(undefined, undefined, { listFilters: { created_at: teams } }), /the list filter created_at hides an attribute/);
    for (const odd of [{ column: undefined }, { filter: undefined }, { sortable: true }, { searchable: true }, { virtual: true }]) {
      assert.throws(() => items(undefined, undefined, { listFilters: { team_ids: { ...teams, ...odd } } }), /the list filter team_ids needs a column and operators/);
    }
  });
});

describe('collectionPath', () => {
  test('is the resource path without a parent', () => {
    assert.equal(collectionPath(items(undefined)), '/v1/action_items');
  });

  test('is under the parent record, named by the path parameter, ending like the resource path or in its own segment', () => {
    assert.equal(collectionPath(items(PARENT)), '/v1/incidents/{incident_id}/action_items');
    assert.equal(collectionPath(items({ ...PARENT, segment: 'tasks' })), '/v1/incidents/{incident_id}/tasks');
  });
});
