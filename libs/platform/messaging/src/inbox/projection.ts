import type { DataSource, EntityManager } from 'typeorm';
import type { EventBus } from '../bus/event-bus.port';
import type { DomainEvent } from '../event-envelope';

/** A read model maintained from events. */
export interface Projection {
  /** Consumer group and inbox key of an asynchronous projection; never rename a deployed one. */
  readonly name: string;
  readonly topics: readonly string[];
  handles(eventType: string): boolean;
  apply(event: DomainEvent, manager: EntityManager): Promise<void>;
  /** A batch's events in order, in one go (fewer statements than one `apply` each); `apply` one by one otherwise. */
  applyBatch?(events: DomainEvent[], manager: EntityManager): Promise<void>;
}

/**
 * Runs the events of a batch through a consumer exactly once: one transaction inserts the inbox
 * rows `(consumer, event_id)` and applies the effect to the events whose row is new (in order),
 * so a redelivered event is skipped and a failed batch leaves no trace. Resolves the fresh events.
 */
export async function applyBatchOnce(
  dataSource: DataSource,
  consumer: string,
  events: DomainEvent[],
  effect: (fresh: DomainEvent[], manager: EntityManager) => Promise<void>,
): Promise<DomainEvent[]> {
  if (events.length === 0) return [];
  return dataSource.transaction(async (manager) => {
    const inserted: { event_id: string }[] = await manager.query(
      'INSERT INTO inbox (consumer, event_id) SELECT $1, unnest($2::uuid[]) ON CONFLICT DO NOTHING RETURNING event_id',
      [consumer, events.map((e) => e.id)],
    );
    const fresh = new Set(inserted.map((r) => r.event_id));
    // delete: an id twice in one batch (a redelivery joined to its first delivery) applies once.
    const applied = events.filter((event) => fresh.delete(event.id));
    if (applied.length > 0) await effect(applied, manager);
    return applied;
  });
}

/** `applyBatchOnce` for one event: true when it was applied now, false when it had been. */
export async function applyOnce(
  dataSource: DataSource,
  consumer: string,
  event: DomainEvent,
  effect: (manager: EntityManager) => Promise<void>,
): Promise<boolean> {
  return (await applyBatchOnce(dataSource, consumer, [event], (_fresh, manager) => effect(manager))).length === 1;
}

/**
 * The read models of a process, of two kinds (architecture rule 5):
 * - inline: the owning context's read model of its own resources, applied by the unit of work in
 *   the command's transaction, so a write reads back its own change at once and nothing waits;
 * - asynchronous: other consumers (the audit log, other contexts' read models), fed by the bus,
 *   applying each delivered batch in one transaction with its inbox rows.
 */
export class ProjectionRunner {
  private readonly inlineProjections: Projection[] = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly bus: EventBus,
  ) {}

  /**
   * A context's own read model: applied in the transaction of every write that emits its events.
   * Once per name: two apps of one process (npm start's api and webhook dispatcher) both write
   * webhook endpoints and both register their read model.
   */
  inline(projection: Projection): void {
    if (this.inlineProjections.some((p) => p.name === projection.name)) return;
    this.inlineProjections.push(projection);
  }

  /** A consumer's read model, fed by the bus in batches. */
  async subscribe(projection: Projection): Promise<void> {
    await this.bus.subscribe({
      groupId: projection.name,
      topics: [...projection.topics],
      handler: async (events) => {
        const handled = events.filter((e) => projection.handles(e.type));
        await applyBatchOnce(this.dataSource, projection.name, handled, (fresh, manager) => applyEvents(projection, fresh, manager));
      },
    });
  }

  /**
   * Applies the inline projections to a write's events inside the write's transaction: each
   * projection takes the events it handles as one batch (a group commit's many writes cost a
   * projection one statement, not one per event).
   */
  async applyInline(events: DomainEvent[], manager: EntityManager): Promise<void> {
    for (const projection of this.inlineProjections) {
      const handled = events.filter((e) => projection.handles(e.type));
      if (handled.length > 0) await applyEvents(projection, handled, manager);
    }
  }
}

async function applyEvents(projection: Projection, events: DomainEvent[], manager: EntityManager): Promise<void> {
  if (projection.applyBatch) return projection.applyBatch(events, manager);
  for (const event of events) await projection.apply(event, manager);
}
