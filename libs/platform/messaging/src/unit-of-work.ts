import type { DataSource, EntityManager } from 'typeorm';
import type { DomainEvent } from './event-envelope';
import type { ProjectionRunner } from './inbox/projection';
import { appendToOutbox } from './outbox/outbox';
import type { OutboxRelay } from './outbox/outbox-relay';
import { requestTransactionParticipant } from './request-context';

export interface Emitter {
  /** Queues events for the outbox of this transaction. */
  emit(topic: string, events: DomainEvent[]): void;
}

/**
 * The transaction every command runs in (architecture rules 3 and 5): the state change, the
 * owning context's read model (inline projections) and the outbox rows commit together. After
 * the commit it wakes the relay, which carries the events to the other consumers; nothing waits
 * for them.
 */
export class UnitOfWork {
  private readonly commitListeners: ((events: readonly DomainEvent[]) => void)[] = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly relay: OutboxRelay | null,
    private readonly projections: ProjectionRunner,
  ) {}

  /** Told, after each commit, the events it committed (process-local caches drop what they changed). */
  onCommit(listener: (events: readonly DomainEvent[]) => void): void {
    this.commitListeners.push(listener);
  }

  async run<T>(work: (manager: EntityManager, emitter: Emitter) => Promise<T>): Promise<T> {
    const emitted: DomainEvent[] = [];
    const participant = requestTransactionParticipant();
    const result = await this.dataSource.transaction(async (manager) => {
      // By topic, in the order emitted: a transaction of many writes (a group commit) applies and
      // appends each topic's events in one go.
      const pending = new Map<string, DomainEvent[]>();
      const value = await work(manager, { emit: (topic, events) => (pending.get(topic) ?? pending.set(topic, []).get(topic)!).push(...events) });
      for (const [topic, events] of pending) {
        if (events.length === 0) continue;
        await this.projections.applyInline(events, manager);
        await appendToOutbox(manager, topic, events);
        emitted.push(...events);
      }
      await participant?.write(manager, emitted);
      return value;
    });
    participant?.committed();
    if (emitted.length > 0) {
      for (const listener of this.commitListeners) listener(emitted);
      this.relay?.kick();
    }
    return result;
  }
}
