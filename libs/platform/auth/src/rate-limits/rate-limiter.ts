import type { Clock, TaprootConfig } from '@taproot/config';
import type { DataSource } from 'typeorm';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  used: number;
  remaining: number;
  /** When the current window ends, in UTC epoch seconds. */
  resetAt: number;
  retryAfterSeconds: number;
  windowSeconds: number;
}

/** Requests a replica may admit from one claim of a bucket's budget: a 50th of the limit, at most 100. */
export function leaseSize(limit: number): number {
  return Math.max(1, Math.min(100, Math.floor(limit / 50)));
}

interface Lease {
  windowStart: number;
  /** Claimed in the database and not handed out yet. */
  left: number;
  /** The window counts as of the claim (the claim included). */
  current: number;
  previous: number;
}

/**
 * Sliding-window limits shared by every replica: the counters live in PostgreSQL, which every
 * deployment already has (docs/decisions/0001-rate-limit-store.md). A round trip increments the
 * current fixed window and reads the previous one; the sliding count is the previous window
 * weighted by how much of it still overlaps the last 60 s, plus the current one.
 *
 * `take` (the per-key API limits) claims a lease of `leaseSize(limit)` requests per round trip
 * and admits from it in memory, so steady traffic costs one statement per lease, not per request.
 * A lease is counted in the database before any of it is used, so replicas together never admit
 * more than the limit; unused leased requests (at most one lease per replica and bucket) count
 * as used until their window slides out. Limits under 100 lease one request: exact, as `hit`.
 * `rate_limit_windows` is created by the identity context's migrations, whose order is fixed.
 */
export class RateLimiter {
  private lastCleanup = 0;
  private readonly leases = new Map<string, Lease>();
  private readonly claiming = new Map<string, Promise<unknown>>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    readonly windowSeconds = 60,
  ) {}

  /** Counts one request in the database and decides on it (one round trip). */
  async hit(bucket: string, limit: number): Promise<RateLimitDecision> {
    const nowMs = this.clock.now().getTime();
    const { current, previous } = await this.claim(bucket, nowMs, 1);
    return this.decide(nowMs, current, previous, limit);
  }

  /** Counts one request against a lease of the bucket's budget (a round trip only to renew it). */
  async take(bucket: string, limit: number): Promise<RateLimitDecision> {
    for (;;) {
      const leased = this.takeLeased(bucket, limit);
      if (leased) return leased;
      const nowMs = this.clock.now().getTime();
      // One claim at a time per bucket: concurrent requests wait for it rather than each claim.
      const pending = this.claiming.get(bucket);
      if (pending) {
        await pending;
        continue;
      }
      const claim = this.claimLease(bucket, nowMs, limit);
      this.claiming.set(bucket, claim);
      const claimed = await claim.finally(() => this.claiming.delete(bucket));
      // Nothing granted: the limit is reached (the claim's count says by how much).
      if (claimed.left === 0) return this.decide(nowMs, claimed.current, claimed.previous, limit);
    }
  }

  /**
   * `take` without waiting: the request counted against the bucket's lease in memory, or undefined
   * when the lease is used up or of a past window (then `take` claims the next one). A hot path
   * answers without a promise.
   */
  takeLeased(bucket: string, limit: number): RateLimitDecision | undefined {
    const nowMs = this.clock.now().getTime();
    const lease = this.leases.get(bucket);
    if (!lease || lease.windowStart !== Math.floor(nowMs / (this.windowSeconds * 1000)) || lease.left === 0) return undefined;
    lease.left--;
    return this.decide(nowMs, lease.current - lease.left, lease.previous, limit);
  }

  /** Claims the bucket's next lease in the database; the part beyond the limit (other replicas took it) is not granted. */
  private async claimLease(bucket: string, nowMs: number, limit: number): Promise<Lease> {
    const size = leaseSize(limit);
    const { current, previous } = await this.claim(bucket, nowMs, size);
    const over = Math.max(0, this.slidingUsed(nowMs, current, previous) - limit);
    const lease = { windowStart: Math.floor(nowMs / (this.windowSeconds * 1000)), left: Math.max(0, size - over), current, previous };
    this.leases.set(bucket, lease);
    return lease;
  }

  private async claim(bucket: string, nowMs: number, count: number): Promise<{ current: number; previous: number }> {
    const windowStart = Math.floor(nowMs / (this.windowSeconds * 1000));
    const [row] = await this.dataSource.query(
      `WITH cur AS (
         INSERT INTO rate_limit_windows (bucket, window_start, count, window_seconds) VALUES ($1, $2, $5, $4)
         ON CONFLICT (bucket, window_start) DO UPDATE SET count = rate_limit_windows.count + $5
         RETURNING count)
       SELECT (SELECT count FROM cur) AS current,
              COALESCE((SELECT count FROM rate_limit_windows WHERE bucket = $1 AND window_start = $3), 0) AS previous`,
      [bucket, windowStart, windowStart - 1, this.windowSeconds, count],
    );
    void this.cleanup(nowMs, windowStart);
    return { current: Number(row.current), previous: Number(row.previous) };
  }

  /**
   * The bucket's count without adding to it, for limits on failures (sign-in): `allowed` says
   * whether one more would still be within the limit.
   */
  async peek(bucket: string, limit: number): Promise<RateLimitDecision> {
    const nowMs = this.clock.now().getTime();
    const windowStart = Math.floor(nowMs / (this.windowSeconds * 1000));
    const [row] = await this.dataSource.query(
      `SELECT COALESCE(sum(count) FILTER (WHERE window_start = $2), 0) AS current,
              COALESCE(sum(count) FILTER (WHERE window_start = $3), 0) AS previous
         FROM rate_limit_windows WHERE bucket = $1 AND window_start IN ($2, $3)`,
      [bucket, windowStart, windowStart - 1],
    );
    return this.decide(nowMs, Number(row.current) + 1, Number(row.previous), limit);
  }

  /** The sliding count: the previous window weighted by its overlap with the last window, plus the current one. */
  private slidingUsed(nowMs: number, current: number, previous: number): number {
    const windowMs = this.windowSeconds * 1000;
    const windowStart = Math.floor(nowMs / windowMs);
    const elapsed = (nowMs - windowStart * windowMs) / windowMs;
    return Math.floor(previous * (1 - elapsed)) + current;
  }

  private decide(nowMs: number, current: number, previous: number, limit: number): RateLimitDecision {
    const windowMs = this.windowSeconds * 1000;
    const windowStart = Math.floor(nowMs / windowMs);
    const used = this.slidingUsed(nowMs, current, previous);
    const resetAt = ((windowStart + 1) * windowMs) / 1000;
    return {
      allowed: used <= limit,
      limit,
      used: Math.min(used, limit),
      remaining: Math.max(0, limit - used),
      resetAt,
      retryAfterSeconds: Math.max(1, Math.ceil(resetAt - nowMs / 1000)),
      windowSeconds: this.windowSeconds,
    };
  }

  /**
   * Windows older than the previous one no longer count; drop them now and then. Only windows of
   * this limiter's size: another size's indexes are on another scale.
   */
  private async cleanup(nowMs: number, windowStart: number): Promise<void> {
    if (nowMs - this.lastCleanup < 60_000) return;
    this.lastCleanup = nowMs;
    await this.dataSource
      .query('DELETE FROM rate_limit_windows WHERE window_seconds = $2 AND window_start < $1', [windowStart - 1, this.windowSeconds])
      .catch(() => undefined);
  }
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Spec, Limits: reads (GET, HEAD, OPTIONS) and writes (everything else) have separate budgets. */
export function requestKind(method: string): 'read' | 'write' {
  return READS.has(method.toUpperCase()) ? 'read' : 'write';
}

