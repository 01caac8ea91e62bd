import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startTestApi, type TestApi, type TestOrganization, type TestResponse } from '../src/testing';

type Attributes = Record<string, unknown>;

const incident = (attributes: Attributes = {}) => ({ data: { type: 'incidents', attributes } });
const ids = (res: TestResponse): string[] => res.body.data.map((d: { id: string }) => d.id);
const unique = (name: string) => `${name} ${randomUUID().slice(0, 8)}`;

describe('GET /v1/incidents: filters, sorts and pages', () => {
  let api: TestApi;
  let org: TestOrganization;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
  });
  after(() => api?.close());

  const send = (method: string, path: string, body?: unknown, token = org.token) => api.request(method, path, { token, body });
  const record = async (path: string, type: string, name: string, token = org.token): Promise<string> => {
    const res = await send('POST', path, { data: { type, attributes: { name } } }, token);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data.id;
  };
  const create = async (attributes: Attributes = {}, token = org.token): Promise<string> => {
    const res = await send('POST', '/v1/incidents', incident(attributes), token);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data.id;
  };

  test('every filter on stored data and related names, with operators', async () => {
    const own = await api.newOrganization();
    const t = own.token;
    const sev1 = await record('/v1/severities', 'severities', 'SEV1 Critical', t);
    const sev2 = await record('/v1/severities', 'severities', 'SEV2', t);
    const checkout = await record('/v1/services', 'services', 'Checkout API', t);
    const search = await record('/v1/services', 'services', 'Search', t);
    const prod = await record('/v1/environments', 'environments', 'Production', t);
    const login = await record('/v1/functionalities', 'functionalities', 'Login', t);
    const sre = await record('/v1/teams', 'groups', 'SRE Team', t);
    const bug = await record('/v1/causes', 'causes', 'Bug', t);
    const outage = await record('/v1/incident_types', 'incident_types', 'Outage', t);

    const a = await create({ title: 'A', severity_id: sev1, service_ids: [checkout], environment_ids: [prod], group_ids: [sre], labels: { platform: 'osx', version: '1.29' } }, t);
    const b = await create({ title: 'B', severity_id: sev2, service_ids: [search], functionality_ids: [login], cause_ids: [bug], incident_type_ids: [outage], kind: 'test' }, t);
    const c = await create({ title: 'C', private: true, status: 'in_triage', slack_channel_id: 'C42', started_at: '2020-01-01T00:00:00Z' }, t);
    await send('PUT', `/v1/incidents/${b}/resolve`, incident({}), t);

    const list = async (query: string): Promise<string[]> => {
      const res = await send('GET', `/v1/incidents?${query}`, undefined, t);
      assert.equal(res.status, 200, `${query}: ${JSON.stringify(res.body)}`);
      return ids(res).sort();
    };
    const expect = async (query: string, wanted: string[]) => assert.deepEqual(await list(query), [...wanted].sort(), query);

    await expect('', [a, b, c]);
    await expect('filter[status]=resolved', [b]);
    await expect('filter[status][not_in]=resolved,in_triage', [a]);
    await expect('filter[kind]=test', [b]);
    await expect('filter[kind][not_eq]=test', [a, c]);
    await expect(`filter[severity_id]=${sev1}`, [a]);
    await expect('filter[severity]=sev2', [b]);
    await expect('filter[severity]=SEV1 Critical', [a]);
    await expect('filter[severity][not_eq]=sev2', [a, c]);
    await expect('filter[severity]=no-such-severity', []);
    await expect(`filter[service_ids]=${checkout},${search}`, [a, b]);
    await expect('filter[services]=checkout-api', [a]);
    await expect('filter[service_names]=Search', [b]);
    await expect('filter[service_names][not_in]=Search', [a, c]);
    await expect('filter[environments]=production', [a]);
    await expect(`filter[environment_ids]=${prod}`, [a]);
    await expect('filter[functionalities]=login', [b]);
    await expect('filter[functionality_names]=Login', [b]);
    await expect(`filter[functionality_ids]=${login}`, [b]);
    await expect('filter[teams]=sre-team', [a]);
    await expect('filter[team_names]=SRE Team', [a]);
    await expect(`filter[team_ids]=${sre}`, [a]);
    await expect('filter[cause]=bug', [b]);
    await expect(`filter[cause_ids]=${bug}`, [b]);
    await expect('filter[types]=outage', [b]);
    await expect(`filter[type_ids]=${outage}`, [b]);
    await expect('filter[labels]=platform:osx', [a]);
    await expect('filter[labels][in]=version:1.29,platform:linux', [a]);
    await expect('filter[labels][not_eq]=platform:osx', [b, c]);
    await expect('filter[sequential_id]=2', [b]);
    await expect('filter[sequential_id][in]=1,3', [a, c]);
    await expect('filter[private]=true', [c]);
    await expect('filter[slack_channel_id]=C42', [c]);
    await expect('filter[started_at][lt]=2021-01-01', [c]);
    await expect('filter[started_at][gte]=2021-01-01T00:00:00Z', [a, b]);
    await expect('filter[resolved_at][null]=false', [b]);
    await expect(`filter[created_at][gte]=2000-01-01&filter[search]=^B$`, [b]);
    assert.equal((await send('GET', '/v1/incidents?filter[started_at][gte]=yesterday', undefined, t)).status, 400);
    assert.equal((await send('GET', '/v1/incidents?filter[nope]=1', undefined, t)).status, 400);
    assert.equal((await send('GET', '/v1/incidents?filter[severity][gt]=a', undefined, t)).status, 400);

    const sorted = await send('GET', '/v1/incidents?sort=started_at', undefined, t);
    assert.deepEqual(ids(sorted), [c, a, b]);
    assert.deepEqual(ids(await send('GET', '/v1/incidents', undefined, t)), [c, b, a], 'newest first by default');
    const included = await send('GET', '/v1/incidents?include=services,groups&filter[services]=checkout-api', undefined, t);
    assert.deepEqual(included.body.included.map((r: { type: string }) => r.type).sort(), ['groups', 'services']);
  });

  test('include names the records under an incident: its action items, sub-statuses and timeline', async () => {
    const labels = { suite: unique('include') };
    const [first, second] = [await create({ title: unique('Included A'), labels }), await create({ title: unique('Included B'), labels })];
    const item = await send('POST', `/v1/incidents/${first}/action_items`, { data: { type: 'incident_action_items', attributes: { summary: 'Add an alert' } } });
    assert.equal(item.status, 201, JSON.stringify(item.body));
    const subStatus = await send('POST', '/v1/sub_statuses', { data: { type: 'sub_statuses', attributes: { name: unique('Fixing'), parent_status: 'started' } } });
    const assigned = await send('POST', `/v1/incidents/${second}/sub_statuses`, { data: { type: 'incident_sub_statuses', attributes: { sub_status_id: subStatus.body.data.id, assigned_at: '2026-11-01T10:00:00Z' } } });
    assert.equal(assigned.status, 201, JSON.stringify(assigned.body));

    const one = await send('GET', `/v1/incidents/${first}?include=action_items,sub_statuses`);
    assert.equal(one.status, 200, JSON.stringify(one.body));
    assert.deepEqual(one.body.data.relationships.action_items.data, [{ type: 'incident_action_items', id: item.body.data.id }]);
    assert.deepEqual(one.body.data.relationships.sub_statuses.data, []);
    assert.deepEqual(one.body.included.map((r: { id: string }) => r.id), [item.body.data.id]);
    assert.equal(one.body.included[0].attributes.summary, 'Add an alert');

    const list = await send('GET', `/v1/incidents?include=sub_statuses,action_items&filter[labels]=suite:${encodeURIComponent(labels.suite)}`);
    assert.deepEqual(ids(list).sort(), [first, second].sort());
    assert.equal(list.status, 200, JSON.stringify(list.body));
    type Links = Record<string, { data: { id: string }[] }>;
    const byId = new Map<string, Links>(list.body.data.map((d: { id: string; relationships: Links }) => [d.id, d.relationships]));
    assert.deepEqual(byId.get(second)!.sub_statuses.data.map((l: { id: string }) => l.id), [assigned.body.data.id]);
    assert.deepEqual(byId.get(second)!.action_items.data, []);
    assert.deepEqual(list.body.included.map((r: { type: string }) => r.type).sort(), ['incident_action_items', 'incident_sub_statuses']);
  });

  test('cursor pages: no row skipped or repeated while incidents are created between pages; back with page[before]', async () => {
    const own = await api.newOrganization();
    const t = own.token;
    const first: string[] = [];
    for (let i = 0; i < 7; i++) first.push(await create({ title: unique('page') }, t));
    const newestFirst = [...first].reverse();

    const seen: string[] = [];
    let res = await send('GET', '/v1/incidents?page[size]=3', undefined, t);
    assert.equal(res.status, 200);
    seen.push(...ids(res));
    while (res.body.meta.next_cursor) {
      // Newer incidents land before the cursor: they must not shift the pages that follow.
      await create({ title: unique('inserted') }, t);
      const cursor = encodeURIComponent(res.body.meta.next_cursor);
      res = await send('GET', `/v1/incidents?page[size]=3&page[after]=${cursor}`, undefined, t);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.meta.current_page, null);
      seen.push(...ids(res));
    }
    assert.deepEqual(seen, newestFirst, 'every incident once, in order');

    const cursor = encodeURIComponent((await send('GET', '/v1/incidents?page[size]=3', undefined, t)).body.meta.next_cursor);
    const next = await send('GET', `/v1/incidents?page[size]=3&page[after]=${cursor}`, undefined, t);
    const back = await api.request('GET', next.body.links.prev, { token: t });
    assert.equal(back.status, 200);
    assert.equal(back.body.data.length, 3);
    assert.deepEqual(ids(back), ids(await send('GET', '/v1/incidents?page[size]=3', undefined, t)), 'page[before] goes back to the first page');
    const stale = await send('GET', `/v1/incidents?page[size]=3&filter[status]=started&page[after]=${cursor}`, undefined, t);
    assert.match(stale.body.errors[0].detail, /stale/i);
    assert.equal(stale.status, 400, 'a cursor is tied to its filters');
  });

  test('filters apply with cursors, and lists never show another organization\'s incidents', async () => {
    const own = await api.newOrganization();
    const t = own.token;
    const mine: string[] = [];
    for (let i = 0; i < 5; i++) mine.push(await create({ title: unique('filtered'), kind: i % 2 ? 'test' : 'normal' }, t));
    await create({ title: unique('elsewhere'), kind: 'test' });
    const page1 = await send('GET', '/v1/incidents?filter[kind]=normal&page[size]=2', undefined, t);
    const page2 = await send('GET', `/v1/incidents?filter[kind]=normal&page[size]=2&page[after]=${encodeURIComponent(page1.body.meta.next_cursor)}`, undefined, t);
    assert.deepEqual([...ids(page1), ...ids(page2)], [mine[4], mine[2], mine[0]]);
    assert.equal(page2.body.meta.next_cursor, null);
    assert.deepEqual((await send('GET', '/v1/incidents?filter[kind]=test', undefined, t)).body.meta.total_count, 2);
  });
});
