import { describe, expect, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { JsonApiError, parseResourcePayload, type ResourceSchema } from '@taproot/json-api';
import { ON_CALL_ROLE_PERMISSION_FIELDS, ROLE_PERMISSION_FIELDS } from '@taproot/auth';
import { onCallRoleSchema, roleSchema } from './role.schema';

function errorsOf(fn: () => unknown): { detail: string; pointer?: string }[] {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof JsonApiError);
    assert.equal(error.status, 422);
    return error.errors.map((e) => ({ detail: e.detail ?? '', pointer: e.source?.pointer }));
  }
  assert.fail('expected a 422');
}

describe('role declarations', () => {
  test('every permission field of both role types is an attribute with its allowed values as items.enum', () => {
    for (const [schema, catalog] of [[roleSchema, ROLE_PERMISSION_FIELDS], [onCallRoleSchema, ON_CALL_ROLE_PERMISSION_FIELDS]] as [ResourceSchema, Record<string, readonly string[]>][]) {
      for (const [field, values] of Object.entries(catalog)) {
        const def = schema.attributes[field];
        assert.equal(def?.type, 'array', field);
        assert.deepEqual(def.items?.enum, values, field);
        assert.deepEqual(def.default, [], field);
      }
    }
  });

  test('a value outside a field’s set answers 422 naming the field and the value', () => {
    const errors = errorsOf(() =>
      parseResourcePayload(onCallRoleSchema, { data: { type: 'on_call_roles', attributes: { name: 'x', alert_sources_permissions: ['create', 'read'] } } }, 'create'),
    );
    assert.equal(errors.length, 1);
    assert.equal(errors[0].pointer, '/data/attributes/alert_sources_permissions/1');
    assert.match(errors[0].detail, /^alert_sources_permissions\[1\] must be one of create, update, delete \(got "read"\)$/);
    const ir = errorsOf(() => parseResourcePayload(roleSchema, { data: { type: 'roles', attributes: { services_permissions: ['approve'] } } }, 'update'));
    assert.match(ir[0].detail, /services_permissions\[0\] must be one of create, read, update, delete \(got "approve"\)/);
  });

  test('a permission field must be an array of strings', () => {
    const errors = errorsOf(() => parseResourcePayload(roleSchema, { data: { type: 'roles', attributes: { name: 'x', incidents_permissions: 'read' } } }, 'create'));
    assert.match(errors[0].detail, /incidents_permissions/);
    const nulls = errorsOf(() => parseResourcePayload(roleSchema, { data: { type: 'roles', attributes: { name: 'x', incidents_permissions: null } } }, 'create'));
    assert.match(nulls[0].detail, /incidents_permissions must not be null/);
  });

  test('omitted fields default to no permission; output-only attributes are dropped', () => {
    const { attributes } = parseResourcePayload(
      roleSchema,
      { data: { type: 'roles', attributes: { name: 'Reader', services_permissions: ['read'], is_editable: false, is_deletable: false, system_role: 'owner' } } },
      'create',
    );
    expect(attributes.services_permissions).toEqual(['read']);
    expect(attributes.severities_permissions).toEqual([]);
    assert.ok(!('is_editable' in attributes) && !('is_deletable' in attributes) && !('system_role' in attributes));
  });

  test('on-call roles take the reference’s system_role kinds, custom by default', () => {
    const { attributes } = parseResourcePayload(onCallRoleSchema, { data: { type: 'on_call_roles', attributes: { name: 'x' } } }, 'create');
    assert.equal(attributes.system_role, 'custom');
    const errors = errorsOf(() => parseResourcePayload(onCallRoleSchema, { data: { type: 'on_call_roles', attributes: { name: 'x', system_role: 'owner' } } }, 'create'));
    assert.match(errors[0].detail, /system_role must be one of admin, user, custom, observer, no_access \(got "owner"\)/);
  });
});
