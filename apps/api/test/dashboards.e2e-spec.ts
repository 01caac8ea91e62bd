import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { useApiWorld } from './support/api-world';
import { created, doc, ids, outboxTypes, pointers, unique, type Attributes } from './support/json-api';

type Json = Record<string, any>;
const DAY = 86_400_000;
const isoDay = (t: number) => new Date(t).toISOString().slice(0, 10);

/** Dashboards and their panels, whose data counts the organization's records per period (docs/dashboards.md). */
describe('dashboards over HTTP', () => {
  const w = useApiWorld();
  const { send } = w;

  const newDashboard = async (attributes: Attributes = {}, token = w.org.token): Promise<Json> =>
    created(await send('POST', '/v1/dashboards', doc('dashboards', { name: unique('Dashboard'), owner: 'team', ...attributes }), token));
  const incidentsDataset = (extra: Attributes = {}) => ({ collection: 'incidents', aggregate: { operation: 'count', cumulative: false }, ...extra });
  const newPanel = async (dashboardId: string, attributes: Attributes = {}): Promise<Json> =>
    created(await send('POST', `/v1/dashboards/${dashboardId}/panels`, doc('dashboard_panels', { name: 'Incidents', params: { display: 'line_chart', datasets: [incidentsDataset()] }, ...attributes })));
  /** Incidents created now through the API, with these attributes each. */
  const incidents = async (token: string, ...attributes: Attributes[]) => {
    for (const a of attributes) created(await send('POST', '/v1/incidents', doc('incidents', { title: unique('Incident'), ...a }), token));
  };

  test('a dashboard: created with its defaults, read, listed, changed with PUT and PATCH, deleted with its panels', async () => {
    const dashboard = await newDashboard({ name: 'Reliability', description: 'Weekly review', color: '#D7F5E1', period: 'week' });
    const a = dashboard.attributes;
    assert.deepEqual([a.owner, a.user_id, a.public, a.auto_refresh, a.icon, a.period], ['team', null, false, false, '📊', 'week']);
    assert.equal((await send('GET', `/v1/dashboards/${dashboard.id}`)).body.data.attributes.name, 'Reliability');
    assert.ok(ids(await send('GET', '/v1/dashboards?page[size]=100')).includes(dashboard.id));
    const put = await send('PUT', `/v1/dashboards/${dashboard.id}`, doc('dashboards', { public: true }));
    assert.deepEqual([put.status, put.body.data.attributes.public], [200, true]);
    const patch = await send('PATCH', `/v1/dashboards/${dashboard.id}`, doc('dashboards', { auto_refresh: true }));
    assert.deepEqual([patch.status, patch.body.data.attributes.auto_refresh], [200, true]);
    const panel = await newPanel(dashboard.id);
    const withPanels = await send('GET', `/v1/dashboards/${dashboard.id}?include=panels`);
    assert.deepEqual(withPanels.body.included.map((i: Json) => i.id), [panel.id]);
    assert.equal((await send('DELETE', `/v1/dashboards/${dashboard.id}`)).status, 200);
    assert.equal((await send('GET', `/v1/dashboard_panels/${panel.id}`)).status, 404);
    assert.deepEqual(await outboxTypes(w.api, panel.id), ['dashboard_panel.created', 'dashboard_panel.deleted']);
  });

  test("a user's dashboard is its creator's; bad input is a 422 naming the attribute and nothing is written", async () => {
    const userId = await w.api.addUser(w.org.organizationId, { roleKind: 'admin' });
    const personal = await w.api.issueApiKey(w.org.organizationId, { kind: 'personal', userId });
    const mine = await newDashboard({ owner: 'user' }, personal);
    assert.equal(mine.attributes.user_id, userId);
    const count = (await send('GET', '/v1/dashboards?page[size]=100')).body.meta.total_count;
    for (const [attributes, pointer] of [
      [{ owner: 'nobody' } as Attributes, '/data/attributes/owner'],
      [{ color: '#000000' }, '/data/attributes/color'],
      [{ range: 'last week' }, '/data/attributes/range'],
      [{ period: 'hour' }, '/data/attributes/period'],
    ] as const) {
      const res = await send('POST', '/v1/dashboards', doc('dashboards', { name: 'Bad', owner: 'team', ...(attributes as Attributes) }));
      assert.deepEqual([res.status, pointers(res)], [422, [pointer]], JSON.stringify(attributes));
    }
    assert.equal((await send('GET', '/v1/dashboards?page[size]=100')).body.meta.total_count, count);
  });

  test("a panel's data counts the organization's incidents per period of its window, filtered and grouped", async () => {
    const dashboard = await newDashboard();
    await incidents(w.org.token, { severity: 'SEV0' }, {}, { status: 'mitigated' });
    await incidents(w.other.token, {}, {});
    const panel = await newPanel(dashboard.id);
    const today = isoDay(Date.now());
    const [series] = panel.attributes.data;
    assert.equal(series.name, 'Incidents');
    assert.equal(Object.keys(series.data).length, 8, 'the last 7 days and today, by day');
    assert.ok(series.data[today] >= 3, JSON.stringify(series.data));
    const range = `${new Date(Date.now() - 2 * DAY).toISOString()} to ${new Date(Date.now() + 60_000).toISOString()}`;
    const read = await send('GET', `/v1/dashboard_panels/${panel.id}?range=${encodeURIComponent(range)}&period=day&time_zone=UTC`);
    assert.equal(read.status, 200);
    assert.equal(Object.keys(read.body.data.attributes.data[0].data).length, 3);
    const mitigated = await newPanel(dashboard.id, {
      params: { display: 'column_chart', datasets: [incidentsDataset({ name: 'Mitigated', filter: [{ operation: 'and', rules: [{ operation: 'and', key: 'status', condition: '=', value: 'mitigated' }] }] })] },
    });
    assert.equal(mitigated.attributes.data[0].name, 'Mitigated');
    const before = await send('GET', `/v1/dashboard_panels/${mitigated.id}`);
    const mitigatedToday = before.body.data.attributes.data[0].data[today];
    await incidents(w.org.token, { status: 'mitigated' });
    assert.equal((await send('GET', `/v1/dashboard_panels/${mitigated.id}`)).body.data.attributes.data[0].data[today], mitigatedToday + 1);
    const byStatus = await newPanel(dashboard.id, { params: { display: 'pie_chart', datasets: [incidentsDataset({ group_by: 'status' })] } });
    const names = byStatus.attributes.data.map((s: Json) => s.name);
    assert.ok(names.includes('mitigated') && names.includes('started'), JSON.stringify(names));
    const cumulative = await newPanel(dashboard.id, { params: { display: 'line_chart', datasets: [incidentsDataset({ aggregate: { operation: 'count', cumulative: true } })] } });
    const values = Object.values(cumulative.attributes.data[0].data as Record<string, number>);
    assert.deepEqual(values, [...values].sort((x, y) => x - y), 'running totals never decrease');
  });

  test('private incidents count only for callers who may read them', async () => {
    const dashboard = await newDashboard();
    const panel = await newPanel(dashboard.id, { params: { datasets: [incidentsDataset({ filter: [{ operation: 'and', rules: [{ key: 'private', condition: '=', value: 'true' }] }] })] } });
    await incidents(w.org.token, { private: true });
    const today = isoDay(Date.now());
    assert.equal((await send('GET', `/v1/dashboard_panels/${panel.id}`)).body.data.attributes.data[0].data[today], 1);
    const role = created(await send('POST', '/v1/roles', doc('roles', { name: unique('No private'), incidents_permissions: ['read'] })));
    const limited = await w.api.issueApiKey(w.org.organizationId, { kind: 'global', roleId: role.id });
    assert.equal((await send('GET', `/v1/dashboard_panels/${panel.id}`, undefined, limited)).body.data.attributes.data[0].data[today], 0);
  });

  test('alerts, action items and users are counted too; a dataset names attributes of its collection (422 otherwise)', async () => {
    const dashboard = await newDashboard();
    const panel = await newPanel(dashboard.id, {
      params: { display: 'table', datasets: [{ collection: 'alerts' }, { collection: 'incident_action_items' }, { collection: 'users', name: 'People' }, { collection: 'incident_post_mortems' }] },
    });
    assert.deepEqual(panel.attributes.data.map((s: Json) => s.name), ['Alerts', 'Action items', 'People', 'Post mortems']);
    assert.deepEqual(panel.attributes.data[3].data, {});
    for (const dataset of [
      incidentsDataset({ filter: [{ rules: [{ key: 'password', condition: '=', value: 'x' }] }] }),
      incidentsDataset({ group_by: 'nonexistent' }),
      incidentsDataset({ aggregate: { operation: 'sum', key: 'title' } }),
      incidentsDataset({ group_by: 42 }),
      { collection: 'tickets' },
    ]) {
      const res = await send('POST', `/v1/dashboards/${dashboard.id}/panels`, doc('dashboard_panels', { params: { datasets: [dataset] } }));
      assert.equal(res.status, 422, JSON.stringify(dataset));
      assert.ok(pointers(res)[0]?.startsWith('/data/attributes/params'), JSON.stringify(res.body));
    }
    const bad = await send('GET', `/v1/dashboard_panels/${panel.id}?period=hour`);
    assert.deepEqual([bad.status, bad.body.errors[0].source.parameter], [400, 'period']);
    assert.equal((await send('GET', `/v1/dashboard_panels/${panel.id}?range=yesterday`)).status, 400);
    assert.equal((await send('GET', `/v1/dashboard_panels/${panel.id}?time_zone=Mars/Olympus`)).status, 400);
    assert.deepEqual(ids(await send('GET', `/v1/dashboards/${dashboard.id}/panels`)), [panel.id]);
  });

  test('duplicate copies a dashboard with its panels, and a panel on its dashboard; set_default answers the dashboard', async () => {
    const dashboard = await newDashboard({ name: 'Ops', description: 'on-call load' });
    const panel = await newPanel(dashboard.id, { name: 'Load', position: { x: 0, y: 0, w: 6, h: 4 } });
    const copy = await send('POST', `/v1/dashboards/${dashboard.id}/duplicate`);
    assert.equal(copy.status, 201);
    assert.deepEqual([copy.body.data.attributes.name, copy.body.data.attributes.description], ['Ops (copy)', 'on-call load']);
    const copiedPanels = await send('GET', `/v1/dashboards/${copy.body.data.id}/panels`);
    assert.deepEqual(copiedPanels.body.data.map((p: Json) => [p.attributes.name, p.attributes.position]), [['Load', { x: 0, y: 0, w: 6, h: 4 }]]);
    assert.notEqual(copiedPanels.body.data[0].id, panel.id);
    const panelCopy = await send('POST', `/v1/dashboard_panels/${panel.id}/duplicate`);
    assert.deepEqual([panelCopy.status, panelCopy.body.data.attributes.name, panelCopy.body.data.attributes.dashboard_id], [201, 'Load (copy)', dashboard.id]);
    const setDefault = await send('POST', `/v1/dashboards/${copy.body.data.id}/set_default`);
    assert.deepEqual([setDefault.status, setDefault.body.data.id], [200, copy.body.data.id]);
    assert.deepEqual((await outboxTypes(w.api, copy.body.data.id)).slice(-1), ['dashboard.default_set']);
  });

  test("the charts of a service, functionality and team: its incidents per period, its uptime; another organization's record is a 404", async () => {
    const service = created(await send('POST', '/v1/services', doc('services', { name: unique('Checkout') })));
    const functionality = created(await send('POST', '/v1/functionalities', doc('functionalities', { name: unique('Pay') })));
    const team = created(await send('POST', '/v1/teams', doc('groups', { name: unique('Payments') })));
    const startedAt = new Date(Date.now() - 6 * 3_600_000).toISOString();
    await incidents(w.org.token, { service_ids: [service.id], functionality_ids: [functionality.id], group_ids: [team.id], started_at: startedAt }, { service_ids: [service.id] }, {});
    const today = isoDay(Date.now());
    const byService = await send('GET', `/v1/services/${service.id}/incidents_chart?period=day`);
    assert.equal(byService.status, 200);
    assert.equal(Object.keys(byService.body.data).length, 30);
    assert.equal(byService.body.data[today], 2);
    assert.equal((await send('GET', `/v1/services/${service.attributes.slug}/incidents_chart?period=week`)).body.data[Object.keys((await send('GET', `/v1/services/${service.id}/incidents_chart?period=week`)).body.data).pop()!], 2);
    assert.equal((await send('GET', `/v1/functionalities/${functionality.id}/incidents_chart?period=day`)).body.data[today], 1);
    assert.equal((await send('GET', `/v1/teams/${team.id}/incidents_chart?period=month`)).body.data[`${today.slice(0, 8)}01`], 1);
    const uptime = await send('GET', `/v1/services/${service.id}/uptime_chart`);
    assert.equal(uptime.status, 200);
    assert.ok(uptime.body.data[today] < 100, JSON.stringify(uptime.body.data));
    assert.equal(Object.values(uptime.body.data as Record<string, number>).filter((v) => v < 100).length >= 1, true);
    assert.equal((await send('GET', `/v1/functionalities/${functionality.id}/uptime_chart?period=day`)).status, 200);
    const bad = await send('GET', `/v1/services/${service.id}/incidents_chart?period=year`);
    assert.deepEqual([bad.status, bad.body.errors[0].source.parameter], [400, 'period']);
    for (const path of [`/v1/services/${service.id}/incidents_chart?period=day`, `/v1/teams/${team.id}/incidents_chart?period=day`, `/v1/functionalities/${functionality.id}/uptime_chart`]) {
      assert.equal((await send('GET', path, undefined, w.other.token)).status, 404, path);
    }
  });

  test("another organization's dashboards and panels answer 404 and are never listed", async () => {
    const dashboard = await newDashboard();
    const panel = await newPanel(dashboard.id);
    const theirs = (method: string, path: string, body?: unknown) => send(method, path, body, w.other.token);
    for (const [method, path] of [
      ['GET', `/v1/dashboards/${dashboard.id}`],
      ['GET', `/v1/dashboard_panels/${panel.id}`],
      ['GET', `/v1/dashboards/${dashboard.id}/panels`],
      ['POST', `/v1/dashboards/${dashboard.id}/duplicate`],
      ['POST', `/v1/dashboards/${dashboard.id}/set_default`],
      ['POST', `/v1/dashboard_panels/${panel.id}/duplicate`],
      ['DELETE', `/v1/dashboard_panels/${panel.id}`],
    ]) {
      assert.equal((await theirs(method, path)).status, 404, `${method} ${path}`);
    }
    assert.equal((await theirs('POST', `/v1/dashboards/${dashboard.id}/panels`, doc('dashboard_panels', { params: { datasets: [] } }))).status, 404);
    assert.ok(!ids(await theirs('GET', '/v1/dashboards?page[size]=100')).includes(dashboard.id));
  });
});
