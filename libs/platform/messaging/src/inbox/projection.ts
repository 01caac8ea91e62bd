import { EventEmitter } from 'node:events';
import type { DataSource, EntityManager } from 'typeorm';
import type { EventBus } from '../bus/event-bus.port';
import type { DomainEvent } from '../event-envelope';

/**
 * A consumer that maintains a read model. `apply` runs in a transaction together with the
 * inbox row, so an event is applied exactly once however often it is delivered.
 */
export interface Projection {
  /** Consumer group and inbox key; never rename a deployed projection. */
  readonly name: string;
  readonly topics: readonly string[];
  handles(eventType: string): boolean;
  apply(event: DomainEvent, manager: EntityManager): Promise<void>;
  /**
   * Whether a write waits for this projection before it answers (read-your-writes). False for
   * read models nobody reads back right after their own write (the audit log): waiting for them
   * would only slow every write down.
   */
  readonly awaitedByWriters?: boolean;
}

/**
 * Runs an event through a consumer exactly once: the inbox insert and the effect share one
 * transaction; zero inserted rows means "already applied".
 */
export async function applyOnce(
  dataSource: DataSource,
  consumer: string,
  event: DomainEvent,
  effect: (manager: EntityManager) => Promise<void>,
): Promise<boolean> {
  return dataSource.transaction(async (manager) => {
    const inserted: unknown[] = await manager.query(
      'INSERT INTO inbox (consumer, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1',
      [consumer, event.id],
    );
    if (inserted.length === 0) return false;
    await effect(manager);
    return true;
  });
}

/**
 * Subscribes projections to the bus and tells waiters when an event has been applied, so a
 * write can wait for its own read model (read-your-writes, docs/architecture.md).
 */
export class ProjectionRunner {
  private readonly projections: Projection[] = [];
  private readonly applied = new EventEmitter().setMaxListeners(0);

  constructor(
    private readonly dataSource: DataSource,
    private readonly bus: EventBus,
  ) {}

  async register(projection: Projection): Promise<void> {
    this.projections.push(projection);
    await this.bus.subscribe({
      groupId: projection.name,
      topics: [...projection.topics],
      handler: async (event) => {
        if (projection.handles(event.type)) {
          await applyOnce(this.dataSource, projection.name, event, (m) => projection.apply(event, m));
        }
        this.applied.emit(`${projection.name}:${event.id}`);
      },
    });
  }

  /**
   * Resolves when every projection that handles one of these events has applied it, or after
   * `timeoutMs` (then false). Another replica may hold the partition, so the inbox is polled too.
   */
  async waitFor(events: DomainEvent[], timeoutMs: number): Promise<boolean> {
    const pending = new Set<string>();
    for (const event of events) {
      for (const p of this.projections) if (p.awaitedByWriters !== false && p.handles(event.type)) pending.add(`${p.name}:${event.id}`);
    }
    if (pending.size === 0 || timeoutMs <= 0) return pending.size === 0;
    return new Promise<boolean>((resolve) => {
      const listeners = new Map<string, () => void>();
      let poll: NodeJS.Timeout | undefined;
      const finish = (ok: boolean) => {
        clearTimeout(deadline);
        clearTimeout(poll);
        for (const [key, fn] of listeners) this.applied.off(key, fn);
        resolve(ok);
      };
      const done = (key: string) => {
        pending.delete(key);
        if (pending.size === 0) finish(true);
      };
      for (const key of pending) {
        const fn = () => done(key);
        listeners.set(key, fn);
        this.applied.once(key, fn);
      }
      const deadline = setTimeout(() => finish(false), timeoutMs);
      const check = async () => {
        const keys = [...pending].map((k) => k.split(':') as [string, string]);
        const rows: { consumer: string; event_id: string }[] = await this.dataSource
          .query(
            'SELECT consumer, event_id FROM inbox WHERE (consumer, event_id) IN (SELECT * FROM unnest($1::text[], $2::uuid[]))',
            [keys.map((k) => k[0]), keys.map((k) => k[1])],
          )
          .catch(() => []);
        for (const r of rows) done(`${r.consumer}:${r.event_id}`);
        if (pending.size > 0) poll = setTimeout(() => void check(), 100);
      };
      poll = setTimeout(() => void check(), 100);
    });
  }
}
