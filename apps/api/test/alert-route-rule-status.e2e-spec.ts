import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { AlertRouteRuleUpdater } from '@taproot/alerting';
import type { TestOrganization } from '../src/testing';
import { useApiWorld } from './support/api-world';
import { doc, pointers, unique } from './support/json-api';

/**
 * An alert route's rule update status as the hosted API's Terraform provider uses it
 * (docs/alert-routing.md, "Rule update status"): it sends `request_id` in the attributes of a
 * create, and of an update whose rules changed, then polls
 * `GET /v1/alert_routes/{id}/async_rule_creation_status/{request_id}` for `{"status": ...}` until
 * success (any other answer fails the apply). Its requests are made here as it makes them.
 */
// Deferred rule updates are saved when a test says so (AlertRouteRuleUpdater.tick).
const world = useApiWorld({ env: { PAGING_POLL_MS: '0' } });
const { send, create } = world;

/** The provider's client sets these on every request, the status GET too (client.Do). */
const PROVIDER_HEADERS = { 'content-type': 'application/vnd.api+json', 'user-agent': 'terraform-provider-rootly/test' };

/** The provider's poll: the answer as its client decodes it (a plain JSON object) with the HTTP status and media type. */
async function poll(route: string, requestId: string, org: TestOrganization = world.org) {
  const res = await world.api.request('GET', `/v1/alert_routes/${route}/async_rule_creation_status/${encodeURIComponent(requestId)}`, { token: org.token, headers: PROVIDER_HEADERS });
  return { status: res.status, type: res.headers.get('content-type'), body: res.body };
}

const rule = (name: string, target: string, conditions = 1) => ({
  name,
  destinations: [{ target_id: target }],
  condition_groups: [{ conditions: Array.from({ length: conditions }, (_, i) => ({ property_field_name: '$.team', property_field_value: `${name}-${i}` })) }],
});

/** A route of `org` with one rule, created without a request id attribute: its id. */
async function newRoute(target: string, token = world.org.token): Promise<string> {
  const source = await create('/v1/alert_sources', 'alert_sources', { name: unique('Source'), source_type: 'generic_webhook' }, token);
  return String((await create('/v1/alert_routes', 'alert_routes', { name: unique('Route'), alerts_source_ids: [source.id], rules: [rule('first', target)] }, token)).id);
}

const service = async (token = world.org.token) => String((await create('/v1/services', 'services', { name: unique('Checkout') }, token)).id);
const rulesOf = async (id: string) => ((await send('GET', `/v1/alert_routes/${id}`)).body.data.attributes.rules as { name: string }[]).map((r) => r.name);
const tick = () => world.api.app.get(AlertRouteRuleUpdater).tick();

