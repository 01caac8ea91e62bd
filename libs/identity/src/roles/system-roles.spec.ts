import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { actionsOn, can, covers, incidentResponseRolePermissions, ON_CALL_ROLE_PERMISSION_FIELDS, onCallRolePermissions, ROLE_PERMISSION_FIELDS, type PermissionFieldCatalog } from '@taproot/auth';
import { editabilityOf } from './role-rules';
import { SYSTEM_ON_CALL_ROLES, SYSTEM_ROLES } from './system-roles';

const byKind = <T extends { kind: string }>(list: readonly T[], kind: string) => list.find((r) => r.kind === kind)!;
const record = (r: { kind: string; fields: Record<string, string[]> }) => ({ system_role: r.kind, ...r.fields });

describe('system roles', () => {
  test('the seeded kinds: owner, admin, user, observer and no_access (on-call: no owner)', () => {
    assert.deepEqual(SYSTEM_ROLES.map((r) => r.kind), ['owner', 'admin', 'user', 'observer', 'no_access']);
    assert.deepEqual(SYSTEM_ON_CALL_ROLES.map((r) => r.kind), ['admin', 'user', 'observer', 'no_access']);
  });

  test('seeded fields hold only allowed values of real fields', () => {
    for (const [roles, catalog] of [[SYSTEM_ROLES, ROLE_PERMISSION_FIELDS], [SYSTEM_ON_CALL_ROLES, ON_CALL_ROLE_PERMISSION_FIELDS]] as const) {
      for (const role of roles) {
        for (const [field, values] of Object.entries(role.fields)) {
          const allowed = (catalog as PermissionFieldCatalog)[field];
          assert.ok(allowed, `${role.kind}: ${field} is a field`);
          for (const v of values) assert.ok(allowed.includes(v), `${role.kind}: ${field} ${v}`);
        }
      }
    }
  });

  test('owner ⊇ admin ⊇ user ⊇ observer ⊇ no_access', () => {
    const sets = SYSTEM_ROLES.map((r) => incidentResponseRolePermissions(record(r)));
    for (let i = 1; i < sets.length; i++) assert.ok(covers(sets[i - 1], sets[i]), `${SYSTEM_ROLES[i - 1].kind} covers ${SYSTEM_ROLES[i].kind}`);
    const oc = SYSTEM_ON_CALL_ROLES.map((r) => onCallRolePermissions(record(r)));
    for (let i = 1; i < oc.length; i++) assert.ok(covers(oc[i - 1], oc[i]), `${SYSTEM_ON_CALL_ROLES[i - 1].kind} covers ${SYSTEM_ON_CALL_ROLES[i].kind}`);
  });

  test('what each kind can do, in short', () => {
    const owner = incidentResponseRolePermissions(record(byKind(SYSTEM_ROLES, 'owner')));
    assert.ok(can(owner, 'roles', 'delete') && can(owner, 'billing', 'update') && can(owner, 'incident_communication', 'send'));
    const admin = incidentResponseRolePermissions(record(byKind(SYSTEM_ROLES, 'admin')));
    assert.deepEqual(actionsOn(admin, 'billing'), ['read']);
    const user = incidentResponseRolePermissions(record(byKind(SYSTEM_ROLES, 'user')));
    assert.ok(can(user, 'incidents', 'create') && can(user, 'services', 'read') && !can(user, 'services', 'create') && !can(user, 'api_keys', 'read'));
    const observer = incidentResponseRolePermissions(record(byKind(SYSTEM_ROLES, 'observer')));
    assert.ok(can(observer, 'severities', 'read') && !can(observer, 'incidents', 'create'));
    const none = incidentResponseRolePermissions(record(byKind(SYSTEM_ROLES, 'no_access')));
    assert.equal(none.grants.size, 0);
  });

  test('only user and custom kinds are editable and deletable', () => {
    for (const kind of ['owner', 'admin', 'observer', 'no_access']) assert.deepEqual(editabilityOf(kind), { is_editable: false, is_deletable: false }, kind);
    for (const kind of ['user', 'custom']) assert.deepEqual(editabilityOf(kind), { is_editable: true, is_deletable: true }, kind);
  });
});
