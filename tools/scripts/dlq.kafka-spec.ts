import { afterAll as after, beforeAll as before, expect, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { KafkaDeadLetters, KafkaEventBus, type DomainEvent } from '@taproot/messaging';
import { taproot } from './cli-testing';

/**
 * `taproot dlq list` / `dlq replay` on the run's broker: an event that failed deterministically is
 * parked, listed, replayed once its cause is fixed, and applied exactly once by its group.
 */
const brokers = process.env.TEST_KAFKA_BROKERS ?? '';
const topic = `spec.dlq-cli-${randomUUID().slice(0, 8)}`;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
let bus: KafkaEventBus;

before(() => {
  if (!brokers) throw new Error('TEST_KAFKA_BROKERS is not set: run this file through `npm test`');
  bus = new KafkaEventBus({ brokers: brokers.split(','), clientId: 'dlq-cli-spec', logger: quiet });
});
after(() => bus?.close());

const event = (type: string): DomainEvent => ({
  id: randomUUID(),
  type,
  version: 1,
  occurred_at: new Date().toISOString(),
  organization_id: randomUUID(),
  aggregate_type: 'thing',
  aggregate_id: randomUUID(),
  actor: { kind: 'system', id: null },
  payload: {},
});

async function eventually(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 60_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !(await check()); ) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

interface Listed {
  event_id: string;
  event_type: string;
  source_topic: string;
  consumer_group: string;
  error: string;
  replayed: boolean;
}

const cli = async (args: string[]) => {
  const ran = await taproot([...args, '--json'], { KAFKA_BROKERS: brokers });
  assert.equal(ran.code, 0, ran.stderr);
  return JSON.parse(ran.stdout) as { dead_letters?: Listed[]; replayed?: Listed[] };
};

test('a parked event is listed, replayed once fixed, applied once by the group that parked it, and not replayed twice', async () => {
  let broken = true;
  const applied: string[] = [];
  // Another group on the same topic: it applied the event the first time and must not again.
  const other: string[] = [];
  const seen = new Set<string>();
  await bus.subscribe({
    groupId: 'spec-dlq-cli',
    topics: [topic],
    handler: async (events) => {
      if (broken) throw new Error('a bug: payload.widget is undefined');
      applied.push(...events.map((e) => e.id));
    },
  });
  await bus.subscribe({
    groupId: 'spec-dlq-cli-other',
    topics: [topic],
    // The inbox's rule: an event id applied once is skipped.
    handler: async (events) => void other.push(...events.filter((e) => !seen.has(e.id) && seen.add(e.id)).map((e) => e.id)),
  });
  const poison = event('widget.broke');
  await bus.publish([{ topic, key: poison.aggregate_id, event: poison }]);
  const letters = new KafkaDeadLetters({ brokers: brokers.split(','), clientId: 'dlq-cli-spec' });
  await eventually('the parked event', async () => (await letters.list()).some((l) => l.eventId === poison.id));

  const pending = (await cli(['dlq', 'list'])).dead_letters!.filter((l) => l.source_topic === topic);
  expect(pending).toEqual([
    expect.objectContaining({ event_id: poison.id, event_type: 'widget.broke', consumer_group: 'spec-dlq-cli', replayed: false }),
  ]);
  assert.match(pending[0].error, /payload\.widget is undefined/);

  broken = false; // the fix is deployed
  const replayed = (await cli(['dlq', 'replay', '--topic', topic])).replayed!;
  assert.deepEqual(replayed.map((l) => l.event_id), [poison.id]);
  await eventually('the replayed event applied', () => applied.length === 1);
  assert.deepEqual(applied, [poison.id]);
  assert.deepEqual(other, [poison.id], 'the other group skipped the replay through its inbox');

  assert.deepEqual((await cli(['dlq', 'list'])).dead_letters!.filter((l) => l.source_topic === topic), [], 'nothing pending');
  const all = (await cli(['dlq', 'list', '--all'])).dead_letters!.filter((l) => l.source_topic === topic);
  assert.deepEqual(all.map((l) => [l.event_id, l.replayed]), [[poison.id, true]]);
  assert.deepEqual((await cli(['dlq', 'replay', '--topic', topic])).replayed, [], 'a second replay sends nothing');
  await new Promise((r) => setTimeout(r, 1000));
  assert.deepEqual(applied, [poison.id]);
});

test('without KAFKA_BROKERS the commands say the in-process bus parks nothing', async () => {
  const ran = await taproot(['dlq', 'list', '--json'], {});
  assert.equal(ran.code, 0, ran.stderr);
  assert.deepEqual(JSON.parse(ran.stdout), { dead_letters: [] });
  assert.match(ran.stderr, /in-process bus parks nothing/);
  const usage = await taproot(['dlq', 'replay', '--topic'], {});
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /--topic needs a value/);
});
