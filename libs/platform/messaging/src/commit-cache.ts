import type { DomainEvent } from './event-envelope';
import type { UnitOfWork } from './unit-of-work';

export interface CommitCacheOptions {
  /** How long an entry is reused, in ms on the caller's clock (0: nothing is kept). */
  ttlMs: number;
  /** Committed events of these types may make an entry wrong: the cache is cleared on their commit. */
  invalidatedBy: RegExp;
  /** Entries kept at most (the oldest goes first). */
  maxEntries?: number;
  /**
   * After `ttlMs`, how much longer an entry may be answered while one caller refreshes it: the
   * first `get` past the ttl misses (that caller reads and `set`s), the others get the old value
   * meanwhile, so an expiry costs one read instead of one per concurrent caller. Never past the
   * value's own expiry, and nothing outlives a clear. Default 0: an expired entry is gone.
   */
  refreshMs?: number;
}

interface Entry<V> {
  value: V;
  freshUntil: number;
  staleUntil: number;
  /** A caller is refreshing it (got a miss past `freshUntil`). */
  refreshing: boolean;
}

/**
 * A process-local read cache for what every request of a kind looks up (a verified caller, an
 * alert source's credentials): an entry is reused for at most `ttlMs`, and the process that
 * commits a change of the cached kind drops every entry at its commit (`UnitOfWork.onCommit`).
 * Other replicas see the change within `ttlMs` (plus `refreshMs`): the bound a cache's owner states.
 */
export class CommitCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  /** Counts the clears: a value read before one may predate the change that caused it. */
  private generation = 0;

  constructor(
    private readonly options: CommitCacheOptions,
    unitOfWork?: UnitOfWork,
  ) {
    unitOfWork?.onCommit((events) => this.committed(events));
  }

  get enabled(): boolean {
    return this.options.ttlMs > 0;
  }

  /**
   * The value kept for `key` at `now` (epoch ms), if it has not expired; past the ttl, the old
   * value to every caller but the first, which refreshes it (`refreshMs`).
   */
  get(key: string, now: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.freshUntil > now) return entry.value;
    if (entry.staleUntil > now) {
      if (entry.refreshing) return entry.value;
      entry.refreshing = true;
      return undefined;
    }
    this.entries.delete(key);
    return undefined;
  }

  /**
   * Taken before reading what will be kept: `set` with it keeps nothing if a clear came in
   * between, since the read may have seen the state before the commit that cleared.
   */
  mark(): number {
    return this.generation;
  }

  /**
   * Keeps `value` from `now` for the cache's ttl, and never past `until` (an expiry of the value
   * itself); nothing if the cache was cleared since `mark` (see `mark()`).
   */
  set(key: string, value: V, now: number, until = Infinity, mark = this.generation): void {
    if (!this.enabled || mark !== this.generation) return;
    if (this.entries.size >= (this.options.maxEntries ?? 10_000)) this.entries.delete(this.entries.keys().next().value!);
    const freshUntil = Math.min(now + this.options.ttlMs, until);
    this.entries.set(key, { value, freshUntil, staleUntil: Math.min(freshUntil + (this.options.refreshMs ?? 0), until), refreshing: false });
  }

  committed(events: readonly DomainEvent[]): void {
    if (!events.some((e) => this.options.invalidatedBy.test(e.type))) return;
    this.entries.clear();
    this.generation++;
  }
}
