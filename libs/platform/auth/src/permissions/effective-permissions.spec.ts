import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { effectivePermissions, incidentResponseRolePermissions, onCallRolePermissions, type CallerRoles } from './effective-permissions';
import { actionsOn, can, FULL_ACCESS } from './permission-set';

const readServices = { system_role: 'custom', services_permissions: ['read'] };
const onCallSchedules = { system_role: 'custom', schedules_permissions: ['read', 'update'], services_permissions: ['create'] };
const caller = (over: Partial<CallerRoles>): CallerRoles => ({
  kind: 'global',
  roleId: null,
  onCallRoleId: null,
  role: null,
  onCallRole: null,
  scopes: null,
  ...over,
});

describe('role permissions', () => {
  test('an incident response role grants its fields and AI chat, unless it is of no_access kind', () => {
    const set = incidentResponseRolePermissions(readServices);
    assert.deepEqual(actionsOn(set, 'services'), ['read']);
    assert.ok(can(set, 'ai_chat', 'create'));
    assert.ok(!can(incidentResponseRolePermissions({ system_role: 'no_access' }), 'ai_chat', 'read'));
  });

  test("an incident permission set narrows the role's incident families to its public and private actions, and nothing else", () => {
    const responder = { system_role: 'custom', incidents_permissions: ['create', 'read', 'update', 'delete'], private_incidents_permissions: ['read', 'update'], services_permissions: ['read'] };
    const set = incidentResponseRolePermissions({ ...responder, incident_permission_set: { public_incident_permissions: ['read', 'update', 'create'], private_incident_permissions: ['read', 'delete'] } });
    assert.deepEqual(actionsOn(set, 'incidents'), ['create', 'read', 'update'], 'no delete: the set takes it away');
    assert.deepEqual(actionsOn(set, 'private_incidents'), ['read'], 'no delete: the set cannot add what the role lacks');
    assert.deepEqual(actionsOn(set, 'services'), ['read']);
    const none = incidentResponseRolePermissions({ ...responder, incident_permission_set: { public_incident_permissions: [], private_incident_permissions: [] } });
    assert.deepEqual([actionsOn(none, 'incidents'), actionsOn(none, 'private_incidents')], [[], []]);
    assert.deepEqual(actionsOn(incidentResponseRolePermissions({ ...responder, incident_permission_set: null }), 'incidents'), ['create', 'read', 'update', 'delete']);
  });

  test('an on-call role grants its own fields only, never AI', () => {
    const set = onCallRolePermissions({ ...onCallSchedules, incidents_permissions: ['read'] });
    assert.deepEqual(actionsOn(set, 'schedules'), ['read', 'update']);
    assert.deepEqual(actionsOn(set, 'incidents'), [], 'incidents is not an on-call field');
    assert.ok(!can(set, 'ai_chat', 'read'));
  });
});

describe('effective permissions of a caller', () => {
  test('a global key with no role keeps full access (the bootstrap key); a team key without its User roles has none', () => {
    assert.equal(effectivePermissions(caller({ kind: 'global' })), FULL_ACCESS);
    assert.ok(!can(effectivePermissions(caller({ kind: 'team' })), 'services', 'read'));
  });

  test('a personal key or OAuth user with no role has no access', () => {
    assert.ok(!can(effectivePermissions(caller({ kind: 'personal' })), 'services', 'read'));
    assert.ok(!can(effectivePermissions(caller({ kind: 'oauth', scopes: ['all'] })), 'services', 'read'));
  });

  test('the two roles add up', () => {
    const set = effectivePermissions(caller({ roleId: 'r', role: readServices, onCallRoleId: 'o', onCallRole: onCallSchedules }));
    assert.deepEqual(actionsOn(set, 'services'), ['create', 'read']);
    assert.deepEqual(actionsOn(set, 'schedules'), ['read', 'update']);
  });

  test('one role set is enough to leave full access; the other side grants nothing', () => {
    const set = effectivePermissions(caller({ roleId: 'r', role: readServices }));
    assert.ok(!set.unrestricted);
    assert.ok(!can(set, 'schedules', 'read'));
  });

  test('an id whose role is gone grants nothing, never full access', () => {
    const set = effectivePermissions(caller({ roleId: 'gone', role: null }));
    assert.ok(!set.unrestricted);
    assert.ok(!can(set, 'services', 'read'));
  });

  test('OAuth tokens are limited by their scopes; API keys ignore scopes', () => {
    const roles = { roleId: 'r', role: { system_role: 'custom', services_permissions: ['read', 'create'], severities_permissions: ['read'] } };
    const oauth = effectivePermissions(caller({ kind: 'oauth', ...roles, scopes: ['ir.services:read'] }));
    assert.deepEqual(actionsOn(oauth, 'services'), ['read']);
    assert.deepEqual(actionsOn(oauth, 'severities'), []);
    const key = effectivePermissions(caller({ kind: 'personal', ...roles, scopes: ['ir.services:read'] }));
    assert.deepEqual(actionsOn(key, 'services'), ['create', 'read']);
    const missingScopes = effectivePermissions(caller({ kind: 'oauth', ...roles, scopes: null }));
    assert.deepEqual(actionsOn(missingScopes, 'services'), [], 'an OAuth token without scopes gets nothing');
  });
});
