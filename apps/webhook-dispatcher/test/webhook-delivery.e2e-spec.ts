import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { eventually } from '../../api/src/testing';
import { DISPATCHER_CONSUMER } from '../src';
import { unique, useWebhookWorld, type Received } from './support/webhook-world';

type Attributes = Record<string, unknown>;
const doc = (type: string, attributes: Attributes) => ({ data: { type, attributes } });

/** What a receiver written for the hosted API checks (docs.rootly.com/configuration/webhooks), independently of Taproot's code. */
function rootlySignatureHolds(r: Received, secret: string): boolean {
  const [t, v1] = String(r.headers['x-rootly-signature']).split(',');
  const timestamp = t.split('t=')[1];
  return createHmac('sha256', secret).update(timestamp + r.body).digest('hex') === v1.split('v1=')[1];
}

/** Both signatures verify, Standard Webhooks' with the standardwebhooks library; answers the body. */
function verified(r: Received, secret: string): unknown {
  assert.ok(rootlySignatureHolds(r, secret), 'X-Rootly-Signature verifies as a hosted-API receiver checks it');
  return new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
}

/**
 * Outgoing webhooks end to end (issue 17, docs/webhook-delivery.md): events of the api reach a
 * real receiver through the dispatcher's engine, signed both ways, in the documented envelope, to
 * the endpoints subscribed to them and no others; custom headers carry rendered secrets; a
 * redelivery is sent again with the same webhook-id.
 */