describe('alert route rule update status, as the Terraform provider polls it', () => {
  test('a create with rules and request_id is saved in the request: success at once; request_id is neither stored nor answered', async () => {
    const target = await service();
    const source = await create('/v1/alert_sources', 'alert_sources', { name: unique('Source'), source_type: 'generic_webhook' });
    const requestId = randomUUID();
    const res = await world.api.request('POST', '/v1/alert_routes', {
      token: world.org.token,
      headers: PROVIDER_HEADERS,
      body: doc('alert_routes', { name: unique('Route'), alerts_source_ids: [source.id], rules: [rule('first', target)], request_id: requestId }),
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.ok(!('request_id' in res.body.data.attributes), 'not answered');
    const route = String(res.body.data.id);
    assert.deepEqual(await poll(route, requestId), { status: 200, type: 'application/json; charset=utf-8', body: { status: 'success' } });
    assert.ok(!('request_id' in (await send('GET', `/v1/alert_routes/${route}`)).body.data.attributes), 'not stored');
    // One record behind both routes: Taproot's JSON:API view of the same update.
    assert.equal((await send('GET', `/v1/alert_routes/${route}/rule_updates/${requestId}`)).body.data.attributes.status, 'completed');
  });

  test('an update of a graph over the threshold with request_id: pending, then success once saved', async () => {
    const target = await service();
    const route = await newRoute(target);
    const requestId = randomUUID();
    // 60 rules of a group of 6 conditions and a destination: 540 nodes, over the 500 of ASYNC_RULE_GRAPH_SIZE.
    const large = Array.from({ length: 60 }, (_, i) => rule(`r${i}`, target, 6));
    const res = await world.api.request('PUT', `/v1/alert_routes/${route}`, { token: world.org.token, headers: PROVIDER_HEADERS, body: doc('alert_routes', { rules: large, request_id: requestId }) });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(await rulesOf(route), ['first'], 'saved after the answer');
    assert.deepEqual((await poll(route, requestId)).body, { status: 'pending' });
    await tick();
    assert.deepEqual(await poll(route, requestId), { status: 200, type: 'application/json; charset=utf-8', body: { status: 'success' } });
    assert.equal((await rulesOf(route)).length, 60);
  });

  test('a deferred update that fails answers error with its message', async () => {
    // An organization of its own: its asynchronous setting stays away from the other tests.
    const org = await world.api.newOrganization();
    const target = await service(org.token);
    const doomed = await service(org.token);
    const route = await newRoute(target, org.token);
    const settings = await send('PATCH', '/v1/alert_routing_settings', doc('alert_routing_settings', { asynchronous_rule_updates: true }), org.token);
    assert.equal(settings.status, 200, JSON.stringify(settings.body));
    const requestId = randomUUID();
    const res = await send('PATCH', `/v1/alert_routes/${route}`, doc('alert_routes', { rules: [rule('later', doomed)], request_id: requestId }), org.token);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual((await poll(route, requestId, org)).body, { status: 'pending' });
    assert.equal((await send('DELETE', `/v1/services/${doomed}`, undefined, org.token)).status, 200);
    await tick();
    const failed = await poll(route, requestId, org);
    assert.equal(failed.status, 200);
    assert.equal(failed.body.status, 'error');
    assert.match(failed.body.error, /^rules\[0\]\.destinations\[0\]\.target_id: /, 'the message names the member the update was refused for');
    const detailed = (await send('GET', `/v1/alert_routes/${route}/rule_updates/${requestId}`, undefined, org.token)).body.data.attributes;
    assert.equal(detailed.status, 'failed');
    assert.equal(failed.body.error, detailed.errors.map((e: { detail: string }) => e.detail).join('; '));
  });

  test("an unknown request id, another route's, and another organization's route or request id answer 404", async () => {
    const target = await service();
    const route = await newRoute(target);
    const requestId = randomUUID();
    assert.equal((await send('PUT', `/v1/alert_routes/${route}`, doc('alert_routes', { rules: [rule('second', target)], request_id: requestId }))).status, 200);
    assert.equal((await poll(route, requestId)).status, 200);

    const unknown = await poll(route, randomUUID());
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.errors[0].status, '404');
    assert.equal((await poll(await newRoute(target), requestId)).status, 404, "another route of the organization: the id is the route's");
    assert.equal((await poll(route, requestId, world.other)).status, 404, "another organization's caller, naming this organization's route and request id");
    const theirs = await newRoute(await service(world.other.token), world.other.token);
    assert.equal((await poll(theirs, requestId, world.other)).status, 404, "another organization's own route with this organization's request id");
    assert.equal((await poll('not-a-uuid', requestId)).status, 404);
  });

  test('a request_id that is not a non-empty string of at most 100 characters (the longest path parameter) answers 422 naming it, on POST, PUT and PATCH, and changes nothing', async () => {
    const target = await service();
    const route = await newRoute(target);
    const source = await create('/v1/alert_sources', 'alert_sources', { name: unique('Source'), source_type: 'generic_webhook' });
    const before = await send('GET', `/v1/alert_routes/${route}`);
    const counts = async () =>
      world.api.runtime.dataSource.query(
        'SELECT (SELECT count(*) FROM alert_routes WHERE organization_id = $1) AS routes, (SELECT count(*) FROM alert_route_rule_updates WHERE organization_id = $1) AS updates',
        [world.org.organizationId],
      );
    const counted = await counts();
    for (const request_id of ['', 'x'.repeat(101), 42, null, ['a']]) {
      const writes = [
        send('POST', '/v1/alert_routes', doc('alert_routes', { name: unique('Route'), alerts_source_ids: [source.id], rules: [rule('new', target)], request_id })),
        send('PUT', `/v1/alert_routes/${route}`, doc('alert_routes', { name: 'Renamed', rules: [rule('second', target)], request_id })),
        send('PATCH', `/v1/alert_routes/${route}`, doc('alert_routes', { name: 'Renamed', request_id })),
      ];
      for (const res of await Promise.all(writes)) {
        assert.equal(res.status, 422, JSON.stringify(request_id));
        assert.deepEqual(pointers(res), ['/data/attributes/request_id'], JSON.stringify(res.body));
      }
    }
    assert.deepEqual((await send('GET', `/v1/alert_routes/${route}`)).body, before.body);
    assert.deepEqual(await counts(), counted, 'no route created, no status recorded');
    // 100 characters are taken, and the status route is asked about them.
    const longest = 'x'.repeat(100);
    assert.equal((await send('PATCH', `/v1/alert_routes/${route}`, doc('alert_routes', { enabled: false, request_id: longest }))).status, 200);
    assert.deepEqual((await poll(route, longest)).body, { status: 'success' });
  });

  test('without request_id the X-Request-Id header names the update; with both, the attribute wins', async () => {
    const target = await service();
    const route = await newRoute(target);
    const header = `hdr-${randomUUID()}`;
    const put = (attributes: Record<string, unknown>, requestId: string) =>
      world.api.request('PUT', `/v1/alert_routes/${route}`, { token: world.org.token, body: doc('alert_routes', attributes), headers: { 'x-request-id': requestId } });
    const sync = await put({ rules: [rule('second', target)] }, header);
    assert.equal(sync.status, 200, JSON.stringify(sync.body));
    assert.equal(sync.headers.get('x-request-id'), header);
    assert.deepEqual((await poll(route, header)).body, { status: 'success' });

    const attribute = randomUUID();
    const other = `hdr-${randomUUID()}`;
    assert.equal((await put({ rules: [rule('third', target)], request_id: attribute }, other)).status, 200);
    assert.deepEqual((await poll(route, attribute)).body, { status: 'success' });
    assert.equal((await poll(route, other)).status, 404, 'the header is not used when the attribute is sent');

    // A deferred update under the header, as before the attribute existed.
    const deferred = `hdr-${randomUUID()}`;
    const large = Array.from({ length: 60 }, (_, i) => rule(`r${i}`, target, 6));
    assert.equal((await put({ rules: large }, deferred)).status, 200);
    assert.deepEqual((await poll(route, deferred)).body, { status: 'pending' });
    await tick();
    assert.deepEqual((await poll(route, deferred)).body, { status: 'success' });
  });
});
