import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { startTestApi, type TestApi, type TestOrganization, type TestResponse } from '../src/testing';
import { created, errorCodes, ids, outboxTypes, pointers, publicOnlyKey, unique } from './support/json-api';

type Attributes = Record<string, unknown>;

const doc = (type: string, attributes: Attributes) => ({ data: { type, attributes } });
const assignment = (attributes: Attributes) => doc('incident_sub_statuses', attributes);

describe('records under an incident and its timeline: sub-status assignments, event services and functionalities', () => {
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
  const make = async (path: string, type: string, attributes: Attributes, token = org.token) => created(await send('POST', path, doc(type, attributes), token));
  const newIncident = (attributes: Attributes = {}, token = org.token) => make('/v1/incidents', 'incidents', { title: unique('Outage'), ...attributes }, token);
  const newSubStatus = async (token = org.token) => (await make('/v1/sub_statuses', 'sub_statuses', { name: unique('Investigating'), parent_status: 'started' }, token)).id;
  const newEvent = async (incident: string, token = org.token) => (await make(`/v1/incidents/${incident}/events`, 'incident_events', { event: unique('Checkout down') }, token)).id;
  const named = async (path: string, type: string, token = org.token) => (await make(path, type, { name: unique(type) }, token)).id;
  const assertAllMissing = async (attempts: [string, string, unknown?][], token: string) => {
    for (const [method, path, body] of attempts) {
      const res = await send(method, path, body, token);
      assert.equal(res.status, 404, `${method} ${path}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(errorCodes(res), ['404/NOT_FOUND/Not found']);
    }
  };

  describe('sub-status assignments', () => {
    const of = (incident: string) => `/v1/incidents/${incident}/sub_statuses`;

    test('are created and listed under the incident in the order of assignment, read, changed and deleted at their own path', async () => {
      const incident = await newIncident();
      const [investigating, fixing] = [await newSubStatus(), await newSubStatus()];
      const userId = await api.addUser(org.organizationId, { roleKind: 'user' });
      const personal = await api.issueApiKey(org.organizationId, { kind: 'personal', userId });
      const later = await make(of(incident.attributes.slug), 'incident_sub_statuses', { sub_status_id: fixing, assigned_at: '2026-02-01T10:00:00Z' }, personal);
      assert.deepEqual(later.attributes, {
        incident_id: incident.id,
        sub_status_id: fixing,
        assigned_at: '2026-02-01T10:00:00.000Z',
        assigned_by_user_id: userId,
        created_at: later.attributes.created_at,
        updated_at: later.attributes.updated_at,
      });
      const keyWithoutUser = await api.issueApiKey(org.organizationId, { kind: 'global' });
      const earlier = await make(of(incident.id), 'incident_sub_statuses', { sub_status_id: investigating, assigned_at: '2026-02-01T09:00:00+00:00' }, keyWithoutUser);
      assert.equal(earlier.attributes.assigned_by_user_id, null, 'a key without a user assigns as no one');
      assert.deepEqual(ids(await send('GET', of(incident.id))), [earlier.id, later.id]);
      assert.deepEqual(ids(await send('GET', `${of(incident.id)}?sort=-assigned_at`)), [later.id, earlier.id]);
      assert.deepEqual(ids(await send('GET', `${of(incident.id)}?filter[sub_status_id]=${fixing}`)), [later.id]);
      assert.deepEqual(ids(await send('GET', `${of(incident.id)}?filter[assigned_at][lt]=2026-02-01T09:30:00Z`)), [earlier.id]);
      assert.deepEqual((await send('GET', `/v1/incident_sub_statuses/${later.id}`)).body.data, later);

      const changed = await send('PUT', `/v1/incident_sub_statuses/${later.id}`, assignment({ assigned_at: '2026-02-01T08:00:00Z', assigned_by_user_id: null, incident_id: (await newIncident()).id }));
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
      assert.deepEqual(changed.body.data.attributes, { ...later.attributes, assigned_at: '2026-02-01T08:00:00.000Z', assigned_by_user_id: null, updated_at: changed.body.data.attributes.updated_at });
      assert.deepEqual(ids(await send('GET', of(incident.id))), [later.id, earlier.id]);

      assert.deepEqual((await send('DELETE', `/v1/incident_sub_statuses/${later.id}`)).body.data, changed.body.data);
      assert.equal((await send('GET', `/v1/incident_sub_statuses/${later.id}`)).status, 404);
      assert.deepEqual(await outboxTypes(api, later.id), ['incident_sub_status.created', 'incident_sub_status.updated', 'incident_sub_status.deleted']);
    });

    test('name a sub-status and a user of the organization, with an assignment time: 422 naming the attribute otherwise', async () => {
      const incident = await newIncident();
      const mine = await newSubStatus();
      const theirs = await newSubStatus(other.token);
      const theirUser = await api.addUser(other.organizationId, { roleKind: 'user' });
      const at = '2026-02-01T10:00:00Z';
      const cases: [Attributes, string[], RegExp?][] = [
        [{}, ['/data/attributes/assigned_at', '/data/attributes/sub_status_id']],
        [{ sub_status_id: theirs, assigned_at: at }, ['/data/attributes/sub_status_id'], new RegExp(`sub_status_id: ${theirs} is not a sub-status of this organization`)],
        [{ sub_status_id: 'investigating', assigned_at: at }, ['/data/attributes/sub_status_id']],
        [{ sub_status_id: mine, assigned_at: 'yesterday' }, ['/data/attributes/assigned_at']],
        [{ sub_status_id: mine, assigned_at: at, assigned_by_user_id: theirUser }, ['/data/attributes/assigned_by_user_id'], /is not a user of this organization/],
      ];
      for (const [attributes, expected, detail] of cases) {
        const res = await send('POST', of(incident.id), assignment(attributes));
        assert.equal(res.status, 422, `${JSON.stringify(attributes)}: ${JSON.stringify(res.body)}`);
        assert.deepEqual(pointers(res).sort(), expected, JSON.stringify(attributes));
        if (detail) assert.match(res.body.errors[0].detail, detail);
      }
      assert.deepEqual(ids(await send('GET', of(incident.id))), [], 'nothing written');
      const kept = await make(of(incident.id), 'incident_sub_statuses', { sub_status_id: mine, assigned_at: at });
      const refused = await send('PUT', `/v1/incident_sub_statuses/${kept.id}`, assignment({ sub_status_id: theirs }));
      assert.equal(refused.status, 422);
      assert.deepEqual(pointers(refused), ['/data/attributes/sub_status_id']);
    });

    test('another organization\'s incident or assignment, and a private incident\'s for a caller who may not see it, answer 404', async () => {
      const theirIncident = await newIncident({}, other.token);
      const theirs = await make(of(theirIncident.id), 'incident_sub_statuses', { sub_status_id: await newSubStatus(other.token), assigned_at: '2026-02-01T10:00:00Z' }, other.token);
      const mine = await newSubStatus();
      const body = assignment({ sub_status_id: mine, assigned_at: '2026-02-01T10:00:00Z' });
      const path = `/v1/incident_sub_statuses/${theirs.id}`;
      await assertAllMissing([['GET', of(theirIncident.id)], ['POST', of(theirIncident.id), body], ['GET', path], ['PUT', path, body], ['DELETE', path]], org.token);

      const secret = await newIncident({ private: true });
      const hidden = await make(of(secret.id), 'incident_sub_statuses', { sub_status_id: mine, assigned_at: '2026-02-01T10:00:00Z' });
      const hiddenPath = `/v1/incident_sub_statuses/${hidden.id}`;
      await assertAllMissing([['GET', of(secret.id)], ['POST', of(secret.id), body], ['GET', hiddenPath], ['PUT', hiddenPath, body], ['DELETE', hiddenPath]], await publicOnlyKey(api, org));
      assert.deepEqual((await send('GET', hiddenPath)).body.data, hidden, 'unchanged, and seen by the owner');
    });
  });

  describe('timeline event links', () => {
    const LINKS = [
      { segment: 'services', type: 'incident_event_services', attribute: 'service_id', catalog: '/v1/services', catalogType: 'services' },
      { segment: 'functionalities', type: 'incident_event_functionalities', attribute: 'functionality_id', catalog: '/v1/functionalities', catalogType: 'functionalities' },
    ];

    for (const link of LINKS) {
      const under = (event: string) => `/v1/events/${event}/${link.segment}`;
      const at = (id: string) => `/v1/${link.type}/${id}`;

      test(`${link.segment}: linked under the event, read, re-statused and deleted at their own path, each change announced`, async () => {
        const event = await newEvent((await newIncident()).id);
        const linked = await named(link.catalog, link.catalogType);
        const made = await make(under(event), link.type, { [link.attribute]: linked, status: 'major_outage' });
        assert.deepEqual(made.attributes, { incident_event_id: event, [link.attribute]: linked, status: 'major_outage', created_at: made.attributes.created_at, updated_at: made.attributes.updated_at });
        assert.deepEqual((await send('GET', under(event))).body.data, [made]);
        assert.deepEqual((await send('GET', at(made.id))).body.data, made);

        // update_incident_event_<linked> takes the status: a link keeps what it links.
        const changed = await send('PUT', at(made.id), doc(link.type, { status: 'operational', [link.attribute]: await named(link.catalog, link.catalogType) }));
        assert.equal(changed.status, 200, JSON.stringify(changed.body));
        assert.deepEqual(changed.body.data.attributes, { ...made.attributes, status: 'operational', updated_at: changed.body.data.attributes.updated_at });

        assert.equal((await send('DELETE', at(made.id))).status, 200);
        assert.deepEqual((await send('GET', under(event))).body.data, []);
        const singular = link.type.replace(/ies$/, 'y').replace(/s$/, '');
        assert.deepEqual(await outboxTypes(api, made.id), ['created', 'updated', 'deleted'].map((what) => `${singular}.${what}`));
      });

      test(`${link.segment}: the linked record must be of the organization (422); another organization's or a hidden private incident's event is missing (404)`, async () => {
        const incident = await newIncident();
        const event = await newEvent(incident.id);
        const theirs = await named(link.catalog, link.catalogType, other.token);
        for (const [attributes, pointer] of [
          [{ [link.attribute]: theirs, status: 'operational' }, `/data/attributes/${link.attribute}`],
          [{ [link.attribute]: await named(link.catalog, link.catalogType), status: 'down' }, '/data/attributes/status'],
          [{ status: 'operational' }, `/data/attributes/${link.attribute}`],
        ] as [Attributes, string][]) {
          const res = await send('POST', under(event), doc(link.type, attributes));
          assert.equal(res.status, 422, JSON.stringify(res.body));
          assert.deepEqual(pointers(res), [pointer]);
        }
        assert.deepEqual((await send('GET', under(event))).body.data, []);

        const body = doc(link.type, { [link.attribute]: await named(link.catalog, link.catalogType), status: 'operational' });
        const theirEvent = await newEvent((await newIncident({}, other.token)).id, other.token);
        const theirLink = await make(under(theirEvent), link.type, { [link.attribute]: theirs, status: 'operational' }, other.token);
        await assertAllMissing([['GET', under(theirEvent)], ['POST', under(theirEvent), body], ['GET', at(theirLink.id)], ['PUT', at(theirLink.id), body], ['DELETE', at(theirLink.id)]], org.token);

        const secretEvent = await newEvent((await newIncident({ private: true })).id);
        const hidden = await make(under(secretEvent), link.type, body.data.attributes);
        await assertAllMissing([['GET', under(secretEvent)], ['POST', under(secretEvent), body], ['GET', at(hidden.id)], ['PUT', at(hidden.id), body], ['DELETE', at(hidden.id)]], await publicOnlyKey(api, org));
        assert.deepEqual((await send('GET', at(hidden.id))).body.data, hidden, 'unchanged, and seen by the owner');
      });
    }

    test('an event with links is not deleted alone: 409 until its links are', async () => {
      const event = await newEvent((await newIncident()).id);
      const made = await make(`/v1/events/${event}/services`, 'incident_event_services', { service_id: await named('/v1/services', 'services'), status: 'operational' });
      const refused = await send('DELETE', `/v1/events/${event}`);
      assert.equal(refused.status, 409, JSON.stringify(refused.body));
      assert.equal(refused.body.errors[0].code, 'STILL_REFERENCED');
      assert.equal((await send('DELETE', `/v1/incident_event_services/${made.id}`)).status, 200);
      assert.equal((await send('DELETE', `/v1/events/${event}`)).status, 200);
    });
  });
});
