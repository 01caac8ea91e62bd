import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { generateApiKeyToken, hashToken, tokenPrefix } from '@taproot/auth';
import { startTestApi, type TestApi, type TestOrganization, type TestResponse } from '../src/testing';

type Attributes = Record<string, unknown>;

interface TaxonomyResource {
  type: string;
  /** The role permission family its routes check. */
  family: string;
  /** Attributes of a create, beside the name. */
  create: Attributes;
  /** Attributes the create leaves to the server, as it answers them. */
  defaults: Attributes;
  update: Attributes;
  /** A list filter of the reference's for this path that matches the record once updated. */
  filter: [name: string, value: string];
  /** One attribute the declaration refuses, with the attribute the 422 must name. */
  invalid: { attributes: Attributes; field: string };
}

const RESOURCES: TaxonomyResource[] = [
  {
    type: 'environments',
    family: 'environments',
    create: { public_description: 'Customer facing', external_id: 'env-ext-1', color: '#00ff00', notify_emails: ['prod@example.com'], properties: [{ catalog_property_id: 'p1', value: 'v1' }] },
    defaults: { managed_by: 'api', slack_channels: null },
    update: { description: 'Live traffic', external_id: 'env-ext-2', slack_aliases: [{ id: 'S1', name: 'prod-oncall' }] },
    filter: ['color', '#00ff00'],
    invalid: { attributes: { notify_emails: 'prod@example.com' }, field: 'notify_emails' },
  },
  {
    type: 'functionalities',
    family: 'functionalities',
    create: { public_description: 'Pay at checkout', external_id: 'fn-ext-1', owner_group_ids: ['g1'], owner_user_ids: [1, 2], backstage_id: 'default/component/checkout', opslevel_id: 'ol-checkout', show_uptime_last_days: 30 },
    defaults: { managed_by: 'api', show_uptime: null, escalation_policy_id: null },
    update: { escalation_policy_id: 'ep-1', owner_user_ids: [3], opsgenie_team_id: 'og-team' },
    filter: ['opslevel_id', 'ol-checkout'],
    invalid: { attributes: { show_uptime_last_days: 45 }, field: 'show_uptime_last_days' },
  },
  {
    type: 'causes',
    family: 'incident_causes',
    create: { description: 'A change went out', public_description: 'Deployment' },
    defaults: { properties: [] },
    update: { description: 'A bad deploy', properties: [{ catalog_property_id: 'p2', value: 'v2' }] },
    filter: ['search', 'bad deploy'],
    invalid: { attributes: { properties: null }, field: 'properties' },
  },
  {
    type: 'incident_types',
    family: 'incident_types',
    create: { public_description: 'Security', color: '#ff0000', slack_channels: [{ id: 'C1', name: 'sec' }] },
    defaults: { properties: [], notify_emails: null },
    update: { color: '#aa0000', notify_emails: ['sec@example.com'] },
    filter: ['color', '#aa0000'],
    invalid: { attributes: { color: 7 }, field: 'color' },
  },
];

const doc = (type: string, attributes: Attributes) => ({ data: { type, attributes } });
const idsOf = (res: TestResponse): string[] => res.body.data.map((d: { id: string }) => d.id);

