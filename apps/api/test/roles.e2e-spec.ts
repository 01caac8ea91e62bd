import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startTestApi, type TestApi, type TestKeyOptions, type TestOrganization, type TestResponse } from '../src/testing';

const role = (attributes: Record<string, unknown>) => ({ data: { type: 'roles', attributes } });
const onCallRole = (attributes: Record<string, unknown>) => ({ data: { type: 'on_call_roles', attributes } });
const service = (attributes: Record<string, unknown>) => ({ data: { type: 'services', attributes } });
const severity = (attributes: Record<string, unknown>) => ({ data: { type: 'severities', attributes } });

/** An errors-list document (spec, Errors) of the given status, one item per problem. */
function assertErrors(res: TestResponse, status: number): { title: string; status: string; code: string | null; detail: string | null }[] {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.ok(Array.isArray(res.body.errors) && res.body.errors.length > 0, JSON.stringify(res.body));
  for (const e of res.body.errors) {
    assert.equal(typeof e.title, 'string');
    assert.equal(e.status, String(status));
    assert.ok(e.code === null || typeof e.code === 'string');
    assert.ok(e.detail === null || typeof e.detail === 'string');
  }
  return res.body.errors;
}

describe('roles and on-call roles over HTTP', () => {
  let api: TestApi;
  let org: TestOrganization;
  let other: TestOrganization;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
    other = await api.newOrganization();
  });
  after(() => api?.close());

  const send = (method: string, path: string, body?: unknown, token = org.token) => api.request(method, path, { token, body });

  test('a new organization has its system roles; only the user kind is editable', async () => {
    const roles = await send('GET', '/v1/roles?page[size]=50');
    assert.equal(roles.status, 200);
    const seen = roles.body.data.map((d: { attributes: Record<string, unknown> }) => [d.attributes.slug, d.attributes.system_role, d.attributes.is_editable, d.attributes.is_deletable]);
    assert.deepEqual(seen, [
      ['owner', 'owner', false, false],
      ['admin', 'admin', false, false],
      ['user', 'user', true, true],
      ['observer', 'observer', false, false],
      ['no-access', 'no_access', false, false],
    ]);
    const owner = roles.body.data[0].attributes;
    assert.deepEqual(owner.services_permissions, ['create', 'read', 'update', 'delete']);
    assert.deepEqual(owner.incident_communication_permissions, ['create', 'read', 'update', 'delete', 'send']);
    assert.deepEqual(roles.body.data[4].attributes.incidents_permissions, []);

    const onCall = await send('GET', '/v1/on_call_roles');
    assert.equal(onCall.status, 200);
    assert.deepEqual(
      onCall.body.data.map((d: { attributes: Record<string, unknown> }) => [d.attributes.slug, d.attributes.system_role, d.attributes.is_editable]),
      [
        ['admin', 'admin', false],
        ['user', 'user', true],
        ['observer', 'observer', false],
        ['no-access', 'no_access', false],
      ],
    );
    assert.deepEqual(onCall.body.data[0].attributes.alert_sources_permissions, ['create', 'update', 'delete']);
    // Members have no `create` in the hosted API: its SDK (rootly 3.0.1) refuses the role otherwise.
    assert.deepEqual(onCall.body.data[0].attributes.members_permissions, ['read', 'update', 'delete']);
    assert.equal(onCall.body.data[0].attributes.team_id, null);
  });

  test('roles: create, read by id and slug, update, delete', async () => {
    const created = await send('POST', '/v1/roles', role({ name: 'Incident Commander', incidents_permissions: ['create', 'read', 'update'], is_editable: false, system_role: 'owner' }));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.data.type, 'roles');
    const a = created.body.data.attributes;
    assert.equal(a.name, 'Incident Commander');
    assert.equal(a.slug, 'incident-commander');
    assert.equal(a.system_role, 'custom', 'a role made over the API is custom, whatever is sent');
    assert.equal(a.is_editable, true);
    assert.equal(a.is_deletable, true);
    assert.deepEqual(a.incidents_permissions, ['create', 'read', 'update']);
    assert.deepEqual(a.services_permissions, []);
    assert.equal(a.incident_permission_set_id, null);
    const id = created.body.data.id;

    assert.equal((await send('GET', `/v1/roles/${id}`)).body.data.attributes.name, 'Incident Commander');
    assert.equal((await send('GET', '/v1/roles/incident-commander')).body.data.id, id);
    const filtered = await send('GET', '/v1/roles?filter[system_role]=custom');
    assert.deepEqual(filtered.body.data.map((d: { id: string }) => d.id), [id]);

    const updated = await send('PUT', `/v1/roles/${id}`, role({ services_permissions: ['read'], is_deletable: false }));
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.deepEqual(updated.body.data.attributes.services_permissions, ['read']);
    assert.deepEqual(updated.body.data.attributes.incidents_permissions, ['create', 'read', 'update']);
    assert.equal(updated.body.data.attributes.is_deletable, true);
    assert.deepEqual((await send('GET', `/v1/roles/${id}`)).body.data.attributes.services_permissions, ['read']);

    const deleted = await send('DELETE', `/v1/roles/${id}`);
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.data.id, id);
    assert.equal((await send('GET', `/v1/roles/${id}`)).status, 404);
  });

  test('on-call roles: create, update, delete; every kind of the reference is accepted on create', async () => {
    const created = await send('POST', '/v1/on_call_roles', onCallRole({ name: 'Responder', schedules_permissions: ['read'], alerts_permissions: ['create', 'read'] }));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const a = created.body.data.attributes;
    assert.equal(a.slug, 'responder');
    assert.equal(a.system_role, 'custom');
    assert.equal(a.is_editable, true);
    assert.deepEqual(a.members_permissions, []);
    const id = created.body.data.id;

    const updated = await send('PUT', `/v1/on_call_roles/${id}`, onCallRole({ system_role: 'user', members_permissions: ['read'] }));
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.equal(updated.body.data.attributes.system_role, 'user');
    assert.deepEqual(updated.body.data.attributes.members_permissions, ['read']);
    assert.equal(updated.body.data.attributes.is_editable, true);

    // Changing the kind to one that is not editable would lock the role for good: refused.
    const locking = await send('PUT', `/v1/on_call_roles/${id}`, onCallRole({ system_role: 'admin' }));
    const [lockError] = assertErrors(locking, 422);
    assert.match(lockError.detail ?? '', /system_role cannot be changed to "admin"/);

    const observer = await send('POST', '/v1/on_call_roles', onCallRole({ name: 'Read-only on-call', system_role: 'observer' }));
    assert.equal(observer.status, 201);
    assert.equal(observer.body.data.attributes.is_editable, false);
    assert.equal(observer.body.data.attributes.is_deletable, false);
    assertErrors(await send('PUT', `/v1/on_call_roles/${observer.body.data.id}`, onCallRole({ name: 'renamed' })), 403);

    assert.equal((await send('DELETE', `/v1/on_call_roles/${id}`)).status, 200);
    assert.equal((await send('GET', `/v1/on_call_roles/${id}`)).status, 404);
  });

  test('a permission value outside the field’s set answers 422 naming field and value', async () => {
    const bad = await send('POST', '/v1/roles', role({ name: 'Bad', services_permissions: ['read', 'approve'] }));
    const errors = assertErrors(bad, 422);
    assert.equal(errors.length, 1);
    assert.match(errors[0].detail ?? '', /services_permissions\[1\] must be one of create, read, update, delete \(got "approve"\)/);
    assert.equal(bad.body.errors[0].source.pointer, '/data/attributes/services_permissions/1');

    // On-call: the spec's table, e.g. alert sources have no `read`, contacts only `read`.
    const oc = await send('POST', '/v1/on_call_roles', onCallRole({ name: 'Bad', alert_sources_permissions: ['read'], contacts_permissions: ['update'] }));
    const details = assertErrors(oc, 422).map((e) => e.detail).join(' | ');
    assert.match(details, /alert_sources_permissions\[0\] must be one of create, update, delete \(got "read"\)/);
    assert.match(details, /contacts_permissions\[0\] must be one of read \(got "update"\)/);
    const members = await send('POST', '/v1/on_call_roles', onCallRole({ name: 'Bad', members_permissions: ['create'] }));
    assert.match(assertErrors(members, 422)[0].detail ?? '', /members_permissions\[0\] must be one of read, update, delete \(got "create"\)/);

    const update = await send('PUT', '/v1/roles/user', role({ alerts_permissions: ['delete'] }));
    assert.match(assertErrors(update, 422)[0].detail ?? '', /alerts_permissions\[0\] must be one of create, read \(got "delete"\)/);
    assert.equal((await send('GET', '/v1/roles?filter[name]=Bad')).body.data.length, 0);
  });

  test('system roles other than user refuse updates and deletes with 403', async () => {
    for (const slug of ['owner', 'admin', 'observer', 'no-access']) {
      const put = await send('PUT', `/v1/roles/${slug}`, role({ name: 'Mine now', roles_permissions: ['read'] }));
      const [error] = assertErrors(put, 403);
      assert.equal(error.code, 'SYSTEM_ROLE_NOT_EDITABLE');
      assert.match(error.detail ?? '', /is a system role of kind \w+ and cannot be updated; only roles of user or custom kind can/);
      const del = await send('DELETE', `/v1/roles/${slug}`);
      assert.match(assertErrors(del, 403)[0].detail ?? '', /cannot be deleted/);
    }
    for (const slug of ['admin', 'observer', 'no-access']) {
      assertErrors(await send('PUT', `/v1/on_call_roles/${slug}`, onCallRole({ schedules_permissions: [] })), 403);
      assertErrors(await send('DELETE', `/v1/on_call_roles/${slug}`), 403);
    }
    assert.equal((await send('GET', '/v1/roles/owner')).body.data.attributes.name, 'Owner');
    // The user kind is editable.
    const user = await send('PUT', '/v1/roles/user', role({ pulses_permissions: ['read'] }));
    assert.equal(user.status, 200, JSON.stringify(user.body));
    assert.deepEqual(user.body.data.attributes.pulses_permissions, ['read']);
  });

  test('another organization’s role answers 404 and changes nothing', async () => {
    const created = await send('POST', '/v1/roles', role({ name: 'Private role' }));
    const id = created.body.data.id;
    assertErrors(await send('GET', `/v1/roles/${id}`, undefined, other.token), 404);
    assertErrors(await send('PUT', `/v1/roles/${id}`, role({ name: 'hijacked' }), other.token), 404);
    assertErrors(await send('DELETE', `/v1/roles/${id}`, undefined, other.token), 404);
    const ocr = await send('POST', '/v1/on_call_roles', onCallRole({ name: 'Private on-call role' }));
    assertErrors(await send('GET', `/v1/on_call_roles/${ocr.body.data.id}`, undefined, other.token), 404);
    assertErrors(await send('DELETE', `/v1/on_call_roles/${ocr.body.data.id}`, undefined, other.token), 404);
    const list = await send('GET', '/v1/roles?page[size]=50', undefined, other.token);
    assert.ok(!list.body.data.some((d: { id: string }) => d.id === id));
    assert.equal((await send('GET', `/v1/roles/${id}`)).body.data.attributes.name, 'Private role');
  });
});

