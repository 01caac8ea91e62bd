import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Clock } from '@taproot/config';
import type { DataSource } from 'typeorm';

/** Where the verifier reports that a key authenticated a request. */
export interface ApiKeyUsageRecorder {
  record(apiKeyId: string, at: Date): void;
}

export interface ApiKeyUsageOptions {
  /** At most one flush per this many milliseconds of the injected clock (default 30 s). */
  flushIntervalMs?: number;
  /** How often a real-time timer asks whether a flush is due (default 1 s). */
  checkEveryMs?: number;
  /** Called when a flush fails; the uses are kept for the next one. */
  onError?: (error: unknown) => void;
}

export const API_KEY_USAGE_OPTIONS = Symbol('API_KEY_USAGE_OPTIONS');
export const DEFAULT_USAGE_FLUSH_INTERVAL_MS = 30_000;

/**
 * `last_used_at` without a write per request: uses are batched in memory (the latest per key)
 * and written by one UPDATE per flush, at most every `flushIntervalMs` and on shutdown.
 *
 * The interval is measured on the injected clock, so a test moves the clock past it to force a
 * flush (the real-time timer only polls). Replicas flush independently; an older use never
 * overwrites a newer one. A crash loses at most one interval of `last_used_at` updates, which
 * is the price of not writing per request. The column is the identity context's `api_keys`;
 * the tracker stays with the verifier that reports to it.
 */
export class ApiKeyUsageTracker implements ApiKeyUsageRecorder, OnApplicationBootstrap, OnApplicationShutdown {
  private pending = new Map<string, Date>();
  private lastFlushAt: number;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<number> | null = null;
  private readonly flushIntervalMs: number;
  private readonly checkEveryMs: number;
  /** Flushes that wrote something: one UPDATE statement each. */
  flushCount = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly options: ApiKeyUsageOptions = {},
  ) {
    this.flushIntervalMs = options.flushIntervalMs ?? DEFAULT_USAGE_FLUSH_INTERVAL_MS;
    this.checkEveryMs = options.checkEveryMs ?? 1_000;
    this.lastFlushAt = clock.now().getTime();
  }

  record(apiKeyId: string, at: Date): void {
    const known = this.pending.get(apiKeyId);
    if (!known || known.getTime() < at.getTime()) this.pending.set(apiKeyId, at);
  }

  /** Uses not yet written. */
  get pendingCount(): number {
    return this.pending.size;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.flushIfDue(), this.checkEveryMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Flushes when the interval has passed on the clock since the last flush. */
  async flushIfDue(): Promise<number> {
    if (this.clock.now().getTime() - this.lastFlushAt < this.flushIntervalMs) return 0;
    return this.flush();
  }

  /** Writes every pending use in one UPDATE; returns how many keys it covered. */
  flush(): Promise<number> {
    // One flush at a time: a second caller waits for the running one, then flushes what is left.
    const run = (this.flushing ?? Promise.resolve(0)).then(() => this.write());
    const tracked = run.finally(() => {
      if (this.flushing === tracked) this.flushing = null;
    });
    this.flushing = tracked;
    return tracked;
  }

  async onApplicationBootstrap(): Promise<void> {
    this.start();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stop();
    await this.flush().catch((error) => this.options.onError?.(error));
  }

  private async write(): Promise<number> {
    this.lastFlushAt = this.clock.now().getTime();
    if (this.pending.size === 0) return 0;
    const batch = this.pending;
    this.pending = new Map();
    const ids = [...batch.keys()];
    const times = ids.map((id) => batch.get(id)!.toISOString());
    try {
      await this.dataSource.query(
        `UPDATE api_keys AS k SET last_used_at = u.used_at
           FROM unnest($1::uuid[], $2::timestamptz[]) AS u(id, used_at)
          WHERE k.id = u.id AND (k.last_used_at IS NULL OR k.last_used_at < u.used_at)`,
        [ids, times],
      );
      this.flushCount++;
      return ids.length;
    } catch (error) {
      // Keep the uses for the next flush (newer ones recorded meanwhile win).
      for (const [id, at] of batch) this.record(id, at);
      this.options.onError?.(error);
      return 0;
    }
  }
}
