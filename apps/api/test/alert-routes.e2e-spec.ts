import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { AlertRouteRuleUpdater } from '@taproot/alerting';
import { startTestApi, type TestApi, type TestOrganization } from '../src/testing';
import { created, pointers, unique } from './support/json-api';

const doc = (type: string, attributes: Record<string, unknown>) => ({ data: { type, attributes } });

// One API for both resources' tests.
let api: TestApi;
let org: TestOrganization;
let other: TestOrganization;
before(async () => {
  // Deferred rule updates are saved when a test says so (AlertRouteRuleUpdater.tick).
  api = await startTestApi({ env: { PAGING_POLL_MS: '0' } });
  org = await api.newOrganization();
  other = await api.newOrganization();
});
after(() => api?.close());

const send = (method: string, path: string, body?: unknown, token = org.token) => api.request(method, path, { token, body });
const make = async (type: string, attributes: Record<string, unknown>, token = org.token) => created(await send('POST', `/v1/${type}`, doc(type, attributes), token)).id as string;

/** `/v1/alert_routes` (docs/alert-routing.md): the route and its rule graph, checked against the organization's records. */
describe('alert routes over HTTP', () => {
  const source = (token = org.token) => make('alert_sources', { name: unique('Source'), source_type: 'generic_webhook' }, token);
  const service = (token = org.token) => make('services', { name: unique('Checkout') }, token);

  test('create, get, update, list and delete; a destination gets its target_type, a condition its field type and operator', async () => {
    const [src, svc] = [await source(), await service()];
    const urgency = await make('alert_urgencies', { name: unique('High'), description: 'h' });
    const rules = [
      {
        name: 'Payments',
        position: 2_000_000_000_000,
        destinations: [{ target_id: svc.toUpperCase() }],
        condition_groups: [{ position: 1, conditions: [{ property_field_name: '$.team', property_field_value: 'payments' }, { alert_urgency_ids: [urgency] }] }],
      },
      { name: 'Everything else', fallback_rule: true, destinations: [{ target_id: svc, target_type: 'Service' }], condition_groups: [] },
    ];
    const res = await send('POST', '/v1/alert_routes', doc('alert_routes', { name: 'Prod', alerts_source_ids: [src], rules }));
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const { id, attributes: a } = res.body.data;
    assert.equal(a.enabled, true);
    assert.deepEqual(a.alerts_source_ids, [src]);
    assert.deepEqual(a.owning_team_ids, []);
    const [destination] = a.rules[0].destinations;
    assert.deepEqual(destination, { id: destination.id, target_id: svc, target_type: 'Service' });
    assert.equal(a.rules[0].position, 2_000_000_000_000, 'large positions are accepted');
    assert.deepEqual(
      a.rules[0].condition_groups[0].conditions.map((c: Record<string, unknown>) => [c.property_field_type, c.property_field_condition_type]),
      [
        ['payload', 'is_one_of'],
        ['attribute', 'is_one_of'],
      ],
    );
    assert.equal(a.rules[1].fallback_rule, true);

    const got = await send('GET', `/v1/alert_routes/${id}`);
    assert.deepEqual(got.body.data, res.body.data);
    const patched = await send('PATCH', `/v1/alert_routes/${id}`, doc('alert_routes', { enabled: false }));
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(patched.body.data.attributes.enabled, false);
    assert.deepEqual(patched.body.data.attributes.rules, a.rules, 'rules kept when not sent');
    const put = await send('PUT', `/v1/alert_routes/${id}`, doc('alert_routes', { name: 'Prod 2', rules: [] }));
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.deepEqual(put.body.data.attributes.rules, []);
    const list = await send('GET', '/v1/alert_routes');
    assert.ok(list.body.data.some((r: { id: string }) => r.id === id));
    assert.equal((await send('DELETE', `/v1/alert_routes/${id}`)).status, 200);
    assert.equal((await send('GET', `/v1/alert_routes/${id}`)).status, 404);
  });

  test("every bad part of the rule graph answers 422 naming it, and nothing is written; another organization's records are unknown", async () => {
    const [src, otherService, otherSource] = [await source(), await service(other.token), await source(other.token)];
    const before = (await send('GET', '/v1/alert_routes?page[size]=100')).body.data.length;
    const res = await send(
      'POST',
      '/v1/alert_routes',
      doc('alert_routes', {
        name: 'Bad',
        alerts_source_ids: [src, otherSource],
        rules: [
          {
            name: 'One',
            destinations: [{ target_id: otherService }],
            condition_groups: [
              {
                conditions: [
                  { property_field_type: 'payload', property_field_name: '$..[', property_field_value: 'x' },
                  { property_field_condition_type: 'matches_regex', property_field_name: 'summary', property_field_value: '([' },
                ],
              },
            ],
          },
          { destinations: [], condition_groups: [{}] },
        ],
      }),
    );
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.deepEqual(pointers(res).sort(), [
      '/data/attributes/alerts_source_ids/1',
      '/data/attributes/rules/0/condition_groups/0/conditions/0/property_field_name',
      '/data/attributes/rules/0/condition_groups/0/conditions/1/property_field_value',
      '/data/attributes/rules/1/condition_groups/0/conditions',
      '/data/attributes/rules/1/name',
    ]);
    assert.equal((await send('GET', '/v1/alert_routes?page[size]=100')).body.data.length, before);

    const operator = { property_field_condition_type: 'sounds_like', property_field_name: 'summary' };
    const badOperator = await send('POST', '/v1/alert_routes', doc('alert_routes', { name: 'X', alerts_source_ids: [src], rules: [{ name: 'r', destinations: [], condition_groups: [{ conditions: [operator] }] }] }));
    assert.equal(badOperator.status, 422);
    assert.deepEqual(pointers(badOperator), ['/data/attributes/rules/0/condition_groups/0/conditions/0/property_field_condition_type']);

    const unknownTarget = await send('POST', '/v1/alert_routes', doc('alert_routes', { name: 'X', alerts_source_ids: [src], rules: [{ name: 'r', destinations: [{ target_id: otherService }], condition_groups: [] }] }));
    assert.equal(unknownTarget.status, 422);
    assert.deepEqual(pointers(unknownTarget), ['/data/attributes/rules/0/destinations/0/target_id']);
    assert.match(unknownTarget.body.errors[0].detail, /rules\[0\]\.destinations\[0\]\.target_id: .* is not a service, team, functionality or escalation policy of this organization/);
    const mistyped = await send('POST', '/v1/alert_routes', doc('alert_routes', { name: 'X', alerts_source_ids: [src], rules: [{ name: 'r', destinations: [{ target_id: await service(), target_type: 'Group' }], condition_groups: [] }] }));
    assert.equal(mistyped.status, 422, 'a target_type sent must be the record found');
  });

  test('every rule, condition group, condition and destination has an id; PATCH changes or deletes (_destroy) the items it names and keeps the others', async () => {
    const [src, svc] = [await source(), await service()];
    const team = created(await send('POST', '/v1/teams', doc('groups', { name: unique('Payments') }))).id as string;
    const one = { name: 'One', destinations: [{ target_id: svc }], condition_groups: [{ conditions: [{ property_field_name: '$.team', property_field_value: 'a' }, { property_field_name: '$.env', property_field_value: 'prod' }] }] };
    const res = await send('POST', '/v1/alert_routes', doc('alert_routes', { name: 'By id', alerts_source_ids: [src], rules: [one, { ...one, name: 'Two' }] }));
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const id = res.body.data.id as string;
    type Rule = { id: string; name: string; condition_groups: { id: string; conditions: { id: string; property_field_value: string }[] }[]; destinations: { id: string; target_id: string; target_type: string }[] };
    const [r1, r2] = res.body.data.attributes.rules as Rule[];
    const uuid = /^[0-9a-f-]{36}$/;
    for (const r of [r1, r2]) assert.ok([r.id, r.condition_groups[0].id, ...r.condition_groups[0].conditions.map((c) => c.id), r.destinations[0].id].every((x) => uuid.test(x)), JSON.stringify(r));

    const patch = [
      { id: r1.id, _destroy: true },
      {
        id: r2.id,
        name: 'Two renamed',
        condition_groups: [{ id: r2.condition_groups[0].id, conditions: [{ id: r2.condition_groups[0].conditions[0].id, _destroy: true }] }],
        destinations: [{ id: r2.destinations[0].id, _destroy: true }, { target_id: team }],
      },
    ];
    const patched = await send('PATCH', `/v1/alert_routes/${id}`, doc('alert_routes', { rules: patch }));
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    const rules = patched.body.data.attributes.rules as Rule[];
    assert.deepEqual(rules.map((r) => [r.id, r.name]), [[r2.id, 'Two renamed']], 'the first rule deleted');
    assert.deepEqual(rules[0].condition_groups[0].conditions.map((c) => [c.id, c.property_field_value]), [[r2.condition_groups[0].conditions[1].id, 'prod']], 'the other condition kept');
    assert.deepEqual(rules[0].destinations.map((d) => [d.target_id, d.target_type]), [[team, 'Group']]);
    assert.ok(!JSON.stringify(rules).includes('_destroy'));
    assert.deepEqual((await send('GET', `/v1/alert_routes/${id}`)).body.data.attributes.rules, rules);

    const unknown = await send('PATCH', `/v1/alert_routes/${id}`, doc('alert_routes', { rules: [{ id: r1.id, name: 'Gone already' }] }));
    assert.equal(unknown.status, 422, JSON.stringify(unknown.body));
    assert.deepEqual(pointers(unknown), ['/data/attributes/rules/0/id']);
    assert.deepEqual((await send('GET', `/v1/alert_routes/${id}`)).body.data.attributes.rules, rules, 'nothing changed');
  });

  test("another organization's route answers 404", async () => {
    const id = await make('alert_routes', { name: 'Theirs', alerts_source_ids: [await source(other.token)] }, other.token);
    for (const [method, body] of [['GET'], ['PATCH', doc('alert_routes', { enabled: false })], ['DELETE']] as const) {
      assert.equal((await send(method, `/v1/alert_routes/${id}`, body)).status, 404, method);
    }
    assert.equal((await send('GET', `/v1/alert_routes/${id}`, undefined, other.token)).body.data.attributes.enabled, true);
  });
});

