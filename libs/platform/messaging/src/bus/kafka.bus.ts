import {
  type Admin,
  type Consumer,
  type EachBatchPayload,
  type IHeaders,
  Kafka,
  type KafkaMessage,
  type logCreator,
  logLevel,
  type Message,
  Partitioners,
  type Producer,
} from 'kafkajs';
import { MalformedEventError, parseDomainEvent, type DomainEvent } from '../event-envelope';
import { isTransientFailure } from '../transient-failure';
import type { BusMessage, BusSubscription, EventBus } from './event-bus.port';

export interface KafkaBusLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface KafkaEventBusOptions {
  brokers: string[];
  clientId: string;
  logger?: KafkaBusLogger;
}

const TOPIC_PARTITIONS = 3;
const TOPIC_REPLICATION = 1;
/** Handler retries after the first attempt before a message that fails the same way goes to `<topic>.dlq`. */
const HANDLER_RETRIES = 5;
const HANDLER_BACKOFF_MS = 100;
/** A transient failure (database or broker away) is retried without end, at most this far apart. */
const TRANSIENT_BACKOFF_MAX_MS = 10_000;
const PING_TIMEOUT_MS = 3000;
const DISCONNECT_TIMEOUT_MS = 5000;
const RESTART_BACKOFF_MAX_MS = 30_000;
const LOG_REPEAT_WINDOW_MS = 10_000;

const stderrLogger: KafkaBusLogger = {
  info: () => undefined,
  warn: (obj, msg) => process.stderr.write(`${JSON.stringify({ level: 'warn', msg, ...obj })}\n`),
  error: (obj, msg) => process.stderr.write(`${JSON.stringify({ level: 'error', msg, ...obj })}\n`),
};

interface ActiveSubscription extends BusSubscription {
  consumer: Consumer | null;
  restartTimer: NodeJS.Timeout | null;
  restarts: number;
}

/**
 * The distributed bus on kafkajs. Publishing is at-least-once with an idempotent producer
 * (acks=all, one request in flight, so order holds per key); consuming hands the handler a
 * partition's batch, commits offsets only after the handler resolved, retries a handler that
 * fails on an unreachable dependency until it returns, and parks a message that is malformed or
 * keeps failing deterministically in `<topic>.dlq` (`taproot dlq list` / `replay`).
 */
export class KafkaEventBus implements EventBus {
  readonly kind = 'kafka' as const;
  private readonly kafka: Kafka;
  private readonly logger: KafkaBusLogger;
  private producer: Promise<Producer> | null = null;
  private admin: Promise<Admin> | null = null;
  // Sends run one at a time: an idempotent producer numbers its batches, and two concurrent
  // sends (relay + dead-letter) could otherwise be sequenced out of order.
  private sendQueue: Promise<unknown> = Promise.resolve();
  private readonly knownTopics = new Set<string>();
  private readonly subscriptions = new Map<string, ActiveSubscription>();
  private closed = false;

  constructor(opts: KafkaEventBusOptions) {
    this.logger = opts.logger ?? stderrLogger;
    this.kafka = new Kafka({
      clientId: opts.clientId,
      brokers: opts.brokers,
      // A bounded budget: publish must fail within seconds while the broker is down, so the
      // outbox relay backs off and retries instead of hanging inside kafkajs.
      connectionTimeout: 3000,
      requestTimeout: 10_000,
      retry: { retries: 3, initialRetryTime: 200, maxRetryTime: 2000 },
      logLevel: logLevel.WARN,
      logCreator: this.logCreator(),
    });
  }

  async publish(messages: BusMessage[]): Promise<void> {
    this.assertOpen();
    if (messages.length === 0) return;
    const byTopic = new Map<string, Message[]>();
    for (const { topic, key, event } of messages) {
      let batch = byTopic.get(topic);
      if (!batch) byTopic.set(topic, (batch = []));
      batch.push({ key, value: JSON.stringify(event), headers: { 'event-type': event.type, 'event-id': event.id } });
    }
    await this.send(byTopic);
  }

  async subscribe(subscription: BusSubscription): Promise<void> {
    this.assertOpen();
    if (this.subscriptions.has(subscription.groupId)) {
      throw new Error(`consumer group ${subscription.groupId} is already subscribed`);
    }
    const sub: ActiveSubscription = { ...subscription, consumer: null, restartTimer: null, restarts: 0 };
    this.subscriptions.set(sub.groupId, sub);
    try {
      await this.ensureTopics(sub.topics);
      sub.consumer = await this.startConsumer(sub);
    } catch (error) {
      this.subscriptions.delete(sub.groupId);
      throw error;
    }
  }

