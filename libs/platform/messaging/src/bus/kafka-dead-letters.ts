import { randomUUID } from 'node:crypto';
import { type Admin, type IHeaders, Kafka, type KafkaMessage, logLevel } from 'kafkajs';
import { isTransientFailure } from '../transient-failure';

/** One message the Kafka bus parked in `<topic>.dlq` (headers written by KafkaEventBus.deadLetter). */
export interface DeadLetter {
  /** Where it is parked: the dead-letter topic, its partition and offset. */
  topic: string;
  partition: number;
  offset: string;
  /** Where it came from and which consumer group gave up on it, and why. */
  sourceTopic: string;
  groupId: string;
  error: string;
  eventId: string | null;
  eventType: string | null;
  key: string | null;
  /** False until `replay` has sent it back to its source topic. */
  replayed: boolean;
  value: Buffer | null;
  headers: IHeaders;
}

/**
 * The consumer group whose committed offsets mark how far each dead-letter partition has been
 * replayed: what lies past them is pending. It only ever commits; it never consumes.
 */
export const DLQ_REPLAY_GROUP = 'taproot.dlq-replay';
const DLQ_SUFFIX = '.dlq';
const READ_TIMEOUT_MS = 30_000;

const header = (headers: IHeaders | undefined, name: string): string | null => {
  const value = headers?.[name];
  if (value === undefined) return null;
  return String(Array.isArray(value) ? value[0] : value);
};

/**
 * Reads and replays the dead-letter topics: `taproot dlq list` and `taproot dlq replay`. A replay
 * publishes each pending message back to its source topic with its key, value and event headers;
 * every consumer group of that topic receives it again and each skips what its inbox already
 * holds, so only the group that parked it applies it.
 */
export class KafkaDeadLetters {
  private readonly kafka: Kafka;

  constructor(opts: { brokers: string[]; clientId: string }) {
    this.kafka = new Kafka({
      clientId: opts.clientId,
      brokers: opts.brokers,
      connectionTimeout: 3000,
      retry: { retries: 3 },
      logLevel: logLevel.NOTHING,
    });
  }

  /** Every parked message, oldest first per partition; `replayed` tells which were sent back. */
  async list(): Promise<DeadLetter[]> {
    return this.withAdmin(async (admin) => {
      const topics = (await admin.listTopics()).filter((t) => t.endsWith(DLQ_SUFFIX)).sort();
      const letters: DeadLetter[] = [];
      for (const topic of topics) letters.push(...(await this.readTopic(admin, topic)));
      return letters;
    });
  }

  /**
   * Sends every pending message (of `sourceTopic` only, when given) back to its source topic,
   * then marks it replayed. Resolves the messages replayed.
   */
  async replay(opts: { sourceTopic?: string } = {}): Promise<DeadLetter[]> {
    const pending = (await this.list()).filter((l) => !l.replayed && (!opts.sourceTopic || l.sourceTopic === opts.sourceTopic));
    if (pending.length === 0) return [];
    const producer = this.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    try {
      const byTopic = new Map<string, { key: string | null; value: Buffer | null; headers: IHeaders }[]>();
      for (const letter of pending) {
        const messages = byTopic.get(letter.sourceTopic) ?? [];
        messages.push({
          key: letter.key,
          value: letter.value,
          headers: {
            ...(letter.eventType ? { 'event-type': letter.eventType } : {}),
            ...(letter.eventId ? { 'event-id': letter.eventId } : {}),
            'dlq-replayed-from': `${letter.topic}/${letter.partition}/${letter.offset}`,
          },
        });
        byTopic.set(letter.sourceTopic, messages);
      }
      await producer.sendBatch({ acks: -1, topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })) });
    } finally {
      await producer.disconnect();
    }
    // Marked after the send: a crash in between replays them again, which the inboxes absorb.
    await this.withAdmin(async (admin) => {
      const ends = new Map<string, Map<number, bigint>>();
      for (const letter of pending) {
        const partitions = ends.get(letter.topic) ?? new Map<number, bigint>();
        const next = BigInt(letter.offset) + 1n;
        if ((partitions.get(letter.partition) ?? 0n) < next) partitions.set(letter.partition, next);
        ends.set(letter.topic, partitions);
      }
      for (const [topic, partitions] of ends) {
        await admin.setOffsets({
          groupId: DLQ_REPLAY_GROUP,
          topic,
          partitions: [...partitions].map(([partition, offset]) => ({ partition, offset: offset.toString() })),
        });
      }
    });
    return pending.map((l) => ({ ...l, replayed: true }));
  }

  /** Reads a dead-letter topic up to its current end with a throwaway group, deleted afterwards. */
  private async readTopic(admin: Admin, topic: string): Promise<DeadLetter[]> {
    const ends = await offsetsOf(admin, topic);
    const [marks] = await admin.fetchOffsets({ groupId: DLQ_REPLAY_GROUP, topics: [topic] });
    const replayedUpTo = new Map(marks.partitions.map((p) => [p.partition, BigInt(p.offset)]));
    const remaining = new Map(ends.filter((p) => BigInt(p.high) > BigInt(p.low)).map((p) => [p.partition, BigInt(p.high)]));
    const letters: DeadLetter[] = [];
    if (remaining.size === 0) return letters;
    const groupId = `taproot.dlq-reader-${randomUUID()}`;
    const consumer = this.kafka.consumer({ groupId });
    try {
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: true });
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`reading ${topic} took more than ${READ_TIMEOUT_MS / 1000} s`)), READ_TIMEOUT_MS);
        consumer
          .run({
            eachMessage: async ({ partition, message }) => {
              const end = remaining.get(partition);
              if (end === undefined || BigInt(message.offset) >= end) return;
              letters.push(toLetter(topic, partition, message, BigInt(message.offset) < (replayedUpTo.get(partition) ?? -1n)));
              if (BigInt(message.offset) + 1n >= end) remaining.delete(partition);
              if (remaining.size === 0) {
                clearTimeout(timer);
                resolve();
              }
            },
          })
          .catch(reject);
      });
    } finally {
      await consumer.disconnect().catch(() => undefined);
      await admin.deleteGroups([groupId]).catch(() => undefined);
    }
    return letters.sort((a, b) => a.partition - b.partition || Number(BigInt(a.offset) - BigInt(b.offset)));
  }

  private async withAdmin<T>(fn: (admin: Admin) => Promise<T>): Promise<T> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      return await fn(admin);
    } finally {
      await admin.disconnect();
    }
  }
}

function toLetter(topic: string, partition: number, message: KafkaMessage, replayed: boolean): DeadLetter {
  return {
    topic,
    partition,
    offset: message.offset,
    sourceTopic: header(message.headers, 'dlq-source-topic') ?? topic.slice(0, -DLQ_SUFFIX.length),
    groupId: header(message.headers, 'dlq-group-id') ?? '',
    error: header(message.headers, 'dlq-error') ?? '',
    eventId: header(message.headers, 'event-id'),
    eventType: header(message.headers, 'event-type'),
    key: message.key?.toString('utf8') ?? null,
    replayed,
    value: message.value,
    headers: message.headers ?? {},
  };
}

/**
 * A topic's offsets. A dead-letter topic made a moment ago may not have elected its leader yet
 * (NOT_LEADER_FOR_PARTITION, which kafkajs marks retriable): the read waits for it, briefly,
 * rather than failing the operator's command.
 */
async function offsetsOf(admin: Admin, topic: string): Promise<Awaited<ReturnType<Admin['fetchTopicOffsets']>>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await admin.fetchTopicOffsets(topic);
    } catch (error) {
      if (attempt >= 10 || !isTransientFailure(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}