describe('the incident taxonomy over HTTP', () => {
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
        const hex = randomUUID().slice(0, 8);
        const name = `Prod Record ${hex}`;
        const created = await send('POST', path, doc(r.type, { name, ...r.create }));
        assert.equal(created.status, 201, JSON.stringify(created.body));
        assert.equal(created.body.data.type, r.type);
        const id = created.body.data.id;
        const a = created.body.data.attributes;
        assert.equal(a.name, name);
        assert.equal(a.slug, `prod-record-${hex}`);
        assert.ok(Number.isInteger(a.position), 'a position is assigned');
        assert.ok(Date.parse(a.created_at) > 0 && Date.parse(a.updated_at) > 0);
        for (const [k, v] of Object.entries({ ...r.create, ...r.defaults })) assert.deepEqual(a[k], v, k);

        const got = await send('GET', item(id));
        assert.equal(got.status, 200);
        assert.deepEqual(got.body.data, created.body.data);
        assert.equal((await send('GET', item(a.slug))).body.data.id, id, 'found by slug as well');

        const updated = await send('PUT', item(id), doc(r.type, r.update));
        assert.equal(updated.status, 200, JSON.stringify(updated.body));
        const expected = { ...a, ...r.update, updated_at: updated.body.data.attributes.updated_at };
        assert.deepEqual(updated.body.data.attributes, expected, 'only the given attributes change');

        for (const [filter, value] of [['slug', a.slug], r.filter]) {
          const query = `filter[${filter}]=${encodeURIComponent(value)}`;
          const list = await send('GET', `${path}?${query}`);
          assert.equal(list.status, 200, JSON.stringify(list.body));
          assert.deepEqual(list.body.data, [updated.body.data], query);
        }

        const deleted = await send('DELETE', item(id));
        assert.equal(deleted.status, 200);
        assert.deepEqual(deleted.body.data, updated.body.data);
        assert.equal((await send('GET', item(id))).status, 404);
      });

      test(`a bad ${r.invalid.field} answers 422 naming it, and nothing is created`, async () => {
        const name = `Invalid ${randomUUID()}`;
        const res = await send('POST', path, doc(r.type, { name, ...r.invalid.attributes }));
        assert.equal(res.status, 422);
        assert.deepEqual(res.body.errors.map((e: { source?: { pointer?: string } }) => e.source?.pointer), [`/data/attributes/${r.invalid.field}`]);
        assert.match(res.body.errors[0].detail, new RegExp(r.invalid.field));
        assert.deepEqual((await send('GET', `${path}?filter[name]=${encodeURIComponent(name)}`)).body.data, []);
      });

      test('lists in ascending position by default; sort=-position reverses', async () => {
        const own = await api.newOrganization();
        const ids: string[] = [];
        for (const name of ['First', 'Second', 'Third']) {
          const res = await send('POST', path, doc(r.type, { name }), own.token);
          assert.equal(res.status, 201);
          ids.push(res.body.data.id);
        }
        assert.deepEqual(
          (await send('GET', path, undefined, own.token)).body.data.map((d: { attributes: Attributes }) => d.attributes.position),
          [1, 2, 3],
          'positions are assigned in creation order',
        );
        const moved = await send('PUT', item(ids[0]), doc(r.type, { position: 10 }), own.token);
        assert.equal(moved.body.data.attributes.position, 10);
        const expected = [ids[1], ids[2], ids[0]];
        assert.deepEqual(idsOf(await send('GET', path, undefined, own.token)), expected);
        assert.deepEqual(idsOf(await send('GET', `${path}?sort=-position`, undefined, own.token)), expected.reverse());
      });

      test('another organization\'s id answers 404 and changes nothing', async () => {
        const created = await send('POST', path, doc(r.type, { name: `Private ${randomUUID().slice(0, 6)}` }));
        const id = created.body.data.id;
        assert.equal((await send('GET', item(id), undefined, other.token)).status, 404);
        assert.equal((await send('PUT', item(id), doc(r.type, { name: 'hijacked' }), other.token)).status, 404);
        assert.equal((await send('DELETE', item(id), undefined, other.token)).status, 404);
        assert.ok(!idsOf(await send('GET', path, undefined, other.token)).includes(id));
        assert.deepEqual((await send('GET', item(id))).body.data, created.body.data);
      });

      test(`routes check the ${r.family} permission family`, async () => {
        const role = await send('POST', '/v1/roles', doc('roles', { name: `Reads ${r.type} ${randomUUID().slice(0, 6)}`, [`${r.family}_permissions`]: ['read'] }));
        assert.equal(role.status, 201, JSON.stringify(role.body));
        const token = generateApiKeyToken();
        await api.runtime.dataSource.query(
          `INSERT INTO api_keys (id, organization_id, name, kind, token_prefix, token_hash, role_id) VALUES ($1, $2, $3, 'global', $4, $5, $6)`,
          [randomUUID(), org.organizationId, `Key ${randomUUID()}`, tokenPrefix(token), hashToken(token), role.body.data.id],
        );
        assert.equal((await send('GET', path, undefined, token)).status, 200);
        const refused = await send('POST', path, doc(r.type, { name: 'Not allowed' }), token);
        assert.equal(refused.status, 403);
        assert.equal(refused.body.errors[0].code, 'PERMISSION_DENIED');
      });
    });
  }
});
