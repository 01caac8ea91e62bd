import type { DataSource } from 'typeorm';
import type { EventBus } from '../bus/event-bus.port';
import type { DomainEvent } from '../event-envelope';
import { PassLoop } from '../pass-loop';

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
 * One relay at a time (the transaction's advisory lock; another relay gets no rows): the oldest
 * pending rows, marked published and returned in `seq` order.
 */
const TAKE_BATCH = `WITH relay AS (SELECT pg_try_advisory_xact_lock($2) AS locked),
  batch AS (SELECT seq FROM outbox WHERE published_at IS NULL AND (SELECT locked FROM relay) ORDER BY seq LIMIT $1),
  taken AS (UPDATE outbox o SET published_at = now() FROM batch WHERE o.seq = batch.seq RETURNING o.seq, o.topic, o.aggregate_id, o.event)
  SELECT topic, aggregate_id, event FROM taken ORDER BY seq`;

/**
 * Moves committed outbox rows to the bus. At-least-once: a crash between publish and the commit
 * of the `published_at` marks republishes the batch, and consumers de-duplicate (their inbox, or
 * the dispatcher's deliveries' key).
 * kafkajs has no linger, so the relay batches by itself.
 */
export class OutboxRelay {
  private lastCleanup = 0;
  private readonly loop: PassLoop;

  constructor(
    private readonly dataSource: DataSource,
    private readonly bus: EventBus,
    private readonly opts: OutboxRelayOptions,
  ) {
    // While the bus is down, the loop backs off (up to 5 s) and keeps trying: nothing is dropped.
    this.loop = new PassLoop({
      name: 'outbox relay',
      pollMs: opts.pollMs,
      logger: opts.logger,
      pass: async () => {
        const sent = await this.relayBatch();
        await this.cleanup();
        return sent === (this.opts.batchSize ?? 500);
      },
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Called after a command commits so its events leave now rather than at the next poll. */
  kick(): void {
    this.loop.kick();
  }

  stop(): Promise<void> {
    return this.loop.stop();
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

  private async relayBatch(): Promise<number> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      // The rows are marked in the statement that takes them: when the publish fails the
      // transaction rolls back and they are pending again. Three round trips a pass, not five:
      // the relay is one loop, and a busy machine answers each round trip late.
      const rows: { topic: string; aggregate_id: string; event: DomainEvent }[] = await runner.query(TAKE_BATCH, [this.opts.batchSize ?? 500, RELAY_LOCK]);
      if (rows.length === 0) {
        await runner.rollbackTransaction();
        return 0;
      }
      await this.bus.publish(rows.map((r) => ({ topic: r.topic, key: r.aggregate_id, event: r.event })));
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
