import { test } from '@jest/globals';
import assert from 'node:assert/strict';
import type { DomainEvent } from '../event-envelope';
import { InProcessEventBus } from './in-process.bus';
import type { BusMessage } from './event-bus.port';

const message = (n: number): BusMessage => ({ topic: 'taproot.test', key: 'a', event: { id: String(n), type: 'thing.updated' } as unknown as DomainEvent });

test('each consumer group gets the batch in order, and groups run side by side: a slow group does not hold another back', async () => {
  const bus = new InProcessEventBus();
  const fast: string[] = [];
  const slow: string[] = [];
  let fastDone!: () => void;
  const fastFinished = new Promise<void>((resolve) => (fastDone = resolve));
  await bus.subscribe({
    groupId: 'slow',
    topics: ['taproot.test'],
    // Waits for the other group to have the whole batch: delivering the groups one after the other would never get there.
    handler: async (events) => {
      await Promise.race([fastFinished, new Promise((_, reject) => setTimeout(() => reject(new Error('the fast group was held back')), 1000))]);
      slow.push(...events.map((e) => e.id));
    },
  });
  await bus.subscribe({
    groupId: 'fast',
    topics: ['taproot.test'],
    handler: async (events) => {
      fast.push(...events.map((e) => e.id));
      if (fast.length === 3) fastDone();
    },
  });
  await bus.subscribe({ groupId: 'elsewhere', topics: ['taproot.other'], handler: async () => assert.fail('a group gets only its topics') });
  await bus.publish([message(1), message(2), message(3)]);
  assert.deepEqual(fast, ['1', '2', '3']);
  assert.deepEqual(slow, ['1', '2', '3']);
});

test('publish rejects when a group keeps failing, after its retries', async () => {
  const bus = new InProcessEventBus({ retries: 2, retryDelayMs: 1 });
  let calls = 0;
  await bus.subscribe({ groupId: 'broken', topics: ['taproot.test'], handler: async () => void (calls++, assert.fail('boom')) });
  await assert.rejects(bus.publish([message(1)]), /boom/);
  assert.equal(calls, 3);
});

test('a group gets one batch per topic of a publish, in order', async () => {
  const bus = new InProcessEventBus();
  const batches: [string, string[]][] = [];
  await bus.subscribe({ groupId: 'batches', topics: ['taproot.test', 'taproot.other'], handler: async (events, topic) => void batches.push([topic, events.map((e) => e.id)]) });
  const other = (n: number): BusMessage => ({ ...message(n), topic: 'taproot.other' });
  await bus.publish([message(1), other(2), message(3), other(4)]);
  assert.deepEqual(batches, [
    ['taproot.test', ['1', '3']],
    ['taproot.other', ['2', '4']],
  ]);
});
