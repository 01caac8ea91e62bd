import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { JsonApiError } from '@taproot/json-api';
import type { Principal } from '@taproot/auth';
import { assertCanOwnSchedule, graceEnd, parseExpiry, scopeOfNewKey } from './api-key-rules';

const user: Principal = { organizationId: 'org', userId: 7, apiKeyId: 'k1', kind: 'personal' };
const serviceAccount: Principal = { organizationId: 'org', userId: null, apiKeyId: 'k2', kind: 'team' };
const now = new Date('2026-11-23T10:00:00.000Z');

function rejects422(fn: () => unknown, pointer: string, detail?: RegExp): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof JsonApiError);
    assert.equal(error.status, 422);
    assert.deepEqual(
      error.errors.map((e) => e.source?.pointer),
      [pointer],
    );
    if (detail) assert.match(error.errors[0].detail ?? '', detail);
    return true;
  });
}

describe('assertCanOwnSchedule', () => {
  test('a key with a user may own a schedule', () => {
    assert.doesNotThrow(() => assertCanOwnSchedule(user));
  });

  test('a key without a user cannot: 422 with the spec’s wording, pointing at the attribute', () => {
    rejects422(() => assertCanOwnSchedule(serviceAccount), '/data/attributes/owner_user_id', /^a key without a user cannot be made a schedule owner$/);
    rejects422(() => assertCanOwnSchedule(serviceAccount, 'owner_id'), '/data/attributes/owner_id');
  });
});

describe('parseExpiry', () => {
  test('accepts a future date up to five years ahead', () => {
    assert.equal(parseExpiry('2026-11-23T10:00:00.001Z', now).toISOString(), '2026-11-23T10:00:00.001Z');
    assert.equal(parseExpiry('2031-11-23T10:00:00.000Z', now).toISOString(), '2031-11-23T10:00:00.000Z');
  });

  test('refuses now, the past, and beyond five years, naming the field', () => {
    rejects422(() => parseExpiry(now.toISOString(), now), '/data/attributes/expires_at', /future/);
    rejects422(() => parseExpiry('2020-01-01T00:00:00Z', now), '/data/attributes/expires_at', /future/);
    rejects422(() => parseExpiry('2031-11-23T10:00:00.001Z', now), '/data/attributes/expires_at', /5 years/);
    rejects422(() => parseExpiry('not a date', now), '/data/attributes/expires_at');
  });
});

describe('scopeOfNewKey', () => {
  test('a personal key belongs to the calling user', () => {
    assert.deepEqual(scopeOfNewKey('personal', {}, user), { userId: 7, groupId: null, roleId: null, onCallRoleId: null });
  });

  test('a caller without a user cannot create a personal key', () => {
    rejects422(() => scopeOfNewKey('personal', {}, serviceAccount), '/data/attributes/kind', /without a user/);
  });

  test('a team key needs group_id; an organization key carries its roles; neither has a user', () => {
    rejects422(() => scopeOfNewKey('team', {}, user), '/data/attributes/group_id');
    rejects422(() => scopeOfNewKey('team', { group_id: null }, user), '/data/attributes/group_id');
    assert.deepEqual(scopeOfNewKey('team', { group_id: 'g' }, user), { userId: null, groupId: 'g', roleId: null, onCallRoleId: null });
    assert.deepEqual(scopeOfNewKey('organization', { role_id: 'r', on_call_role_id: 'o' }, serviceAccount), {
      userId: null,
      groupId: null,
      roleId: 'r',
      onCallRoleId: 'o',
    });
  });

  test('attributes of another kind are refused; null counts as absent', () => {
    rejects422(() => scopeOfNewKey('personal', { role_id: 'r' }, user), '/data/attributes/role_id');
    rejects422(() => scopeOfNewKey('team', { group_id: 'g', on_call_role_id: 'o' }, user), '/data/attributes/on_call_role_id');
    rejects422(() => scopeOfNewKey('organization', { group_id: 'g' }, user), '/data/attributes/group_id');
    assert.doesNotThrow(() => scopeOfNewKey('personal', { role_id: null, group_id: null }, user));
  });
});

describe('graceEnd', () => {
  test('now plus the minutes, never past the old expiry', () => {
    assert.equal(graceEnd(now, 1440, null).toISOString(), '2026-11-24T10:00:00.000Z');
    assert.equal(graceEnd(now, 0, null).toISOString(), now.toISOString());
    const soon = new Date('2026-11-23T11:00:00.000Z');
    assert.equal(graceEnd(now, 1440, soon).toISOString(), soon.toISOString());
    assert.equal(graceEnd(now, 30, soon).toISOString(), '2026-11-23T10:30:00.000Z');
  });
});
