import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { useApiWorld } from './support/api-world';
import { type Attributes, created, errorCodes, ids, outboxEvents, unique } from './support/json-api';
import { newWebhookEndpoint, seedDelivery, type SeededDelivery } from './support/webhook-deliveries';

const w = useApiWorld();
const { send } = w;

const endpoint = async (token?: string): Promise<string> => (await newWebhookEndpoint(w, {}, token)).id;

/** A delivery of the organization's, as the dispatcher writes it. */
const delivery = (organizationId: string, endpointId: string, d?: SeededDelivery) => seedDelivery(w.api, organizationId, endpointId, d);

const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString();

/** `/v1/webhooks/deliveries` and `/v1/webhooks/endpoints/{endpoint_id}/deliveries` (docs/webhooks.md, "Deliveries"). */
describe('webhook deliveries', () => {
  test('listed newest first, across endpoints and under one, filtered by status, event type, endpoint, creation and delivery dates', async () => {
    const own = await w.api.newOrganization();
    const [a, b] = [await endpoint(own.token), await endpoint(own.token)];
    const old = await delivery(own.organizationId, a, { status: 'delivered', created_at: daysAgo(3), delivered_at: daysAgo(3), response_status: 200, error: null });
    const failed = await delivery(own.organizationId, a, { status: 'failed', created_at: daysAgo(2) });
    const retrying = await delivery(own.organizationId, b, { status: 'retrying', event_type: 'alert.created', created_at: daysAgo(1) });
    const fresh = await delivery(own.organizationId, b, { status: 'delivered', created_at: daysAgo(0), delivered_at: new Date().toISOString(), response_status: 204, error: null });
    const list = (query: string, path = '/v1/webhooks/deliveries') => send('GET', `${path}${query}`, undefined, own.token);

    const all = await list('');
    assert.equal(all.status, 200, JSON.stringify(all.body));
    assert.deepEqual(ids(all), [fresh, retrying, failed, old], 'newest first');
    assert.equal(all.body.meta.total_count, 4);
    assert.deepEqual(ids(await list('', `/v1/webhooks/endpoints/${a}/deliveries`)), [failed, old]);
    // The hosted API's words: delivered is success, waiting for a retry is pending.
    assert.deepEqual(all.body.data.map((d: { attributes: Attributes }) => d.attributes.status), ['success', 'pending', 'failed', 'success']);
    assert.deepEqual(ids(await list('?filter[status]=success')), [fresh, old]);
    assert.deepEqual(ids(await list('?filter[status]=failed,pending')), [retrying, failed]);
    assert.deepEqual(ids(await list('?filter[event_type]=alert.created')), [retrying]);
    assert.deepEqual(ids(await list(`?filter[endpoint_id]=${b}`)), [fresh, retrying]);
    assert.deepEqual(ids(await list(`?filter[created_at][gte]=${daysAgo(2.5)}&filter[created_at][lt]=${daysAgo(0.5)}`)), [retrying, failed]);
    assert.deepEqual(ids(await list(`?filter[delivered_at][gte]=${daysAgo(1)}`)), [fresh]);
    assert.deepEqual(ids(await list('?filter[delivered_at][null]=true')), [retrying, failed]);
    assert.deepEqual(ids(await list('?filter[status]=success', `/v1/webhooks/endpoints/${b}/deliveries`)), [fresh]);
    assert.deepEqual(ids(await list('?sort=created_at')), [old, failed, retrying, fresh]);

    const first = await list('?page[size]=2');
    assert.deepEqual(ids(first), [fresh, retrying]);
    const next = await w.api.request('GET', first.body.links.next, { token: own.token });
    assert.deepEqual(ids(next), [failed, old]);
    const byCursor = await list(`?page[size]=2&page[after]=${encodeURIComponent(first.body.meta.next_cursor)}`);
    assert.deepEqual(ids(byCursor), [failed, old]);

    for (const status of ['lost', 'delivered', 'retrying']) {
      const bad = await list(`?filter[status]=${status}`);
      assert.equal(bad.status, 400);
      assert.equal(bad.body.errors[0].source.parameter, 'filter[status]');
    }
  });

  test('a delivery answers every member, null when empty', async () => {
    const id = await delivery(w.org.organizationId, await endpoint(), { status: 'pending', attempts: 0, error: null, response_status: null });
    const res = await send('GET', `/v1/webhooks/deliveries/${id}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const a = res.body.data.attributes as Attributes;
    assert.equal(res.body.data.type, 'webhooks_deliveries');
    assert.deepEqual(Object.keys(a).sort(), ['attempts', 'created_at', 'delivered_at', 'endpoint_id', 'error', 'event_id', 'event_type', 'last_attempt_at', 'next_attempt_at', 'payload', 'response_status', 'status', 'updated_at']);
    assert.deepEqual([a.status, a.attempts, a.error, a.response_status, a.delivered_at], ['pending', 0, null, null, null]);
    assert.equal(JSON.parse(String(a.payload)).event.id, id, 'the exact body, as a string');
  });

  test('redelivering puts a delivery back in line, due now, keeping its attempts and last error; announced as webhooks_delivery.redelivered', async () => {
    const endpointId = await endpoint();
    const id = await delivery(w.org.organizationId, endpointId, { status: 'failed', attempts: 7, error: 'answered 503', response_status: 503 });
    await w.api.runtime.dataSource.query("UPDATE webhooks_deliveries SET leased_until = now() + interval '1 minute' WHERE id = $1", [id]);
    const before = Date.now();
    const res = await send('POST', `/v1/webhooks/deliveries/${id}/deliver`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const a = res.body.data.attributes as Attributes;
    assert.deepEqual([res.body.data.id, a.status, a.attempts, a.error, a.response_status], [id, 'pending', 7, 'answered 503', 503]);
    const due = Date.parse(String(a.next_attempt_at));
    assert.ok(due >= before - 1000 && due <= Date.now() + 1000, `due now: ${String(a.next_attempt_at)}`);
    const [row] = await w.api.runtime.dataSource.query('SELECT leased_until FROM webhooks_deliveries WHERE id = $1', [id]);
    assert.equal(row.leased_until, null, 'no lease: any dispatcher may take it');
    assert.deepEqual((await send('GET', `/v1/webhooks/deliveries/${id}`)).body.data, res.body.data);
    const events = await outboxEvents(w.api, id);
    assert.deepEqual(events.map((e) => [e.type, e.payload.status]), [['webhooks_delivery.redelivered', 'pending']]);
  });

  test('a delivery of a disabled endpoint is not redelivered (422), and stays as it was', async () => {
    const endpointId = await endpoint();
    const id = await delivery(w.org.organizationId, endpointId, { status: 'failed' });
    const off = await send('PUT', `/v1/webhooks/endpoints/${endpointId}`, { data: { type: 'webhooks_endpoints', attributes: { enabled: false } } });
    assert.equal(off.status, 200);
    const res = await send('POST', `/v1/webhooks/deliveries/${id}/deliver`);
    assert.deepEqual(errorCodes(res), ['422/WEBHOOK_ENDPOINT_DISABLED/Endpoint disabled']);
    assert.match(res.body.errors[0].detail, /endpoint is disabled/);
    assert.equal((await send('GET', `/v1/webhooks/deliveries/${id}`)).body.data.attributes.status, 'failed');
  });

  test("another organization's deliveries and endpoints answer 404 and are never listed; redelivering needs webhooks update", async () => {
    const theirEndpoint = await endpoint(w.other.token);
    const theirs = await delivery(w.other.organizationId, theirEndpoint);
    assert.deepEqual(errorCodes(await send('GET', `/v1/webhooks/deliveries/${theirs}`)), ['404/NOT_FOUND/Not found']);
    assert.deepEqual(errorCodes(await send('POST', `/v1/webhooks/deliveries/${theirs}/deliver`)), ['404/NOT_FOUND/Not found']);
    assert.deepEqual(errorCodes(await send('GET', `/v1/webhooks/endpoints/${theirEndpoint}/deliveries`)), ['404/NOT_FOUND/Not found']);
    assert.equal((await send('POST', `/v1/webhooks/deliveries/${randomUUID()}/deliver`)).status, 404);
    assert.equal((await send('POST', '/v1/webhooks/deliveries/not-an-id/deliver')).status, 404);
    assert.ok(!ids(await send('GET', '/v1/webhooks/deliveries?page[size]=100')).includes(theirs));
    assert.ok(!ids(await send('GET', `/v1/webhooks/deliveries?filter[endpoint_id]=${theirEndpoint}`)).includes(theirs));
    assert.equal((await send('GET', `/v1/webhooks/deliveries/${theirs}`, undefined, w.other.token)).body.data.attributes.status, 'failed', 'untouched');

    const role = created(await send('POST', '/v1/roles', { data: { type: 'roles', attributes: { name: unique('Webhook reader'), webhooks_permissions: ['read'] } } }));
    const reader = await w.api.issueApiKey(w.org.organizationId, { kind: 'global', roleId: role.id });
    const mine = await delivery(w.org.organizationId, await endpoint());
    assert.equal((await send('GET', `/v1/webhooks/deliveries/${mine}`, undefined, reader)).status, 200);
    assert.deepEqual(errorCodes(await send('POST', `/v1/webhooks/deliveries/${mine}/deliver`, undefined, reader)), ['403/PERMISSION_DENIED/Forbidden']);
  });

  // The OpenAPI document lists no 409 on the endpoint's delete (its deliveries declare onParentDelete cascade).
  test('deleting an endpoint deletes its deliveries with it: never refused for them', async () => {
    const endpointId = await endpoint();
    const [failed, pending] = [await delivery(w.org.organizationId, endpointId), await delivery(w.org.organizationId, endpointId, { status: 'pending', attempts: 0 })];
    const deleted = await send('DELETE', `/v1/webhooks/endpoints/${endpointId}`);
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    for (const id of [failed, pending]) assert.equal((await send('GET', `/v1/webhooks/deliveries/${id}`)).status, 404);
  });
});
