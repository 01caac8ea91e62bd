import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startTestApi, type TestApi, type TestOrganization } from '../src/testing';
import { ids as idsOf } from './support/json-api';

type Attributes = Record<string, unknown>;

interface AlertingResource {
  type: string;
  /** Attributes of a create, beside the name. */
  create: Attributes;
  /** Attributes the create leaves to the server, as it answers them. */
  defaults: Attributes;
  update: Attributes;
  /** One attribute the declaration refuses, with the attribute the 422 must name. */
  invalid: { attributes: Attributes; field: string };
}

const RESOURCES: AlertingResource[] = [
  {
    type: 'alert_urgencies',
    create: { description: 'Page someone now', retrigger_timeout_minutes: 30 },
    defaults: { color: null },
    update: { description: 'Page within the hour', retrigger_timeout_minutes: null, color: '#f04438' },
    invalid: { attributes: { description: 'x', retrigger_timeout_minutes: 0 }, field: 'retrigger_timeout_minutes' },
  },
  {
    type: 'alert_fields',
    create: {},
    defaults: { kind: 'custom' },
    update: { name: 'Renamed field' },
    invalid: { attributes: { name: 7 }, field: 'name' },
  },
];

const doc = (type: string, attributes: Attributes) => ({ data: { type, attributes } });
/** Urgencies need a description (reference `new_alert_urgency`); fields take a name only. */
const base = (type: string, name: string): Attributes => (type === 'alert_urgencies' ? { name, description: `${name} urgency` } : { name });

describe('alert urgencies and alert fields over HTTP', () => {
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

  for (const r of RESOURCES) {
    const path = `/v1/${r.type}`;
    const item = (id: string) => `${path}/${id}`;

    describe(r.type, () => {
      test('create, get, update, list and delete round-trip the attributes', async () => {
        const name = `High ${randomUUID().slice(0, 8)}`;
        const created = await send('POST', path, doc(r.type, { ...base(r.type, name), ...r.create }));
        assert.equal(created.status, 201, JSON.stringify(created.body));
        assert.equal(created.body.data.type, r.type);
        const id = created.body.data.id;
        const a = created.body.data.attributes;
        assert.equal(a.name, name);
        assert.ok(Date.parse(a.created_at) > 0 && Date.parse(a.updated_at) > 0);
        for (const [k, v] of Object.entries({ ...r.create, ...r.defaults })) assert.deepEqual(a[k], v, k);
        if (r.type === 'alert_urgencies') assert.ok(Number.isInteger(a.position), 'a position is assigned');
        else assert.equal(a.slug, name.toLowerCase().replace(/ /g, '-'));

        const got = await send('GET', item(id));
        assert.equal(got.status, 200);
        assert.deepEqual(got.body.data, created.body.data);

        const updated = await send('PUT', item(id), doc(r.type, r.update));
        assert.equal(updated.status, 200, JSON.stringify(updated.body));
        for (const [k, v] of Object.entries(r.update)) assert.deepEqual(updated.body.data.attributes[k], v, k);

        const list = await send('GET', `${path}?filter[name]=${encodeURIComponent(updated.body.data.attributes.name)}`);
        assert.equal(list.status, 200, JSON.stringify(list.body));
        assert.deepEqual(idsOf(list), [id]);

        const deleted = await send('DELETE', item(id));
        assert.equal(deleted.status, 200);
        assert.equal((await send('GET', item(id))).status, 404);
      });

      test(`a bad ${r.invalid.field} answers 422 naming it, and nothing is created`, async () => {
        const name = `Invalid ${randomUUID()}`;
        const res = await send('POST', path, doc(r.type, { ...base(r.type, name), ...r.invalid.attributes }));
        assert.equal(res.status, 422, JSON.stringify(res.body));
        assert.deepEqual(res.body.errors.map((e: { source?: { pointer?: string } }) => e.source?.pointer), [`/data/attributes/${r.invalid.field}`]);
        assert.match(res.body.errors[0].detail, new RegExp(r.invalid.field));
        assert.deepEqual((await send('GET', `${path}?filter[name]=${encodeURIComponent(name)}`)).body.data, []);
      });

      test("another organization's id answers 404 and changes nothing", async () => {
        const created = await send('POST', path, doc(r.type, base(r.type, `Private ${randomUUID().slice(0, 6)}`)));
        assert.equal(created.status, 201, JSON.stringify(created.body));
        const id = created.body.data.id;
        assert.equal((await send('GET', item(id), undefined, other.token)).status, 404);
        assert.equal((await send('PUT', item(id), doc(r.type, { name: 'hijacked' }), other.token)).status, 404);
        assert.equal((await send('DELETE', item(id), undefined, other.token)).status, 404);
        assert.ok(!idsOf(await send('GET', path, undefined, other.token)).includes(id));
        assert.deepEqual((await send('GET', item(id))).body.data, created.body.data);
      });
    });
  }

  test('alert urgencies list in ascending position by default; sort=-position reverses', async () => {
    const own = await api.newOrganization();
    const ids: string[] = [];
    for (const name of ['Critical', 'High', 'Low']) {
      const res = await send('POST', '/v1/alert_urgencies', doc('alert_urgencies', base('alert_urgencies', name)), own.token);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      ids.push(res.body.data.id);
    }
    const positions = (await send('GET', '/v1/alert_urgencies', undefined, own.token)).body.data.map((d: { attributes: Attributes }) => d.attributes.position);
    assert.deepEqual(positions, [1, 2, 3], 'positions are assigned in creation order');
    const moved = await send('PUT', `/v1/alert_urgencies/${ids[0]}`, doc('alert_urgencies', { position: 10 }), own.token);
    assert.equal(moved.body.data.attributes.position, 10);
    const expected = [ids[1], ids[2], ids[0]];
    assert.deepEqual(idsOf(await send('GET', '/v1/alert_urgencies', undefined, own.token)), expected);
    assert.deepEqual(idsOf(await send('GET', '/v1/alert_urgencies?sort=-position', undefined, own.token)), [...expected].reverse());
  });

  test('an alert urgency needs a description, as the reference says', async () => {
    const res = await send('POST', '/v1/alert_urgencies', doc('alert_urgencies', { name: 'No description' }));
    assert.equal(res.status, 422);
    assert.equal(res.body.errors[0].source?.pointer, '/data/attributes/description');
  });
});