/** `/v1/alert_routing_rules` (docs/alert-routing.md): the older routing, a rule of one source with one destination. */
describe('alert routing rules over HTTP', () => {

  test('create derives the destination type; condition groups are answered as written (none); update, list, delete', async () => {
    const source = await make('alert_sources', { name: unique('Source'), source_type: 'generic_webhook' });
    const team = created(await send('POST', '/v1/teams', doc('groups', { name: unique('Payments') }))).id as string;
    const conditions = [
      { property_field_type: 'attribute', property_field_name: 'summary', property_field_condition_type: 'contains', property_field_value: 'checkout' },
      { property_field_type: 'payload', property_field_name: '$.env', property_field_condition_type: 'is_one_of', property_field_values: ['prod'] },
    ];
    const res = await send('POST', '/v1/alert_routing_rules', doc('alert_routing_rules', { name: 'Checkout', alerts_source_id: source, condition_type: 'all', conditions, destination: { target_id: team } }));
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const { id, attributes: a } = res.body.data;
    assert.deepEqual(a.destination, { target_id: team, target_type: 'Group' });
    assert.equal(a.enabled, true);
    assert.equal(typeof a.position, 'number');
    assert.deepEqual([a.conditions, a.condition_groups], [conditions, []]);
    const any = await send('PUT', `/v1/alert_routing_rules/${id}`, doc('alert_routing_rules', { condition_type: 'any' }));
    assert.equal(any.status, 200, JSON.stringify(any.body));
    assert.deepEqual([any.body.data.attributes.condition_type, any.body.data.attributes.condition_groups], ['any', []]);
    assert.ok((await send('GET', '/v1/alert_routing_rules')).body.data.some((r: { id: string }) => r.id === id));
    assert.equal((await send('DELETE', `/v1/alert_routing_rules/${id}`)).status, 200);
  });

  test("bad conditions, a destination or source of another organization answer 422 naming them; another organization's rule is 404", async () => {
    const source = await make('alert_sources', { name: unique('Source'), source_type: 'generic_webhook' });
    const theirService = await make('services', { name: unique('Theirs') }, other.token);
    const res = await send(
      'POST',
      '/v1/alert_routing_rules',
      doc('alert_routing_rules', {
        name: 'Bad',
        alerts_source_id: source,
        conditions: [{ property_field_type: 'payload', property_field_name: 'not a path', property_field_condition_type: 'is_one_of' }],
        destination: { target_id: theirService },
      }),
    );
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.deepEqual(pointers(res), ['/data/attributes/conditions/0/property_field_name']);
    const foreign = await send('POST', '/v1/alert_routing_rules', doc('alert_routing_rules', { name: 'X', alerts_source_id: source, destination: { target_id: theirService } }));
    assert.deepEqual(pointers(foreign), ['/data/attributes/destination/target_id']);
    const theirSource = await make('alert_sources', { name: unique('Theirs'), source_type: 'generic_webhook' }, other.token);
    const theirRule = await make('alert_routing_rules', { name: 'Theirs', alerts_source_id: theirSource, destination: { target_id: theirService } }, other.token);
    assert.equal((await send('GET', `/v1/alert_routing_rules/${theirRule}`)).status, 404);
    assert.equal((await send('PUT', `/v1/alert_routing_rules/${theirRule}`, doc('alert_routing_rules', { enabled: false }))).status, 404);
  });
});

