import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startTestApi, type TestApi, type TestOrganization } from '../src/testing';

/** `POST /v1/services/bulk_upsert` and `/bulk_delete`: the generic bulk path of a declared resource. */
describe('services bulk_upsert and bulk_delete over HTTP', () => {
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
  const upsert = (entities: unknown[], token = org.token) => send('POST', '/v1/services/bulk_upsert', { entities }, token);
  const remove = (body: unknown, token = org.token) => send('POST', '/v1/services/bulk_delete', body, token);
  /** A fresh external id per call, so tests never see each other's records. */
  const ext = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;
  const byExternalId = async (externalId: string, token = org.token) =>
    (await send('GET', `/v1/services?filter[external_id]=${encodeURIComponent(externalId)}`, undefined, token)).body.data;
  const eventsOf = async (aggregateId: string): Promise<string[]> =>
    (await api.runtime.dataSource.query('SELECT event->>\'type\' AS type FROM outbox WHERE aggregate_id = $1 ORDER BY seq', [aggregateId])).map((r: { type: string }) => r.type);

  test('creates by external_id, then updates the same records: ids kept, only the sent attributes written', async () => {
    const [a, b] = [ext('a'), ext('b')];
    const created = await upsert([
      { external_id: a, name: 'Bulk Alpha', description: 'first' },
      { external_id: b, name: 'Bulk Beta', show_uptime_last_days: 30 },
    ]);
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.deepEqual(created.body.data.map((d: { type: string; attributes: { external_id: string } }) => [d.type, d.attributes.external_id]), [['services', a], ['services', b]]);
    const [alpha, beta] = created.body.data;
    assert.equal(alpha.attributes.slug, 'bulk-alpha');
    assert.equal(alpha.attributes.managed_by, 'api');
    assert.equal(alpha.attributes.show_uptime_last_days, 60, 'create defaults');
    assert.equal(beta.attributes.show_uptime_last_days, 30, 'create-only attributes are taken on create');
    // Read-your-writes: the very next reads see them.
    assert.equal((await send('GET', `/v1/services/${alpha.id}`)).status, 200);
    assert.deepEqual((await byExternalId(b)).map((d: { id: string }) => d.id), [beta.id]);

    const updated = await upsert([{ external_id: a, description: 'second' }]);
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.equal(updated.body.data[0].id, alpha.id, 'matched on external_id');
    const read = (await send('GET', `/v1/services/${alpha.id}`)).body.data.attributes;
    assert.equal(read.description, 'second');
    assert.equal(read.name, 'Bulk Alpha', 'attributes not sent are kept');
    assert.deepEqual(await eventsOf(alpha.id), ['service.created', 'service.updated']);
    assert.deepEqual(await eventsOf(beta.id), ['service.created']);
  });

  test('a mixed batch updates the known external ids and creates the others, in order', async () => {
    const known = ext('known');
    const [first] = (await upsert([{ external_id: known, name: 'Known' }])).body.data;
    const fresh = ext('fresh');
    const res = await upsert([{ external_id: fresh, name: 'Fresh' }, { external_id: known, color: '#00ff00' }]);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data[0].attributes.external_id, fresh);
    assert.notEqual(res.body.data[0].id, first.id);
    assert.equal(res.body.data[1].id, first.id);
    assert.equal(res.body.data[1].attributes.color, '#00ff00');
    assert.equal((await byExternalId(fresh)).length, 1);
  });

  test('one bad item fails the whole batch: every bad item is named and nothing changes', async () => {
    const kept = ext('kept');
    const [record] = (await upsert([{ external_id: kept, name: 'Kept', description: 'before' }])).body.data;
    const [n1, n2, n3, n4] = [ext('n1'), ext('n2'), ext('n3'), ext('n4')];
    const res = await upsert([
      { external_id: kept, description: 'after' },
      { external_id: n1, name: 'New one' },
      { external_id: n2, name: 42 },
      { external_id: n3, name: 'New three' },
      { external_id: n4, color: '#fff' },
    ]);
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.deepEqual(res.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer), ['/entities/2/name', '/entities/4/name']);
    assert.match(res.body.errors[0].detail, new RegExp(`^entities\\[2\\] \\(external_id "${n2}"\\): `));
    assert.equal((await send('GET', `/v1/services/${record.id}`)).body.data.attributes.description, 'before');
    for (const id of [n1, n2, n3, n4]) assert.deepEqual(await byExternalId(id), [], `${id} was not created`);
    assert.deepEqual(await eventsOf(record.id), ['service.created'], 'no event of the rolled-back update');
  });

  test('the document is checked before anything is written: limit, upsert key, repeated keys', async () => {
    const tooMany = await upsert(Array.from({ length: 101 }, (_, i) => ({ external_id: `limit-${i}`, name: `Limit ${i}` })));
    assert.equal(tooMany.status, 422);
    assert.equal(tooMany.body.errors[0].source.pointer, '/entities');
    assert.deepEqual(await byExternalId('limit-0'), []);
    const noKey = await upsert([{ external_id: ext('k'), name: 'K' }, { name: 'No key' }]);
    assert.equal(noKey.status, 422);
    assert.equal(noKey.body.errors[0].source.pointer, '/entities/1/external_id');
    const twice = ext('twice');
    const repeated = await upsert([{ external_id: twice, name: 'One' }, { external_id: twice, name: 'Two' }]);
    assert.equal(repeated.status, 422);
    assert.equal(repeated.body.errors[0].code, 'DUPLICATE');
    assert.equal((await send('POST', '/v1/services/bulk_upsert', { data: [] })).status, 422);
  });

  test('an external id shared by several services (through single writes) is refused as ambiguous', async () => {
    const shared = ext('shared');
    for (const name of ['Shared one', 'Shared two']) {
      assert.equal((await send('POST', '/v1/services', { data: { type: 'services', attributes: { name, external_id: shared } } })).status, 201);
    }
    const res = await upsert([{ external_id: shared, description: 'which one?' }]);
    assert.equal(res.status, 422);
    assert.equal(res.body.errors[0].code, 'AMBIGUOUS');
    assert.equal(res.body.errors[0].source.pointer, '/entities/0/external_id');
  });

  test('a submitted slug is ignored with the deprecation headers, as on single writes', async () => {
    const res = await upsert([{ external_id: ext('slug'), name: 'Slugged', slug: 'custom' }]);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data[0].attributes.slug, 'slugged');
    assert.equal(res.headers.get('deprecation'), 'true');
  });

  test('bulk_delete by external ids: deleted, not found, events, and the records are gone', async () => {
    const [a, b] = [ext('del-a'), ext('del-b')];
    const [ra, rb] = (await upsert([{ external_id: a, name: 'Delete A' }, { external_id: b, name: 'Delete B' }])).body.data;
    const missing = ext('missing');
    const res = await remove({ external_ids: [a, missing] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.data, { deleted_external_ids: [a], failed_external_ids: [], not_found_external_ids: [missing] });
    assert.equal((await send('GET', `/v1/services/${ra.id}`)).status, 404);
    assert.equal((await send('GET', `/v1/services/${rb.id}`)).status, 200);
    assert.deepEqual(await eventsOf(ra.id), ['service.created', 'service.deleted']);
    assert.equal((await remove({ external_ids: [] })).status, 422);
    assert.equal((await remove({ external_ids: [a], managed_by: 'api' })).status, 422);
  });

  test('bulk_delete by managed_by prunes that source\'s records whose external id is not kept', async () => {
    const own = await api.newOrganization();
    const [keep, drop] = [ext('keep'), ext('drop')];
    assert.equal((await upsert([{ external_id: keep, name: 'Keep' }, { external_id: drop, name: 'Drop' }], own.token)).status, 200);
    const manual = await send('POST', '/v1/services', { data: { type: 'services', attributes: { name: 'No external id' } } }, own.token);
    const res = await remove({ managed_by: 'api', keep_external_ids: [keep] }, own.token);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.data, { deleted_external_ids: [drop], failed_external_ids: [], not_found_external_ids: [] });
    assert.equal((await send('GET', `/v1/services/${manual.body.data.id}`, undefined, own.token)).status, 200, 'records without an external id are never pruned');
    assert.equal((await byExternalId(keep, own.token)).length, 1);
    assert.equal((await remove({ managed_by: 'web' }, own.token)).status, 422);
  });

  test('bulk_upsert needs create and update, bulk_delete needs delete: 403 otherwise, nothing written', async () => {
    const keyWith = async (permissions: string[]) => {
      const role = await send('POST', '/v1/roles', { data: { type: 'roles', attributes: { name: `Bulk ${randomUUID().slice(0, 8)}`, services_permissions: permissions } } });
      assert.equal(role.status, 201, JSON.stringify(role.body));
      return api.issueApiKey(org.organizationId, { roleId: role.body.data.id });
    };
    const target = ext('perm');
    await upsert([{ external_id: target, name: 'Guarded' }]);
    const createOnly = await keyWith(['create', 'read', 'delete']);
    const updateOnly = await keyWith(['update', 'read', 'delete']);
    const noDelete = await keyWith(['create', 'read', 'update']);
    for (const token of [createOnly, updateOnly]) {
      const res = await upsert([{ external_id: target, description: 'forbidden' }, { external_id: ext('perm-new'), name: 'Forbidden' }], token);
      assert.equal(res.status, 403, JSON.stringify(res.body));
      assert.equal(res.body.errors[0].code, 'PERMISSION_DENIED');
    }
    const [record] = await byExternalId(target);
    assert.equal(record.attributes.description, null);
    assert.equal((await remove({ external_ids: [target] }, noDelete)).status, 403);
    assert.equal((await byExternalId(target)).length, 1);
    assert.equal((await upsert([{ external_id: target, description: 'allowed' }], noDelete)).status, 200);
  });

  test('another organization\'s records are neither touched nor revealed', async () => {
    const id = ext('tenant');
    const [mine] = (await upsert([{ external_id: id, name: 'Mine', description: 'org A' }])).body.data;

    const deleted = await remove({ external_ids: [id] }, other.token);
    assert.equal(deleted.status, 200);
    assert.deepEqual(deleted.body.data, { deleted_external_ids: [], failed_external_ids: [], not_found_external_ids: [id] });
    const pruned = await remove({ managed_by: 'api' }, other.token);
    assert.ok(!pruned.body.data.deleted_external_ids.includes(id));

    // The same external id in another organization is another record: created there, not matched here.
    const theirs = await upsert([{ external_id: id, name: 'Theirs' }], other.token);
    assert.equal(theirs.status, 200, JSON.stringify(theirs.body));
    assert.notEqual(theirs.body.data[0].id, mine.id);
    assert.ok(!JSON.stringify(theirs.body).includes('org A'));
    const update = await upsert([{ external_id: id, description: 'org B was here' }], other.token);
    assert.equal(update.body.data[0].id, theirs.body.data[0].id);

    const read = (await send('GET', `/v1/services/${mine.id}`)).body.data.attributes;
    assert.deepEqual([read.name, read.description], ['Mine', 'org A']);
    assert.equal((await send('GET', `/v1/services/${mine.id}`, undefined, other.token)).status, 404);
  });

  test('without a token: 401', async () => {
    assert.equal((await api.request('POST', '/v1/services/bulk_upsert', { body: { entities: [] } })).status, 401);
    assert.equal((await api.request('POST', '/v1/services/bulk_delete', { body: { external_ids: ['x'] } })).status, 401);
  });
});

