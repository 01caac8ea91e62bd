import type { DataSource, EntityManager } from 'typeorm';
import type { DomainEvent } from './event-envelope';
import type { ProjectionRunner } from './inbox/projection';
import { appendToOutbox } from './outbox/outbox';
import type { OutboxRelay } from './outbox/outbox-relay';

export interface Emitter {
  /** Queues events for the outbox of this transaction. */
  emit(topic: string, events: DomainEvent[]): void;
}

/**
 * The transaction every command runs in: state and outbox rows commit together (rule 3).
 * After the commit it wakes the relay and waits until the command's own events are in the
 * read models (rule 5: read-your-writes by waiting, bounded by `waitMs`).
 */
export class UnitOfWork {
  constructor(
    private readonly dataSource: DataSource,
    private readonly relay: OutboxRelay | null,
    private readonly projections: ProjectionRunner,
    private readonly waitMs: number,
  ) {}

  /** `awaitReadModels` false: commit and wake the relay, but answer without waiting for the projections. */
  async run<T>(work: (manager: EntityManager, emitter: Emitter) => Promise<T>, { awaitReadModels = true } = {}): Promise<T> {
    const emitted: DomainEvent[] = [];
    const result = await this.dataSource.transaction(async (manager) => {
      const pending: { topic: string; events: DomainEvent[] }[] = [];
      const value = await work(manager, { emit: (topic, events) => pending.push({ topic, events }) });
      for (const { topic, events } of pending) {
        await appendToOutbox(manager, topic, events);
        emitted.push(...events);
      }
      return value;
    });
    if (emitted.length > 0) {
      this.relay?.kick();
      if (awaitReadModels) await this.projections.waitFor(emitted, this.waitMs);
    }
    return result;
  }
}
