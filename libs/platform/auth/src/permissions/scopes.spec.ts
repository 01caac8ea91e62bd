import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { INCIDENT_RESPONSE_FAMILIES, ON_CALL_FAMILIES, PERMISSION_FAMILIES, type PermissionFamily } from './permission-model';
import { actionsOn, can, covers, FULL_ACCESS, NO_ACCESS, permissionSet, type PermissionSet } from './permission-set';
import { parseScope, SCOPE_RESOURCES, scopeGrants, splitScopes, SUPPORTED_SCOPES, withScopes } from './scopes';

const WRITE = ['create', 'read', 'update', 'delete', 'send'];
const families = (set: PermissionSet) => PERMISSION_FAMILIES.filter((f) => actionsOn(set, f) !== 'all' && (actionsOn(set, f) as string[]).length > 0);

describe('scope parsing', () => {
  test('OpenID, meta, resource and unknown scopes', () => {
    assert.equal(parseScope('openid').kind, 'openid');
    assert.equal(parseScope('profile').kind, 'openid');
    assert.equal(parseScope('email').kind, 'openid');
    assert.equal(parseScope('all').kind, 'meta');
    assert.equal(parseScope('ir.all').kind, 'meta');
    assert.equal(parseScope('oc.all').kind, 'meta');
    assert.deepEqual(parseScope('ir.services:write'), { kind: 'resource', scope: 'ir.services:write', resource: 'ir.services', access: 'write', families: ['services'] });
    assert.deepEqual(parseScope('oc.shift_overrides:read'), { kind: 'resource', scope: 'oc.shift_overrides:read', resource: 'oc.shift_overrides', access: 'read', families: ['schedule_override'] });
    for (const s of ['ir.services', 'ir.services:admin', 'ir.nope:read', 'oc.services:read', 'IR.services:read', 'ai.all', 'x']) {
      assert.equal(parseScope(s).kind, 'unknown', s);
    }
  });

  test('every scope resource of the spec is mapped to existing families', () => {
    const spec = {
      ir: ['incidents', 'services', 'environments', 'functionalities', 'severities', 'incident_types', 'incident_roles', 'workflows', 'catalogs', 'groups', 'playbooks', 'retrospectives', 'status_pages', 'form_fields', 'pulses'],
      oc: ['alerts', 'schedules', 'escalation_policies', 'alert_routing_rules', 'heartbeats', 'alert_sources', 'live_call_routing', 'shift_overrides'],
      ai: ['chat'],
    };
    const expected = Object.entries(spec).flatMap(([group, names]) => names.map((n) => `${group}.${n}`));
    assert.deepEqual(Object.keys(SCOPE_RESOURCES).sort(), expected.sort());
    for (const [resource, fams] of Object.entries(SCOPE_RESOURCES)) {
      assert.ok(fams.length > 0, resource);
      for (const f of fams) assert.ok(PERMISSION_FAMILIES.includes(f), `${resource} -> ${f}`);
      const group = resource.split('.')[0];
      const pool: readonly PermissionFamily[] = group === 'ir' ? INCIDENT_RESPONSE_FAMILIES : group === 'oc' ? ON_CALL_FAMILIES : ['ai_chat'];
      for (const f of fams) assert.ok(pool.includes(f), `${resource} -> ${f} belongs to its group`);
    }
    assert.ok(SUPPORTED_SCOPES.includes('ir.services:read') && SUPPORTED_SCOPES.includes('ai.chat:write') && SUPPORTED_SCOPES.includes('all'));
  });

  test('a scope string splits on whitespace', () => {
    assert.deepEqual(splitScopes('  openid ir.services:read\toc.all '), ['openid', 'ir.services:read', 'oc.all']);
    assert.deepEqual(splitScopes(''), []);
  });
});

