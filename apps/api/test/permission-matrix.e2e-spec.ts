import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startTestApi, type TestApi, type TestOrganization } from '../src/testing';

/**
 * Every seeded role kind against representative endpoints of each permission family, for the
 * two ways a role reaches a request: an organization-wide key that carries the role, and a
 * personal key of a user who has it. The expected statuses are written out by hand from the
 * system roles' definitions (docs/permissions.md), not computed from them.
 */
type Kind = 'owner' | 'admin' | 'user' | 'observer' | 'no_access';
const KINDS: Kind[] = ['owner', 'admin', 'user', 'observer', 'no_access'];
/** The on-call role each incident response kind is paired with (the reference has no on-call owner). */
const ON_CALL_KIND: Record<Kind, string> = { owner: 'admin', admin: 'admin', user: 'user', observer: 'observer', no_access: 'no_access' };

interface Case {
  what: string;
  method: string;
  /** `{service}` / `{severity}` are replaced by a fresh record of the organization. */
  path: string;
  body?: () => unknown;
  expect: Record<Kind, number>;
}

const named = (type: string) => () => ({ data: { type, attributes: { name: `${type} ${randomUUID().slice(0, 8)}` } } });
const READ_ALL = { owner: 200, admin: 200, user: 200, observer: 200, no_access: 403 };
const ADMINS_ONLY = (ok: number) => ({ owner: ok, admin: ok, user: 403, observer: 403, no_access: 403 });

const CASES: Case[] = [
  { what: 'list services', method: 'GET', path: '/v1/services', expect: READ_ALL },
  { what: 'get a service', method: 'GET', path: '/v1/services/{service}', expect: READ_ALL },
  { what: 'create a service', method: 'POST', path: '/v1/services', body: named('services'), expect: ADMINS_ONLY(201) },
  { what: 'update a service', method: 'PUT', path: '/v1/services/{service}', body: () => ({ data: { type: 'services', attributes: { color: '#123456' } } }), expect: ADMINS_ONLY(200) },
  { what: 'delete a service', method: 'DELETE', path: '/v1/services/{service}', expect: ADMINS_ONLY(200) },
  { what: 'list severities', method: 'GET', path: '/v1/severities', expect: READ_ALL },
  { what: 'update a severity', method: 'PUT', path: '/v1/severities/{severity}', body: () => ({ data: { type: 'severities', attributes: { color: '#654321' } } }), expect: ADMINS_ONLY(200) },
  { what: 'list teams', method: 'GET', path: '/v1/teams', expect: READ_ALL },
  { what: 'create a team', method: 'POST', path: '/v1/teams', body: named('groups'), expect: ADMINS_ONLY(201) },
  { what: 'list users', method: 'GET', path: '/v1/users', expect: READ_ALL },
  { what: 'list roles', method: 'GET', path: '/v1/roles', expect: READ_ALL },
  { what: 'create a role', method: 'POST', path: '/v1/roles', body: named('roles'), expect: ADMINS_ONLY(201) },
  { what: 'list on-call roles', method: 'GET', path: '/v1/on_call_roles', expect: READ_ALL },
  // Administrative families: keys and the audit log are for owners and admins only.
  { what: 'list API keys', method: 'GET', path: '/v1/api_keys', expect: ADMINS_ONLY(200) },
  { what: 'list audits', method: 'GET', path: '/v1/audits', expect: ADMINS_ONLY(200) },
];

describe('permission matrix: every seeded role kind x representative endpoints', () => {
  let api: TestApi;
  let org: TestOrganization;
  const callers: { via: string; kind: Kind; token: string }[] = [];
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
    const roles = await api.request('GET', '/v1/roles?page[size]=50', { token: org.token });
    const onCallRoles = await api.request('GET', '/v1/on_call_roles?page[size]=50', { token: org.token });
    const idOf = (res: typeof roles, kind: string) => res.body.data.find((d: { attributes: { system_role: string } }) => d.attributes.system_role === kind).id;
    for (const kind of KINDS) {
      // The organization-wide key is created over the API, as an operator would.
      const created = await api.request('POST', '/v1/api_keys', {
        token: org.token,
        body: { data: { type: 'api_keys', attributes: { name: `${kind} key`, kind: 'organization', expires_at: new Date(Date.now() + 86_400_000).toISOString(), role_id: idOf(roles, kind), on_call_role_id: idOf(onCallRoles, ON_CALL_KIND[kind]) } } },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      callers.push({ via: 'organization key', kind, token: created.body.data.attributes.token });
      const userId = await api.addUser(org.organizationId, { roleKind: kind, onCallRoleKind: ON_CALL_KIND[kind] });
      callers.push({ via: 'personal key', kind, token: await api.issueApiKey(org.organizationId, { kind: 'personal', userId }) });
    }
  });
  after(() => api?.close());

  async function fresh(type: 'services' | 'severities'): Promise<string> {
    const res = await api.request('POST', `/v1/${type}`, { token: org.token, body: named(type)() });
    assert.equal(res.status, 201);
    return res.body.data.id;
  }

  for (const c of CASES) {
    test(`${c.method} ${c.path} (${c.what})`, async () => {
      const seen: Record<string, number> = {};
      const wanted: Record<string, number> = {};
      for (const caller of callers) {
        let path = c.path;
        if (path.includes('{service}')) path = path.replace('{service}', await fresh('services'));
        if (path.includes('{severity}')) path = path.replace('{severity}', await fresh('severities'));
        const res = await api.request(c.method, path, { token: caller.token, body: c.body?.() });
        const label = `${caller.kind} via ${caller.via}`;
        seen[label] = res.status;
        wanted[label] = c.expect[caller.kind];
        if (res.status === 403) assert.equal(res.body.errors[0].code, 'PERMISSION_DENIED', label);
      }
      assert.deepEqual(seen, wanted);
    });
  }
});
