import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startTestApi, type TestApi, type TestOrganization } from '../src/testing';

const doc = (attributes: Record<string, unknown>) => ({ data: { type: 'alert_sources', attributes } });

describe('alert sources over HTTP', () => {
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
  const urgency = async (token: string) => {
    const res = await send('POST', '/v1/alert_urgencies', { data: { type: 'alert_urgencies', attributes: { name: `U ${randomUUID().slice(0, 6)}`, description: 'u' } } }, token);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data.id as string;
  };

  test('create answers the generated secret and an absolute webhook endpoint; get, update, list and delete round-trip', async () => {
    const urgencyId = await urgency(org.token);
    const created = await send(
      'POST',
      '/v1/alert_sources',
      doc({
        name: 'Grafana prod',
        source_type: 'generic_webhook',
        alert_urgency_id: urgencyId,
        alert_template_attributes: { title: '$.title', description: null, external_url: null },
        sourceable_attributes: { auto_resolve: true, resolve_state: 'resolved', field_mappings_attributes: [{ field: 'state', json_path: '$.status' }] },
        deduplicate_alerts_by_key: true,
        deduplication_key_path: '$.groupKey',
        deduplication_key_regexp: 'alertname="([^"]+)"',
        owner_group_ids: [],
      }),
    );
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const { id, attributes: a } = created.body.data;
    assert.match(a.secret, /^[0-9a-f]{32}$/);
    assert.equal(a.enabled, true);
    assert.equal(a.status, 'setup_complete');
    const endpoint = new URL(a.webhook_endpoint);
    assert.equal(endpoint.pathname, `/v1/alert_sources/${id}/alerts`);
    assert.equal(a.alert_urgency_id, urgencyId);
    assert.deepEqual(a.sourceable_attributes.field_mappings_attributes, [{ field: 'state', json_path: '$.status' }]);

    const got = await send('GET', `/v1/alert_sources/${id}`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.body.data, created.body.data);

    const updated = await send('PUT', `/v1/alert_sources/${id}`, doc({ enabled: false, name: 'Grafana staging' }));
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.equal(updated.body.data.attributes.enabled, false);
    assert.equal(updated.body.data.attributes.secret, a.secret, 'the secret stays');

    const list = await send('GET', '/v1/alert_sources?filter[name]=Grafana%20staging');
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.data.map((d: { id: string }) => d.id), [id]);

    assert.equal((await send('DELETE', `/v1/alert_sources/${id}`)).status, 200);
    assert.equal((await send('GET', `/v1/alert_sources/${id}`)).status, 404);
  });

  test("the reference's plural filters: filter[source_types] and filter[statuses] take comma-separated values, any of them", async () => {
    const fresh = await api.newOrganization();
    const make = async (name: string, source_type: string) => {
      const res = await send('POST', '/v1/alert_sources', doc({ name, source_type }), fresh.token);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.data.id as string;
    };
    const webhook = await make('Webhook', 'generic_webhook');
    const alertmanager = await make('Alertmanager', 'alertmanager');
    const ids = async (query: string) => {
      const res = await send('GET', `/v1/alert_sources?${query}`, undefined, fresh.token);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.data.map((d: { id: string }) => d.id).sort();
    };
    assert.deepEqual(await ids('filter[source_types]=alertmanager,email'), [alertmanager]);
    assert.deepEqual(await ids('filter[source_types]=alertmanager,generic_webhook'), [webhook, alertmanager].sort());
    assert.deepEqual(await ids('filter[statuses]=setup_complete,connected'), [webhook, alertmanager].sort());
    assert.deepEqual(await ids('filter[statuses]=connected'), []);
    const bad = await send('GET', '/v1/alert_sources?filter[statuses]=broken', undefined, fresh.token);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors[0].source.parameter, 'filter[statuses]');
  });

  test('secret and webhook_endpoint are output only: a sent value is ignored', async () => {
    const res = await send('POST', '/v1/alert_sources', doc({ name: 'x', secret: 'mine', webhook_endpoint: 'https://evil.example' }));
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.notEqual(res.body.data.attributes.secret, 'mine');
    assert.notEqual(res.body.data.attributes.webhook_endpoint, 'https://evil.example');
  });

  test('a source without a default urgency leaves alert_urgency_id out of its answers (the reference declares it non-nullable)', async () => {
    const created = await send('POST', '/v1/alert_sources', doc({ name: 'No urgency', source_type: 'generic_webhook' }));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal('alert_urgency_id' in created.body.data.attributes, false);
    const read = await send('GET', `/v1/alert_sources/${created.body.data.id}`);
    assert.equal('alert_urgency_id' in read.body.data.attributes, false);
    assert.equal(read.body.data.attributes.name, 'No urgency');
  });

  test('an urgency of another organization answers 422 naming alert_urgency_id', async () => {
    const theirs = await urgency(other.token);
    const res = await send('POST', '/v1/alert_sources', doc({ name: 'x', alert_urgency_id: theirs }));
    assert.equal(res.status, 422);
    assert.equal(res.body.errors[0].source.pointer, '/data/attributes/alert_urgency_id');
  });

  test('a bad generic webhook mapping answers 422 naming the field, on create and update', async () => {
    const bad = await send('POST', '/v1/alert_sources', doc({ name: 'x', deduplicate_alerts_by_key: true, deduplication_key_path: '$.[' }));
    assert.equal(bad.status, 422, JSON.stringify(bad.body));
    assert.equal(bad.body.errors[0].source.pointer, '/data/attributes/deduplication_key_path');
    const regexp = await send('POST', '/v1/alert_sources', doc({ name: 'x', deduplicate_alerts_by_key: true, deduplication_key_path: '$.k', deduplication_key_regexp: '(' }));
    assert.equal(regexp.status, 422, JSON.stringify(regexp.body));
    assert.equal(regexp.body.errors[0].source.pointer, '/data/attributes/deduplication_key_regexp');

    const ok = await send('POST', '/v1/alert_sources', doc({ name: 'y' }));
    assert.equal(ok.status, 201);
    const mapping = await send('PUT', `/v1/alert_sources/${ok.body.data.id}`, doc({ sourceable_attributes: { field_mappings_attributes: [{ field: 'colour', json_path: '$.c' }] } }));
    assert.equal(mapping.status, 422, JSON.stringify(mapping.body));
    assert.match(mapping.body.errors[0].source.pointer, /^\/data\/attributes\/sourceable_attributes\//);
  });

  test("another organization's alert source answers 404 and is not listed", async () => {
    const mine = await send('POST', '/v1/alert_sources', doc({ name: `Mine ${randomUUID()}` }));
    const id = mine.body.data.id;
    for (const method of ['GET', 'DELETE']) assert.equal((await send(method, `/v1/alert_sources/${id}`, undefined, other.token)).status, 404, method);
    assert.equal((await send('PUT', `/v1/alert_sources/${id}`, doc({ name: 'theirs' }), other.token)).status, 404);
    const list = await send('GET', '/v1/alert_sources', undefined, other.token);
    assert.ok(!list.body.data.some((d: { id: string }) => d.id === id));
  });
});