describe('webhook delivery', () => {
  const w = useWebhookWorld();

  test('an incident and an alert reach a subscribed endpoint: both signatures verify, the envelope is the documented one', async () => {
    const endpoint = await w.endpoint({ url: w.receiver.path('incidents-and-alerts'), event_types: ['incident.created', 'alert.created', 'alert.updated'] });
    const incidentId = await w.incident();
    const [incident] = await w.receivedAt(endpoint.url);
    const body = verified(incident, endpoint.secret) as { event: Attributes; organization: Attributes; data: { id: string; type: string; attributes: Attributes } };
    const [created] = (await w.eventsOf(incidentId)).filter((e) => e.type === 'incident.created');
    assert.deepEqual(body.event, { id: created.id, type: 'incident.created', issued_at: created.occurred_at, actor: created.actor });
    assert.deepEqual(body.organization, { id: w.org.organizationId });
    assert.deepEqual([body.data.id, body.data.type], [incidentId, 'incidents']);
    const { id: _id, ...attributes } = created.payload;
    assert.deepEqual(body.data.attributes, attributes, 'the record as the event carries it');
    assert.equal(incident.headers['content-type'], 'application/json');
    assert.equal(incident.headers['user-agent'], 'Taproot-Webhooks');
    assert.equal(incident.headers['webhook-id'], created.id, 'the idempotency key is the event id');
    assert.match(String(incident.headers['x-rootly-signature']), new RegExp(`^t=${incident.headers['webhook-timestamp']},v1=[0-9a-f]{64}$`));
    const [delivery] = await w.deliveries(endpoint.id);
    assert.deepEqual([delivery.status, delivery.attempts, delivery.response_status, delivery.event_type, delivery.payload], ['delivered', 1, 200, 'incident.created', incident.body]);
    assert.equal(delivery.next_attempt_at, null);

    // An alert: its creator (the event's actor), urgency and notification target; a snooze's
    // alert.updated carries the snooze duration, an urgency change the previous urgency.
    const urgency = async () => (await w.send('POST', '/v1/alert_urgencies', doc('alert_urgencies', { name: unique('Urgency'), description: 'd' }))).body.data.id as string;
    const [high, low] = [await urgency(), await urgency()];
    const service = (await w.send('POST', '/v1/services', doc('services', { name: unique('Checkout') }))).body.data.id as string;
    const alert = await w.send('POST', '/v1/alerts', doc('alerts', { summary: unique('Disk full'), alert_urgency_id: high, notification_target_type: 'Service', notification_target_id: service }));
    assert.equal(alert.status, 201, JSON.stringify(alert.body));
    const alertId = alert.body.data.id as string;
    const [, alertCreated] = await w.receivedAt(endpoint.url, 2);
    const a = verified(alertCreated, endpoint.secret) as { event: { type: string; actor: Attributes }; data: { id: string; type: string; attributes: Attributes } };
    assert.equal(a.event.type, 'alert.created');
    assert.deepEqual(a.event.actor.kind, 'api_key', 'the actor that created the alert');
    assert.deepEqual([a.data.id, a.data.type, a.data.attributes.alert_urgency_id, a.data.attributes.notification_target_type, a.data.attributes.notification_target_id], [alertId, 'alerts', high, 'Service', service]);

    assert.equal((await w.send('POST', `/v1/alerts/${alertId}/snooze`, doc('alerts', { delay_minutes: 15 }))).status, 200);
    const snoozed = JSON.parse((await w.receivedAt(endpoint.url, 3))[2].body) as { event: { type: string }; data: { attributes: Attributes } };
    assert.deepEqual([snoozed.event.type, snoozed.data.attributes.status, snoozed.data.attributes.delay_minutes], ['alert.updated', 'deferred', 15]);
    assert.equal((await w.send('PATCH', `/v1/alerts/${alertId}`, doc('alerts', { alert_urgency_id: low }))).status, 200);
    const moved = JSON.parse((await w.receivedAt(endpoint.url, 4))[3].body) as { event: { type: string }; data: { attributes: Attributes } };
    assert.deepEqual([moved.event.type, moved.data.attributes.alert_urgency_id, moved.data.attributes.previous_alert_urgency_id], ['alert.updated', low, high]);
    assert.equal(w.receiver.at(endpoint.url).length, 4, 'nothing else: the incident timeline line, alert.snoozed and the alert events are not subscribed or not delivered');
  });

  test('audit_log.created is delivered when subscribed; a type not subscribed is not; no body carries the endpoint secret', async () => {
    const audit = await w.endpoint({ url: w.receiver.path('audit'), event_types: ['audit_log.created'] });
    const everything = await w.endpoint({ url: w.receiver.path('everything') });
    const incidentId = await w.incident();
    const note = await w.send('POST', `/v1/incidents/${incidentId}/events`, doc('incident_events', { event: 'Rolled back' }));
    assert.equal(note.status, 201, JSON.stringify(note.body));
    const auditOf = (r: Received) => r.json.event.type === 'audit_log.created' && r.json.data.attributes.item_id === incidentId;
    // No event types: every type, the incident's create, the note on its timeline and their audit rows.
    const all = await eventually(async () => w.receiver.at(everything.url), (got) => ['incident.created', 'incident_event.created'].every((t) => got.some((r) => r.json.event.type === t)) && got.some(auditOf), 10_000);
    assert.equal(all.find((r) => r.json.event.type === 'incident_event.created')!.json.data.id, note.body.data.id);
    const audits = await eventually(async () => w.receiver.at(audit.url), (got) => got.some(auditOf), 10_000);
    await w.engine.idle();
    assert.deepEqual([...new Set(audits.map((r) => `${r.json.event.type} ${r.json.data.type}`))], ['audit_log.created audits'], 'only what it subscribed to');
    for (const r of audits) verified(r, audit.secret);
    for (const r of all) verified(r, everything.secret);
    // The endpoints' own creation is audited and delivered too: its secret stays out (REDACTED in events).
    assert.ok(audits.some((r) => r.json.data.attributes.item_id === everything.id));
    assert.ok(!w.receiver.received.some((r) => r.body.includes(audit.secret) || r.body.includes(everything.secret)), 'secrets never in a payload');
  });

  test('pulse.created reaches an endpoint subscribed to it, the pulse as its GET answers it; a pulse.updated is not delivered', async () => {
    const endpoint = await w.endpoint({ url: w.receiver.path('pulses'), event_types: ['pulse.created'] });
    const service = (await w.send('POST', '/v1/services', doc('services', { name: unique('Checkout') }))).body.data as { id: string; attributes: Attributes };
    const res = await w.send('POST', '/v1/pulses', doc('pulses', { summary: 'Deployed checkout v2', source: 'ci', service_ids: [service.attributes.slug as string], labels: [{ key: 'version', value: 'v2' }] }));
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const pulseId = res.body.data.id as string;
    const [received] = await w.receivedAt(endpoint.url);
    const body = verified(received, endpoint.secret) as { event: Attributes; data: { id: string; type: string; attributes: Attributes } };
    const [createdEvent] = await w.eventsOf(pulseId);
    assert.deepEqual(body.event, { id: createdEvent.id, type: 'pulse.created', issued_at: createdEvent.occurred_at, actor: createdEvent.actor });
    const got = await w.send('GET', `/v1/pulses/${pulseId}`);
    assert.deepEqual(body.data, got.body.data, 'the JSON:API resource object GET /v1/pulses/{id} answers');
    assert.deepEqual((body.data.attributes.services as Attributes[]).map((s) => s.id), [service.id]);

    assert.equal((await w.send('PUT', `/v1/pulses/${pulseId}`, doc('pulses', { ended_at: new Date(Date.now() + 60_000).toISOString() }))).status, 200);
    assert.deepEqual((await w.eventsOf(pulseId)).map((e) => e.type), ['pulse.created', 'pulse.updated']);
    // A later pulse's delivery comes after the update's event was consumed (one topic, in order).
    const later = (await w.send('POST', '/v1/pulses', doc('pulses', { summary: 'Deployed search' }))).body.data.id as string;
    const [, next] = await w.receivedAt(endpoint.url, 2);
    assert.equal(next.json.data.id, later);
    assert.deepEqual((await w.deliveries(endpoint.id)).map((d) => d.event_type), ['pulse.created', 'pulse.created'], 'pulse.updated is no webhook event type');
  });

  test('custom headers are sent with their secret rendered; a secret that is gone fails the attempt naming it', async () => {
    const name = `RECEIVER_TOKEN_${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
    assert.equal((await w.send('POST', '/v1/secrets', doc('secrets', { name, secret: 'tok-123' }))).status, 201);
    const endpoint = await w.endpoint({
      url: w.receiver.path('custom-headers'),
      event_types: ['incident.created'],
      custom_headers: [
        { name: 'Authorization', value: `Bearer {{ secrets.${name} }}` },
        { name: 'X-Team', value: 'sre' },
      ],
    });
    await w.incident();
    const [r] = await w.receivedAt(endpoint.url);
    assert.deepEqual([r.headers.authorization, r.headers['x-team']], ['Bearer tok-123', 'sre']);
    verified(r, endpoint.secret);

    // The api refuses to delete a secret in use; one gone anyway (removed in the database) is named.
    await w.api.runtime.dataSource.query('DELETE FROM secrets WHERE organization_id = $1 AND name = $2', [w.org.organizationId, name]);
    await w.incident();
    const failed = (await w.settled(endpoint.id, 2)).find((d) => d.event_id !== r.headers['webhook-id'])!;
    assert.deepEqual([failed.status, failed.attempts, failed.response_status], ['retrying', 1, null]);
    assert.match(String(failed.error), new RegExp(`secret ${name}`));
    assert.equal(w.receiver.at(endpoint.url).length, 1, 'nothing was sent');
  });

  test('an address the guard refuses is a failed attempt like others, the guard\'s words in its error, retried', async () => {
    const endpoint = await w.endpoint({ url: 'http://10.255.255.1/hooks', event_types: ['incident.created'] });
    await w.incident();
    const [blocked] = await w.settled(endpoint.id, 1);
    assert.deepEqual([blocked.status, blocked.attempts, blocked.response_status], ['retrying', 1, null]);
    assert.match(String(blocked.error), /^refused: 10\.255\.255\.1 is a private address/);
    assert.ok(blocked.next_attempt_at !== null);
  });

  test('a redelivered delivery is sent again with the same webhook-id and body', async () => {
    const endpoint = await w.endpoint({ url: w.receiver.path('redelivery'), event_types: ['incident.created'] });
    await w.incident();
    const [first] = await w.receivedAt(endpoint.url);
    const [delivery] = await w.deliveries(endpoint.id);
    const res = await w.send('POST', `/v1/webhooks/deliveries/${delivery.id}/deliver`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    await w.advance(0);
    const [, again] = await w.receivedAt(endpoint.url, 2);
    assert.equal(again.headers['webhook-id'], first.headers['webhook-id']);
    assert.equal(again.body, first.body);
    verified(again, endpoint.secret);
    const [after] = await w.deliveries(endpoint.id);
    assert.deepEqual([after.status, after.attempts], ['delivered', 2]);
  });

  test('an event consumed again (a redelivery of the bus) makes no second delivery or request, and the dispatcher keeps no inbox row', async () => {
    const endpoint = await w.endpoint({ url: w.receiver.path('consumed-again'), event_types: ['incident.created'] });
    const incidentId = await w.incident();
    await w.receivedAt(endpoint.url);
    const events = await w.eventsOf(incidentId);
    await w.consumer.handle(events);
    await w.engine.idle();
    assert.equal(w.receiver.at(endpoint.url).length, 1);
    assert.equal((await w.deliveries(endpoint.id)).length, 1);
    const [{ n }] = await w.api.runtime.dataSource.query('SELECT count(*)::int AS n FROM inbox WHERE consumer = $1', [DISPATCHER_CONSUMER]);
    assert.equal(n, 0, "the deliveries' key is the dispatcher's record of what it consumed");
  });

  test("tenancy: an organization's events never reach another organization's endpoints", async () => {
    const other = await w.api.newOrganization();
    const mine = await w.endpoint({ url: w.receiver.path('mine'), event_types: ['incident.created'] });
    const theirs = await w.endpoint({ url: w.receiver.path('theirs'), event_types: ['incident.created'] }, other);
    const ours = await w.incident();
    const their = await w.incident(other);
    const [got] = await w.receivedAt(mine.url);
    const [gotTheirs] = await w.receivedAt(theirs.url);
    assert.deepEqual([got.json.data.id, gotTheirs.json.data.id], [ours, their]);
    assert.deepEqual([got.json.organization.id, gotTheirs.json.organization.id], [w.org.organizationId, other.organizationId]);
    assert.deepEqual([(await w.deliveries(mine.id)).length, (await w.deliveries(theirs.id)).length], [1, 1]);
    // Another organization's delivery is a 404, as a missing one.
    const [theirDelivery] = await w.deliveries(theirs.id);
    assert.equal((await w.send('POST', `/v1/webhooks/deliveries/${theirDelivery.id}/deliver`)).status, 404);
  });
});
