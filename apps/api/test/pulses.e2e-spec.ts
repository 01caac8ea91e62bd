import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { useApiWorld } from './support/api-world';
import { created, doc, ids, outboxEvents, outboxTypes, pointers, unique, type Attributes } from './support/json-api';

type Json = Record<string, any>;

const NOWHERE = '00000000-0000-4000-8000-000000000000';

/** Pulses, the hosted API's deploy and change events (docs/pulses.md). */
describe('pulses over HTTP', () => {
  const w = useApiWorld();
  const { send } = w;
  const pulse = (attributes: Attributes) => doc('pulses', attributes);
  const newPulse = async (attributes: Attributes = {}, token?: string): Promise<Json> => created(await send('POST', '/v1/pulses', pulse({ summary: unique('Deployed checkout'), ...attributes }), token));
  const service = (token?: string): Promise<Json> => w.create('/v1/services', 'services', { name: unique('Checkout') }, token);
  const environment = (token?: string): Promise<Json> => w.create('/v1/environments', 'environments', { name: unique('Production') }, token);
  const count = async (): Promise<number> => (await send('GET', '/v1/pulses?page[size]=1')).body.meta.total_count;
  const listed = async (query: string): Promise<string[]> => {
    const res = await send('GET', `/v1/pulses?page[size]=100&${query}`);
    assert.equal(res.status, 200, `${query}: ${JSON.stringify(res.body)}`);
    return ids(res).sort();
  };
  /** A record as the embedded list holds it: its id and the attributes its own GET answers. */
  const asEmbedded = async (path: string, id: string) => ({ id, ...(await send('GET', `${path}/${id}`)).body.data.attributes });

  test('a pulse with every attribute: answered as created, read back with its services and environments embedded, announced with them', async () => {
    const [checkout, search, production] = [await service(), await service(), await environment()];
    const attributes = {
      source: 'k8s',
      summary: 'Deployed checkout v2',
      service_ids: [checkout.id, search.id],
      environment_ids: [production.id],
      started_at: '2026-11-20T10:00:00.000Z',
      ended_at: '2026-11-20T10:05:00.000Z',
      external_url: 'https://ci.example.com/runs/42',
      labels: [{ key: 'version', value: 'v2' }, { key: 'deployer', value: 'ci' }],
      refs: [{ key: 'sha', value: '9f2c1e0' }],
      data: { pipeline: { id: 42, stages: ['build', 'deploy'] } },
    };
    const answer = await newPulse(attributes);
    assert.equal(answer.type, 'pulses');
    for (const [name, value] of Object.entries(attributes)) assert.deepEqual(answer.attributes[name], value, name);
    const services = [await asEmbedded('/v1/services', checkout.id), await asEmbedded('/v1/services', search.id)];
    assert.deepEqual(answer.attributes.services, services);
    assert.deepEqual(answer.attributes.environments, [await asEmbedded('/v1/environments', production.id)]);
    assert.ok(answer.attributes.created_at && answer.attributes.updated_at);

    const got = await send('GET', `/v1/pulses/${answer.id}`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.body.data, answer, 'read back as created');
    const withIncluded = await send('GET', `/v1/pulses/${answer.id}?include=services,environments`);
    assert.deepEqual(withIncluded.body.data.relationships.services.data, [{ type: 'services', id: checkout.id }, { type: 'services', id: search.id }]);
    assert.deepEqual(withIncluded.body.included.map((r: Json) => `${r.type}:${r.id}`).sort(), [`environments:${production.id}`, `services:${checkout.id}`, `services:${search.id}`].sort());
    assert.equal((await send('GET', `/v1/pulses/${answer.id}?include=alerts`)).status, 400);

    const [event] = await outboxEvents(w.api, answer.id);
    assert.equal(event.type, 'pulse.created');
    assert.deepEqual(event.payload, { id: answer.id, ...answer.attributes }, 'the event carries the pulse as the API answers it');
  });

  test('a pulse needs only its summary: started_at is its creation time, the lists are empty', async () => {
    const bare = await newPulse({ summary: 'Deployed' });
    assert.equal(bare.attributes.started_at, bare.attributes.created_at);
    assert.deepEqual([bare.attributes.source, bare.attributes.ended_at, bare.attributes.data], [null, null, null]);
    for (const name of ['service_ids', 'environment_ids', 'labels', 'refs', 'services', 'environments']) assert.deepEqual(bare.attributes[name], [], name);
    const nullStart = await newPulse({ started_at: null, service_ids: null });
    assert.deepEqual([nullStart.attributes.started_at, nullStart.attributes.service_ids, nullStart.attributes.services], [nullStart.attributes.created_at, null, []]);
  });

  test('services and environments are named by id or slug (the hosted CLI sends slugs) and stored as ids', async () => {
    const [checkout, search, production] = [await service(), await service(), await environment()];
    const answer = await newPulse({ service_ids: [checkout.attributes.slug, search.id.toUpperCase()], environment_ids: [production.attributes.slug] });
    assert.deepEqual(answer.attributes.service_ids, [checkout.id, search.id]);
    assert.deepEqual(answer.attributes.environment_ids, [production.id]);
    assert.deepEqual(answer.attributes.services.map((s: Json) => s.slug), [checkout.attributes.slug, search.attributes.slug]);
    const twice = await newPulse({ service_ids: [checkout.id, checkout.attributes.slug] });
    assert.deepEqual(twice.attributes.service_ids, [checkout.id], 'an id and a slug of one service are one service');
    const changed = await send('PUT', `/v1/pulses/${answer.id}`, pulse({ service_ids: [search.attributes.slug] }));
    assert.deepEqual([changed.status, changed.body.data.attributes.service_ids, changed.body.data.attributes.environment_ids], [200, [search.id], [production.id]]);
  });


  test("the hosted CLI's own body (rootly pulse 1.2.4, tools/cli): nulls for what it was not given, nanosecond times, slugs", async () => {
    const checkout = await service();
    const body = {
      data: {
        type: 'pulses',
        attributes: {
          data: null,
          ended_at: '2026-11-26T19:29:43.608602755Z',
          environment_ids: null,
          service_ids: [checkout.attributes.slug],
          source: 'k8s',
          started_at: '2026-11-26T19:29:43.508602755Z',
          summary: 'Deployed checkout v2',
          labels: [{ key: 'version', value: '2' }],
          refs: [{ key: 'sha', value: 'cd62148cbc5eb42168fe99fdb50a364e12b206ac' }],
        },
      },
    };
    const res = await send('POST', '/v1/pulses', body);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const a = res.body.data.attributes;
    assert.deepEqual(
      [a.summary, a.source, a.service_ids, a.environment_ids, a.environments, a.data, a.started_at, a.ended_at],
      ['Deployed checkout v2', 'k8s', [checkout.id], null, [], null, '2026-11-26T19:29:43.508Z', '2026-11-26T19:29:43.608Z'],
    );
    // The CLI counts the services answered against the names it sent.
    assert.deepEqual(a.services.map((s: Json) => s.id), [checkout.id]);
  });
  test('a service or environment that is none of the organization is a 422 at its list member, naming it; nothing is written', async () => {
    const [mine, theirs, theirEnvironment] = [await service(), await service(w.other.token), await environment(w.other.token)];
    const before = await count();
    for (const [attribute, entries, at] of [
      ['service_ids', [mine.id, 'no-such-service'], 1],
      ['service_ids', [theirs.id], 0],
      ['service_ids', [mine.attributes.slug, theirs.attributes.slug], 1],
      ['environment_ids', [theirEnvironment.attributes.slug], 0],
      ['environment_ids', [NOWHERE], 0],
    ] as [string, string[], number][]) {
      const res = await send('POST', '/v1/pulses', pulse({ summary: 'Refused', [attribute]: entries }));
      assert.deepEqual([res.status, pointers(res)], [422, [`/data/attributes/${attribute}/${at}`]], `${attribute} ${entries.join(',')}`);
      assert.ok(res.body.errors[0].detail.includes(entries[at]), res.body.errors[0].detail);
    }
    const existing = await newPulse();
    const res = await send('PUT', `/v1/pulses/${existing.id}`, pulse({ service_ids: ['no-such-service'] }));
    assert.deepEqual([res.status, pointers(res)], [422, ['/data/attributes/service_ids/0']]);
    assert.equal(await count(), before + 1);
    assert.deepEqual((await send('GET', `/v1/pulses/${existing.id}`)).body.data.attributes.service_ids, []);
  });

  test('labels and refs are {key, value} pairs of strings: any other shape is a 422 naming the member', async () => {
    const before = await count();
    const bad = await send(
      'POST',
      '/v1/pulses',
      pulse({ summary: 'Odd pairs', labels: [{ key: 'ok', value: 'v' }, { key: 'port', value: 5432 }, { value: 'no key' }, { key: 'k', value: 'v', tag: 'x' }], refs: [{ key: 'sha' }] }),
    );
    assert.equal(bad.status, 422, JSON.stringify(bad.body));
    assert.deepEqual(pointers(bad), ['/data/attributes/labels/1/value', '/data/attributes/labels/2/key', '/data/attributes/labels/3/tag', '/data/attributes/refs/0/value']);
    assert.match(bad.body.errors[0].detail, /^labels\[1\]\.value must be a string$/);
    const notObjects = await send('POST', '/v1/pulses', pulse({ summary: 'Odd pairs', labels: ['version:v2'] }));
    assert.deepEqual([notObjects.status, pointers(notObjects)], [422, ['/data/attributes/labels/0']]);
    const existing = await newPulse({ labels: [{ key: 'version', value: 'v1' }] });
    const patched = await send('PUT', `/v1/pulses/${existing.id}`, pulse({ refs: [{ key: 'sha', value: 1 }] }));
    assert.deepEqual([patched.status, pointers(patched)], [422, ['/data/attributes/refs/0/value']]);
    assert.equal(await count(), before + 1);
  });

  test('the summary is required and not empty, ended_at is not before started_at, no other attribute is taken', async () => {
    const before = await count();
    for (const [attributes, pointer] of [
      [{ source: 'k8s' }, 'summary'],
      [{ summary: '' }, 'summary'],
      [{ summary: 'x'.repeat(256) }, 'summary'],
      [{ summary: 'Backwards', started_at: '2026-11-20T10:00:00Z', ended_at: '2026-11-20T09:59:59Z' }, 'ended_at'],
      [{ summary: 'Unknown', services: 'x', severity: 'high' }, 'severity'],
      [{ summary: 'Bad time', started_at: 'yesterday' }, 'started_at'],
    ] as [Attributes, string][]) {
      const res = await send('POST', '/v1/pulses', pulse(attributes));
      assert.deepEqual([res.status, pointers(res)], [422, [`/data/attributes/${pointer}`]], JSON.stringify(attributes));
    }
    const existing = await newPulse({ started_at: '2026-11-20T10:00:00Z' });
    const backwards = await send('PUT', `/v1/pulses/${existing.id}`, pulse({ ended_at: '2026-11-20T09:00:00Z' }));
    assert.deepEqual([backwards.status, pointers(backwards)], [422, ['/data/attributes/ended_at']], 'against the stored start');
    assert.equal(await count(), before + 1);
  });

  test('PUT changes what it sends and announces pulse.updated; there is no delete', async () => {
    const [checkout, production] = [await service(), await environment()];
    const original = await newPulse({ source: 'github', labels: [{ key: 'version', value: 'v1' }], started_at: '2026-11-20T10:00:00.000Z' });
    const res = await send(
      'PUT',
      `/v1/pulses/${original.id}`,
      pulse({ summary: 'Rolled back checkout', ended_at: '2026-11-20T10:30:00.000Z', service_ids: [checkout.id], environment_ids: [production.attributes.slug], labels: null, data: { reason: 'errors' } }),
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const changed = res.body.data.attributes;
    assert.deepEqual(
      [changed.summary, changed.source, changed.started_at, changed.ended_at, changed.labels, changed.data, changed.environment_ids],
      ['Rolled back checkout', 'github', '2026-11-20T10:00:00.000Z', '2026-11-20T10:30:00.000Z', null, { reason: 'errors' }, [production.id]],
    );
    assert.deepEqual(changed.services, [await asEmbedded('/v1/services', checkout.id)]);
    assert.deepEqual((await send('GET', `/v1/pulses/${original.id}`)).body.data, res.body.data);
    const restarted = await send('PUT', `/v1/pulses/${original.id}`, pulse({ started_at: null, ended_at: null }));
    assert.equal(restarted.status, 200, JSON.stringify(restarted.body));
    assert.equal(restarted.body.data.attributes.started_at, original.attributes.created_at, 'a start set to null is the creation time');
    assert.deepEqual(await outboxTypes(w.api, original.id), ['pulse.created', 'pulse.updated', 'pulse.updated']);
    assert.equal((await send('DELETE', `/v1/pulses/${original.id}`)).status, 405);
    assert.equal((await send('GET', `/v1/pulses/${original.id}`)).status, 200);
  });

  test('the list filters on source, services, environments, labels, refs and time ranges', async () => {
    const [checkout, search, production, staging] = [await service(), await service(), await environment(), await environment()];
    const source = unique('argo').replace(' ', '-');
    const version = unique('v').replace(' ', '');
    const a = await newPulse({ source, service_ids: [checkout.id], environment_ids: [production.id], labels: [{ key: 'version', value: version }], refs: [{ key: 'sha', value: `a-${version}` }], started_at: '2026-10-01T10:00:00Z', ended_at: '2026-10-01T10:10:00Z' });
    const b = await newPulse({ source: `${source}-2`, service_ids: [search.id], environment_ids: [staging.id], labels: [{ key: 'version', value: `${version}-b` }], refs: [{ key: 'sha', value: `b-${version}` }], started_at: '2026-10-02T10:00:00Z' });
    const c = await newPulse({ source, service_ids: [checkout.id, search.id], started_at: '2026-10-03T10:00:00Z', ended_at: '2026-10-03T11:00:00Z' });
    const mine = (found: string[]) => found.filter((id) => [a.id, b.id, c.id].includes(id));
    const sorted = (...pulses: Json[]) => pulses.map((p) => p.id).sort();

    assert.deepEqual(await listed(`filter[source]=${source}`), sorted(a, c));
    assert.deepEqual(await listed(`filter[source][eq]=${source}-2`), sorted(b));
    assert.deepEqual(await listed(`filter[source][in]=${source},${source}-2`), sorted(a, b, c));
    assert.deepEqual(mine(await listed(`filter[source][not_in]=${source}`)), sorted(b));
    assert.deepEqual(mine(await listed(`filter[source][not_eq]=${source}-2`)), sorted(a, c));

    assert.deepEqual(await listed(`filter[services]=${checkout.id}`), sorted(a, c));
    assert.deepEqual(await listed(`filter[services][eq]=${search.attributes.slug}`), sorted(b, c), 'by slug');
    assert.deepEqual(await listed(`filter[services][in]=${checkout.attributes.slug},${search.id}`), sorted(a, b, c));
    assert.deepEqual(mine(await listed(`filter[services][not_in]=${search.attributes.slug}`)), sorted(a));
    assert.deepEqual(mine(await listed(`filter[services][not_eq]=${checkout.id}`)), sorted(b));
    assert.deepEqual(await listed('filter[services]=no-such-service'), []);

    assert.deepEqual(await listed(`filter[environments]=${production.attributes.slug}`), sorted(a));
    assert.deepEqual(await listed(`filter[environments][in]=${production.id},${staging.attributes.slug}`), sorted(a, b));
    assert.deepEqual(mine(await listed(`filter[environments][not_eq]=${production.id}`)), sorted(b, c));

    assert.deepEqual(await listed(`filter[labels]=version:${version}`), sorted(a));
    assert.deepEqual(await listed(`filter[labels][in]=version:${version},version:${version}-b`), sorted(a, b));
    assert.deepEqual(mine(await listed(`filter[labels][not_in]=version:${version}`)), sorted(b, c));
    assert.deepEqual(await listed(`filter[refs][eq]=sha:b-${version}`), sorted(b));
    assert.deepEqual(mine(await listed(`filter[refs][not_eq]=sha:b-${version}`)), sorted(a, c));

    const october = 'filter[started_at][gte]=2026-10-01T00:00:00Z&filter[started_at][lt]=2026-10-04T00:00:00Z';
    assert.deepEqual(mine(await listed(`${october}&filter[started_at][gt]=2026-10-01T10:00:00Z`)), sorted(b, c));
    assert.deepEqual(mine(await listed(`${october}&filter[started_at][lte]=2026-10-02T10:00:00Z`)), sorted(a, b));
    assert.deepEqual(mine(await listed('filter[ended_at][gte]=2026-10-01T10:10:00Z&filter[ended_at][lt]=2026-10-03T11:00:00Z')), sorted(a));
    assert.deepEqual(mine(await listed(`filter[created_at][gte]=${a.attributes.created_at}&filter[source]=${source}`)), sorted(a, c));
    assert.deepEqual(mine(await listed(`filter[created_at][lt]=${a.attributes.created_at}`)), []);

    const page = await send('GET', `/v1/pulses?filter[source][in]=${source},${source}-2&page[size]=2&page[number]=2&sort=started_at`);
    assert.deepEqual([ids(page), page.body.meta.total_count], [[c.id], 3]);
    const included = await send('GET', `/v1/pulses?filter[source]=${source}-2&include=environments`);
    assert.deepEqual(included.body.included.map((r: Json) => r.id), [staging.id]);
    assert.equal(included.body.data[0].attributes.environments[0].id, staging.id);
    for (const bad of ['filter[summary]=x', 'filter[started_at]=2026-10-01T10:00:00Z', 'filter[labels][gt]=a', 'include=alerts']) assert.equal((await send('GET', `/v1/pulses?${bad}`)).status, 400, bad);
  });

  test("another organization's pulse answers 404 and never shows in its lists", async () => {
    const mine = await newPulse({ source: 'tenant-probe' });
    const theirs = (method: string, path: string, body?: unknown) => send(method, path, body, w.other.token);
    assert.equal((await theirs('GET', `/v1/pulses/${mine.id}`)).status, 404);
    assert.equal((await theirs('PUT', `/v1/pulses/${mine.id}`, pulse({ summary: 'Taken over' }))).status, 404);
    assert.equal((await theirs('GET', `/v1/pulses/${NOWHERE}`)).status, 404);
    assert.equal((await theirs('GET', '/v1/pulses/not-an-id')).status, 404);
    assert.deepEqual(ids(await theirs('GET', '/v1/pulses?filter[source]=tenant-probe')), []);
    assert.equal((await send('GET', `/v1/pulses/${mine.id}`)).body.data.attributes.summary, mine.attributes.summary);
  });

  test('the pulses permission family: a role without create gets 403 on writes, one without read on reads', async () => {
    const existing = await newPulse();
    const keyWith = async (permissions: Attributes) =>
      w.api.issueApiKey(w.org.organizationId, { kind: 'global', roleId: (await w.create('/v1/roles', 'roles', { name: unique('Limited'), ...permissions })).id });
    const reader = await keyWith({ pulses_permissions: ['read'] });
    assert.equal((await send('POST', '/v1/pulses', pulse({ summary: 'x' }), reader)).status, 403);
    assert.equal((await send('PUT', `/v1/pulses/${existing.id}`, pulse({ summary: 'x' }), reader)).status, 403);
    assert.equal((await send('GET', `/v1/pulses/${existing.id}`, undefined, reader)).status, 200);
    const updater = await keyWith({ pulses_permissions: ['read', 'update'] });
    assert.equal((await send('POST', '/v1/pulses', pulse({ summary: 'x' }), updater)).status, 403);
    assert.equal((await send('PUT', `/v1/pulses/${existing.id}`, pulse({ summary: 'Renamed' }), updater)).status, 200);
    const none = await keyWith({ incidents_permissions: ['create', 'read', 'update', 'delete'] });
    for (const [method, path] of [['GET', '/v1/pulses'], ['GET', `/v1/pulses/${existing.id}`]]) assert.equal((await send(method, path, undefined, none)).status, 403, `${method} ${path}`);
    const creator = await keyWith({ pulses_permissions: ['create'] });
    assert.equal((await send('POST', '/v1/pulses', pulse({ summary: 'Deployed by CI' }), creator)).status, 201);
  });
});
