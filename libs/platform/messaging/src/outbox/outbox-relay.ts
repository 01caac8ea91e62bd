import { AsyncResource } from 'node:async_hooks';
import type { DataSource } from 'typeorm';
import type { BusMessage, EventBus } from '../bus/event-bus.port';
import type { DomainEvent } from '../event-envelope';

export interface RelayLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface OutboxRelayOptions {
  pollMs: number;
  batchSize?: number;
  /** Published rows older than this are deleted; the outbox is a queue, not an archive. */
  retentionMs?: number;
  logger: RelayLogger;
}

// One relay at a time across every process, so events leave in outbox order (per aggregate
// order follows: a relay never reorders). 0x72656c79 = "rely".
const RELAY_LOCK = 1919249529;

/**
 * Moves committed outbox rows to the bus. At-least-once: a crash between publish and the
 * `published_at` update republishes the batch, and consumers de-duplicate through the inbox.
 * kafkajs has no linger, so the relay batches by itself.
 */
export class OutboxRelay {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private wakeAgain = false;
  private stopped = true;
  private failures = 0;
  private lastCleanup = 0;
  // Bound where the relay is made, outside any request: a tick woken by a request's commit is not
  // part of that request (its queries and logs carry no request id).
  private readonly tickOutsideRequests = AsyncResource.bind(() => void this.tick());

  constructor(
    private readonly dataSource: DataSource,
    private readonly bus: EventBus,
    private readonly opts: OutboxRelayOptions,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Called after a command commits so its events leave now rather than at the next poll. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.wakeAgain = true;
      return;
    }
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Publishes everything pending; resolves with the number of events sent. For tests and shutdown. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const sent = await this.relayBatch();
      total += sent;
      if (sent === 0) return total;
    }
  }

  private schedule(delay: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(this.tickOutsideRequests, delay);
  }

  private async tick(): Promise<void> {
    this.timer = null;
    if (this.running || this.stopped) return;
    let next = this.opts.pollMs;
    this.running = (async () => {
      try {
        const sent = await this.relayBatch();
        if (this.failures > 0) this.opts.logger.info({ failures: this.failures }, 'outbox relay recovered');
        this.failures = 0;
        if (sent === (this.opts.batchSize ?? 500)) next = 0;
        await this.cleanup();
      } catch (error) {
        this.failures++;
        // Back off while the bus is down, up to 5 s, then keep trying: nothing is dropped.
        next = Math.min(5000, this.opts.pollMs * 2 ** Math.min(this.failures, 5));
        if (this.failures === 1 || this.failures % 20 === 0) {
          this.opts.logger.warn({ err: String(error), failures: this.failures }, 'outbox relay could not publish; retrying');
        }
      }
    })();
    await this.running;
    this.running = null;
    if (this.wakeAgain) {
      this.wakeAgain = false;
      next = 0;
    }
    this.schedule(next);
  }

  private async relayBatch(): Promise<number> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      const [{ locked }] = await runner.query('SELECT pg_try_advisory_xact_lock($1) AS locked', [RELAY_LOCK]);
      if (!locked) {
        await runner.rollbackTransaction();
        return 0;
      }
      const rows: { seq: string; topic: string; aggregate_id: string; event: DomainEvent }[] = await runner.query(
        'SELECT seq, topic, aggregate_id, event FROM outbox WHERE published_at IS NULL ORDER BY seq LIMIT $1',
        [this.opts.batchSize ?? 500],
      );
      if (rows.length === 0) {
        await runner.rollbackTransaction();
        return 0;
      }
      const messages: BusMessage[] = rows.map((r) => ({ topic: r.topic, key: r.aggregate_id, event: r.event }));
      await this.bus.publish(messages);
      await runner.query('UPDATE outbox SET published_at = now() WHERE seq = ANY($1::bigint[])', [rows.map((r) => r.seq)]);
      await runner.commitTransaction();
      return rows.length;
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      throw error;
    } finally {
      await runner.release();
    }
  }

  private async cleanup(): Promise<void> {
    const retention = this.opts.retentionMs ?? 3_600_000;
    if (Date.now() - this.lastCleanup < 60_000) return;
    this.lastCleanup = Date.now();
    await this.dataSource.query(
      "DELETE FROM outbox WHERE published_at IS NOT NULL AND published_at < now() - make_interval(secs => $1)",
      [retention / 1000],
    );
  }
}
