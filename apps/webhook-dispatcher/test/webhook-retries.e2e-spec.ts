import { beforeEach, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { HOUR, useWebhookWorld, type DeliveryRow } from './support/webhook-world';

const DAY = 24 * HOUR;

/**
 * Retries, giving up and disabling on the injected clock (docs/webhook-delivery.md): a failed
 * attempt is retried with jittered exponential backoff until an attempt fails 24 h after the
 * first; 410 Gone disables the endpoint at once, failing for WEBHOOK_DISABLE_AFTER_HOURS (120 h)
 * disables it too, each with webhooks_endpoint.updated and webhooks_endpoint.disabled; a disabled
 * endpoint's waiting deliveries are failed without being sent.
 */
describe('webhook retries', () => {
  const w = useWebhookWorld();
  // Past every earlier test's retries (their window is a day): each test sees only its own attempts.
  beforeEach(() => w.advance(2 * DAY));

  /** Moves the clock to the delivery's next attempt and runs it; answers the row after. */
  const nextAttempt = async (delivery: DeliveryRow): Promise<DeliveryRow> => {
    await w.advance(delivery.next_attempt_at!.getTime() - w.now().getTime());
    return (await w.deliveries(delivery.endpoint_id)).find((d) => d.id === delivery.id)!;
  };

  test('a 500 is retried with the same webhook-id and body; the success after it delivers (attempts 2) and clears failing_since', async () => {
    const endpoint = await w.endpoint({ url: w.receiver.path('flaky', 500, 200), event_types: ['incident.created'] });
    await w.incident();
    const [first] = await w.receivedAt(endpoint.url);
    const [failed] = await w.deliveries(endpoint.id);
    assert.deepEqual([failed.status, failed.attempts, failed.response_status, failed.response_body], ['retrying', 1, 500, `answer to ${new URL(endpoint.url).pathname}`]);
    const wait = failed.next_attempt_at!.getTime() - failed.last_attempt_at!.getTime();
    assert.ok(wait >= 0 && wait < 30_000, `the first retry within 30 s (full jitter), got ${wait} ms`);
    assert.equal((await w.send('GET', `/v1/webhooks/endpoints/${endpoint.id}`)).body.data.attributes.failing_since, failed.last_attempt_at!.toISOString());

    const delivered = await nextAttempt(failed);
    const [, second] = await w.receivedAt(endpoint.url, 2);
    assert.deepEqual([second.headers['webhook-id'], second.body], [first.headers['webhook-id'], first.body]);
    assert.deepEqual([delivered.status, delivered.attempts, delivered.response_status, delivered.error, delivered.next_attempt_at], ['delivered', 2, 200, null, null]);
    assert.equal(delivered.delivered_at!.getTime(), delivered.last_attempt_at!.getTime());
    assert.equal((await w.send('GET', `/v1/webhooks/endpoints/${endpoint.id}`)).body.data.attributes.failing_since, null);
  });

  test('retried with growing jittered waits until an attempt fails 24 h after the first: then failed, the last answer kept', async () => {
    const endpoint = await w.endpoint({ url: w.receiver.path('down', 503), event_types: ['incident.created'] });
    await w.incident();
    await w.receivedAt(endpoint.url);
    let [delivery] = await w.deliveries(endpoint.id);
    const firstAttempt = delivery.last_attempt_at!.getTime();
    let attempts = 1;
    while (delivery.status === 'retrying') {
      const wait = delivery.next_attempt_at!.getTime() - delivery.last_attempt_at!.getTime();
      const ceiling = Math.min(HOUR, 30_000 * 2 ** (attempts - 1));
      assert.ok(wait >= 0 && wait < ceiling, `after ${attempts} attempts the wait is below ${ceiling} ms, got ${wait}`);
      assert.ok(delivery.last_attempt_at!.getTime() - firstAttempt < DAY, 'retrying only within the day');
      delivery = await nextAttempt(delivery);
      attempts++;
      assert.equal(delivery.attempts, attempts);
    }
    assert.deepEqual([delivery.status, delivery.response_status, delivery.next_attempt_at, delivery.leased_until], ['failed', 503, null, null]);
    assert.ok(delivery.last_attempt_at!.getTime() - firstAttempt >= DAY, 'the last attempt failed a day or more after the first');
    assert.ok(attempts > 24 + 8, `retried through the day (${attempts} attempts: about one an hour once the ceiling is reached)`);
    assert.equal(w.receiver.at(endpoint.url).length, attempts);
    assert.equal((await w.send('GET', `/v1/webhooks/endpoints/${endpoint.id}`)).body.data.attributes.enabled, true, 'a day of failures does not disable it');
  });

  test('410 Gone fails the delivery and disables the endpoint (updated and disabled events); later events are not delivered to it', async () => {
    const gone = await w.endpoint({ url: w.receiver.path('gone', 410), event_types: ['incident.created'] });
    const witness = await w.endpoint({ url: w.receiver.path('witness'), event_types: ['incident.created'] });
    await w.incident();
    await w.receivedAt(gone.url);
    await w.receivedAt(witness.url);
    const [delivery] = await w.deliveries(gone.id);
    assert.deepEqual([delivery.status, delivery.attempts, delivery.response_status, delivery.next_attempt_at], ['failed', 1, 410, null]);
    assert.match(String(delivery.error), /410 Gone/);
    const got = await w.send('GET', `/v1/webhooks/endpoints/${gone.id}`);
    assert.equal(got.body.data.attributes.enabled, false);
    const events = (await w.eventsOf(gone.id)).map((e) => e.type);
    assert.deepEqual(events.slice(-2), ['webhooks_endpoint.updated', 'webhooks_endpoint.disabled']);
    const [disabled] = (await w.eventsOf(gone.id)).filter((e) => e.type === 'webhooks_endpoint.disabled');
    assert.deepEqual([disabled.actor, disabled.payload.enabled, disabled.payload.disabled_reason], [{ kind: 'system', id: null }, false, 'gone']);
    assert.match(String(disabled.payload.disabled_detail), new RegExp(`410 Gone to delivery ${delivery.id}`));
    assert.notEqual(disabled.payload.secret, gone.secret, 'the event carries no secret');

    await w.incident();
    await w.receivedAt(witness.url, 2);
    assert.equal((await w.deliveries(gone.id)).length, 1, 'no delivery for a disabled endpoint');
    assert.equal(w.receiver.at(gone.url).length, 1);
  });

  test('an endpoint whose every attempt failed for 120 h is disabled at the next failed attempt, with its reason', async () => {
    const failing = await w.endpoint({ url: w.receiver.path('failing', 500), event_types: ['incident.created'] });
    await w.incident();
    await w.receivedAt(failing.url);
    const [delivery] = await w.deliveries(failing.id);
    const since = delivery.last_attempt_at!;

    // 119 h later its retry fails (past the day: failed) and the endpoint is still enabled.
    await w.advance(119 * HOUR);
    assert.equal((await w.deliveries(failing.id))[0].status, 'failed');
    assert.deepEqual(
      [(await w.send('GET', `/v1/webhooks/endpoints/${failing.id}`)).body.data.attributes.enabled, (await w.eventsOf(failing.id)).map((e) => e.type)],
      [true, ['webhooks_endpoint.created']],
    );

    // Past 120 h, the next event's attempt fails too: disabled.
    await w.advance(2 * HOUR);
    await w.incident();
    await w.receivedAt(failing.url, 3);
    const endpoint = (await w.send('GET', `/v1/webhooks/endpoints/${failing.id}`)).body.data.attributes;
    assert.deepEqual([endpoint.enabled, endpoint.failing_since], [false, since.toISOString()]);
    const events = await w.eventsOf(failing.id);
    assert.deepEqual(events.map((e) => e.type), ['webhooks_endpoint.created', 'webhooks_endpoint.updated', 'webhooks_endpoint.disabled']);
    assert.equal(events[2].payload.disabled_reason, 'failing');
    assert.match(String(events[2].payload.disabled_detail), new RegExp(`since ${since.toISOString()} \\(more than 120 h\\)`));
  });

  test("a disabled endpoint's waiting delivery is failed at its time without being sent", async () => {
    const endpoint = await w.endpoint({ url: w.receiver.path('switched-off', 500), event_types: ['incident.created'] });
    await w.incident();
    await w.receivedAt(endpoint.url);
    const [waiting] = await w.deliveries(endpoint.id);
    assert.equal(waiting.status, 'retrying');
    const off = await w.send('PUT', `/v1/webhooks/endpoints/${endpoint.id}`, { data: { type: 'webhooks_endpoints', attributes: { enabled: false } } });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    const settled = await nextAttempt(waiting);
    assert.deepEqual([settled.status, settled.error, settled.attempts, settled.response_status, settled.next_attempt_at], ['failed', 'endpoint disabled', 1, 500, null]);
    assert.equal(w.receiver.at(endpoint.url).length, 1, 'nothing sent to a disabled endpoint');
  });
});