/**
 * A request no API key or token vouches for counts per client address against the deployment's
 * read or write limit (docs/decisions/0001): the api's refused tokens, every request to the auth
 * app. `host` keeps each app's counts apart.
 */
export function addressLimit(
  config: Pick<TaprootConfig, 'rateLimitReadsPerMinute' | 'rateLimitWritesPerMinute'>,
  host: string,
  request: { method: string; ip?: string },
): { bucket: string; limit: number } {
  const kind = requestKind(request.method);
  return { bucket: `${host}:${request.ip ?? 'unknown'}:${kind}`, limit: kind === 'read' ? config.rateLimitReadsPerMinute : config.rateLimitWritesPerMinute };
}

/**
 * Sets the spec's header set (Limits) on an answer: `X-RateLimit-Limit: <count>, <count>;window=<seconds>`
 * and the remaining, used and reset counts. No object is built: a kept public page is answered
 * with them on every request.
 */
export function setRateLimitHeaders(reply: { header(name: string, value: string): unknown }, d: RateLimitDecision): void {
  reply.header('X-RateLimit-Limit', `${d.limit}, ${d.limit};window=${d.windowSeconds}`);
  reply.header('X-RateLimit-Remaining', String(d.remaining));
  reply.header('X-RateLimit-Used', String(d.used));
  reply.header('X-RateLimit-Reset', String(Math.ceil(d.resetAt)));
}

/** The spec's header set (Limits), as an object (`setRateLimitHeaders`). */
export function rateLimitHeaders(d: RateLimitDecision): Record<string, string> {
  const headers: Record<string, string> = {};
  setRateLimitHeaders({ header: (name, value) => (headers[name] = value) }, d);
  return headers;
}

/**
 * Over a limit: 429 with exactly the body the spec gives (an object with a single `error` key,
 * not an errors list) and `Retry-After`.
 */
export class RateLimitExceededError extends Error {
  static readonly BODY = { error: 'Rate limit exceeded. Try again later.' } as const;
  readonly status = 429;

  constructor(readonly decision: RateLimitDecision) {
    super(RateLimitExceededError.BODY.error);
    this.name = 'RateLimitExceededError';
  }

  get headers(): Record<string, string> {
    return { ...rateLimitHeaders(this.decision), 'Retry-After': String(this.decision.retryAfterSeconds) };
  }
}
