import { test } from '@jest/globals';
import assert from 'node:assert/strict';
import { contractBreaches, describeBreach, type ConsumerContract } from './consumer-contract';
import { domainEvent } from './outbox/outbox';

const paging: ConsumerContract = { consumer: 'paging', rules: [{ types: /^alert\.created$/, fields: ['payload.status:string', 'payload.labels:array', 'actor.kind:string'] }] };
const event = (type: string, payload: Record<string, unknown>) =>
  domainEvent({ type, organizationId: 'o', aggregateType: 'alerts', aggregateId: 'a', actor: { kind: 'system', id: null }, payload });

test('an event that keeps what a consumer relies on has no breach; other types are not the rule’s', () => {
  assert.deepEqual(contractBreaches([paging], 'taproot.alerting', event('alert.created', { status: 'triggered', labels: [] })), []);
  assert.deepEqual(contractBreaches([paging], 'taproot.alerting', event('alert.updated', {})), []);
});

test('a dropped or retyped field is a breach naming the consumer, the producer, the event and the field', () => {
  const breaches = contractBreaches([paging], 'taproot.alerting', event('alert.created', { status: 3 }));
  assert.deepEqual(
    breaches.map(describeBreach),
    [
      'taproot.alerting publishes alert.created without payload.status as paging relies on it (string expected, number)',
      'taproot.alerting publishes alert.created without payload.labels as paging relies on it (array expected, missing)',
    ],
  );
});