/** The same generic path, switched on by `bulk: true`, for the other bulk resources the spec names. */
for (const [type, singular] of [['environments', 'environment'], ['functionalities', 'functionality']] as const) {
  describe(`${type} bulk_upsert and bulk_delete over HTTP`, () => {
    let api: TestApi;
    let org: TestOrganization;
    before(async () => {
      api = await startTestApi();
      org = await api.newOrganization();
    });
    after(() => api?.close());
    const post = (path: string, body: unknown) => api.request('POST', `/v1/${type}/${path}`, { token: org.token, body });

    test('upsert creates then updates by external_id; a bad item fails the batch; delete by external id', async () => {
      const created = await post('bulk_upsert', { entities: [{ external_id: 'prod', name: 'Production' }, { external_id: 'stg', name: 'Staging' }] });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const [prod] = created.body.data;
      assert.equal(prod.type, type);
      const updated = await post('bulk_upsert', { entities: [{ external_id: 'prod', description: 'live' }] });
      assert.equal(updated.status, 200);
      assert.equal(updated.body.data[0].id, prod.id);
      assert.equal(updated.body.data[0].attributes.description, 'live');

      const bad = await post('bulk_upsert', { entities: [{ external_id: 'qa', name: 'QA' }, { external_id: 'dev', name: 42 }] });
      assert.equal(bad.status, 422);
      assert.ok(bad.body.errors.some((e: { source?: { pointer?: string } }) => e.source?.pointer === '/entities/1/name'), JSON.stringify(bad.body));
      const list = await api.request('GET', `/v1/${type}?filter[name]=QA`, { token: org.token });
      assert.deepEqual(list.body.data, [], 'nothing of the failed batch was written');

      const removed = await post('bulk_delete', { external_ids: ['stg', 'nope'] });
      assert.equal(removed.status, 200, JSON.stringify(removed.body));
      assert.deepEqual(removed.body.data, { deleted_external_ids: ['stg'], failed_external_ids: [], not_found_external_ids: ['nope'] });
      const events = await api.runtime.dataSource.query("SELECT event->>'type' AS type FROM outbox WHERE aggregate_id = $1 ORDER BY seq", [prod.id]);
      assert.deepEqual(events.map((e: { type: string }) => e.type), [`${singular}.created`, `${singular}.updated`]);
    });
  });
}
