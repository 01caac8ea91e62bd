import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { startTestApi, type TestApi, type TestOrganization } from '../src/testing';

const service = (attributes: Record<string, unknown>) => ({ data: { type: 'services', attributes } });
const severity = (attributes: Record<string, unknown>) => ({ data: { type: 'severities', attributes } });

describe('services and severities over HTTP', () => {
  let api: TestApi;
  let org: TestOrganization;
  let other: TestOrganization;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
    other = await api.newOrganization();
  });
  after(() => api.close());

  const post = (path: string, body: unknown, token = org.token) => api.request('POST', path, { token, body });
  const get = (path: string, token = org.token) => api.request('GET', path, { token });

  test('POST creates a service: 201, derived slug, provenance, position assigned', async () => {
    const res = await post('/v1/services', service({ name: 'Checkout API', public_description: 'Payments', external_id: 'ext-1' }));
    assert.equal(res.status, 201);
    assert.equal(res.body.data.type, 'services');
    assert.match(res.body.data.id, /^[0-9a-f-]{36}$/);
    const a = res.body.data.attributes;
    assert.equal(a.name, 'Checkout API');
    assert.equal(a.slug, 'checkout-api');
    assert.equal(a.public_description, 'Payments');
    assert.equal(a.external_id, 'ext-1');
    assert.equal(a.managed_by, 'api');
    assert.equal(a.position, 1);
    assert.equal(a.show_uptime_last_days, 60);
    assert.ok(Date.parse(a.created_at) > 0 && Date.parse(a.updated_at) > 0);
  });

  test('reads its own writes: a created record is in the very next list and get', async () => {
    const created = await post('/v1/severities', severity({ name: 'SEV read-your-writes', severity: 'high' }));
    assert.equal(created.status, 201);
    const list = await get('/v1/severities?filter[name]=SEV read-your-writes');
    assert.deepEqual(list.body.data.map((d: { id: string }) => d.id), [created.body.data.id]);
    const one = await get(`/v1/severities/${created.body.data.id}`);
    assert.equal(one.status, 200);
    assert.equal(one.body.data.attributes.severity, 'high');
  });

  test('GET finds a record by slug as well as by id', async () => {
    const created = await post('/v1/services', service({ name: 'Slug Lookup' }));
    const bySlug = await get('/v1/services/slug-lookup');
    assert.equal(bySlug.status, 200);
    assert.equal(bySlug.body.data.id, created.body.data.id);
  });

  test('PUT updates only the given attributes and DELETE returns the deleted record', async () => {
    const created = await post('/v1/services', service({ name: 'Mutable', color: '#ff0000' }));
    const id = created.body.data.id;
    const updated = await api.request('PUT', `/v1/services/${id}`, {
      token: org.token,
      body: service({ description: 'now described', owner_user_ids: [1, 2] }),
    });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.data.attributes.description, 'now described');
    assert.equal(updated.body.data.attributes.color, '#ff0000');
    assert.deepEqual(updated.body.data.attributes.owner_user_ids, [1, 2]);
    assert.equal((await get(`/v1/services/${id}`)).body.data.attributes.description, 'now described');
    const deleted = await api.request('DELETE', `/v1/services/${id}`, { token: org.token });
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.data.id, id);
    assert.equal(deleted.body.data.attributes.name, 'Mutable');
    assert.equal((await get(`/v1/services/${id}`)).status, 404);
  });

  test('another organization’s id answers 404 and changes nothing', async () => {
    const created = await post('/v1/services', service({ name: 'Private to org' }));
    const id = created.body.data.id;
    assert.equal((await get(`/v1/services/${id}`, other.token)).status, 404);
    const put = await api.request('PUT', `/v1/services/${id}`, { token: other.token, body: service({ name: 'hijacked' }) });
    assert.equal(put.status, 404);
    const del = await api.request('DELETE', `/v1/services/${id}`, { token: other.token });
    assert.equal(del.status, 404);
    const list = await get('/v1/services', other.token);
    assert.ok(!list.body.data.some((d: { id: string }) => d.id === id));
    assert.equal((await get(`/v1/services/${id}`)).body.data.attributes.name, 'Private to org');
  });

  test('unknown attributes answer 422 naming each one, and nothing is created', async () => {
    const res = await post('/v1/services', service({ name: 'Guarded', is_admin: true, owner: 'me' }));
    assert.equal(res.status, 422);
    const details = res.body.errors.map((e: { detail: string }) => e.detail).join(' | ');
    assert.match(details, /is_admin/);
    assert.match(details, /owner/);
    assert.ok(res.body.errors.every((e: { status: string }) => e.status === '422'));
    assert.equal((await get('/v1/services?filter[name]=Guarded')).body.data.length, 0);
  });

  test('output-only attributes sent by a client are ignored', async () => {
    const res = await post('/v1/services', service({ name: 'Output only', created_at: '2001-01-01T00:00:00Z', managed_by: 'terraform', alerts_email_address: 'x@y.z' }));
    assert.equal(res.status, 201);
    assert.notEqual(res.body.data.attributes.created_at, '2001-01-01T00:00:00.000Z');
    assert.equal(res.body.data.attributes.managed_by, 'api');
    assert.equal(res.body.data.attributes.alerts_email_address, null);
  });

  test('a submitted slug is ignored and the response warns with Deprecation and X-API-Warn', async () => {
    const res = await post('/v1/severities', severity({ name: 'Sev Slugged', slug: 'custom-slug' }));
    assert.equal(res.status, 201);
    assert.equal(res.body.data.attributes.slug, 'sev-slugged');
    assert.equal(res.headers.get('deprecation'), 'true');
    assert.match(res.headers.get('x-api-warn') ?? '', /slug/);
  });

  test('a wrong or missing type, or non-object attributes, are refused', async () => {
    const wrong = await post('/v1/services', { data: { type: 'severities', attributes: { name: 'x' } } });
    assert.equal(wrong.status, 422);
    assert.match(wrong.body.errors[0].detail, /services/);
    const missing = await post('/v1/services', { data: { attributes: { name: 'x' } } });
    assert.equal(missing.status, 422);
    assert.match(missing.body.errors[0].detail, /type/);
    const attrs = await post('/v1/services', { data: { type: 'services', attributes: 'name=x' } });
    assert.equal(attrs.status, 422);
    assert.match(attrs.body.errors[0].detail, /attributes/);
    const noData = await post('/v1/services', { name: 'x' });
    assert.equal(noData.status, 400);
  });

  test('values outside an enum or of the wrong type answer 422 naming the attribute', async () => {
    const res = await post('/v1/severities', severity({ name: 'Bad', severity: 'urgent', position: 'first' }));
    assert.equal(res.status, 422);
    const details = res.body.errors.map((e: { detail: string }) => e.detail).join(' | ');
    assert.match(details, /severity/);
    assert.match(details, /position/);
    const noName = await post('/v1/severities', severity({ color: '#000' }));
    assert.equal(noName.status, 422);
    assert.match(noName.body.errors[0].detail, /name/);
  });
});