  async ping(): Promise<boolean> {
    if (this.closed) return false;
    try {
      await withTimeout(
        this.withAdmin((admin) => admin.listTopics()),
        PING_TIMEOUT_MS,
      );
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const subs = [...this.subscriptions.values()];
    for (const sub of subs) if (sub.restartTimer) clearTimeout(sub.restartTimer);
    // Bounded: leaving a group needs the broker, which may be the reason we are closing.
    await Promise.all(subs.map((sub) => sub.consumer && quietly(sub.consumer.disconnect())));
    const [producer, admin] = [this.producer, this.admin];
    this.producer = this.admin = null;
    await Promise.all([
      producer && quietly(producer.then((p) => p.disconnect())),
      admin && quietly(admin.then((a) => a.disconnect())),
    ]);
  }

  // ---------------------------------------------------------------- producing

  private send(byTopic: Map<string, Message[]>): Promise<void> {
    const run = async (): Promise<void> => {
      this.assertOpen();
      await this.ensureTopics([...byTopic.keys()]);
      const current = this.connectProducer();
      try {
        const producer = await current;
        await producer.sendBatch({
          acks: -1,
          timeout: 10_000,
          topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })),
        });
      } catch (error) {
        // Start over with a fresh producer (new producer id, fresh connections) next time,
        // rather than reuse one whose sequence state a half-failed request left unknown.
        if (this.producer === current) this.producer = null;
        void quietly(current.then((p) => p.disconnect()));
        throw error;
      }
    };
    const result = this.sendQueue.then(run, run);
    this.sendQueue = result.catch(() => undefined);
    return result;
  }

  private connectProducer(): Promise<Producer> {
    if (!this.producer) {
      const producer = this.kafka.producer({
        idempotent: true,
        maxInFlightRequests: 1,
        createPartitioner: Partitioners.DefaultPartitioner,
        retry: { retries: 3, initialRetryTime: 200, maxRetryTime: 2000 },
      });
      const connecting = producer.connect().then(() => producer);
      this.producer = connecting;
      connecting.catch(() => {
        if (this.producer === connecting) this.producer = null;
        void quietly(producer.disconnect());
      });
    }
    return this.producer;
  }

  // ---------------------------------------------------------------- topics and admin

  /** Creates missing topics up front so consumers never race the broker's auto-creation. */
  private async ensureTopics(topics: string[]): Promise<void> {
    const wanted = [...new Set(topics)].filter((t) => !this.knownTopics.has(t));
    if (wanted.length === 0) return;
    await this.withAdmin(async (admin) => {
      const existing = new Set(await admin.listTopics());
      const missing = wanted.filter((t) => !existing.has(t));
      if (missing.length > 0) {
        // Resolves false when another client created them first; that is fine too.
        await admin.createTopics({
          waitForLeaders: true,
          topics: missing.map((topic) => ({ topic, numPartitions: TOPIC_PARTITIONS, replicationFactor: TOPIC_REPLICATION })),
        });
        this.logger.info({ topics: missing }, 'kafka topics created');
      }
    });
    for (const t of wanted) this.knownTopics.add(t);
  }

  private async withAdmin<T>(fn: (admin: Admin) => Promise<T>): Promise<T> {
    if (!this.admin) {
      const admin = this.kafka.admin({ retry: { retries: 3, initialRetryTime: 200, maxRetryTime: 2000 } });
      const connecting = admin.connect().then(() => admin);
      this.admin = connecting;
      connecting.catch(() => undefined);
    }
    const current = this.admin;
    try {
      return await fn(await current);
    } catch (error) {
      // Reconnect from scratch next time: after a broker restart a fresh client is the surest path.
      if (this.admin === current) this.admin = null;
      void quietly(current.then((a) => a.disconnect()));
      throw error;
    }
  }

  // ---------------------------------------------------------------- consuming

  private async startConsumer(sub: ActiveSubscription): Promise<Consumer> {
    const consumer = this.kafka.consumer({
      groupId: sub.groupId,
      // After a broker restart the group still lists our pre-crash member, and a rejoin waits for
      // that ghost's session to expire: 10 s (not 30) bounds the stall. kafkajs heartbeats between
      // messages (and we do between handler retries), so this only limits one handler call.
      sessionTimeout: 10_000,
      heartbeatInterval: 3000,
      // kafkajs restarts a crashed consumer (e.g. the broker went away) when this says so; keep
      // saying yes until close(), so consumers outlive any broker outage.
      retry: {
        retries: 5,
        initialRetryTime: 300,
        maxRetryTime: 5000,
        restartOnFailure: async () => !this.closed,
      },
    });
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      // kafkajs gives up on errors it deems non-retriable; we do not, since a dead consumer
      // would silently stop a projection.
      if (payload.restart || this.closed) return;
      this.logger.error({ groupId: sub.groupId, err: String(payload.error) }, 'kafka consumer crashed; recreating it');
      this.scheduleRestart(sub);
    });
    try {
      await consumer.connect();
      await consumer.subscribe({ topics: sub.topics, fromBeginning: true });
      await consumer.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        eachBatch: (payload) => this.consume(sub, consumer, payload),
      });
      sub.restarts = 0;
      return consumer;
    } catch (error) {
      await quietly(consumer.disconnect());
      throw error;
    }
  }

  private scheduleRestart(sub: ActiveSubscription): void {
    if (this.closed || sub.restartTimer) return;
    const delay = Math.min(RESTART_BACKOFF_MAX_MS, 1000 * 2 ** sub.restarts++);
    sub.restartTimer = setTimeout(() => {
      sub.restartTimer = null;
      void (async () => {
        if (this.closed) return;
        const old = sub.consumer;
        sub.consumer = null;
        if (old) await quietly(old.disconnect());
        try {
          const consumer = await this.startConsumer(sub);
          if (this.closed) await quietly(consumer.disconnect());
          else sub.consumer = consumer;
        } catch (error) {
          this.logger.warn({ groupId: sub.groupId, err: String(error) }, 'kafka consumer restart failed; retrying');
          this.scheduleRestart(sub);
        }
      })();
    }, delay);
  }

  /**
   * Handles one partition's batch: malformed messages go straight to the dead-letter topic; the
   * rest go to the handler together. A batch that keeps failing is retried message by message, so
   * only the message that fails is parked. Offsets are committed once processed or dead-lettered.
   */
  private async consume(sub: ActiveSubscription, consumer: Consumer, payload: EachBatchPayload): Promise<void> {
    const { batch, isRunning, isStale } = payload;
    const { topic, partition } = batch;
    const commit = (message: KafkaMessage) =>
      consumer.commitOffsets([{ topic, partition, offset: (BigInt(message.offset) + 1n).toString() }]);
    const valid: { message: KafkaMessage; event: DomainEvent }[] = [];
    const parked: { message: KafkaMessage; error: unknown }[] = [];
    for (const message of batch.messages) {
      try {
        valid.push({ message, event: parseDomainEvent(JSON.parse(message.value?.toString('utf8') ?? '')) });
      } catch (error) {
        parked.push({ message, error: error instanceof MalformedEventError ? error : new MalformedEventError(String(error)) });
      }
    }
    for (const { message, error } of parked) await this.deadLetter(sub, topic, partition, message, error);
    if (valid.length > 0) {
      // Rebalanced away: uncommitted, so the partition's new owner gets the batch.
      if (!isRunning() || isStale()) return;
      try {
        await this.handleValid(sub, topic, partition, valid, payload);
      } catch (error) {
        if (error instanceof PartitionRevoked) return;
        throw error;
      }
    }
    const last = batch.messages[batch.messages.length - 1];
    if (!last) return;
    payload.resolveOffset(last.offset);
    await commit(last);
  }

  /** The batch's handler run; a batch that keeps failing is narrowed to the messages that fail. */
  private async handleValid(
    sub: ActiveSubscription,
    topic: string,
    partition: number,
    valid: { message: KafkaMessage; event: DomainEvent }[],
    payload: EachBatchPayload,
  ): Promise<void> {
    const failure = await this.runHandler(sub, topic, partition, valid.map((v) => v.event), payload);
    if (failure === null) return;
    if (valid.length === 1) return this.deadLetter(sub, topic, partition, valid[0].message, failure);
    for (const { message, event } of valid) {
      const single = await this.runHandler(sub, topic, partition, [event], payload);
      if (single !== null) await this.deadLetter(sub, topic, partition, message, single);
    }
  }

  /**
   * Resolves null once the handler succeeded, or the last error once a deterministic failure
   * exhausted its retries. A transient failure (isTransientFailure) is retried until the
   * dependency returns: dead-lettering it would lose an event that nothing is wrong with.
   */
  private async runHandler(
    sub: ActiveSubscription,
    topic: string,
    partition: number,
    events: DomainEvent[],
    payload: Pick<EachBatchPayload, 'heartbeat' | 'isRunning' | 'isStale'>,
  ): Promise<unknown> {
    let failures = 0;
    for (let attempt = 0; ; attempt++) {
      try {
        await sub.handler(events, topic);
        if (failures > 0) this.logger.info({ groupId: sub.groupId, topic, partition, failures }, 'event handler recovered');
        return null;
      } catch (error) {
        failures++;
        const transient = isTransientFailure(error);
        if (!transient && attempt >= HANDLER_RETRIES) return error;
        // Logged on the first failures, then once in a while: an outage repeats the same error.
        if (failures <= HANDLER_RETRIES || failures % 20 === 0) {
          this.logger.warn(
            { groupId: sub.groupId, topic, partition, events: events.length, first: events[0]?.id, attempt: attempt + 1, transient, err: String(error) },
            transient ? 'event handler failed on a dependency; retrying until it returns' : 'event handler failed; retrying',
          );
        }
        await new Promise((r) => setTimeout(r, Math.min(TRANSIENT_BACKOFF_MAX_MS, HANDLER_BACKOFF_MS * 2 ** Math.min(attempt, 10))));
        // Not committed, so it is redelivered to whoever owns the partition after close/rebalance.
        if (this.closed) throw new Error('event bus closed while retrying a handler');
        if (!payload.isRunning() || payload.isStale()) throw new PartitionRevoked();
        // kafkajs has no background heartbeat: keep the group membership alive between attempts.
        await payload.heartbeat();
      }
    }
  }

  private async deadLetter(sub: ActiveSubscription, topic: string, partition: number, message: KafkaMessage, error: unknown): Promise<void> {
    const dlq = `${topic}.dlq`;
    const headers: IHeaders = {
      ...message.headers,
      'dlq-source-topic': topic,
      'dlq-source-partition': String(partition),
      'dlq-source-offset': message.offset,
      'dlq-group-id': sub.groupId,
      'dlq-error': String(error).slice(0, 1000),
    };
    this.logger.error(
      { groupId: sub.groupId, topic, partition, offset: message.offset, dlq, err: String(error) },
      'event handler kept failing; message moved to the dead-letter topic',
    );
    // If this send fails, eachMessage rejects and kafkajs redelivers: still nothing dropped.
    await this.send(new Map([[dlq, [{ key: message.key, value: message.value, headers }]]]));
  }

  // ---------------------------------------------------------------- misc

  private assertOpen(): void {
    if (this.closed) throw new Error('event bus is closed');
  }

  private logCreator(): logCreator {
    // During a broker outage every client repeats the same connection error several times a
    // second; log each distinct message at most once per window, with a count of the rest.
    const lastLogged = new Map<string, { at: number; suppressed: number }>();
    return () =>
      ({ namespace, level, log }) => {
        const { message, timestamp: _timestamp, logger: _logger, ...extra } = log;
        // Expected with a bounded retry budget: we replace the producer after a failure instead.
        if (message === 'Limiting retries for the idempotent producer may invalidate EoS guarantees') return;
        const key = `${namespace}:${message.replace(/\d+/g, '#')}`;
        const seen = lastLogged.get(key);
        const now = Date.now();
        if (seen && now - seen.at < LOG_REPEAT_WINDOW_MS) {
          seen.suppressed++;
          return;
        }
        if (lastLogged.size > 1000) lastLogged.clear();
        lastLogged.set(key, { at: now, suppressed: 0 });
        const obj = { kafkajs: namespace, ...extra, ...(seen?.suppressed ? { repeated: seen.suppressed } : {}) };
        // kafkajs reports broker outages as errors; the bus recovers from them, so they are warnings here.
        if (level === logLevel.ERROR || level === logLevel.WARN) this.logger.warn(obj, message);
        else this.logger.info(obj, message);
      };
  }
}

/** The partition was revoked while its batch was being retried: its next owner gets the batch. */
class PartitionRevoked extends Error {}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Awaits a best-effort cleanup step without letting it fail or hang the caller. */
async function quietly(promise: Promise<unknown>): Promise<void> {
  await withTimeout(promise, DISCONNECT_TIMEOUT_MS).catch(() => undefined);
}
