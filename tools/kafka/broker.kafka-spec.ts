import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll as after, test } from '@jest/globals';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import { type KafkaBroker, startKafkaBroker } from './broker';

const TOPIC = 'broker-spec';

let broker: KafkaBroker | null = null;
let dataDir: string | null = null;

after(async () => {
  await broker?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Reads every message of TOPIC from the beginning with a fresh consumer group. */
async function readAll(brokers: string[], expected: number): Promise<string[]> {
  const kafka = new Kafka({ clientId: 'broker-spec', brokers, logLevel: logLevel.NOTHING });
  const consumer = kafka.consumer({ groupId: `broker-spec-${Date.now()}-${Math.random()}` });
  const values: string[] = [];
  try {
    await consumer.connect();
    await consumer.subscribe({ topic: TOPIC, fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`read ${values.length}/${expected} messages`)), 30_000);
      void consumer
        .run({
          eachMessage: async ({ message }) => {
            values.push(message.value?.toString() ?? '');
            if (values.length >= expected) {
              clearTimeout(timer);
              resolve();
            }
          },
        })
        .catch(reject);
    });
  } finally {
    await consumer.disconnect();
  }
  return values;
}

test('starts a broker, keeps its data across a stop and a restart on the same port', async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'broker-spec-'));
  broker = await startKafkaBroker({ dataDir });
  const { port } = broker;
  assert.deepEqual(broker.brokers, [`127.0.0.1:${port}`]);

  const kafka = new Kafka({ clientId: 'broker-spec', brokers: broker.brokers, logLevel: logLevel.NOTHING });
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  await producer.send({ topic: TOPIC, acks: -1, messages: [{ key: 'k', value: 'hello' }] });
  await producer.disconnect();
  assert.deepEqual(await readAll(broker.brokers, 1), ['hello']);

  await broker.stop();
  broker = await startKafkaBroker({ dataDir, port });
  assert.equal(broker.port, port);
  assert.deepEqual(await readAll(broker.brokers, 1), ['hello']);
});