/** Large rule graphs and the organization's alert routing settings (docs/alert-routing.md). */
describe('alert route rule updates after the answer, and the advanced routing setting', () => {
  const settings = (attributes: Record<string, unknown>, token = org.token) => send('PATCH', '/v1/alert_routing_settings', doc('alert_routing_settings', attributes), token);
  const update = (id: string, rules: unknown[], requestId: string) => api.request('PUT', `/v1/alert_routes/${id}`, { token: org.token, body: doc('alert_routes', { rules }), headers: { 'x-request-id': requestId } });
  const status = async (id: string, requestId: string) => (await send('GET', `/v1/alert_routes/${id}/rule_updates/${requestId}`)).body.data?.attributes as { status: string; errors: { source?: { pointer?: string } }[] } | undefined;
  const rule = (name: string, target: string, conditions = 1) => ({
    name,
    destinations: [{ target_id: target }],
    condition_groups: [{ conditions: Array.from({ length: conditions }, (_, i) => ({ property_field_name: '$.team', property_field_value: `${name}-${i}` })) }],
  });
  const newRoute = async (target: string) => make('alert_routes', { name: unique('Route'), alerts_source_ids: [await make('alert_sources', { name: unique('Source'), source_type: 'generic_webhook' })], rules: [rule('first', target)] });
  const rulesOf = async (id: string) => ((await send('GET', `/v1/alert_routes/${id}`)).body.data.attributes.rules as { name: string }[]).map((r) => r.name);

  test('a small update is saved in the request (completed under its request id); a graph over 500 nodes after it: pending, then completed', async () => {
    const target = await make('services', { name: unique('Checkout') });
    const id = await newRoute(target);
    const small = await update(id, [rule('second', target)], 'small-1');
    assert.equal(small.status, 200, JSON.stringify(small.body));
    assert.deepEqual(small.body.data.attributes.rules.map((r: { name: string }) => r.name), ['second']);
    assert.equal((await status(id, 'small-1'))?.status, 'completed', 'saved in the request');

    // 60 rules of a group of 6 conditions and a destination: 60 * 9 = 540 nodes (the 4 on the route counted too).
    const large = Array.from({ length: 60 }, (_, i) => rule(`r${i}`, target, 6));
    const res = await update(id, large, 'large-1');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.headers.get('x-request-id'), 'large-1');
    assert.deepEqual(res.body.data.attributes.rules.map((r: { name: string }) => r.name), ['second'], 'the answer shows the rules as they were');
    assert.equal((await status(id, 'large-1'))?.status, 'pending');
    await api.app.get(AlertRouteRuleUpdater).tick();
    assert.equal((await status(id, 'large-1'))?.status, 'completed');
    assert.equal((await rulesOf(id)).length, 60);
    assert.equal((await send('GET', `/v1/alert_routes/${id}/rule_updates/large-1`, undefined, other.token)).status, 404, "another organization's caller sees no such update");
  });

  test('with asynchronous rule updates set, every update is deferred; one whose records went away meanwhile fails naming them', async () => {
    const target = await make('services', { name: unique('Checkout') });
    const doomed = await make('services', { name: unique('Doomed') });
    const id = await newRoute(target);
    assert.equal((await settings({ asynchronous_rule_updates: true })).status, 200);
    try {
      assert.equal((await update(id, [rule('later', doomed)], 'async-1')).status, 200);
      assert.equal((await status(id, 'async-1'))?.status, 'pending');
      assert.equal((await send('DELETE', `/v1/services/${doomed}`)).status, 200);
      await api.app.get(AlertRouteRuleUpdater).tick();
      const failed = await status(id, 'async-1');
      assert.equal(failed?.status, 'failed');
      assert.deepEqual(failed?.errors.map((e) => e.source?.pointer), ['/data/attributes/rules/0/destinations/0/target_id']);
      assert.deepEqual(await rulesOf(id), ['first'], 'the route kept its rules');
    } finally {
      await settings({ asynchronous_rule_updates: false });
    }
  });

  test('without the advanced routing feature the route list and route updates answer 403; the settings refuse what they do not know', async () => {
    const id = await newRoute(await make('services', { name: unique('Checkout') }));
    assert.deepEqual((await send('GET', '/v1/alert_routing_settings')).body.data.attributes, { advanced_alert_routing: true, asynchronous_rule_updates: false });
    assert.equal((await settings({ advanced_alert_routing: false })).status, 200);
    try {
      const list = await send('GET', '/v1/alert_routes');
      assert.equal(list.status, 403);
      assert.equal(list.body.errors[0].code, 'ADVANCED_ALERT_ROUTING_DISABLED');
      assert.equal((await send('PATCH', `/v1/alert_routes/${id}`, doc('alert_routes', { enabled: false }))).status, 403);
      assert.equal((await send('GET', '/v1/alert_routes', undefined, other.token)).status, 200, "another organization's setting is its own");
    } finally {
      await settings({ advanced_alert_routing: true });
    }
    assert.equal((await send('GET', '/v1/alert_routes')).status, 200);
    const bad = await settings({ advanced_alert_routing: 'yes', colour: true });
    assert.equal(bad.status, 422);
    assert.deepEqual(pointers(bad).sort(), ['/data/attributes/advanced_alert_routing', '/data/attributes/colour']);
  });
});
