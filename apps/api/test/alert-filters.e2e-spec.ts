import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { startTestApi, type TestApi, type TestOrganization } from '../src/testing';

type Attributes = Record<string, unknown>;
const doc = (attributes: Attributes, type = 'alerts') => ({ data: { type, attributes } });

/**
 * `GET /v1/alerts` filters on services, groups and environments (ids, slugs or names) and labels
 * (`key:value`), bare and with [eq], [not_eq], [in], [not_in] (docs/alerts.md).
 */
describe('GET /v1/alerts: services, groups, environments and labels filters', () => {
  let api: TestApi;
  let org: TestOrganization;
  let other: TestOrganization;
  /** Records of `org`: id, slug and name of each. */
  const records: Record<string, { id: string; slug: string; name: string }> = {};
  /** a1: payments, prod, sre, host:db1 and tier:1; a2: search, host:db2; a3: nothing. */
  const alerts: Record<'a1' | 'a2' | 'a3', string> = { a1: '', a2: '', a3: '' };
  let theirService = '';

  const send = (method: string, path: string, body?: unknown, token = org.token) => api.request(method, path, { token, body });
  const make = async (key: string, path: string, type: string, name: string) => {
    const res = await send('POST', path, doc({ name }, type));
    assert.equal(res.status, 201, JSON.stringify(res.body));
    records[key] = { id: res.body.data.id, slug: res.body.data.attributes.slug, name };
  };

  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
    other = await api.newOrganization();
    await make('payments', '/v1/services', 'services', 'Payments API');
    await make('search', '/v1/services', 'services', 'Search');
    await make('prod', '/v1/environments', 'environments', 'Production');
    await make('sre', '/v1/teams', 'groups', 'Site Reliability');
    const create = async (attributes: Attributes) => {
      const res = await send('POST', '/v1/alerts', doc(attributes));
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.data.id as string;
    };
    alerts.a1 = await create({
      summary: 'a1',
      service_ids: [records.payments.id],
      environment_ids: [records.prod.id],
      group_ids: [records.sre.id],
      labels: [{ key: 'host', value: 'db1' }, { key: 'tier', value: 1 }],
    });
    alerts.a2 = await create({ summary: 'a2', service_ids: [records.search.id], labels: [{ key: 'host', value: 'db2' }] });
    alerts.a3 = await create({ summary: 'a3' });
    // Another organization's service with the same name, and an alert on it: never seen.
    const theirs = await send('POST', '/v1/services', doc({ name: 'Payments API' }, 'services'), other.token);
    theirService = theirs.body.data.id;
    assert.equal((await send('POST', '/v1/alerts', doc({ summary: 'theirs', service_ids: [theirService] }), other.token)).status, 201);
  });
  after(() => api?.close());

  /** The alerts (a1..a3) a query answers, in list order. */
  const listed = async (query: string): Promise<string[]> => {
    const res = await send('GET', `/v1/alerts?${query}`);
    assert.equal(res.status, 200, `${query}: ${JSON.stringify(res.body)}`);
    const names = Object.fromEntries(Object.entries(alerts).map(([name, id]) => [id, name]));
    return res.body.data.map((d: { id: string }) => names[d.id] ?? d.id);
  };

  test('filter[services] takes ids, slugs or names, bare and with each operator', async () => {
    const { payments, search } = records;
    for (const value of [payments.id, payments.id.toUpperCase(), payments.slug, encodeURIComponent(payments.name)]) {
      assert.deepEqual(await listed(`filter[services]=${value}`), ['a1'], value);
      assert.deepEqual(await listed(`filter[services][eq]=${value}`), ['a1'], value);
    }
    assert.deepEqual(await listed(`filter[services][in]=${payments.slug},${encodeURIComponent(search.name)}`), ['a1', 'a2']);
    assert.deepEqual(await listed(`filter[services][not_eq]=${payments.slug}`), ['a2', 'a3']);
    assert.deepEqual(await listed(`filter[services][not_in]=${payments.id},${search.slug}`), ['a3']);
    assert.deepEqual(await listed('filter[services]=nothing-by-that-name'), []);
    assert.deepEqual(await listed('filter[services][not_eq]=nothing-by-that-name'), ['a1', 'a2', 'a3']);
    assert.deepEqual(await listed(`filter[services]=${theirService}`), [], "another organization's service names nothing here");
  });

  test('filter[groups] and filter[environments] take ids, slugs or names too', async () => {
    const { sre, prod } = records;
    for (const value of [sre.id, sre.slug, encodeURIComponent(sre.name)]) assert.deepEqual(await listed(`filter[groups]=${value}`), ['a1'], value);
    assert.deepEqual(await listed(`filter[groups][not_in]=${sre.slug}`), ['a2', 'a3']);
    for (const value of [prod.id, prod.slug, prod.name]) assert.deepEqual(await listed(`filter[environments][in]=${value}`), ['a1'], value);
    assert.deepEqual(await listed(`filter[environments][not_eq]=${prod.name}`), ['a2', 'a3']);
  });

  test('filter[labels] takes key:value pairs (numbers as text), bare and with each operator', async () => {
    assert.deepEqual(await listed('filter[labels]=host:db1'), ['a1']);
    assert.deepEqual(await listed('filter[labels][eq]=tier:1'), ['a1']);
    assert.deepEqual(await listed('filter[labels][in]=host:db1,host:db2'), ['a1', 'a2']);
    assert.deepEqual(await listed('filter[labels][not_eq]=host:db1'), ['a2', 'a3']);
    assert.deepEqual(await listed('filter[labels][not_in]=host:db1,host:db2'), ['a3']);
    assert.deepEqual(await listed('filter[labels]=host'), [], 'a key alone is no pair');
  });

  test('the filters combine with the others and with both paginations; a wrong operator is a 400', async () => {
    assert.deepEqual(await listed(`filter[services][not_eq]=${records.search.slug}&filter[status]=open&filter[labels][not_eq]=tier:1`), ['a3']);
    const numbered = await send('GET', `/v1/alerts?filter[services][not_eq]=${records.payments.slug}&page[size]=1&page[number]=2`);
    assert.deepEqual(numbered.body.data.map((d: { id: string }) => d.id), [alerts.a3]);
    assert.equal(numbered.body.meta.total_count, 2);
    const first = await send('GET', `/v1/alerts?filter[services][not_eq]=${records.payments.slug}&page[size]=1`);
    assert.deepEqual(first.body.data.map((d: { id: string }) => d.id), [alerts.a2]);
    const cursor = first.body.meta.next_cursor;
    assert.ok(cursor, 'a cursor to go on with');
    const next = await send('GET', `/v1/alerts?filter[services][not_eq]=${records.payments.slug}&page[size]=1&page[after]=${cursor}`);
    assert.equal(next.status, 200, JSON.stringify(next.body));
    assert.deepEqual(next.body.data.map((d: { id: string }) => d.id), [alerts.a3]);
    // The stored labels are still answered as the alert has them.
    const a1 = (await send('GET', `/v1/alerts?filter[labels]=host:db1`)).body.data[0];
    assert.deepEqual(a1.attributes.labels, [{ key: 'host', value: 'db1' }, { key: 'tier', value: 1 }]);
    assert.equal('label_pairs' in a1.attributes, false);
    // Without a value a filter filters nothing (the hosted API's Terraform provider sends such filters).
    assert.equal((await send('GET', '/v1/alerts?filter[groups]=&page[size]=100')).body.data.length, (await send('GET', '/v1/alerts?page[size]=100')).body.data.length);
    for (const bad of ['filter[services][gt]=x', 'filter[labels][null]=true', 'filter[label_pairs]=host:db1']) {
      const res = await send('GET', `/v1/alerts?${bad}`);
      assert.equal(res.status, 400, bad);
    }
  });

  test('the served OpenAPI document declares the filters, and PATCH for alert and alert event updates', async () => {
    const { paths } = (await send('GET', '/v1/openapi.json')).body;
    const names = (paths['/v1/alerts'].get.parameters as { name: string }[]).map((p) => p.name);
    for (const filter of ['services', 'groups', 'environments', 'labels', 'status', 'source']) {
      for (const suffix of ['', '[eq]', '[not_eq]', '[in]', '[not_in]']) assert.ok(names.includes(`filter[${filter}]${suffix}`), `filter[${filter}]${suffix}`);
    }
    for (const date of ['started_at', 'ended_at', 'created_at', 'updated_at']) {
      for (const op of ['gt', 'gte', 'lt', 'lte']) assert.ok(names.includes(`filter[${date}][${op}]`), `filter[${date}][${op}]`);
    }
    assert.ok(names.includes('page[after]') && names.includes('page[number]'));
    assert.equal(names.some((n) => n.includes('label_pairs') || n.includes('label_object')), false);
    assert.equal(paths['/v1/alert_events/{id}'].patch.operationId, 'updateAlertEvent');
    assert.equal(paths['/v1/alert_events/{id}'].put, undefined);
    assert.equal(paths['/v1/alerts/{id}'].patch.operationId, 'updateAlert');
    assert.equal(paths['/v1/alerts/{id}'].put, undefined);
    const event = (await send('GET', '/v1/openapi.json')).body.components.schemas.alert_event;
    assert.match(JSON.stringify(event.properties.page_reason), /"manual_reassignment"/);
  });
});
