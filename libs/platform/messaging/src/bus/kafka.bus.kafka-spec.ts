import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll as after, beforeAll as before, test } from '@jest/globals';
import { Kafka, logLevel } from 'kafkajs';
// eslint-disable-next-line @nx/enforce-module-boundaries -- a test-only tool, not a workspace project
import { type KafkaBroker, startKafkaBroker } from '../../../../../tools/kafka/broker';
import { registerEventContract, type DomainEvent } from '../event-envelope';
import { KafkaEventBus } from './kafka.bus';

let broker: KafkaBroker;
let bus: KafkaEventBus;
let dataDir: string;
const logs: string[] = [];
const logger = {
  info: (o: object, msg?: string) => void logs.push(`info ${msg} ${JSON.stringify(o)}`),
  warn: (o: object, msg?: string) => void logs.push(`warn ${msg} ${JSON.stringify(o)}`),
  error: (o: object, msg?: string) => void logs.push(`error ${msg} ${JSON.stringify(o)}`),
};

before(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'kafka-bus-spec-'));
  broker = await startKafkaBroker({ dataDir });
  bus = new KafkaEventBus({ brokers: broker.brokers, clientId: 'kafka-bus-spec', logger });
});

after(async () => {
  if (process.env.KAFKA_BUS_SPEC_LOGS) console.log(logs.join('\n')); // the bus's own log, for debugging
  await bus?.close();
  await broker?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

function event(aggregateId: string, seq: number, type = 'thing.happened'): DomainEvent {
  return {
    id: randomUUID(),
    type,
    version: 1,
    occurred_at: new Date().toISOString(),
    organization_id: 'org-1',
    aggregate_type: 'thing',
    aggregate_id: aggregateId,
    actor: { kind: 'system', id: null },
    payload: { seq },
  };
}

async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function listTopics(): Promise<string[]> {
  const admin = new Kafka({ clientId: 'kafka-bus-spec-admin', brokers: broker.brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    return await admin.listTopics();
  } finally {
    await admin.disconnect();
  }
}

/** Sum of the group's committed offsets on a topic = how many messages it has committed. */
async function committed(groupId: string, topic: string): Promise<number> {
  const admin = new Kafka({ clientId: 'kafka-bus-spec-admin', brokers: broker.brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const [offsets] = await admin.fetchOffsets({ groupId, topics: [topic] });
    return offsets.partitions.reduce((sum, p) => sum + Math.max(0, Number(p.offset)), 0);
  } finally {
    await admin.disconnect();
  }
}

interface DeadLetter {
  key: string;
  value: string;
  headers: Record<string, string>;
}

/** Reads `<topic>.dlq` from the start until it holds `count` messages. */
async function deadLetters(topic: string, count: number): Promise<DeadLetter[]> {
  const kafka = new Kafka({ clientId: 'kafka-bus-spec-dlq', brokers: broker.brokers, logLevel: logLevel.NOTHING });
  const reader = kafka.consumer({ groupId: `dlq-reader-${randomUUID()}` });
  const dead: DeadLetter[] = [];
  await reader.connect();
  try {
    // The bus creates the dead-letter topic just before it sends there.
    await waitFor('the dead-letter topic', async () => (await listTopics()).includes(`${topic}.dlq`));
    await reader.subscribe({ topic: `${topic}.dlq`, fromBeginning: true });
    await reader.run({
      eachMessage: async ({ message }) => {
        const headers = Object.fromEntries(Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(v)]));
        dead.push({ key: String(message.key), value: String(message.value), headers });
      },
    });
    await waitFor(`${count} dead-lettered message(s)`, () => dead.length >= count, 45_000);
    return dead;
  } finally {
    await reader.disconnect();
  }
}

const ORDERS = 'spec.ordered';
const byKey = new Map<string, number[]>();

test('delivers every event, in order per aggregate', async () => {
  await bus.subscribe({
    groupId: 'spec-ordered',
    topics: [ORDERS],
    handler: async (events, topic) => {
      assert.equal(topic, ORDERS);
      for (const e of events) {
        const list = byKey.get(e.aggregate_id) ?? [];
        list.push((e.payload as { seq: number }).seq);
        byKey.set(e.aggregate_id, list);
      }
    },
  });
  const batch = (from: number) =>
    Array.from({ length: 10 }, (_, i) => from + i).flatMap((seq) => [
      { topic: ORDERS, key: 'agg-a', event: event('agg-a', seq) },
      { topic: ORDERS, key: 'agg-b', event: event('agg-b', seq) },
    ]);
  await bus.publish(batch(0));
  await bus.publish(batch(10));
  const expected = Array.from({ length: 20 }, (_, i) => i);
  await waitFor('40 events', () => (byKey.get('agg-a')?.length ?? 0) + (byKey.get('agg-b')?.length ?? 0) >= 40);
  assert.deepEqual(byKey.get('agg-a'), expected);
  assert.deepEqual(byKey.get('agg-b'), expected);
  await waitFor('40 committed offsets', async () => (await committed('spec-ordered', ORDERS)) === 40);
});

test('a failing handler gets the message again and it is committed once', async () => {
  const topic = 'spec.flaky';
  let calls = 0;
  let successes = 0;
  await bus.subscribe({
    groupId: 'spec-flaky',
    topics: [topic],
    handler: async () => {
      calls++;
      if (calls <= 2) throw new Error(`transient failure ${calls}`);
      successes++;
    },
  });
  await bus.publish([{ topic, key: 'agg-f', event: event('agg-f', 1) }]);
  await waitFor('a successful delivery', () => successes === 1);
  await new Promise((r) => setTimeout(r, 1500)); // room for an unwanted redelivery
  assert.equal(calls, 3);
  assert.equal(successes, 1);
  assert.equal(await committed('spec-flaky', topic), 1);
});

test('a handler that keeps failing parks the message in <topic>.dlq and moves on', async () => {
  const topic = 'spec.poison';
  const poison = event('agg-p', 1, 'poison.pill');
  let calls = 0;
  await bus.subscribe({
    groupId: 'spec-poison',
    topics: [topic],
    handler: async () => {
      calls++;
      throw new Error('always fails');
    },
  });
  await bus.publish([{ topic, key: 'agg-p', event: poison }]);
  await waitFor('every attempt', () => calls === 6);

  const dead = await deadLetters(topic, 1);
  assert.equal(calls, 6); // first attempt + 5 retries
  assert.equal(dead[0].key, 'agg-p');
  assert.deepEqual(JSON.parse(dead[0].value), poison);
  assert.equal(dead[0].headers['event-id'], poison.id);
  assert.equal(dead[0].headers['event-type'], 'poison.pill');
  assert.equal(dead[0].headers['dlq-source-topic'], topic);
  assert.equal(dead[0].headers['dlq-group-id'], 'spec-poison');
  await waitFor('the commit past the dead-lettered message', async () => (await committed('spec-poison', topic)) === 1);
});

test('a handler failing on an unreachable database is retried past the retry budget and never dead-lettered', async () => {
  const topic = 'spec.outage';
  const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  let calls = 0;
  const applied: string[] = [];
  await bus.subscribe({
    groupId: 'spec-outage',
    topics: [topic],
    handler: async (events) => {
      calls++;
      // One failure more than a deterministic failure gets before it is parked.
      if (calls <= 7) throw refused();
      applied.push(...events.map((e) => e.id));
    },
  });
  const outage = event('agg-o', 1);
  await bus.publish([{ topic, key: 'agg-o', event: outage }]);
  await waitFor('the delivery after the outage', () => applied.length === 1, 60_000);
  assert.deepEqual(applied, [outage.id]);
  assert.equal(calls, 8);
  await waitFor('the commit', async () => (await committed('spec-outage', topic)) === 1);
  assert.ok(!(await listTopics()).includes(`${topic}.dlq`), 'nothing was dead-lettered');
  assert.ok(logs.some((l) => l.includes('retrying until it returns')));
});

test('a malformed message or a payload breaking its contract is dead-lettered before any handler sees it', async () => {
  const topic = 'spec.malformed';
  registerEventContract('gauge.read', 1, (p) => (typeof p.value === 'number' ? null : 'value must be a number'));
  const handled: string[] = [];
  await bus.subscribe({ groupId: 'spec-malformed', topics: [topic], handler: async (events) => void handled.push(...events.map((e) => e.id)) });
  const good = event('agg-m', 1, 'gauge.read');
  good.payload = { value: 3 };
  const broken = { ...event('agg-m', 2, 'gauge.read'), payload: { value: 'three' } };
  const producer = new Kafka({ clientId: 'kafka-bus-spec-raw', brokers: broker.brokers, logLevel: logLevel.NOTHING }).producer();
  await producer.connect();
  try {
    await producer.send({
      topic,
      messages: [
        { key: 'agg-m', value: 'not json' },
        { key: 'agg-m', value: JSON.stringify({ ...event('agg-m', 3), id: 42 }) },
        { key: 'agg-m', value: JSON.stringify(broken) },
        { key: 'agg-m', value: JSON.stringify(good) },
      ],
    });
  } finally {
    await producer.disconnect();
  }
  const dead = await deadLetters(topic, 3);
  await waitFor('the valid event', () => handled.length === 1);
  assert.deepEqual(handled, [good.id]);
  assert.deepEqual(
    dead.map((d) => d.headers['dlq-error']),
    [
      dead[0].headers['dlq-error'],
      'MalformedEventError: id must be a uuid',
      'MalformedEventError: payload of gauge.read v1: value must be a number',
    ],
  );
  assert.match(dead[0].headers['dlq-error'], /^MalformedEventError: .*JSON/);
  await waitFor('every offset committed', async () => (await committed('spec-malformed', topic)) === 4);
});

test('a batch that keeps failing is narrowed down: only the failing message is parked', async () => {
  const topic = 'spec.narrowed';
  const events = [1, 2, 3].map((n) => event('agg-n', n));
  const poisonId = events[1].id;
  const handled: string[] = [];
  await bus.subscribe({
    groupId: 'spec-narrowed',
    topics: [topic],
    handler: async (batch) => {
      if (batch.some((e) => e.id === poisonId)) throw new Error('poisoned batch');
      handled.push(...batch.map((e) => e.id));
    },
  });
  await bus.publish(events.map((e) => ({ topic, key: 'agg-n', event: e })));
  const dead = await deadLetters(topic, 1);
  await waitFor('the healthy events', () => handled.length === 2, 45_000);
  assert.deepEqual(handled, [events[0].id, events[2].id]);
  assert.equal(JSON.parse(dead[0].value).id, poisonId);
  await waitFor('every offset committed', async () => (await committed('spec-narrowed', topic)) === 3);
});

test('ping follows the broker; publish fails while it is down and works after it is back', async () => {
  assert.equal(await bus.ping(), true);
  const { port } = broker;
  await broker.stop();

  assert.equal(await bus.ping(), false);
  const started = Date.now();
  await assert.rejects(bus.publish([{ topic: ORDERS, key: 'agg-a', event: event('agg-a', 20) }]));
  assert.ok(Date.now() - started < 20_000, `publish took ${Date.now() - started} ms to fail`);

  broker = await startKafkaBroker({ dataDir, port });
  // Like the outbox relay: retry until the bus takes it.
  for (let attempt = 0; ; attempt++) {
    try {
      await bus.publish([{ topic: ORDERS, key: 'agg-a', event: event('agg-a', 20) }]);
      break;
    } catch (error) {
      if (attempt >= 30) throw error;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  assert.equal(await bus.ping(), true);
  // The consumer subscribed in the first test outlived the outage.
  await waitFor('the event published after the restart', () => byKey.get('agg-a')?.at(-1) === 20, 90_000);
  assert.deepEqual(byKey.get('agg-a'), Array.from({ length: 21 }, (_, i) => i));
});