describe('what scopes grant', () => {
  test('`:read` grants read only; `:write` includes read', () => {
    const read = scopeGrants(['ir.services:read']);
    assert.deepEqual(actionsOn(read, 'services'), ['read']);
    const write = scopeGrants(['ir.services:write']);
    assert.deepEqual(actionsOn(write, 'services'), WRITE);
    assert.deepEqual(families(write), ['services']);
  });

  test('every resource scope covers exactly its families, at its level', () => {
    for (const [resource, fams] of Object.entries(SCOPE_RESOURCES)) {
      for (const level of ['read', 'write'] as const) {
        const set = scopeGrants([`${resource}:${level}`]);
        assert.deepEqual(families(set).sort(), [...fams].sort(), `${resource}:${level}`);
        for (const f of fams) assert.deepEqual(actionsOn(set, f), level === 'read' ? ['read'] : WRITE);
      }
    }
  });

  test('`all` covers everything, AI included', () => {
    const all = scopeGrants(['all']);
    assert.equal(all, FULL_ACCESS);
    for (const f of PERMISSION_FAMILIES) assert.ok(can(all, f, 'delete'), f);
    assert.ok(can(all, 'ai_chat', 'create'));
  });

  test('`ir.all` covers every incident response family and no AI', () => {
    const ir = scopeGrants(['ir.all']);
    assert.deepEqual(families(ir).sort(), [...INCIDENT_RESPONSE_FAMILIES].sort());
    for (const f of INCIDENT_RESPONSE_FAMILIES) assert.ok(can(ir, f, 'read') && can(ir, f, 'create') && can(ir, f, 'delete'), f);
    assert.ok(!can(ir, 'ai_chat', 'read'));
    assert.ok(!can(ir, 'schedules', 'read'), 'an on-call-only family');
  });

  test('`oc.all` covers every on-call family and no AI', () => {
    const oc = scopeGrants(['oc.all']);
    assert.deepEqual(families(oc).sort(), [...ON_CALL_FAMILIES].sort());
    for (const f of ON_CALL_FAMILIES) assert.ok(can(oc, f, 'read') && can(oc, f, 'update'), f);
    assert.ok(!can(oc, 'ai_chat', 'read'));
    assert.ok(!can(oc, 'incidents', 'read'), 'an incident-response-only family');
  });

  test('`ir.all` and `oc.all` together still exclude AI; `ai.chat:*` grants it', () => {
    const both = scopeGrants(['ir.all', 'oc.all']);
    assert.ok(!can(both, 'ai_chat', 'read'));
    assert.deepEqual(actionsOn(scopeGrants(['ai.chat:read']), 'ai_chat'), ['read']);
    assert.deepEqual(actionsOn(scopeGrants(['ir.all', 'ai.chat:write']), 'ai_chat'), WRITE);
  });

  test('OpenID and unknown scopes grant nothing', () => {
    assert.deepEqual(families(scopeGrants(['openid', 'profile', 'email', 'ir.unknown:read', 'bogus'])), []);
    assert.deepEqual(families(scopeGrants([])), []);
  });

  test('scopes add up', () => {
    const set = scopeGrants(['ir.services:read', 'ir.severities:write', 'ir.services:write']);
    assert.deepEqual(actionsOn(set, 'services'), WRITE);
    assert.deepEqual(actionsOn(set, 'severities'), WRITE);
  });
});

describe('effective permissions = role ∩ scopes', () => {
  const role = permissionSet({ services: ['read', 'update'], severities: ['read'], incidents: ['create', 'read'], ai_chat: ['create', 'read'] });
  const scopeSets = [
    ['all'],
    ['ir.all'],
    ['oc.all'],
    ['ir.all', 'oc.all', 'ai.chat:write'],
    ...Object.keys(SCOPE_RESOURCES).flatMap((r) => [[`${r}:read`], [`${r}:write`]]),
  ];

  test('never raises a caller above their role, whatever the scopes', () => {
    for (const scopes of scopeSets) {
      const effective = withScopes(role, scopes);
      assert.ok(covers(role, effective), scopes.join(' '));
      assert.ok(covers(scopeGrants(scopes), effective), scopes.join(' '));
    }
    for (const scopes of scopeSets) assert.deepEqual(families(withScopes(NO_ACCESS, scopes)), [], scopes.join(' '));
  });

  test('keeps what both allow', () => {
    const effective = withScopes(role, ['ir.services:write', 'ir.severities:read']);
    assert.deepEqual(actionsOn(effective, 'services'), ['read', 'update']);
    assert.deepEqual(actionsOn(effective, 'severities'), ['read']);
    assert.deepEqual(actionsOn(effective, 'incidents'), []);
    const readOnly = withScopes(role, ['ir.services:read']);
    assert.deepEqual(actionsOn(readOnly, 'services'), ['read']);
  });

  test('`all` keeps the whole role; `ir.all` drops its AI; an unrestricted role gets exactly the scopes', () => {
    assert.equal(withScopes(role, ['all']), role);
    const ir = withScopes(role, ['ir.all']);
    assert.deepEqual(actionsOn(ir, 'ai_chat'), []);
    assert.deepEqual(actionsOn(ir, 'services'), ['read', 'update']);
    const fromFull = withScopes(FULL_ACCESS, ['ir.services:read']);
    assert.deepEqual(families(fromFull), ['services']);
    assert.deepEqual(actionsOn(fromFull, 'services'), ['read']);
  });

  test('null scopes (an API key) leave the role as is; no scope at all grants nothing', () => {
    assert.equal(withScopes(role, null), role);
    assert.deepEqual(families(withScopes(role, [])), []);
    assert.deepEqual(families(withScopes(role, ['openid', 'profile'])), []);
  });
});
