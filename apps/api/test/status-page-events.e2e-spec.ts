import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { useApiWorld } from './support/api-world';
import { type Attributes, created, errorCodes, ids, outboxTypes, pointers, publicOnlyKey, unique } from './support/json-api';
import { newStatusPage } from './support/status-pages';

const TYPE = 'incident_status_page_events';
const doc = (attributes: Attributes) => ({ data: { type: TYPE, attributes } });
const of = (incident: string) => `/v1/incidents/${incident}/status-page-events`;
const at = (id: string) => `/v1/status-page-events/${id}`;

describe('incident status page events', () => {
  const w = useApiWorld();
  const { send } = w;

  const newIncident = (attributes: Attributes = {}, token?: string) => w.create('/v1/incidents', 'incidents', { title: unique('Checkout down'), ...attributes }, token);
  const newMaintenance = (token = w.org.token) => newIncident({ kind: 'scheduled', title: unique('Database upgrade') }, token);
  const newPage = async (token?: string): Promise<string> => (await newStatusPage(w, {}, token)).id;
  const post = (incident: string, attributes: Attributes, token = w.org.token) => send('POST', of(incident), doc(attributes), token);
  const make = async (incident: string, attributes: Attributes, token = w.org.token) => created(await post(incident, attributes, token));

  test("on an incident: investigating, not notified, not tweeted, started now and on no page when not said; listed under the incident, read, changed and deleted at their own path", async () => {
    const incident = await newIncident();
    const page = await newPage();
    const before = Date.now();
    const first = await make(incident.attributes.slug, { event: 'We are looking into it', status_page_id: page });
    assert.deepEqual(first.attributes, {
      incident_id: incident.id,
      event: 'We are looking into it',
      status: 'investigating',
      status_page_id: page,
      notify_subscribers: false,
      should_tweet: false,
      started_at: first.attributes.started_at,
      created_at: first.attributes.created_at,
      updated_at: first.attributes.updated_at,
    });
    assert.equal(first.attributes.started_at, first.attributes.created_at, 'started when created');
    assert.ok(Date.parse(first.attributes.started_at) >= before - 1000);
    const nulls = await make(incident.id, { event: 'Nulls are the defaults', notify_subscribers: null, should_tweet: null, started_at: null, status_page_id: null });
    assert.deepEqual([nulls.attributes.status, nulls.attributes.notify_subscribers, nulls.attributes.should_tweet, nulls.attributes.status_page_id], ['investigating', false, false, null]);
    assert.ok(Date.parse(nulls.attributes.started_at) >= before - 1000);
    const earlier = await make(incident.id, { event: 'Found it', status: 'identified', notify_subscribers: true, should_tweet: true, started_at: '2026-03-01T10:00:00+01:00', status_page_id: page });
    assert.deepEqual([earlier.attributes.status, earlier.attributes.notify_subscribers, earlier.attributes.should_tweet, earlier.attributes.started_at], ['identified', true, true, '2026-03-01T09:00:00.000Z']);

    assert.deepEqual(ids(await send('GET', of(incident.id))), [earlier.id, first.id, nulls.id], 'in the order they started');
    assert.deepEqual(ids(await send('GET', `${of(incident.id)}?filter[status]=identified`)), [earlier.id]);
    assert.deepEqual(ids(await send('GET', `${of(incident.id)}?filter[status_page_id]=${page}`)), [earlier.id, first.id]);
    assert.deepEqual((await send('GET', at(first.id))).body.data, first);
    assert.equal((await send('GET', `${of(incident.id)}?include=status_page`)).status, 400, 'nothing to include');
    const pageDeleted = await send('DELETE', `/v1/status-pages/${page}`);
    assert.equal(pageDeleted.status, 409, 'a page that events name stays');
    assert.deepEqual(errorCodes(pageDeleted), ['409/STILL_REFERENCED/Still referenced']);

    // A null flag or start changes nothing on update; the incident stays the path's.
    const changed = await send('PUT', at(first.id), doc({ status: 'resolved', event: 'Fixed', notify_subscribers: null, started_at: null, incident_id: (await newIncident()).id }));
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.deepEqual(changed.body.data.attributes, { ...first.attributes, status: 'resolved', event: 'Fixed', updated_at: changed.body.data.attributes.updated_at });

    assert.deepEqual((await send('DELETE', at(first.id))).body.data, changed.body.data);
    assert.equal((await send('GET', at(first.id))).status, 404);
    assert.deepEqual(ids(await send('GET', of(incident.id))), [earlier.id, nulls.id]);
    assert.deepEqual(await outboxTypes(w.api, first.id), ['incident_status_page_event.created', 'incident_status_page_event.updated', 'incident_status_page_event.deleted']);
  });

  test('on a scheduled maintenance: no status is a 422 titled "Invalid status for scheduled"; its statuses are scheduled, in_progress and completed', async () => {
    const maintenance = await newMaintenance();
    const missing = await post(maintenance.id, { event: 'Upgrade planned' });
    assert.equal(missing.status, 422, JSON.stringify(missing.body));
    assert.deepEqual(errorCodes(missing), ['422/INVALID_STATUS_FOR_SCHEDULED/Invalid status for scheduled']);
    assert.deepEqual(pointers(missing), ['/data/attributes/status']);
    assert.match(missing.body.errors[0].detail, /status is required on a scheduled maintenance: one of scheduled, in_progress, completed/);

    const made = [];
    for (const status of ['scheduled', 'in_progress', 'completed']) made.push(await make(maintenance.id, { event: `Upgrade ${status}`, status }));
    assert.deepEqual(made.map((e) => [e.attributes.status, e.attributes.notify_subscribers, e.attributes.should_tweet]), [
      ['scheduled', false, false],
      ['in_progress', false, false],
      ['completed', false, false],
    ]);

    const incidentStatus = await post(maintenance.id, { event: 'Looking', status: 'investigating' });
    assert.equal(incidentStatus.status, 422);
    assert.deepEqual(errorCodes(incidentStatus), ['422/INVALID_STATUS_FOR_SCHEDULED/Invalid status for scheduled']);
    assert.deepEqual(pointers(incidentStatus), ['/data/attributes/status']);
    const update = await send('PUT', at(made[0].id), doc({ status: 'monitoring' }));
    assert.equal(update.status, 422);
    assert.deepEqual(pointers(update), ['/data/attributes/status']);
    assert.deepEqual(ids(await send('GET', of(maintenance.id))), made.map((e) => e.id), 'nothing else written');
    assert.equal((await send('GET', at(made[0].id))).body.data.attributes.status, 'scheduled', 'unchanged');
  });

  test("an incident's event takes an incident's status, a page of the organization and an event: 422 naming the attribute otherwise, nothing written", async () => {
    const incident = await newIncident();
    const theirPage = await newPage(w.other.token);
    const cases: [Attributes, string, string, RegExp][] = [
      [{ event: 'Started', status: 'in_progress' }, 'status', '422/INVALID_STATUS_FOR_INCIDENT/Invalid attribute', /status in_progress is not a status of an incident: one of investigating, identified, monitoring, resolved/],
      [{ event: 'Started', status: 'fixed' }, 'status', '422/INVALID_ATTRIBUTE/Invalid attribute', /status must be one of/],
      [{ event: 'Posted', status_page_id: theirPage }, 'status_page_id', '422/UNKNOWN_STATUS_PAGE/Invalid attribute', new RegExp(`status_page_id: ${theirPage} is not a status page of this organization`)],
      [{ status: 'identified' }, 'event', '422/REQUIRED_ATTRIBUTE/Invalid attribute', /event/],
      [{ event: '' }, 'event', '422/INVALID_ATTRIBUTE/Invalid attribute', /event/],
    ];
    for (const [attributes, attribute, code, detail] of cases) {
      const res = await post(incident.id, attributes);
      assert.equal(res.status, 422, `${JSON.stringify(attributes)}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(errorCodes(res), [code], JSON.stringify(attributes));
      assert.deepEqual(pointers(res), [`/data/attributes/${attribute}`], JSON.stringify(attributes));
      assert.match(res.body.errors[0].detail, detail);
    }
    assert.deepEqual(ids(await send('GET', of(incident.id))), [], 'nothing written');

    const kept = await make(incident.id, { event: 'Looking' });
    for (const attributes of [{ status: 'completed' }, { status_page_id: theirPage }]) {
      const res = await send('PUT', at(kept.id), doc(attributes));
      assert.equal(res.status, 422, JSON.stringify(res.body));
      assert.deepEqual(pointers(res), [`/data/attributes/${Object.keys(attributes)[0]}`]);
    }
    assert.deepEqual((await send('GET', at(kept.id))).body.data, kept, 'unchanged');
  });

  test("another organization's incident or event, and a private incident's for a caller who may not see it, answer 404", async () => {
    const theirIncident = await newIncident({}, w.other.token);
    const theirs = await make(theirIncident.id, { event: 'Theirs' }, w.other.token);
    const body = doc({ event: 'Mine' });
    const missing = async (attempts: [string, string, unknown?][], token: string) => {
      for (const [method, path, payload] of attempts) {
        const res = await send(method, path, payload, token);
        assert.equal(res.status, 404, `${method} ${path}: ${JSON.stringify(res.body)}`);
        assert.deepEqual(errorCodes(res), ['404/NOT_FOUND/Not found']);
      }
    };
    await missing([['GET', of(theirIncident.id)], ['POST', of(theirIncident.id), body], ['GET', at(theirs.id)], ['PUT', at(theirs.id), body], ['DELETE', at(theirs.id)]], w.org.token);
    assert.deepEqual((await send('GET', at(theirs.id), undefined, w.other.token)).body.data, theirs, 'unchanged');

    const secret = await newIncident({ private: true });
    const hidden = await make(secret.id, { event: 'Hidden' });
    await missing([['GET', of(secret.id)], ['POST', of(secret.id), body], ['GET', at(hidden.id)], ['PUT', at(hidden.id), body], ['DELETE', at(hidden.id)]], await publicOnlyKey(w.api, w.org));
    assert.deepEqual((await send('GET', at(hidden.id))).body.data, hidden, 'unchanged, and seen by the owner');
  });
});
