import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startTestApi, type TestApi, type TestOrganization, type TestResponse } from '../src/testing';

type Attributes = Record<string, unknown>;

const subStatus = (attributes: Attributes) => ({ data: { type: 'sub_statuses', attributes } });
const incidentRole = (attributes: Attributes) => ({ data: { type: 'incident_roles', attributes } });
const ids = (res: TestResponse): string[] => res.body.data.map((d: { id: string }) => d.id);
const unique = (name: string) => `${name} ${randomUUID().slice(0, 8)}`;

describe('sub-statuses and incident roles over HTTP', () => {
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

  test('a sub-status round-trips; its parent_status is set on create and kept by updates', async () => {
    const name = unique('Investigating');
    const created = await send('POST', '/v1/sub_statuses', subStatus({ name, parent_status: 'started', description: 'Looking for the cause' }));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const { id, attributes: a } = created.body.data;
    assert.equal(created.body.data.type, 'sub_statuses');
    assert.deepEqual(
      { name: a.name, parent_status: a.parent_status, description: a.description },
      { name, parent_status: 'started', description: 'Looking for the cause' },
    );
    assert.equal(a.slug, name.toLowerCase().replace(/ /g, '-'));
    assert.ok(Number.isInteger(a.position), 'a position is assigned');
    assert.deepEqual((await send('GET', `/v1/sub_statuses/${a.slug}`)).body.data, created.body.data, 'found by slug');

    // update_sub_status has no parent_status: a sent one is dropped like any create-only attribute.
    const updated = await send('PUT', `/v1/sub_statuses/${id}`, subStatus({ description: null, position: 7, parent_status: 'retrospective' }));
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.deepEqual(updated.body.data.attributes, { ...a, description: null, position: 7, updated_at: updated.body.data.attributes.updated_at });
    assert.deepEqual((await send('GET', `/v1/sub_statuses?filter[parent_status]=started&filter[slug]=${a.slug}`)).body.data, [updated.body.data]);
    // A filter without a value filters nothing: the Terraform provider's data sources send them.
    assert.deepEqual((await send('GET', `/v1/sub_statuses?filter[name]=&filter[slug]=${a.slug}&filter[parent_status]=`)).body.data, [updated.body.data]);

    const retrospective = await send('POST', '/v1/sub_statuses', subStatus({ name: unique('Review'), parent_status: 'retrospective' }));
    assert.equal(retrospective.status, 201);
    assert.equal(retrospective.body.data.attributes.parent_status, 'retrospective');

    assert.deepEqual((await send('DELETE', `/v1/sub_statuses/${id}`)).body.data, updated.body.data);
    assert.equal((await send('GET', `/v1/sub_statuses/${id}`)).status, 404);
  });

  test('a bad or missing parent_status answers 422 naming it, and nothing is created', async () => {
    for (const attributes of [{ parent_status: 'mitigated' }, { parent_status: null }, {}]) {
      const name = unique('Refused');
      const res = await send('POST', '/v1/sub_statuses', subStatus({ name, ...attributes }));
      assert.equal(res.status, 422, JSON.stringify(attributes));
      assert.deepEqual(res.body.errors.map((e: { source?: { pointer?: string } }) => e.source?.pointer), ['/data/attributes/parent_status']);
      assert.match(res.body.errors[0].detail, /parent_status/);
      assert.deepEqual((await send('GET', `/v1/sub_statuses?filter[name]=${encodeURIComponent(name)}`)).body.data, []);
    }
  });

  test('an incident role round-trips with its defaults and is found by enabled and search', async () => {
    const name = unique('Commander');
    const created = await send('POST', '/v1/incident_roles', incidentRole({ name, summary: 'Leads the response', description: 'Owns decisions' }));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const { id, attributes: a } = created.body.data;
    assert.deepEqual(
      { summary: a.summary, description: a.description, enabled: a.enabled, optional: a.optional, allow_multi_user_assignment: a.allow_multi_user_assignment },
      { summary: 'Leads the response', description: 'Owns decisions', enabled: true, optional: false, allow_multi_user_assignment: false },
    );
    assert.deepEqual((await send('GET', `/v1/incident_roles/${id}`)).body.data, created.body.data);

    const changes = { enabled: false, optional: true, allow_multi_user_assignment: true, summary: 'Leads the bridge call' };
    const updated = await send('PUT', `/v1/incident_roles/${id}`, incidentRole(changes));
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.deepEqual(updated.body.data.attributes, { ...a, ...changes, updated_at: updated.body.data.attributes.updated_at });
    assert.deepEqual(ids(await send('GET', '/v1/incident_roles?filter[enabled]=false&filter[search]=bridge call')), [id]);
    assert.deepEqual(ids(await send('GET', '/v1/incident_roles?filter[enabled]=true&filter[search]=bridge call')), []);

    assert.equal((await send('DELETE', `/v1/incident_roles/${id}`)).status, 200);
    assert.equal((await send('GET', `/v1/incident_roles/${id}`)).status, 404);
  });

  const resources = [
    { path: '/v1/sub_statuses', family: 'sub_statuses', doc: (name: string) => subStatus({ name, parent_status: 'started' }), update: subStatus },
    { path: '/v1/incident_roles', family: 'incident_roles', doc: (name: string) => incidentRole({ name }), update: incidentRole },
  ];

  for (const r of resources) {
    test(`${r.path} lists in ascending position by default, sort=-position reverses`, async () => {
      const own = await api.newOrganization();
      const created: string[] = [];
      for (const name of ['One', 'Two', 'Three']) created.push((await send('POST', r.path, r.doc(name), own.token)).body.data.id);
      // Moving the first one last proves the order is by position, not by creation.
      await send('PUT', `${r.path}/${created[0]}`, r.update({ position: 99 }), own.token);
      const ascending = [created[1], created[2], created[0]];
      assert.deepEqual(ids(await send('GET', r.path, undefined, own.token)), ascending);
      assert.deepEqual(ids(await send('GET', `${r.path}?sort=-position`, undefined, own.token)), [...ascending].reverse());
    });

    test(`${r.path}: another organization's id answers 404 and changes nothing`, async () => {
      const created = await send('POST', r.path, r.doc(unique('Ours')));
      const item = `${r.path}/${created.body.data.id}`;
      const attempts = [send('GET', item, undefined, other.token), send('PUT', item, r.update({ name: 'Theirs' }), other.token), send('DELETE', item, undefined, other.token)];
      assert.deepEqual((await Promise.all(attempts)).map((res) => res.status), [404, 404, 404]);
      assert.ok(!ids(await send('GET', r.path, undefined, other.token)).includes(created.body.data.id));
      assert.deepEqual((await send('GET', item)).body.data, created.body.data);
    });

    test(`${r.path} checks the ${r.family} permission family`, async () => {
      const role = await send('POST', '/v1/roles', { data: { type: 'roles', attributes: { name: unique('Reader'), [`${r.family}_permissions`]: ['read'] } } });
      assert.equal(role.status, 201, JSON.stringify(role.body));
      const reader = await api.issueApiKey(org.organizationId, { roleId: role.body.data.id });
      assert.equal((await send('GET', r.path, undefined, reader)).status, 200);
      const refused = await send('POST', r.path, r.doc(unique('Not allowed')), reader);
      assert.equal(refused.status, 403);
      assert.equal(refused.body.errors[0].code, 'PERMISSION_DENIED');
    });
  }
});
