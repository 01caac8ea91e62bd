import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { useApiWorld } from './support/api-world';
import { created, doc, ids, outboxEvents, outboxTypes, pointers, unique, type Attributes } from './support/json-api';

type Json = Record<string, any>;

/** Incident permission sets, their booleans and resources (docs/incident-permission-sets.md). */
describe('incident permission sets over HTTP', () => {
  const w = useApiWorld();
  const { send } = w;
  const newSet = async (attributes: Attributes = {}, token?: string): Promise<Json> =>
    created(await send('POST', '/v1/incident_permission_sets', doc('incident_permission_sets', { name: unique('Responders'), ...attributes }), token));
  const newBoolean = async (setId: string, attributes: Attributes = {}): Promise<Json> =>
    created(await send('POST', `/v1/incident_permission_sets/${setId}/booleans`, doc('incident_permission_set_booleans', { kind: 'update_summary', ...attributes })));
  const newResource = async (setId: string, attributes: Attributes = {}): Promise<Json> =>
    created(await send('POST', `/v1/incident_permission_sets/${setId}/resources`, doc('incident_permission_set_resources', { resource_type: 'Severity', resource_id: randomUUID(), ...attributes })));
  /** What the set's records keep of `severity_params`, by record id. */
  const storedParams = async (recordId: string) =>
    (await w.api.runtime.dataSource.query('SELECT fully_enabled, create_enabled, applies_to_unassigned, severity_ids FROM incident_permission_severity_params WHERE record_id = $1', [recordId])) as Json[];

  test('a set: created with its defaults, read by id and slug, listed with filters, changed and deleted', async () => {
    const set = await newSet({ name: 'Incident Leads', description: 'Runs major incidents', private_incident_permissions: ['read'] });
    assert.deepEqual(
      { slug: set.attributes.slug, description: set.attributes.description, private: set.attributes.private_incident_permissions, public: set.attributes.public_incident_permissions },
      { slug: 'incident-leads', description: 'Runs major incidents', private: ['read'], public: [] },
    );
    assert.equal((await send('GET', `/v1/incident_permission_sets/${set.id}`)).body.data.attributes.name, 'Incident Leads');
    assert.equal((await send('GET', '/v1/incident_permission_sets/incident-leads')).body.data.id, set.id);
    assert.deepEqual(ids(await send('GET', '/v1/incident_permission_sets?filter[slug]=incident-leads')), [set.id]);
    assert.deepEqual(ids(await send('GET', '/v1/incident_permission_sets?filter[name]=Incident%20Leads')), [set.id]);
    assert.deepEqual(ids(await send('GET', '/v1/incident_permission_sets?filter[search]=major%20incidents')), [set.id]);
    const changed = await send('PUT', `/v1/incident_permission_sets/${set.id}`, doc('incident_permission_sets', { public_incident_permissions: ['create', 'read'], description: null }));
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.deepEqual([changed.body.data.attributes.public_incident_permissions, changed.body.data.attributes.description], [['create', 'read'], null]);
    const deleted = await send('DELETE', `/v1/incident_permission_sets/${set.id}`);
    assert.deepEqual([deleted.status, deleted.body.data.id], [200, set.id]);
    assert.equal((await send('GET', `/v1/incident_permission_sets/${set.id}`)).status, 404);
    assert.deepEqual(await outboxTypes(w.api, set.id), ['incident_permission_set.created', 'incident_permission_set.updated', 'incident_permission_set.deleted']);
  });

  test('booleans: created and listed under their set only, read, changed and deleted at their own path', async () => {
    const set = await newSet();
    const otherSet = await newSet();
    const boolean = await newBoolean(set.id, { kind: 'publish_to_status_page', private: true });
    assert.deepEqual(
      { set: boolean.attributes.incident_permission_set_id, kind: boolean.attributes.kind, private: boolean.attributes.private, enabled: boolean.attributes.enabled },
      { set: set.id, kind: 'publish_to_status_page', private: true, enabled: true },
    );
    assert.equal('severity_params' in boolean.attributes, false);
    const elsewhere = await newBoolean(otherSet.id);
    assert.deepEqual(ids(await send('GET', `/v1/incident_permission_sets/${set.id}/booleans`)), [boolean.id]);
    assert.deepEqual(ids(await send('GET', `/v1/incident_permission_sets/${otherSet.id}/booleans`)), [elsewhere.id]);
    assert.deepEqual(ids(await send('GET', `/v1/incident_permission_sets/${set.id}/booleans?filter[kind]=update_summary`)), []);
    const changed = await send('PUT', `/v1/incident_permission_set_booleans/${boolean.id}`, doc('incident_permission_set_booleans', { enabled: false, kind: 'invite_subscribers' }));
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.deepEqual([changed.body.data.attributes.enabled, changed.body.data.attributes.kind], [false, 'invite_subscribers']);
    assert.equal((await send('GET', `/v1/incident_permission_set_booleans/${boolean.id}`)).body.data.attributes.enabled, false);
    // The path decides the set: another one named in the body is refused.
    const mismatch = await send('POST', `/v1/incident_permission_sets/${set.id}/booleans`, doc('incident_permission_set_booleans', { kind: 'update_timeline', incident_permission_set_id: otherSet.id }));
    assert.deepEqual([mismatch.status, pointers(mismatch)], [422, ['/data/attributes/incident_permission_set_id']]);
    assert.equal((await send('DELETE', `/v1/incident_permission_set_booleans/${boolean.id}`)).status, 200);
    assert.equal((await send('GET', `/v1/incident_permission_set_booleans/${boolean.id}`)).status, 404);
    assert.deepEqual(await outboxTypes(w.api, boolean.id), ['incident_permission_set_boolean.created', 'incident_permission_set_boolean.updated', 'incident_permission_set_boolean.deleted']);
    assert.equal((await send('GET', `/v1/incident_permission_sets/${randomUUID()}/booleans`)).status, 404);
  });

  test('resources: kind is the one of resource_type, whatever kind is sent; the set comes from the path', async () => {
    const set = await newSet();
    const otherSet = await newSet();
    const severity = randomUUID();
    const resource = await newResource(set.id, { resource_type: 'Severity', resource_id: severity, kind: 'statuses', incident_permission_set_id: otherSet.id });
    assert.deepEqual(
      { set: resource.attributes.incident_permission_set_id, kind: resource.attributes.kind, type: resource.attributes.resource_type, id: resource.attributes.resource_id, private: resource.attributes.private },
      { set: set.id, kind: 'severities', type: 'Severity', id: severity, private: false },
    );
    for (const [type, kind] of [['IncidentType', 'incident_types'], ['Status', 'statuses'], ['SubStatus', 'sub_statuses']]) {
      assert.equal((await newResource(set.id, { resource_type: type })).attributes.kind, kind);
    }
    // The reference's clients send kind (its new_ requires it): without resource_type, it names the type.
    const byKind = await newResource(set.id, { resource_type: undefined, resource_id: undefined, kind: 'statuses' });
    assert.deepEqual([byKind.attributes.kind, byKind.attributes.resource_type, byKind.attributes.resource_id], ['statuses', 'Status', null]);
    await send('DELETE', `/v1/incident_permission_set_resources/${byKind.id}`);
    const elsewhere = await newResource(otherSet.id);
    const listed = await send('GET', `/v1/incident_permission_sets/${set.id}/resources`);
    assert.equal(listed.body.meta.total_count, 4);
    assert.ok(!ids(listed).includes(elsewhere.id));
    assert.deepEqual(ids(await send('GET', `/v1/incident_permission_sets/${set.id}/resources?filter[kind]=severities`)), [resource.id]);

    // The spec's PUT: private, resource_id, resource_type; a kind alone changes nothing.
    const ignored = await send('PUT', `/v1/incident_permission_set_resources/${resource.id}`, doc('incident_permission_set_resources', { kind: 'sub_statuses' }));
    assert.deepEqual([ignored.status, ignored.body.data.attributes.kind], [200, 'severities']);
    const sub = randomUUID();
    const changed = await send('PUT', `/v1/incident_permission_set_resources/${resource.id}`, doc('incident_permission_set_resources', { resource_type: 'SubStatus', resource_id: sub, private: true }));
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.deepEqual([changed.body.data.attributes.kind, changed.body.data.attributes.resource_id, changed.body.data.attributes.private], ['sub_statuses', sub, true]);
    assert.equal((await send('GET', `/v1/incident_permission_set_resources/${resource.id}`)).body.data.attributes.kind, 'sub_statuses');
    assert.equal((await send('DELETE', `/v1/incident_permission_set_resources/${resource.id}`)).status, 200);
    assert.equal((await send('GET', `/v1/incident_permission_set_resources/${resource.id}`)).status, 404);
    assert.deepEqual(await outboxTypes(w.api, resource.id), ['incident_permission_set_resource.created', 'incident_permission_set_resource.updated', 'incident_permission_set_resource.updated', 'incident_permission_set_resource.deleted']);
  });

  test('severity_params is input-only: kept with its defaults, replaced by an update, removed by null, never answered', async () => {
    const set = await newSet();
    const [sev1, sev2] = [randomUUID(), randomUUID()];
    const resource = await newResource(set.id, { severity_params: { fully_enabled: false, severity_ids: [sev1, sev1.toUpperCase(), sev2] } });
    assert.equal('severity_params' in resource.attributes, false);
    assert.equal('severity_params' in (await send('GET', `/v1/incident_permission_set_resources/${resource.id}`)).body.data.attributes, false);
    assert.equal('severity_params' in (await outboxEvents(w.api, resource.id))[0].payload, false);
    assert.deepEqual(await storedParams(resource.id), [{ fully_enabled: false, create_enabled: false, applies_to_unassigned: true, severity_ids: [sev1, sev2] }]);

    const replaced = await send('PUT', `/v1/incident_permission_set_resources/${resource.id}`, doc('incident_permission_set_resources', { severity_params: { create_enabled: true } }));
    assert.equal(replaced.status, 200);
    assert.equal('severity_params' in replaced.body.data.attributes, false);
    assert.deepEqual(await storedParams(resource.id), [{ fully_enabled: true, create_enabled: true, applies_to_unassigned: true, severity_ids: [] }]);
    await send('PUT', `/v1/incident_permission_set_resources/${resource.id}`, doc('incident_permission_set_resources', { private: true }));
    assert.equal((await storedParams(resource.id)).length, 1, 'an update without severity_params keeps it');
    await send('PUT', `/v1/incident_permission_set_resources/${resource.id}`, doc('incident_permission_set_resources', { severity_params: null }));
    assert.deepEqual(await storedParams(resource.id), []);

    // A boolean takes it too (the reference's new_incident_permission_set_boolean), and its delete drops it.
    const boolean = await newBoolean(set.id, { severity_params: { applies_to_unassigned: false } });
    assert.deepEqual(await storedParams(boolean.id), [{ fully_enabled: true, create_enabled: false, applies_to_unassigned: false, severity_ids: [] }]);
    await send('DELETE', `/v1/incident_permission_set_booleans/${boolean.id}`);
    assert.deepEqual(await storedParams(boolean.id), []);
  });

  test('deleting a set deletes its booleans and resources first, each with its event, and unsets it on the roles naming it', async () => {
    const set = await newSet();
    const boolean = await newBoolean(set.id, { severity_params: { fully_enabled: false } });
    const resource = await newResource(set.id, { severity_params: { severity_ids: [randomUUID()] } });
    const role = created(await send('POST', '/v1/roles', doc('roles', { name: unique('Lead'), incident_permission_set_id: set.id })));
    assert.equal(role.attributes.incident_permission_set_id, set.id);
    const deleted = await send('DELETE', `/v1/incident_permission_sets/${set.id}`);
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    assert.equal((await send('GET', `/v1/incident_permission_set_booleans/${boolean.id}`)).status, 404);
    assert.equal((await send('GET', `/v1/incident_permission_set_resources/${resource.id}`)).status, 404);
    assert.deepEqual(await outboxTypes(w.api, boolean.id), ['incident_permission_set_boolean.created', 'incident_permission_set_boolean.deleted']);
    assert.deepEqual(await outboxTypes(w.api, resource.id), ['incident_permission_set_resource.created', 'incident_permission_set_resource.deleted']);
    assert.deepEqual([...(await storedParams(boolean.id)), ...(await storedParams(resource.id))], []);
    assert.equal((await send('GET', `/v1/roles/${role.id}`)).body.data.attributes.incident_permission_set_id, null);
    assert.deepEqual(await outboxTypes(w.api, role.id), ['role.created', 'role.updated']);
  });

  test("a role's incident_permission_set_id names a set of the organization", async () => {
    const theirs = await newSet({}, w.other.token);
    for (const id of [theirs.id, randomUUID(), 'not-a-set']) {
      const res = await send('POST', '/v1/roles', doc('roles', { name: unique('Lead'), incident_permission_set_id: id }));
      assert.deepEqual([res.status, pointers(res)], [422, ['/data/attributes/incident_permission_set_id']], JSON.stringify(res.body));
      assert.match(res.body.errors[0].detail, /is not an incident permission set of this organization/);
    }
    const role = created(await send('POST', '/v1/roles', doc('roles', { name: unique('Lead') })));
    const own = await newSet();
    const set = await send('PUT', `/v1/roles/${role.id}`, doc('roles', { incident_permission_set_id: own.id.toUpperCase() }));
    assert.deepEqual([set.status, set.body.data.attributes.incident_permission_set_id], [200, own.id]);
    const refused = await send('PUT', `/v1/roles/${role.id}`, doc('roles', { incident_permission_set_id: theirs.id }));
    assert.deepEqual([refused.status, pointers(refused)], [422, ['/data/attributes/incident_permission_set_id']]);
    const unset = await send('PUT', `/v1/roles/${role.id}`, doc('roles', { incident_permission_set_id: null }));
    assert.deepEqual([unset.status, unset.body.data.attributes.incident_permission_set_id], [200, null]);
  });

  test('bad input is a 422 naming the attribute, and nothing is written', async () => {
    const set = await newSet();
    const count = async (path: string) => (await send('GET', `${path}?page[size]=100`)).body.meta.total_count;
    const sets = await count('/v1/incident_permission_sets');
    const refused = async (path: string, type: string, attributes: Attributes, attribute: string, detail: RegExp) => {
      const res = await send('POST', path, doc(type, attributes));
      assert.deepEqual([res.status, pointers(res)], [422, [`/data/attributes/${attribute}`]], JSON.stringify(res.body));
      assert.match(res.body.errors[0].detail, detail);
    };
    await refused('/v1/incident_permission_sets', 'incident_permission_sets', { description: 'no name' }, 'name', /name is required/);
    await refused('/v1/incident_permission_sets', 'incident_permission_sets', { name: 'X', public_incident_permissions: ['approve'] }, 'public_incident_permissions/0', /must be one of create, read, update, delete/);
    const booleans = `/v1/incident_permission_sets/${set.id}/booleans`;
    await refused(booleans, 'incident_permission_set_booleans', { enabled: true }, 'kind', /kind is required/);
    await refused(booleans, 'incident_permission_set_booleans', { kind: 'fly' }, 'kind', /kind must be one of/);
    await refused(booleans, 'incident_permission_set_booleans', { kind: 'update_summary', severity_params: { fully_enabled: 'yes' } }, 'severity_params/fully_enabled', /must be boolean/);
    const resources = `/v1/incident_permission_sets/${set.id}/resources`;
    await refused(resources, 'incident_permission_set_resources', { resource_id: randomUUID() }, 'resource_type', /resource_type is required \(one of Severity, IncidentType, Status, SubStatus\), or the reference's kind/);
    await refused(resources, 'incident_permission_set_resources', { resource_type: 'Service', resource_id: randomUUID() }, 'resource_type', /must be one of Severity, IncidentType, Status, SubStatus/);
    await refused(resources, 'incident_permission_set_resources', { resource_type: 'Severity', resource_id: 'sev-1' }, 'resource_id', /uuid/);
    await refused(resources, 'incident_permission_set_resources', { resource_type: 'Severity', resource_id: randomUUID(), kind: 'teams' }, 'kind', /kind must be one of/);
    await refused(resources, 'incident_permission_set_resources', { resource_type: 'Severity', resource_id: randomUUID(), severity_params: { severity_ids: ['sev-1'] } }, 'severity_params/severity_ids/0', /uuid/);
    const resource = await newResource(set.id);
    const badUpdate = await send('PUT', `/v1/incident_permission_set_resources/${resource.id}`, doc('incident_permission_set_resources', { resource_type: 'Team', severity_params: { fully_enabled: false } }));
    assert.deepEqual([badUpdate.status, pointers(badUpdate)], [422, ['/data/attributes/resource_type']]);
    assert.deepEqual(await storedParams(resource.id), [], 'a refused update keeps no severity_params');
    assert.equal(await count('/v1/incident_permission_sets'), sets);
    assert.equal(await count(booleans), 0);
    assert.equal(await count(resources), 1);
  });

  test('a caller without the roles permission is refused, on the set and on its records', async () => {
    const set = await newSet();
    const resource = await newResource(set.id);
    const role = created(await send('POST', '/v1/roles', doc('roles', { name: unique('Incidents only'), incidents_permissions: ['create', 'read', 'update', 'delete'] })));
    const key = await w.api.issueApiKey(w.org.organizationId, { kind: 'global', roleId: role.id });
    const reader = created(await send('POST', '/v1/roles', doc('roles', { name: unique('Role reader'), roles_permissions: ['read'] })));
    const readKey = await w.api.issueApiKey(w.org.organizationId, { kind: 'global', roleId: reader.id });
    const cases: [string, string, unknown, string, number][] = [
      ['GET', '/v1/incident_permission_sets', undefined, key, 403],
      ['POST', '/v1/incident_permission_sets', doc('incident_permission_sets', { name: 'Nope' }), key, 403],
      ['GET', `/v1/incident_permission_sets/${set.id}/resources`, undefined, key, 403],
      ['GET', `/v1/incident_permission_set_resources/${resource.id}`, undefined, key, 403],
      ['DELETE', `/v1/incident_permission_set_resources/${resource.id}`, undefined, key, 403],
      ['GET', `/v1/incident_permission_set_resources/${resource.id}`, undefined, readKey, 200],
      ['PUT', `/v1/incident_permission_sets/${set.id}`, doc('incident_permission_sets', { name: 'Nope' }), readKey, 403],
      ['POST', `/v1/incident_permission_sets/${set.id}/booleans`, doc('incident_permission_set_booleans', { kind: 'update_summary' }), readKey, 403],
    ];
    for (const [method, path, body, token, status] of cases) {
      const res = await send(method, path, body, token);
      assert.equal(res.status, status, `${method} ${path}: ${JSON.stringify(res.body)}`);
      if (status === 403) assert.equal(res.body.errors[0].code, 'PERMISSION_DENIED');
    }
    assert.equal((await send('GET', `/v1/incident_permission_set_resources/${resource.id}`)).status, 200, 'nothing was deleted');
  });

  test("another organization's sets and records answer 404 and are never listed", async () => {
    const set = await newSet({ name: unique('Private set') });
    const boolean = await newBoolean(set.id);
    const resource = await newResource(set.id);
    const as = w.other.token;
    for (const path of [`/v1/incident_permission_sets/${set.id}`, `/v1/incident_permission_set_booleans/${boolean.id}`, `/v1/incident_permission_set_resources/${resource.id}`]) {
      assert.equal((await send('GET', path, undefined, as)).status, 404, `GET ${path}`);
      assert.equal((await send('DELETE', path, undefined, as)).status, 404, `DELETE ${path}`);
    }
    assert.equal((await send('PUT', `/v1/incident_permission_sets/${set.id}`, doc('incident_permission_sets', { name: 'Mine' }), as)).status, 404);
    assert.equal((await send('PUT', `/v1/incident_permission_set_booleans/${boolean.id}`, doc('incident_permission_set_booleans', { enabled: false }), as)).status, 404);
    assert.equal((await send('PUT', `/v1/incident_permission_set_resources/${resource.id}`, doc('incident_permission_set_resources', { private: true }), as)).status, 404);
    assert.equal((await send('GET', `/v1/incident_permission_sets/${set.id}/booleans`, undefined, as)).status, 404);
    assert.equal((await send('GET', `/v1/incident_permission_sets/${set.id}/resources`, undefined, as)).status, 404);
    assert.equal((await send('POST', `/v1/incident_permission_sets/${set.id}/resources`, doc('incident_permission_set_resources', { resource_type: 'Severity', resource_id: randomUUID() }), as)).status, 404);
    assert.ok(!ids(await send('GET', '/v1/incident_permission_sets?page[size]=100', undefined, as)).includes(set.id));
    assert.equal((await send('GET', `/v1/incident_permission_sets/${set.id}`)).body.data.attributes.name, set.attributes.name, 'unchanged');
    assert.equal((await send('GET', `/v1/incident_permission_sets/${set.id}/resources`)).body.meta.total_count, 1);
  });
});
