import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { startTestApi, type TestApi, type TestOrganization } from '../src/testing';
import { newAlertSource, postInbound } from './support/alert-sources';
import { outboxTypes, publicOnlyKey } from './support/json-api';

type Attributes = Record<string, unknown>;

/** `/v1/incidents/{incident_id}/alerts`: attach, list, detach, with their events on both timelines (docs/alerts.md). */
describe('alerts on incidents', () => {
  let api: TestApi;
  let org: TestOrganization;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
  });
  after(() => api?.close());

  const send = (method: string, path: string, body?: unknown, token = org.token) => api.request(method, path, { token, body });
  const newAlert = async (summary: string, token = org.token) => {
    const res = await send('POST', '/v1/alerts', { data: { type: 'alerts', attributes: { summary } } }, token);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data.id as string;
  };
  const newIncident = async (attributes: Attributes = {}, token = org.token) => {
    const res = await send('POST', '/v1/incidents', { data: { type: 'incidents', attributes: { title: 'Checkout down', ...attributes } } }, token);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data.id as string;
  };
  const attach = (incidentId: string, alertIds: string[], token = org.token) => send('POST', `/v1/incidents/${incidentId}/alerts`, { data: { type: 'alerts', attributes: { alert_ids: alertIds } } }, token);
  const alertTrail = async (alertId: string) =>
    (await send('GET', `/v1/alerts/${alertId}/events?page[size]=50`)).body.data.map((e: { attributes: Attributes }) => [e.attributes.action, e.attributes.details]);
  const incidentTrail = async (incidentId: string) =>
    (await send('GET', `/v1/incidents/${incidentId}/events?page[size]=50`)).body.data.filter((e: { attributes: Attributes }) => e.attributes.kind === 'alerts').map((e: { attributes: Attributes }) => e.attributes.event);
  /** The public-only incident role of publicOnlyKey, with the seeded on-call User role (alerts read). */
  const publicOnlyKeyWithAlerts = async () => {
    await publicOnlyKey(api, org);
    const [{ role_id: roleId }] = await api.runtime.dataSource.query('SELECT role_id FROM api_keys WHERE organization_id = $1 AND role_id IS NOT NULL ORDER BY created_at DESC LIMIT 1', [org.organizationId]);
    const [{ id: onCallRoleId }] = await api.runtime.dataSource.query("SELECT id FROM on_call_roles WHERE organization_id = $1 AND system_role = 'user'", [org.organizationId]);
    return api.issueApiKey(org.organizationId, { roleId, onCallRoleId });
  };

  test('attach: the incident lists the alerts, both sides record it with their events, and the alert knows its incident', async () => {
    const [a, b] = [await newAlert('CPU high'), await newAlert('Disk full')];
    const incidentId = await newIncident();
    const res = await attach(incidentId, [a, b]);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.data.map((d: { id: string }) => d.id).sort(), [a, b].sort());
    assert.equal(res.body.meta.total_count, 2);
    assert.match(res.body.links.self, new RegExp(`/v1/incidents/${incidentId}/alerts`));

    const listed = await send('GET', `/v1/incidents/${incidentId}/alerts`);
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body.data.map((d: { id: string }) => d.id).sort(), [a, b].sort());
    const one = await send('GET', `/v1/incidents/${incidentId}/alerts/${a}`);
    assert.equal(one.status, 200);
    assert.equal(one.body.data.attributes.summary, 'CPU high');
    const incident = await send('GET', `/v1/incidents/${incidentId}`);
    assert.deepEqual([...incident.body.data.attributes.alert_ids].sort(), [a, b].sort());
    const alert = await send('GET', `/v1/alerts/${a}`);
    assert.deepEqual(alert.body.data.attributes.incident_ids, [incidentId]);

    assert.deepEqual(await incidentTrail(incidentId), ['Alerts attached: "CPU high", "Disk full"']);
    const [action, details] = (await alertTrail(a)).at(-1);
    assert.equal(action, 'attached');
    assert.match(details, /^Attached to incident #\d+ \(Checkout down\)$/);
    assert.ok((await outboxTypes(api, incidentId)).includes('incident.alerts_attached'));
    assert.deepEqual((await outboxTypes(api, a)).slice(-1), ['alert.updated']);

    // Attaching again changes nothing: no second line on either side.
    assert.equal((await attach(incidentId, [a])).status, 200);
    assert.equal((await incidentTrail(incidentId)).length, 1);
    assert.equal((await alertTrail(a)).filter(([act]: string[]) => act === 'attached').length, 1);
  });

  test('detach: the alert leaves the incident, both sides record it; detaching what is not attached is 404', async () => {
    const [a, b] = [await newAlert('Latency'), await newAlert('Errors')];
    const incidentId = await newIncident();
    assert.equal((await attach(incidentId, [a, b])).status, 200);
    const res = await send('DELETE', `/v1/incidents/${incidentId}/alerts/${a}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.data.map((d: { id: string }) => d.id), [b]);
    assert.deepEqual((await send('GET', `/v1/incidents/${incidentId}`)).body.data.attributes.alert_ids, [b]);
    assert.deepEqual((await send('GET', `/v1/alerts/${a}`)).body.data.attributes.incident_ids, []);
    assert.deepEqual(await incidentTrail(incidentId), ['Alerts attached: "Latency", "Errors"', 'Alerts detached: "Latency"']);
    assert.equal((await alertTrail(a)).at(-1)[0], 'removed');
    assert.ok((await outboxTypes(api, incidentId)).includes('incident.alerts_detached'));

    assert.equal((await send('GET', `/v1/incidents/${incidentId}/alerts/${a}`)).status, 404);
    const again = await send('DELETE', `/v1/incidents/${incidentId}/alerts/${a}`);
    assert.equal(again.status, 404);
    assert.match(again.body.errors[0].detail, /not attached/);
  });

  test('the incident\'s alert_ids on create and update attach and detach the same way', async () => {
    const [a, b] = [await newAlert('Created with'), await newAlert('Put later')];
    const incidentId = await newIncident({ alert_ids: [a] });
    assert.deepEqual((await send('GET', `/v1/alerts/${a}`)).body.data.attributes.incident_ids, [incidentId]);
    assert.equal((await alertTrail(a)).at(-1)[0], 'attached');
    const put = await send('PUT', `/v1/incidents/${incidentId}`, { data: { type: 'incidents', attributes: { alert_ids: [b] } } });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.deepEqual((await send('GET', `/v1/alerts/${a}`)).body.data.attributes.incident_ids, []);
    assert.deepEqual((await send('GET', `/v1/alerts/${b}`)).body.data.attributes.incident_ids, [incidentId]);
    assert.deepEqual(await incidentTrail(incidentId), ['Alerts attached: "Put later"', 'Alerts detached: "Created with"']);
    // Deleting the incident lets its alerts go.
    assert.equal((await send('DELETE', `/v1/incidents/${incidentId}`)).status, 200);
    assert.deepEqual((await send('GET', `/v1/alerts/${b}`)).body.data.attributes.incident_ids, []);
    assert.equal((await alertTrail(b)).at(-1)[0], 'removed');
  });

  test('include=incidents,groups links and includes the attached incidents and the groups; private ones only for who may see them', async () => {
    const team = await send('POST', '/v1/teams', { data: { type: 'groups', attributes: { name: `Team ${Math.random()}` } } });
    const alertRes = await send('POST', '/v1/alerts', { data: { type: 'alerts', attributes: { summary: 'Included', group_ids: [team.body.data.id] } } });
    const alertId = alertRes.body.data.id;
    const publicId = await newIncident({ alert_ids: [alertId] });
    const privateId = await newIncident({ private: true, alert_ids: [alertId] });

    const plain = await send('GET', `/v1/alerts/${alertId}`);
    assert.equal(plain.body.data.relationships, undefined);
    assert.equal(plain.body.included, undefined);

    const res = await send('GET', `/v1/alerts/${alertId}?include=incidents,groups`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data.relationships.incidents.data.map((r: { id: string }) => r.id).sort(), [publicId, privateId].sort());
    assert.deepEqual(res.body.data.relationships.groups.data, [{ type: 'groups', id: team.body.data.id }]);
    const included = res.body.included.map((r: { type: string; id: string }) => `${r.type}/${r.id}`).sort();
    assert.deepEqual(included, [`groups/${team.body.data.id}`, `incidents/${privateId}`, `incidents/${publicId}`].sort());
    assert.equal(res.body.included.find((r: { id: string }) => r.id === publicId).attributes.title, 'Checkout down');

    const listed = await send('GET', `/v1/alerts?include=incidents&filter[incident_ids]=${publicId}`);
    assert.deepEqual(listed.body.data[0].relationships.incidents.data.map((r: { id: string }) => r.id).sort(), [publicId, privateId].sort());

    const publicOnly = await publicOnlyKeyWithAlerts();
    const hidden = await send('GET', `/v1/alerts/${alertId}?include=incidents`, undefined, publicOnly);
    assert.equal(hidden.status, 200);
    assert.deepEqual(hidden.body.data.relationships.incidents.data.map((r: { id: string }) => r.id), [publicId]);
    // Nowhere in what that caller reads is the private incident's id: not the relationship, not incident_ids.
    assert.ok(!JSON.stringify(hidden.body).includes(privateId));
    assert.deepEqual(hidden.body.data.attributes.incident_ids, [publicId]);
    const hiddenList = await send('GET', `/v1/alerts?filter[incident_ids]=${publicId}`, undefined, publicOnly);
    assert.ok(!JSON.stringify(hiddenList.body).includes(privateId));
    const viaIncident = await send('GET', `/v1/incidents/${publicId}/alerts`, undefined, publicOnly);
    assert.ok(!JSON.stringify(viaIncident.body).includes(privateId));
    assert.deepEqual((await send('GET', `/v1/alerts/${alertId}`)).body.data.attributes.incident_ids.sort(), [publicId, privateId].sort(), 'the owner sees both');
  });

  test('a monitoring sender sees the public incidents its alert is attached to, never a private one', async () => {
    const source = await newAlertSource(api, org.token, { source_type: 'alertmanager' });
    const inbound = `${source.path}?secret=${source.secret}`;
    const fire = () =>
      postInbound(api, inbound, JSON.stringify({ version: '4', status: 'firing', alerts: [{ status: 'firing', labels: { alertname: 'Sender' }, annotations: { summary: 'seen by the sender' }, fingerprint: `fp-${Math.random()}` }] }));
    const first = await fire();
    assert.equal(first.status, 202, JSON.stringify(first.body));
    const alertId = first.body.data[0].id;
    const publicId = await newIncident({ alert_ids: [alertId] });
    const privateId = await newIncident({ private: true, alert_ids: [alertId] });
    const answer = await api.request('PATCH', `/v1/alerts/${alertId}`, { token: org.token, body: { data: { type: 'alerts', attributes: { description: 'seen' } } } });
    assert.deepEqual(answer.body.data.attributes.incident_ids.sort(), [publicId, privateId].sort());
    // The same payload again folds into the alert: the sender's answer shows it, without the private incident.
    const again = await api.request('POST', inbound, { headers: { 'content-type': 'application/json' }, rawBody: JSON.stringify({ version: '4', status: 'firing', alerts: [{ status: 'firing', labels: { alertname: 'Sender' }, annotations: { summary: 'seen by the sender' }, fingerprint: first.body.data[0].attributes.deduplication_key }] }) });
    assert.equal(again.status, 202);
    assert.equal(again.body.data[0].id, alertId);
    assert.deepEqual(again.body.data[0].attributes.incident_ids, [publicId]);
    assert.ok(!JSON.stringify(again.body).includes(privateId));
  });

  test('resolving an alert with resolve_related_incidents resolves its incidents with the message; without it they stay', async () => {
    const [a, b] = [await newAlert('Resolve with'), await newAlert('Resolve alone')];
    const [withIt, alone] = [await newIncident(), await newIncident()];
    assert.equal((await attach(withIt, [a])).status, 200);
    assert.equal((await attach(alone, [b])).status, 200);
    const body = (attributes: Attributes) => ({ data: { type: 'alerts', attributes } });
    const res = await send('POST', `/v1/alerts/${a}/resolve`, body({ resolution_message: 'Failed over', resolve_related_incidents: true }));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const incident = (await send('GET', `/v1/incidents/${withIt}`)).body.data.attributes;
    assert.deepEqual([incident.status, incident.resolution_message], ['resolved', 'Failed over']);
    assert.equal((await send('POST', `/v1/alerts/${b}/resolve`, body({ resolve_related_incidents: false }))).status, 200);
    assert.notEqual((await send('GET', `/v1/incidents/${alone}`)).body.data.attributes.status, 'resolved');
    const refused = await send('POST', `/v1/alerts/${b}/resolve`, body({ resolve_related_incidents: 'yes' }));
    assert.equal(refused.status, 422);
    assert.equal(refused.body.errors[0].source.pointer, '/data/attributes/resolve_related_incidents');
  });

  test('filter[incident_ids] lists the alerts of an incident on /v1/alerts too', async () => {
    const [a] = [await newAlert('Filtered'), await newAlert('Not attached')];
    const incidentId = await newIncident({ alert_ids: [a] });
    const res = await send('GET', `/v1/alerts?filter[incident_ids]=${incidentId}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data.map((d: { id: string }) => d.id), [a]);
  });

  test('bad input changes nothing: unknown or foreign alert ids 422 with a pointer, unknown incidents 404, incident_ids read-only', async () => {
    const other = await api.newOrganization();
    const foreignAlert = await newAlert('Theirs', other.token);
    const [mine] = [await newAlert('Mine')];
    const incidentId = await newIncident();
    const res = await attach(incidentId, [mine, foreignAlert]);
    assert.equal(res.status, 422);
    assert.equal(res.body.errors[0].source.pointer, '/data/attributes/alert_ids/1');
    assert.match(res.body.errors[0].detail, /alert_ids\[1\].*not an alert of this organization/);
    assert.deepEqual((await send('GET', `/v1/incidents/${incidentId}`)).body.data.attributes.alert_ids ?? [], []);
    assert.deepEqual((await send('GET', `/v1/alerts/${mine}`)).body.data.attributes.incident_ids, []);

    const missing = await attach(incidentId, ['not-a-uuid']);
    assert.equal(missing.status, 422);
    const noBody = await send('POST', `/v1/incidents/${incidentId}/alerts`, { data: { type: 'alerts', attributes: {} } });
    assert.equal(noBody.status, 422);
    assert.match(noBody.body.errors[0].detail, /alert_ids/);

    const theirIncident = await newIncident({}, other.token);
    assert.equal((await attach(theirIncident, [mine])).status, 404);
    assert.equal((await send('GET', `/v1/incidents/${theirIncident}/alerts`)).status, 404);
    assert.equal((await send('DELETE', `/v1/incidents/${theirIncident}/alerts/${mine}`)).status, 404);

    const patch = await send('PATCH', `/v1/alerts/${mine}`, { data: { type: 'alerts', attributes: { incident_ids: [incidentId] } } });
    assert.equal(patch.status, 200);
    assert.deepEqual(patch.body.data.attributes.incident_ids, []);
  });

  test('a private incident the caller may not read answers 404; the routes need alerts read, attaching incidents update', async () => {
    const alertId = await newAlert('Secret');
    const privateId = await newIncident({ private: true });
    const publicId = await newIncident();
    const noAlerts = await publicOnlyKey(api, org);
    for (const res of [await send('GET', `/v1/incidents/${publicId}/alerts`, undefined, noAlerts), await attach(publicId, [alertId], noAlerts)]) {
      assert.equal(res.status, 403);
      assert.match(res.body.errors[0].detail, /alerts/);
    }
    assert.deepEqual((await send('GET', `/v1/incidents/${publicId}`)).body.data.attributes.alert_ids ?? [], []);
    const publicOnly = await publicOnlyKeyWithAlerts();
    assert.equal((await send('GET', `/v1/incidents/${privateId}/alerts`, undefined, publicOnly)).status, 404);
    assert.equal((await attach(privateId, [alertId], publicOnly)).status, 404);
    assert.equal((await send('GET', `/v1/incidents/${publicId}/alerts`, undefined, publicOnly)).status, 200);
    const observerId = await api.addUser(org.organizationId, { roleKind: 'observer' });
    const observer = await api.issueApiKey(org.organizationId, { kind: 'personal', userId: observerId });
    assert.equal((await attach(publicId, [alertId], observer)).status, 403);
  });
});
