/**
 * Contract tests across apps: what each consumer of the bus declares it relies on (its
 * ConsumerContract, beside the consumer) against what the producers really publish, the events
 * of a representative session through the api. A producer that drops or retypes a field a
 * consumer reads fails here, naming the producer, the event, the field and the consumer.
 */
import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { AUDIT_LOG_CONTRACT } from '@taproot/identity';
import { contractBreaches, describeBreach, type ConsumerContract } from '@taproot/messaging';
import { DISPATCHER_CONTRACT } from '@taproot/webhook-dispatcher';
import { startTestApi, type TestApi, type TestOrganization } from '../../apps/api/src/testing';
import { eventSession, type PublishedEvent } from '../../apps/api/test/support/event-session';

/** Every consumer of the bus, whichever app runs it. */
const CONSUMERS: readonly ConsumerContract[] = [AUDIT_LOG_CONTRACT, DISPATCHER_CONTRACT];

describe('consumer contracts across apps', () => {
  let api: TestApi;
  let org: TestOrganization;
  let published: PublishedEvent[];
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
    published = await eventSession(api, org);
  });
  after(() => api?.close());

  test('every event every context publishes keeps what every consumer relies on', () => {
    const producers = new Set(published.map((p) => p.topic));
    for (const topic of ['taproot.catalog', 'taproot.identity', 'taproot.incidents', 'taproot.alerting']) assert.ok(producers.has(topic), `the session published on ${topic}`);
    const breaches = published.flatMap(({ topic, event }) => contractBreaches(CONSUMERS, topic, event));
    assert.deepEqual(breaches.map(describeBreach), []);
  });

  test('a drifted event is caught naming the producer, the event, the field and the consumer', () => {
    const { topic, event } = published.find((p) => p.event.type === 'incident.resolved')!;
    const drifted = { ...event, payload: 'resolved' as unknown as Record<string, unknown>, aggregate_id: undefined as unknown as string };
    assert.deepEqual(contractBreaches(CONSUMERS, topic, drifted).map(describeBreach), [
      'taproot.incidents publishes incident.resolved without aggregate_id as the audit log relies on it (string expected, missing)',
      'taproot.incidents publishes incident.resolved without payload as the audit log relies on it (object expected, string)',
      'taproot.incidents publishes incident.resolved without aggregate_id as the webhook dispatcher relies on it (string expected, missing)',
      'taproot.incidents publishes incident.resolved without payload as the webhook dispatcher relies on it (object expected, string)',
    ]);
  });
});
