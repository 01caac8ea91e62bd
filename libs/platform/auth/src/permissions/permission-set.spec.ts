import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { ON_CALL_ROLE_PERMISSION_FIELDS, PERMISSION_FAMILIES, ROLE_PERMISSION_FIELDS, isPermissionFamily } from './permission-model';
import {
  actionsOn,
  can,
  covers,
  FULL_ACCESS,
  intersect,
  NO_ACCESS,
  permissionSet,
  permissionsOfFields,
  union,
} from './permission-set';

describe('permission model', () => {
  test('every permission field names a family, and families are unique', () => {
    for (const field of [...Object.keys(ROLE_PERMISSION_FIELDS), ...Object.keys(ON_CALL_ROLE_PERMISSION_FIELDS)]) {
      assert.match(field, /_permissions$/);
      assert.ok(isPermissionFamily(field.replace(/_permissions$/, '')), field);
    }
    assert.equal(new Set(PERMISSION_FAMILIES).size, PERMISSION_FAMILIES.length);
    assert.ok(isPermissionFamily('ai_chat'));
    assert.ok(!isPermissionFamily('nonsense'));
  });

  test('the on-call fields follow the spec table where it lists a field', () => {
    assert.deepEqual([...ON_CALL_ROLE_PERMISSION_FIELDS.alert_sources_permissions], ['create', 'update', 'delete']);
    assert.deepEqual([...ON_CALL_ROLE_PERMISSION_FIELDS.alerts_permissions], ['create', 'update', 'read']);
    assert.deepEqual([...ON_CALL_ROLE_PERMISSION_FIELDS.contacts_permissions], ['read']);
    assert.deepEqual([...ON_CALL_ROLE_PERMISSION_FIELDS.schedule_override_permissions], ['create', 'update']);
    // Left open by the spec: the reference's enum; members (not in the reference) as the hosted API's SDK has it.
    assert.deepEqual([...ON_CALL_ROLE_PERMISSION_FIELDS.catalogs_permissions], ['create', 'read', 'update', 'delete']);
    assert.deepEqual([...ON_CALL_ROLE_PERMISSION_FIELDS.functionalities_permissions], ['create', 'read', 'update', 'delete']);
    assert.deepEqual([...ON_CALL_ROLE_PERMISSION_FIELDS.members_permissions], ['read', 'update', 'delete']);
  });
});

describe('permission sets', () => {
  const readServices = permissionSet({ services: ['read'] });
  const writeServices = permissionSet({ services: ['create', 'read', 'update', 'delete'] });

  test('can: only what is granted; full access grants everything', () => {
    assert.ok(can(readServices, 'services', 'read'));
    assert.ok(!can(readServices, 'services', 'create'));
    assert.ok(!can(readServices, 'severities', 'read'));
    assert.ok(!can(NO_ACCESS, 'services', 'read'));
    assert.ok(can(FULL_ACCESS, 'ai_chat', 'create'));
  });

  test('union adds grants, intersect keeps only the common ones', () => {
    const u = union(readServices, permissionSet({ severities: ['read'] }));
    assert.deepEqual(actionsOn(u, 'services'), ['read']);
    assert.deepEqual(actionsOn(u, 'severities'), ['read']);
    assert.equal(union(readServices, FULL_ACCESS), FULL_ACCESS);
    assert.deepEqual(actionsOn(union(), 'services'), []);
    const i = intersect(writeServices, permissionSet({ services: ['read', 'delete'], severities: ['read'] }));
    assert.deepEqual(actionsOn(i, 'services'), ['read', 'delete']);
    assert.deepEqual(actionsOn(i, 'severities'), []);
    assert.equal(intersect(FULL_ACCESS, readServices), readServices);
    assert.equal(intersect(readServices, FULL_ACCESS), readServices);
    assert.equal(actionsOn(FULL_ACCESS, 'services'), 'all');
  });

  test('covers: the outer set holds everything the inner one does', () => {
    assert.ok(covers(writeServices, readServices));
    assert.ok(!covers(readServices, writeServices));
    assert.ok(covers(FULL_ACCESS, writeServices));
    assert.ok(!covers(writeServices, FULL_ACCESS));
    assert.ok(covers(readServices, NO_ACCESS));
  });

  test('a role record grants only allowed values of its own fields', () => {
    const set = permissionsOfFields(
      {
        services_permissions: ['read', 'read', 'approve'],
        alerts_permissions: ['delete', 'create'], // delete is not allowed on the incident response field
        schedules_permissions: ['read'], // not a field of incident response roles
        severities_permissions: null,
      },
      ROLE_PERMISSION_FIELDS,
    );
    assert.deepEqual(actionsOn(set, 'services'), ['read']);
    assert.deepEqual(actionsOn(set, 'alerts'), ['create']);
    assert.deepEqual(actionsOn(set, 'schedules'), []);
    assert.deepEqual(actionsOn(set, 'severities'), []);
  });
});