describe('permissions over HTTP', () => {
  let api: TestApi;
  let org: TestOrganization;
  let serviceId: string;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
    const created = await api.request('POST', '/v1/services', { token: org.token, body: service({ name: 'Checkout' }) });
    assert.equal(created.status, 201);
    serviceId = created.body.data.id;
  });
  after(() => api?.close());

  const send = (method: string, path: string, token: string, body?: unknown) => api.request(method, path, { token, body });

  const insertKey = (opts: TestKeyOptions) => api.issueApiKey(org.organizationId, opts);

  async function newRole(attributes: Record<string, unknown>): Promise<string> {
    const res = await send('POST', '/v1/roles', org.token, role({ name: `Role ${randomUUID().slice(0, 8)}`, ...attributes }));
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data.id;
  }

  test('a key whose role only reads services: reads them, and is refused everything else with 403', async () => {
    const roleId = await newRole({ services_permissions: ['read'] });
    const token = await insertKey({ roleId });

    assert.equal((await send('GET', '/v1/services', token)).status, 200);
    assert.equal((await send('GET', `/v1/services/${serviceId}`, token)).status, 200);
    assert.equal((await send('GET', '/v1/services/checkout', token)).status, 200);

    const post = await send('POST', '/v1/services', token, service({ name: 'Not allowed' }));
    const [error] = assertErrors(post, 403);
    assert.deepEqual({ title: error.title, code: error.code }, { title: 'Forbidden', code: 'PERMISSION_DENIED' });
    assert.equal(error.detail, 'This global API key may not create services: its role grants read on services');
    assertErrors(await send('PUT', `/v1/services/${serviceId}`, token, service({ name: 'Renamed' })), 403);
    assertErrors(await send('DELETE', `/v1/services/${serviceId}`, token), 403);

    const severities = await send('GET', '/v1/severities', token);
    assert.match(assertErrors(severities, 403)[0].detail ?? '', /may not read severities: its role grants nothing on severities/);
    assertErrors(await send('POST', '/v1/severities', token, severity({ name: 'SEV9' })), 403);
    assertErrors(await send('GET', '/v1/roles', token), 403);
    assertErrors(await send('POST', '/v1/roles', token, role({ name: 'Escalate me', services_permissions: ['create'] })), 403);

    // Nothing was written by the refused requests; the permission check comes before validation.
    assert.equal((await send('GET', '/v1/services?filter[name]=Not allowed', org.token)).body.data.length, 0);
    assertErrors(await send('POST', '/v1/services', token, { nonsense: true }), 403);
    assert.equal((await send('GET', '/v1/services/checkout', org.token)).body.data.attributes.name, 'Checkout');
  });

  test('a change of the role applies to the next request', async () => {
    const roleId = await newRole({ services_permissions: ['read'] });
    const token = await insertKey({ roleId });
    assertErrors(await send('GET', '/v1/severities', token), 403);
    const granted = await send('PUT', `/v1/roles/${roleId}`, org.token, role({ severities_permissions: ['read', 'create'] }));
    assert.equal(granted.status, 200);
    assert.equal((await send('GET', '/v1/severities', token)).status, 200);
    assert.equal((await send('POST', '/v1/severities', token, severity({ name: `SEV ${randomUUID().slice(0, 6)}` }))).status, 201);
    assertErrors(await send('DELETE', `/v1/services/${serviceId}`, token), 403);
  });

  test("a role's incident permission set narrows what it may do on public and private incidents, from the next request on", async () => {
    const incident = (attributes: Record<string, unknown>) => ({ data: { type: 'incidents', attributes: { title: `Set ${randomUUID().slice(0, 6)}`, ...attributes } } });
    const set = await send('POST', '/v1/incident_permission_sets', org.token, { data: { type: 'incident_permission_sets', attributes: { name: `Readers ${randomUUID().slice(0, 6)}`, public_incident_permissions: ['read'] } } });
    assert.equal(set.status, 201, JSON.stringify(set.body));
    const roleId = await newRole({ incidents_permissions: ['create', 'read', 'update'], private_incidents_permissions: ['read'], incident_permission_set_id: set.body.data.id });
    const token = await insertKey({ roleId });
    const hidden = await send('POST', '/v1/incidents', org.token, incident({ private: true }));
    assert.equal(hidden.status, 201);

    assert.equal((await send('GET', '/v1/incidents', token)).status, 200);
    assertErrors(await send('POST', '/v1/incidents', token, incident({})), 403);
    // No read of private incidents in the set: the private one is missing, as for any caller without it.
    assertErrors(await send('GET', `/v1/incidents/${hidden.body.data.id}`, token), 404);

    const widened = await send('PUT', `/v1/incident_permission_sets/${set.body.data.id}`, org.token, { data: { type: 'incident_permission_sets', attributes: { public_incident_permissions: ['create', 'read', 'delete'], private_incident_permissions: ['read'] } } });
    assert.equal(widened.status, 200);
    assert.equal((await send('POST', '/v1/incidents', token, incident({}))).status, 201);
    assert.equal((await send('GET', `/v1/incidents/${hidden.body.data.id}`, token)).status, 200);
    // The set never adds what the role lacks: delete stays refused.
    assertErrors(await send('DELETE', `/v1/incidents/${hidden.body.data.id}`, token), 403);

    assert.equal((await send('PUT', `/v1/roles/${roleId}`, org.token, role({ incident_permission_set_id: null }))).status, 200);
    assert.equal((await send('PUT', `/v1/incidents/${hidden.body.data.id}`, token, incident({ summary: 'Without the set, update is back' }))).status, 200);
  });

  test('the on-call role adds its own grants; a role id that no longer resolves grants nothing', async () => {
    const onCall = await send('POST', '/v1/on_call_roles', org.token, onCallRole({ name: 'Service owners', services_permissions: ['read', 'create'] }));
    assert.equal(onCall.status, 201);
    const roleId = await newRole({ severities_permissions: ['read'] });
    const token = await insertKey({ roleId, onCallRoleId: onCall.body.data.id });
    assert.equal((await send('GET', '/v1/severities', token)).status, 200);
    assert.equal((await send('POST', '/v1/services', token, service({ name: `Owned ${randomUUID().slice(0, 6)}` }))).status, 201);
    assertErrors(await send('PUT', `/v1/services/${serviceId}`, token, service({ description: 'x' })), 403);

    const dangling = await insertKey({ roleId: randomUUID() });
    assertErrors(await send('GET', '/v1/services', dangling), 403);
  });

  test('an assigned role cannot be deleted (409) until no key or user holds it', async () => {
    const roleId = await newRole({ services_permissions: ['read'] });
    await insertKey({ roleId });
    const [conflict] = assertErrors(await send('DELETE', `/v1/roles/${roleId}`, org.token), 409);
    assert.equal(conflict.code, 'ROLE_IN_USE');
    assert.match(conflict.detail ?? '', /is assigned to 1 API key/);
    await api.runtime.dataSource.query('UPDATE api_keys SET revoked_at = now() WHERE role_id = $1', [roleId]);
    assert.equal((await send('DELETE', `/v1/roles/${roleId}`, org.token)).status, 200);
  });

  test('a personal key has its user’s roles: the owner’s can do everything', async () => {
    const [owner] = await api.runtime.dataSource.query('SELECT id, role_id, on_call_role_id FROM users WHERE organization_id = $1', [org.organizationId]);
    const ownerRole = await send('GET', `/v1/roles/${owner.role_id}`, org.token);
    assert.equal(ownerRole.body.data.attributes.system_role, 'owner');
    assert.equal((await send('GET', `/v1/on_call_roles/${owner.on_call_role_id}`, org.token)).body.data.attributes.system_role, 'admin');
    const token = await insertKey({ kind: 'personal', userId: owner.id });
    const created = await send('POST', '/v1/severities', token, severity({ name: `Personal ${randomUUID().slice(0, 6)}` }));
    assert.equal(created.status, 201);
    assert.equal((await send('DELETE', `/v1/severities/${created.body.data.id}`, token)).status, 200);
    assert.equal((await send('POST', '/v1/roles', token, role({ name: 'By the owner' }))).status, 201);
  });

  test('the bootstrap key (a global key without a role) keeps full access', async () => {
    const token = org.token;
    const sev = await send('POST', '/v1/severities', token, severity({ name: 'SEV bootstrap' }));
    assert.equal(sev.status, 201);
    assert.equal((await send('PUT', `/v1/severities/${sev.body.data.id}`, token, severity({ description: 'ok' }))).status, 200);
    assert.equal((await send('DELETE', `/v1/severities/${sev.body.data.id}`, token)).status, 200);
    const svc = await send('POST', '/v1/services', token, service({ name: 'Bootstrap service' }));
    assert.equal(svc.status, 201);
    assert.equal((await send('PUT', `/v1/services/${svc.body.data.id}`, token, service({ description: 'ok' }))).status, 200);
    assert.equal((await send('DELETE', `/v1/services/${svc.body.data.id}`, token)).status, 200);
    assert.equal((await send('GET', '/v1/roles', token)).status, 200);
    assert.equal((await send('GET', '/v1/on_call_roles', token)).status, 200);
  });
});
