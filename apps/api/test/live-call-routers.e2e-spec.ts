import { beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { useApiWorld } from './support/api-world';
import { created, doc, ids, outboxTypes, pointers, unique, type Attributes } from './support/json-api';

type Json = Record<string, any>;

/** Live call routers and their phone numbers (docs/live-call-routers.md). */
describe('live call routers over HTTP', () => {
  const w = useApiWorld();
  const { send } = w;
  let urgency: string;
  let service: string;
  let team: string;
  before(async () => {
    urgency = created(await send('POST', '/v1/alert_urgencies', doc('alert_urgencies', { name: unique('High'), description: 'pages at once' }))).id;
    service = created(await send('POST', '/v1/services', doc('services', { name: unique('Checkout') }))).id;
    team = created(await send('POST', '/v1/teams', doc('groups', { name: unique('Payments') }))).id;
  });

  let serial = 0;
  const number = () => `+1415555${String(1000 + ++serial).slice(-4)}`;
  const router = (attributes: Attributes = {}) =>
    doc('live_call_routers', { name: unique('Support line'), kind: 'live', country_code: 'US', phone_type: 'local', phone_number: number(), voicemail_greeting: 'Leave a message', paging_targets: [], ...attributes });

  test('a router: created with its defaults, read by id and slug, listed, changed and deleted', async () => {
    const made = created(
      await send('POST', '/v1/live_call_routers', router({ name: 'Payments Hotline', escalation_policy_trigger_params: { id: service, type: 'service' }, notify_via_sms: true, informational_notification_message: 'Call {{ alert.url }}' })),
    );
    const a = made.attributes;
    assert.deepEqual([a.enabled, a.notify_via_sms, a.notify_via_push_notification, a.calling_tree_enabled, a.slug], [true, true, false, false, 'payments-hotline']);
    // Answered as the reference (and the hosted API's SDK) reads it.
    assert.deepEqual(a.escalation_policy_trigger_params, { id: service, type: 'Service' });
    assert.equal((await send('GET', '/v1/live_call_routers/payments-hotline')).body.data.id, made.id);
    assert.ok(ids(await send('GET', '/v1/live_call_routers?filter[search]=Payments')).includes(made.id));
    const changed = await send('PUT', `/v1/live_call_routers/${made.id}`, doc('live_call_routers', { kind: 'voicemail', unavailable_responder_message: 'Nobody is free', phone_number: '+14155550199' }));
    assert.deepEqual([changed.status, changed.body.data.attributes.kind, changed.body.data.attributes.phone_number], [200, 'voicemail', a.phone_number]);
    assert.equal((await send('DELETE', `/v1/live_call_routers/${made.id}`)).status, 200);
    assert.deepEqual(await outboxTypes(w.api, made.id), ['live_call_router.created', 'live_call_router.updated', 'live_call_router.deleted']);
  });

  test('a phone tree: every paging target and its urgency are records of the organization (422 naming the one that is not)', async () => {
    const tree = created(
      await send('POST', '/v1/live_call_routers', router({ calling_tree_enabled: true, calling_tree_prompt: 'Press 1 for payments', paging_targets: [{ id: team, type: 'team', alert_urgency_id: urgency }, { id: service, type: 'service', alert_urgency_id: urgency }] })),
    );
    assert.equal(tree.attributes.paging_targets.length, 2);
    // No direct target: none answered (the reference's answer declares it non-nullable).
    assert.ok(!('escalation_policy_trigger_params' in tree.attributes));
    const count = (await send('GET', '/v1/live_call_routers?page[size]=100')).body.meta.total_count;
    const theirTeam = created(await send('POST', '/v1/teams', doc('groups', { name: unique('Theirs') }), w.other.token)).id;
    for (const [attributes, pointer] of [
      [{ paging_targets: [{ id: service, type: 'service', alert_urgency_id: urgency }, { id: theirTeam, type: 'team', alert_urgency_id: urgency }] }, '/data/attributes/paging_targets/1/id'],
      [{ paging_targets: [{ id: team, type: 'team', alert_urgency_id: service }] }, '/data/attributes/paging_targets/0/alert_urgency_id'],
      [{ escalation_policy_trigger_params: { id: service, type: 'escalation_policy' } }, '/data/attributes/escalation_policy_trigger_params/id'],
      [{ alert_urgency_id: team }, '/data/attributes/alert_urgency_id'],
      [{ phone_number: '415-555-0100' }, '/data/attributes/phone_number'],
      [{ country_code: 'FR' }, '/data/attributes/country_code'],
      [{ informational_notification_message: 'x'.repeat(161) }, '/data/attributes/informational_notification_message'],
    ] as [Attributes, string][]) {
      const res = await send('POST', '/v1/live_call_routers', router(attributes));
      assert.deepEqual([res.status, pointers(res)], [422, [pointer]], JSON.stringify(attributes));
    }
    assert.equal((await send('GET', '/v1/live_call_routers?page[size]=100')).body.meta.total_count, count);
  });

  test('a number routes one router of an organization', async () => {
    const phone = number();
    created(await send('POST', '/v1/live_call_routers', router({ phone_number: phone })));
    const again = await send('POST', '/v1/live_call_routers', router({ phone_number: phone }));
    assert.deepEqual([again.status, pointers(again)], [422, ['/data/attributes/phone_number']]);
  });

  test('generate_phone_number answers an E.164 number of the country and type; bad parameters are a 422 naming them', async () => {
    for (const [country, type, prefix] of [
      ['US', 'toll_free', '+1800555'],
      ['GB', 'mobile', '+447700900'],
      ['AU', 'local', '+6125555'],
      ['DE', 'local', '+4930'],
    ]) {
      const res = await send('GET', `/v1/live_call_routers/generate_phone_number?country_code=${country}&phone_type=${type}`);
      assert.equal(res.status, 200);
      const phone: string = res.body.data.attributes.phone_number;
      assert.match(phone, /^\+[1-9]\d{6,14}$/);
      assert.ok(phone.startsWith(prefix), `${country} ${type}: ${phone}`);
      created(await send('POST', '/v1/live_call_routers', router({ country_code: country, phone_type: type, phone_number: phone })));
    }
    const bad = await send('GET', '/v1/live_call_routers/generate_phone_number?country_code=FR&phone_type=local');
    assert.deepEqual([bad.status, bad.body.errors[0].source.parameter], [422, 'country_code']);
    assert.equal((await send('GET', '/v1/live_call_routers/generate_phone_number?country_code=US')).status, 422);
  });

  test('routers need live_call_routing permissions; another organization gets 404 and never sees them', async () => {
    const mine = created(await send('POST', '/v1/live_call_routers', router()));
    const role = created(await send('POST', '/v1/roles', doc('roles', { name: unique('Incidents only'), incidents_permissions: ['read'] })));
    const limited = await w.api.issueApiKey(w.org.organizationId, { kind: 'global', roleId: role.id });
    assert.equal((await send('GET', '/v1/live_call_routers', undefined, limited)).status, 403);
    assert.equal((await send('POST', '/v1/live_call_routers', router(), limited)).status, 403);
    for (const [method, body] of [['GET'], ['PUT', doc('live_call_routers', { name: 'Taken' })], ['DELETE']] as [string, Json?][]) {
      assert.equal((await send(method, `/v1/live_call_routers/${mine.id}`, body, w.other.token)).status, 404, method);
    }
    assert.ok(!ids(await send('GET', '/v1/live_call_routers?page[size]=100', undefined, w.other.token)).includes(mine.id));
    assert.equal((await send('GET', `/v1/live_call_routers/${mine.id}`)).body.data.attributes.name, mine.attributes.name);
  });
});
