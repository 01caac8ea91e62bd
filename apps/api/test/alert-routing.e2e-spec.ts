import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { newAlertSource, postInbound, signedBy, type InboundSource } from './support/alert-sources';
import { created, doc, unique } from './support/json-api';
import { usePagingWorld, type PagedUser } from './support/paging';

/**
 * Ingested alerts page what their source's routes and routing rules send them to
 * (docs/alert-routing.md), through the paging engine to real mailboxes.
 */
describe('alert routing at ingestion', () => {
  const w = usePagingWorld();

  const source = () => newAlertSource(w.api, w.org.token, { source_type: 'generic_webhook', sourceable_attributes: { field_mappings_attributes: [{ field: 'alert_title', json_path: '$.title' }] } });
  const ingest = async (src: InboundSource, payload: Record<string, unknown>) => {
    const raw = JSON.stringify(payload);
    const res = await postInbound(w.api, src.path, raw, signedBy(src.secret, raw));
    assert.equal(res.status, 202, JSON.stringify(res.body));
    return res.body.data[0] as { id: string; attributes: Record<string, unknown> };
  };
  const create = async (type: string, path: string, attributes: Record<string, unknown>) => created(await w.send('POST', path, doc(type, attributes))).id as string;
  const oneUserPolicy = async (user: PagedUser) => w.policyOf([{ users: [user.id] }]);

  test("each alert pages its routes' destinations and its routing rule's, once each; a disabled route pages nothing", async () => {
    const [a, b, c, d] = [await w.userWithEmail(), await w.userWithEmail(), await w.userWithEmail(), await w.userWithEmail()];
    const [pa, pb, pc, pd] = [await oneUserPolicy(a), await oneUserPolicy(b), await oneUserPolicy(c), await oneUserPolicy(d)];
    const payments = await create('services', '/v1/services', { name: unique('Payments'), escalation_policy_id: pa });
    const src = await source();
    const rules = [
      { name: 'Payments', position: 1, destinations: [{ target_id: payments }], condition_groups: [{ conditions: [{ property_field_name: '$.team', property_field_value: 'payments' }] }] },
      { name: 'Everything else', fallback_rule: true, destinations: [{ target_id: pc }], condition_groups: [] },
    ];
    await create('alert_routes', '/v1/alert_routes', { name: 'Prod', alerts_source_ids: [src.id], rules });
    await create('alert_routes', '/v1/alert_routes', { name: 'Off', enabled: false, alerts_source_ids: [src.id], rules: [{ name: 'All', destinations: [{ target_id: pd }], condition_groups: [] }] });
    const dbRule = [{ property_field_type: 'attribute', property_field_name: 'summary', property_field_condition_type: 'contains', property_field_value: 'database' }];
    await create('alert_routing_rules', '/v1/alert_routing_rules', { name: 'Databases', alerts_source_id: src.id, conditions: dbRule, destination: { target_id: pb } });

    const checkout = await ingest(src, { title: 'Checkout down', team: 'payments' });
    const database = await ingest(src, { title: 'database slow', team: 'search' });
    await ingest(src, { title: 'Search slow', team: 'search' });
    assert.deepEqual(checkout.attributes.notification_targets, [{ type: 'Service', id: payments }]);
    assert.deepEqual(
      (database.attributes.notification_targets as { type: string; id: string }[]).map((t) => t.id).sort(),
      [pb, pc].sort(),
      'the routing rule and the route fallback, side by side',
    );

    await w.engine.tick();
    assert.deepEqual(
      [a, b, c, d].map((u) => w.mailsTo(u.email).length),
      [1, 1, 2, 0],
    );
  });

  test("a routing rule as the Terraform provider writes it (condition_type any, property_field_value \"\"): answered without condition groups, routed by either condition", async () => {
    const policy = await oneUserPolicy(await w.userWithEmail());
    const src = await source();
    // The provider's body (its DEBUG trace): "" for the value it leaves unset.
    const res = await w.send('POST', '/v1/alert_routing_rules', {
      data: {
        type: 'alert_routing_rules',
        attributes: {
          alerts_source_id: src.id,
          condition_type: 'any',
          conditions: [{ property_field_condition_type: 'is_one_of', property_field_name: '$.service', property_field_type: 'payload', property_field_value: '', property_field_values: ['checkout-1', 'billing'] }],
          destination: { target_id: policy, target_type: 'EscalationPolicy' },
          enabled: true,
          name: unique('tf-probe routing rule with conditions'),
        },
      },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const answered = res.body.data.attributes;
    assert.deepEqual(answered.condition_groups, [], 'none were written');
    assert.deepEqual(answered.conditions, [{ property_field_condition_type: 'is_one_of', property_field_name: '$.service', property_field_type: 'payload', property_field_values: ['checkout-1', 'billing'] }], '"" is no value');
    assert.deepEqual((await w.send('GET', `/v1/alert_routing_rules/${res.body.data.id}`)).body.data.attributes.condition_groups, []);
    for (const service of ['billing', 'checkout-1']) assert.deepEqual((await ingest(src, { title: service, service })).attributes.notification_targets, [{ type: 'EscalationPolicy', id: policy }]);
    assert.equal((await ingest(src, { title: 'other', service: 'search' })).attributes.notification_targets, null, 'routed nowhere');
  });

  test('a route changed is applied to the next alert at once', async () => {
    const user = await w.userWithEmail();
    const policy = await oneUserPolicy(user);
    const src = await source();
    const route = await create('alert_routes', '/v1/alert_routes', { name: 'All', alerts_source_ids: [src.id], rules: [{ name: 'All', destinations: [{ target_id: policy }], condition_groups: [] }] });
    assert.deepEqual((await ingest(src, { title: 'One' })).attributes.notification_targets, [{ type: 'EscalationPolicy', id: policy }]);
    assert.equal((await w.send('PATCH', `/v1/alert_routes/${route}`, doc('alert_routes', { enabled: false }))).status, 200);
    const after = await ingest(src, { title: 'Two' });
    assert.equal(after.attributes.status, 'open', 'no route: nothing pages it');
  });
});
