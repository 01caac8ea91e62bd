import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { useApiWorld } from './support/api-world';
import { doc, errorCodes, ids, outboxEvents, pointers, unique, type Attributes } from './support/json-api';

type Json = Record<string, any>;

/** Incidents' post mortems: one per incident, read from a view, written by an upserting PUT (docs/retrospectives.md). */
describe('incident post mortems over HTTP', () => {
  const w = useApiWorld();
  const { send, create } = w;
  const newIncident = (attributes: Attributes = {}, token?: string): Promise<Json> => create('/v1/incidents', 'incidents', { title: unique('Outage'), ...attributes }, token);
  const postMortem = (attributes: Attributes) => doc('incident_post_mortems', attributes);
  const listed = async (token = w.org.token, query = '') => ids(await send('GET', `/v1/post_mortems?page[size]=100${query}`, undefined, token));
  /** A key that reads and writes retrospectives and runs incidents, but may not read private incidents. */
  const publicOnly = async (): Promise<string> => {
    const role = await create('/v1/roles', 'roles', { name: unique('Public only'), incidents_permissions: ['create', 'read', 'update'], retrospective_permissions: ['read', 'update'] });
    return w.api.issueApiKey(w.org.organizationId, { kind: 'global', roleId: role.id });
  };

  test("a new incident's post mortem is listed and read: the incident's id and title, a draft", async () => {
    const incident = await newIncident();
    const got = await send('GET', `/v1/post_mortems/${incident.id}`);
    assert.equal(got.status, 200, JSON.stringify(got.body));
    const { data } = got.body;
    assert.deepEqual([data.id, data.type], [incident.id, 'incident_post_mortems']);
    assert.deepEqual(
      [data.attributes.title, data.attributes.status, data.attributes.content, data.attributes.show_timeline, data.attributes.show_timeline_order, data.attributes.started_at],
      [incident.attributes.title, 'draft', null, true, 'desc', incident.attributes.started_at],
    );
    assert.equal(typeof data.attributes.url, 'string');
    assert.equal((await send('GET', `/v1/post_mortems/${incident.attributes.slug}`)).body.data.id, incident.id, 'named by the incident slug too');
    assert.ok((await listed()).includes(incident.id));
    assert.deepEqual(await listed(w.org.token, '&filter[status]=published'), [], 'nothing published yet');
    // The reference's include is a free string: accepted, includes nothing.
    const included = await send('GET', `/v1/post_mortems/${incident.id}?include=incident`);
    assert.deepEqual([included.status, included.body.included ?? []], [200, []]);
    assert.equal((await send('GET', '/v1/post_mortems?include=incident')).status, 200);
  });

  test('a PUT writes the post mortem; the incident-owned timestamps sent are ignored', async () => {
    const incident = await newIncident();
    const attributes = {
      title: 'What happened to checkout',
      status: 'published',
      content: '<h1>Summary</h1>',
      show_timeline: false,
      show_timeline_tasks: true,
      show_timeline_order: 'asc',
      show_alerts_attached: false,
      show_action_items: false,
      started_at: '2020-01-01T00:00:00Z',
      mitigated_at: '2020-01-01T01:00:00Z',
      resolved_at: '2020-01-01T02:00:00Z',
    };
    const put = await send('PUT', `/v1/post_mortems/${incident.id}`, postMortem(attributes));
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const answered = put.body.data.attributes;
    assert.deepEqual(
      [answered.title, answered.status, answered.content, answered.show_timeline, answered.show_timeline_tasks, answered.show_timeline_order, answered.show_alerts_attached, answered.show_action_items],
      ['What happened to checkout', 'published', '<h1>Summary</h1>', false, true, 'asc', false, false],
    );
    assert.deepEqual([answered.started_at, answered.mitigated_at, answered.resolved_at], [incident.attributes.started_at, incident.attributes.mitigated_at, incident.attributes.resolved_at]);
    assert.notEqual(answered.started_at, '2020-01-01T00:00:00.000Z');
    assert.deepEqual((await send('GET', `/v1/post_mortems/${incident.id}`)).body.data.attributes, answered);
    assert.ok((await listed(w.org.token, '&filter[status]=published')).includes(incident.id));
    // A second PUT changes what it names and keeps the rest.
    const again = await send('PUT', `/v1/post_mortems/${incident.id}`, postMortem({ status: 'draft' }));
    assert.deepEqual([again.body.data.attributes.status, again.body.data.attributes.title, again.body.data.attributes.content], ['draft', 'What happened to checkout', '<h1>Summary</h1>']);
    const [event] = (await outboxEvents(w.api, incident.id)).filter((e) => e.type === 'incident_post_mortem.updated');
    assert.equal(event.aggregate_type, 'incident_post_mortems');
    assert.deepEqual([event.payload.id, event.payload.title, event.payload.status, event.payload.started_at], [incident.id, 'What happened to checkout', 'published', incident.attributes.started_at]);
    assert.equal((await outboxEvents(w.api, incident.id)).filter((e) => e.type === 'incident_post_mortem.updated').length, 2);
  });

  test("the list filters on the incident's services and timestamps, searches title and content, and sorts", async () => {
    const service = await create('/v1/services', 'services', { name: unique('Checkout') });
    const word = unique('zebra').replace(' ', '');
    const withService = await newIncident({ service_ids: [service.id] });
    const written = await newIncident();
    assert.equal((await send('PUT', `/v1/post_mortems/${written.id}`, postMortem({ content: `The ${word} fell over` }))).status, 200);
    assert.deepEqual(await listed(w.org.token, `&filter[service_ids]=${service.id}`), [withService.id]);
    assert.deepEqual(await listed(w.org.token, `&filter[search]=${word}`), [written.id]);
    assert.deepEqual(await listed(w.org.token, `&filter[search]=${encodeURIComponent(withService.attributes.title)}`), [withService.id]);
    const since = encodeURIComponent(withService.attributes.started_at);
    const recent = await listed(w.org.token, `&filter[started_at][gte]=${since}&filter[created_at][gte]=${encodeURIComponent(withService.attributes.created_at)}`);
    assert.deepEqual(recent, [withService.id, written.id]);
    assert.deepEqual(await listed(w.org.token, `&filter[started_at][gte]=${since}&filter[created_at][gte]=${encodeURIComponent(withService.attributes.created_at)}&sort=-created_at`), [written.id, withService.id]);
    assert.deepEqual(await listed(w.org.token, '&filter[resolved_at][lt]=2000-01-01T00:00:00Z'), []);
    assert.equal((await send('GET', '/v1/post_mortems?filter[severity]=sev0')).status, 400, 'not served: its slug would need a lookup');
  });

  test('a bad status is a 422 naming it, and nothing is written', async () => {
    const incident = await newIncident();
    const bad = await send('PUT', `/v1/post_mortems/${incident.id}`, postMortem({ title: 'Never stored', status: 'final' }));
    assert.equal(bad.status, 422);
    assert.deepEqual(pointers(bad), ['/data/attributes/status']);
    assert.match(bad.body.errors[0].detail, /status/);
    const unknownCause = await send('PUT', `/v1/post_mortems/${incident.id}`, postMortem({ cause_ids: ['7f1c1e9a-0d6b-4a55-9d0e-4b6f5f8f2a10'] }));
    assert.equal(unknownCause.status, 422);
    assert.deepEqual(pointers(unknownCause), ['/data/attributes/cause_ids/0']);
    const got = (await send('GET', `/v1/post_mortems/${incident.id}`)).body.data.attributes;
    assert.deepEqual([got.title, got.status, got.cause_ids], [incident.attributes.title, 'draft', null]);
    const rows = await w.api.runtime.dataSource.query('SELECT 1 FROM incident_post_mortems WHERE id = $1', [incident.id]);
    assert.equal(rows.length, 0);
    assert.deepEqual((await outboxEvents(w.api, incident.id)).filter((e) => e.type.startsWith('incident_post_mortem')), []);
  });

  test("a private incident's post mortem is missing for a key that may not read private incidents", async () => {
    const secret = await newIncident({ private: true });
    const shown = await newIncident();
    const key = await publicOnly();
    for (const [method, body] of [['GET'], ['PUT', postMortem({ title: 'Sneaked in' })]] as [string, unknown?][]) {
      const res = await send(method, `/v1/post_mortems/${secret.id}`, body, key);
      assert.equal(res.status, 404, `${method}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(errorCodes(res), ['404/NOT_FOUND/Not found']);
    }
    const theirs = await listed(key);
    assert.ok(theirs.includes(shown.id) && !theirs.includes(secret.id), 'the list leaves it out');
    assert.ok((await listed(key, '&filter[incident_private]=true')).length === 0, 'even when asked for');
    assert.equal((await send('PUT', `/v1/post_mortems/${shown.id}`, postMortem({ title: 'Theirs to write' }), key)).status, 200);
    const owner = await send('GET', `/v1/post_mortems/${secret.id}`);
    assert.deepEqual([owner.status, owner.body.data.attributes.title], [200, secret.attributes.title]);
    assert.ok((await listed()).includes(secret.id));
  });

  test("another organization's post mortem is missing: 404 on get and put, never listed", async () => {
    const theirs = await newIncident({}, w.other.token);
    assert.equal((await send('GET', `/v1/post_mortems/${theirs.id}`)).status, 404);
    const put = await send('PUT', `/v1/post_mortems/${theirs.id}`, postMortem({ title: 'Hijacked' }));
    assert.equal(put.status, 404);
    assert.ok(!(await listed()).includes(theirs.id));
    assert.equal((await send('GET', `/v1/post_mortems/${theirs.id}`, undefined, w.other.token)).body.data.attributes.title, theirs.attributes.title);
  });

  test("an incident's delete removes its post mortem", async () => {
    const incident = await newIncident();
    assert.equal((await send('PUT', `/v1/post_mortems/${incident.id}`, postMortem({ title: 'Soon gone' }))).status, 200);
    assert.equal((await send('DELETE', `/v1/incidents/${incident.id}`)).status, 200);
    assert.equal((await send('GET', `/v1/post_mortems/${incident.id}`)).status, 404);
    assert.ok(!(await listed()).includes(incident.id));
    const rows = await w.api.runtime.dataSource.query('SELECT 1 FROM incident_post_mortems WHERE id = $1', [incident.id]);
    assert.equal(rows.length, 0);
  });
});