describe('list queries over HTTP', () => {
  let api: TestApi;
  let org: TestOrganization;
  const names = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo'];
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
    for (const name of names) {
      const res = await api.request('POST', '/v1/services', { token: org.token, body: service({ name, backstage_id: name === 'Echo' ? null : `bs-${name}` }) });
      assert.equal(res.status, 201);
    }
  });
  after(() => api.close());
  const list = (query: string) => api.request('GET', `/v1/services?${query}`, { token: org.token });
  const namesOf = (res: { body: { data: { attributes: { name: string } }[] } }) => res.body.data.map((d) => d.attributes.name);

  test('default order is ascending by position; sort=-position restores descending', async () => {
    assert.deepEqual(namesOf(await list('')), names);
    assert.deepEqual(namesOf(await list('sort=-position')), [...names].reverse());
    assert.deepEqual(namesOf(await list('sort=-name')), [...names].reverse());
  });

  test('unknown sort fields and includes answer 400 naming them', async () => {
    const sort = await list('sort=nope');
    assert.equal(sort.status, 400);
    assert.match(sort.body.errors[0].detail, /nope/);
    const include = await list('include=owners');
    assert.equal(include.status, 400);
    assert.match(include.body.errors[0].detail, /owners/);
  });

  test('filters with operators, trimmed comma lists and null checks', async () => {
    assert.deepEqual(namesOf(await list('filter[name]=Alpha, Charlie')), ['Alpha', 'Charlie']);
    assert.deepEqual(namesOf(await list('filter[name][not_in]=Alpha,Bravo,Charlie')), ['Delta', 'Echo']);
    assert.deepEqual(namesOf(await list('filter[backstage_id][null]=true')), ['Echo']);
    assert.deepEqual(namesOf(await list('filter[position][gte]=4')), ['Delta', 'Echo']);
    assert.equal((await list('filter[created_at][gte]=2000-01-01T00:00:00Z')).body.data.length, 5);
    assert.equal((await list('filter[created_at][lt]=2000-01-01T00:00:00Z')).body.data.length, 0);
  });

  test('malformed filter operators and values answer 400', async () => {
    for (const q of ['filter[created_at][gte]=yesterday', 'filter[created_at][between]=1', 'filter[name][gt]=A', 'filter[unknown]=1', 'filter[position][gt]=x']) {
      const res = await list(q);
      assert.equal(res.status, 400, q);
      assert.equal(res.body.errors[0].status, '400');
    }
  });

  test('filter[search] is a case-insensitive regex; an invalid pattern answers 400', async () => {
    assert.deepEqual(namesOf(await list('filter[search]=^(al|br)')), ['Alpha', 'Bravo']);
    const bad = await list(`filter[search]=${encodeURIComponent('(unclosed')}`);
    assert.equal(bad.status, 400);
  });

  test('page numbers: links and meta as the spec documents them', async () => {
    const res = await list('page[size]=2&page[number]=2');
    assert.deepEqual(namesOf(res), ['Charlie', 'Delta']);
    assert.deepEqual(
      { ...res.body.meta, next_cursor: undefined },
      { current_page: 2, next_page: 3, prev_page: 1, total_count: 5, total_pages: 3, next_cursor: undefined },
    );
    for (const key of ['self', 'first', 'prev', 'next', 'last']) assert.equal(typeof res.body.links[key], 'string', key);
    const last = await api.request('GET', res.body.links.last, { token: org.token });
    assert.deepEqual(namesOf(last), ['Echo']);
  });

  test('page[size] above the maximum of 100 is clamped, and the links carry the clamped size', async () => {
    const res = await list('page[size]=500');
    assert.equal(res.status, 200);
    assert.match(decodeURIComponent(res.body.links.self), /page\[size\]=100/);
    assert.equal((await list('page[size]=0')).status, 400);
  });

  test('cursor pages walk the whole list; a tampered cursor answers 400', async () => {
    const seen: string[] = [];
    let res = await list('page[size]=2&page[after]=');
    if (res.status === 400) res = await list('page[size]=2');
    seen.push(...namesOf(res));
    let cursor: string | null = res.body.meta.next_cursor;
    while (cursor) {
      res = await list(`page[size]=2&page[after]=${encodeURIComponent(cursor)}`);
      assert.equal(res.status, 200);
      seen.push(...namesOf(res));
      cursor = res.body.meta.next_cursor;
    }
    assert.deepEqual(seen, names);
    const first = await list('page[size]=2');
    const firstCursor: string = first.body.meta.next_cursor;
    const tampered = `${firstCursor.slice(0, -3)}${firstCursor.endsWith('AAA') ? 'BBB' : 'AAA'}`;
    assert.equal((await list(`page[size]=2&page[after]=${tampered}`)).status, 400);
    const otherSort = await list(`sort=-name&page[size]=2&page[after]=${first.body.meta.next_cursor}`);
    assert.equal(otherSort.status, 400);
  });
});

describe('concurrent writes', () => {
  let api: TestApi;
  let org: TestOrganization;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
  });
  after(() => api.close());

  test('parallel creates with the same name all succeed with distinct slugs', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, () => api.request('POST', '/v1/services', { token: org.token, body: service({ name: 'Same Name' }) })),
    );
    assert.deepEqual(results.map((r) => r.status), Array(8).fill(201));
    const slugs = new Set(results.map((r) => r.body.data.attributes.slug));
    assert.equal(slugs.size, 8);
  });
});
