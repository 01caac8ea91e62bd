import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CLOCK, TAPROOT_CONFIG, type Clock, type Logger, type TaprootConfig } from '@taproot/config';
import { applyBatchOnce, PassLoop, UnitOfWork, type DomainEvent } from '@taproot/messaging';
import { LOGGER } from '@taproot/runtime';
import { DataSource, type EntityManager } from 'typeorm';
import { ConcurrencyLimit } from './concurrency-limit';
import { claimDue, insertDeliveries, newDeliveries, recordDeliveries, recordEndpointHealth, type DeliveryRecord, type EndpointOutcome, type LeasedDelivery } from './delivery-store';
import { MissingSecretError, renderHeaderValue, secretNamesIn } from '../endpoints/custom-headers';
import { WEBHOOKS_DELIVERY_REDELIVERED } from '../deliveries/webhooks-delivery.schema';
import { secretValues } from '../secrets/secret-values';
import { WebhookEndpointDisabler, type EndpointToDisable } from './endpoint-disabler';
import { verdictOf } from './retry-schedule';
import { signatureHeaders } from './signatures';
import type { WebhookAttemptOutcome, WebhookSender } from './webhook-sender';

/** The sender deliveries go through (the SSRF-guarded one; docs/webhook-delivery.md). */
export const WEBHOOK_SENDER = Symbol('WEBHOOK_SENDER');

/** Due deliveries claimed per pass. */
const CLAIM_BATCH = 200;
/** Outcomes written per statement. */
const FLUSH_BATCH = 1000;
/** The longest wait between tries of a flush the database refused. */
const MAX_FLUSH_BACKOFF_MS = 5000;
/**
 * The fan-out of a batch waits for its first attempts before writing the deliveries, while they
 * keep settling: it stops when none settled for FIRST_ATTEMPT_GAP_MS (a receiver that is slow or
 * down), after FIRST_ATTEMPT_WAIT_MS in all, or when the attempts take FAST_ATTEMPT_MS or more on
 * average and fewer than WEBHOOK_CONCURRENCY are left (a receiver doing some work: waiting for the
 * last ones would leave attempts free while the next batch waits). Those settled by then are
 * inserted with their outcome (one write), the others pending.
 */
export const FIRST_ATTEMPT_GAP_MS = 200;
export const FIRST_ATTEMPT_WAIT_MS = 1000;
const FAST_ATTEMPT_MS = 10;
/** Settled first attempts are inserted this many at a time while the others run. */
const INSERT_CHUNK = 100;

/** An attempt starting: what a benchmark or a test watches. */
export interface AttemptStart {
  deliveryId: string;
  eventId: string;
  endpointId: string;
  /** The clock's time at the start. */
  at: Date;
}

/**
 * The delivery engine of a dispatcher process (docs/webhook-delivery.md). Deliveries come two
 * ways: the fan-out of consumed events, made leased to this process in the consumer's inbox
 * transaction and handed over right after its commit (no second round trip before the first
 * attempt), and a worker loop claiming due rows (retries, redeliveries, the rows of a process that
 * died) under a lease, FOR UPDATE SKIP LOCKED, so replicas share them and each attempt has one
 * owner. At most WEBHOOK_CONCURRENCY attempts are in flight; outcomes are recorded in batches (one
 * statement per flush, whatever came in while the previous flush ran). Time comes from the
 * injected clock; with WEBHOOK_POLL_MS=0 the loop only runs when `runDue` is called (tests).
 */
@Injectable()
export class WebhookDeliveryEngine implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly loop: PassLoop;
  private readonly attempts: ConcurrencyLimit;
  /** How long a leased delivery is this process's: its queueing, its attempt and the recording. */
  private readonly leaseMs: number;
  private readonly outcomes: DeliveryRecord[] = [];
  private flushing: Promise<void> | null = null;
  /** First attempts made by a fan-out whose transaction has not ended: not idle until it has. */
  private uncommitted = 0;
  private idleWaiters: (() => void)[] = [];
  private readonly attemptListeners: ((start: AttemptStart) => void)[] = [];
  /** Shutting down: new deliveries are left to their lease (another process, or this one after a restart). */
  private closing = false;
  /** The last claim may have left due rows behind (it took all it had room for, or had none). */
  private backlog = false;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(TAPROOT_CONFIG) private readonly config: TaprootConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(WEBHOOK_SENDER) private readonly sender: WebhookSender,
    private readonly disabler: WebhookEndpointDisabler,
    unitOfWork: UnitOfWork,
  ) {
    this.leaseMs = 3 * config.webhookTimeoutMs;
    this.attempts = new ConcurrencyLimit(config.webhookConcurrency, () => {
      // A backlog (an outage's retries, a mass redelivery) is claimed as room frees up, not a
      // claim's worth per poll: once the queue of claimed rows is gone, the next claim refills it.
      if (this.backlog && this.attempts.size <= config.webhookConcurrency) this.loop.kick();
      this.settle();
    });
    this.loop = new PassLoop({
      name: 'webhook deliveries',
      pollMs: config.webhookPollMs,
      logger,
      pass: async () => {
        const { claimed, asked } = await this.claimAndSend();
        return asked > 0 && claimed === asked;
      },
    });
    // A redelivery committed in this process (npm start) is sent without waiting for the poll.
    unitOfWork.onCommit((events) => {
      if (events.some((e) => e.type === WEBHOOKS_DELIVERY_REDELIVERED)) this.loop.kick();
    });
  }

  onApplicationBootstrap(): void {
    if (this.config.webhookPollMs > 0) this.loop.start();
  }

  async onApplicationShutdown(): Promise<void> {
    this.closing = true;
    await this.loop.stop();
    // What is in flight is recorded; what waits keeps its lease and comes back when it ends.
    await this.idle();
    await this.sender.close();
  }

  /** Told when each attempt starts (after its request is built, before it is sent). */
  onAttempt(listener: (start: AttemptStart) => void): void {
    this.attemptListeners.push(listener);
  }

  /**
   * Delivers a batch of consumed events once (docs/webhook-delivery.md, "How it runs"): in the
   * consumer's inbox transaction (`consumer`), the fresh events' deliveries are made in memory and
   * attempted at once; once the attempts stop settling (or at the latest after
   * FIRST_ATTEMPT_WAIT_MS) they are inserted, those whose attempt settled with its outcome and the
   * others pending, leased to this process, their outcome recorded after the commit. The event is acknowledged only after that commit: a crash before it
   * leaves the event to be consumed again and its deliveries attempted again (at least once).
   */
  async deliverOnce(consumer: string, events: DomainEvent[]): Promise<void> {
    const made: FanOut[] = [];
    let committed = false;
    try {
      await applyBatchOnce(this.dataSource, consumer, events, (fresh, manager) => this.fanOut(manager, fresh, made));
      committed = true;
    } finally {
      for (const fanOut of made) await this.afterFanOut(fanOut, committed);
    }
  }

  /** Attempts leased deliveries, at most WEBHOOK_CONCURRENCY at once; returns at once. */
  send(deliveries: readonly LeasedDelivery[]): void {
    if (this.closing) return;
    for (const delivery of deliveries) this.attempts.run(() => this.attempt(delivery));
  }

  /**
   * One pass of the worker: claims the due deliveries it has room for and sends them, then waits
   * until every attempt of this process is recorded, claiming again while a full batch came.
   * Tests call it after moving the clock. Answers how many it claimed.
   */
  async runDue(): Promise<number> {
    let total = 0;
    for (;;) {
      const { claimed, asked } = await this.claimAndSend();
      total += claimed;
      await this.idle();
      if (claimed < asked || asked === 0) return total;
    }
  }

  /** Resolves when no attempt is waiting, in flight or unrecorded. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private isIdle(): boolean {
    return this.attempts.size === 0 && this.outcomes.length === 0 && this.flushing === null && this.uncommitted === 0;
  }

  private settle(): void {
    if (!this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private async claimAndSend(): Promise<{ claimed: number; asked: number }> {
    // Room for a concurrency's worth in flight and as many queued behind them: the queue starts
    // as the attempts end, and a queued row still has two thirds of its lease (3 timeouts) then.
    const asked = Math.min(CLAIM_BATCH, Math.max(0, 2 * this.config.webhookConcurrency - this.attempts.size));
    if (asked === 0) {
      this.backlog = true;
      return { claimed: 0, asked };
    }
    const now = this.clock.now();
    const claimed = await claimDue(this.dataSource, now, new Date(now.getTime() + this.leaseMs), asked);
    this.backlog = claimed.length === asked;
    this.send(claimed);
    return { claimed: claimed.length, asked };
  }

  /**
   * The fan-out of fresh events in the consumer's transaction (kept in `made`): attempts their deliveries at once,
   * waits for them while they keep settling (FIRST_ATTEMPT_GAP_MS, FIRST_ATTEMPT_WAIT_MS) and
   * inserts them, settled or pending; then the endpoints' health of the settled attempts, in the
   * same transaction.
   */
  private async fanOut(manager: EntityManager, events: readonly DomainEvent[], made: FanOut[]): Promise<void> {
    const deliveries = await newDeliveries(manager, events, new Date(this.clock.now().getTime() + this.leaseMs));
    // Shutting down: written pending and leased, attempted when the lease ends.
    if (this.closing) return insertDeliveries(manager, deliveries, new Map(), this.clock.now());
    // Kept by the caller before anything can fail, so that its attempts are let go whatever happens.
    const fanOut: FanOut = { later: [], toDisable: [], attempts: deliveries.length };
    made.push(fanOut);
    this.uncommitted += deliveries.length;
    const unsettled = new Set<Promise<DeliveryRecord | null>>();
    /** Settled and not written yet. */
    let ready: DeliveryRecord[] = [];
    const written: DeliveryRecord[] = [];
    const started = performance.now();
    let lastSettled = started;
    /** Attempts settled and the time they took (from their start, not their wait for a turn). */
    let attempted = 0;
    let attemptsMs = 0;
    const slowTail = () => unsettled.size < this.config.webhookConcurrency && attempted > 0 && attemptsMs / attempted >= FAST_ATTEMPT_MS;
    let wake: (() => void) | null = null;
    for (const delivery of deliveries) {
      const outcome = new Promise<DeliveryRecord | null>((resolve) =>
        this.attempts.run(async () => {
          const begun = performance.now();
          const record = await this.outcomeOf(delivery);
          attempted++;
          attemptsMs += performance.now() - begun;
          resolve(record);
        }),
      );
      unsettled.add(outcome);
      void outcome.then((record) => {
        unsettled.delete(outcome);
        lastSettled = performance.now();
        if (record) ready.push(record);
        if (ready.length >= INSERT_CHUNK || unsettled.size === 0 || slowTail()) wake?.();
      });
    }
    const write = async (records: DeliveryRecord[], pending: readonly LeasedDelivery[] = []) => {
      await insertDeliveries(manager, [...records.map((r) => r.delivery), ...pending], new Map(records.map((r) => [r.delivery.id, r])), this.clock.now());
      written.push(...records);
    };
    for (;;) {
      // A chunk's insert runs while the other attempts go on.
      if (ready.length >= INSERT_CHUNK) {
        const chunk = ready;
        ready = [];
        await write(chunk);
        continue;
      }
      const wait = Math.min(lastSettled + FIRST_ATTEMPT_GAP_MS, started + FIRST_ATTEMPT_WAIT_MS) - performance.now();
      if (unsettled.size === 0 || wait <= 0 || slowTail()) break;
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, wait);
      });
      wake = null;
      clearTimeout(timer);
    }
    // The rest: settled with their outcome; the others (still running, or not made: too little
    // lease left) pending, recorded by an update after the commit.
    const rest = ready;
    ready = [];
    fanOut.later = [...unsettled];
    const writing = new Set([...written, ...rest].map((r) => r.delivery.id));
    await write(rest, deliveries.filter((d) => !writing.has(d.id)));
    fanOut.toDisable = await this.recordHealth(manager, written);
  }

  /** After the fan-out's transaction: the attempts still running are recorded if it committed, and endpoints disabled. */
  private async afterFanOut(fanOut: FanOut, committed: boolean): Promise<void> {
    if (committed) {
      for (const outcome of fanOut.later) void outcome.then((record) => record && this.record(record));
      await this.disable(fanOut.toDisable);
    }
    // Idle only once the endpoints are disabled.
    this.uncommitted -= fanOut.attempts;
    this.settle();
  }

  private async attempt(delivery: LeasedDelivery): Promise<void> {
    const record = await this.outcomeOf(delivery);
    if (record) this.record(record);
  }

  /** An attempt and its outcome, or null when too little of its lease is left to make it. */
  private async outcomeOf(delivery: LeasedDelivery): Promise<DeliveryRecord | null> {
    const at = this.clock.now();
    // Too little of the lease left for a whole attempt (it waited behind others): the row may
    // become another owner's before this one could record it, so it is left for then.
    if (delivery.leased_until.getTime() - at.getTime() < this.config.webhookTimeoutMs) return null;
    if (!delivery.enabled) return settledUnsent(delivery, at, 'endpoint disabled');
    let outcome: WebhookAttemptOutcome;
    try {
      outcome = await this.post(delivery, at, await this.customHeaders(delivery));
    } catch (error) {
      // A secret gone, or the database failing to give it: an attempt without an answer, retried later.
      const words = error instanceof MissingSecretError ? error.message : `the custom headers could not be rendered (${error instanceof Error ? error.message : String(error)})`;
      outcome = { status: null, body: null, error: words, blocked: false };
    }
    return this.recordOf(delivery, at, outcome);
  }

  /** The endpoint's custom headers, `{{ secrets.NAME }}` rendered with the secrets' values now (no query without a template). */
  private async customHeaders(delivery: LeasedDelivery): Promise<Record<string, string>> {
    const names = delivery.custom_headers.flatMap((h) => secretNamesIn(h.value));
    const secrets = await secretValues(this.dataSource, delivery.organization_id, names);
    return Object.fromEntries(delivery.custom_headers.map((h) => [h.name, renderHeaderValue(h.value, secrets)]));
  }

  private post(delivery: LeasedDelivery, at: Date, custom: Record<string, string>): Promise<WebhookAttemptOutcome> {
    const ours = { 'content-type': 'application/json', ...signatureHeaders(delivery.secret, delivery.event_id, delivery.payload, at) };
    // The endpoint's headers first: none of them may replace the body's type or a signature.
    const headers = { ...withoutNames(custom, Object.keys(ours)), ...ours };
    for (const listener of this.attemptListeners) listener({ deliveryId: delivery.id, eventId: delivery.event_id, endpointId: delivery.endpoint_id, at });
    return this.sender.send({ url: delivery.url, headers, body: delivery.payload });
  }

  private recordOf(delivery: LeasedDelivery, at: Date, outcome: WebhookAttemptOutcome): DeliveryRecord {
    // A pending delivery was never attempted, or was redelivered: this attempt opens its retry window.
    const firstAttemptAt = delivery.status === 'pending' || delivery.first_attempt_at === null ? at : delivery.first_attempt_at;
    const verdict = verdictOf(outcome, delivery.attempts + 1, firstAttemptAt, at);
    if (verdict.status !== 'delivered') {
      this.logger.info(
        { delivery_id: delivery.id, endpoint_id: delivery.endpoint_id, organization_id: delivery.organization_id, status: outcome.status, error: outcome.error, blocked: outcome.blocked, verdict: verdict.status },
        'webhook attempt failed',
      );
    }
    const gone = verdict.status === 'failed' && verdict.gone;
    return {
      delivery,
      status: verdict.status,
      attempted: true,
      at,
      firstAttemptAt,
      nextAttemptAt: verdict.status === 'retrying' ? verdict.nextAttemptAt : null,
      responseStatus: outcome.status,
      responseBody: outcome.body,
      error: gone ? 'the endpoint answered 410 Gone: disabled' : outcome.error,
    };
  }

  private record(record: DeliveryRecord): void {
    this.outcomes.push(record);
    this.flushing ??= this.flush().finally(() => {
      this.flushing = null;
      this.settle();
    });
  }

  /** Writes the outcomes gathered, batch after batch, until none is left; a refused write is tried again. */
  private async flush(): Promise<void> {
    let failures = 0;
    while (this.outcomes.length > 0) {
      const batch = this.outcomes.splice(0, FLUSH_BATCH);
      try {
        const toDisable = await this.write(batch);
        failures = 0;
        await this.disable(toDisable);
      } catch (error) {
        failures++;
        if (failures === 1 || failures % 20 === 0) this.logger.warn({ err: error, outcomes: batch.length, failures }, 'recording webhook attempts failed; retrying');
        // Unrecorded, a delivery comes back when its lease ends and is attempted again (at least
        // once): a process shutting down does not wait for the database.
        if (this.closing) {
          this.outcomes.length = 0;
          return;
        }
        this.outcomes.unshift(...batch);
        await new Promise((resolve) => setTimeout(resolve, Math.min(MAX_FLUSH_BACKOFF_MS, 100 * 2 ** failures)).unref());
      }
    }
  }

  /** One flush in one transaction: the deliveries, then their endpoints' health. Answers the endpoints to disable. */
  private write(batch: readonly DeliveryRecord[]): Promise<EndpointToDisable[]> {
    return this.dataSource.transaction(async (manager) => {
      // Outcomes need not wait for the WAL's flush to disk: one lost in a crash leaves its row
      // leased, and it is attempted again when the lease ends (at least once, as for a killed process).
      await manager.query('SET LOCAL synchronous_commit = off');
      await recordDeliveries(manager, batch, this.clock.now());
      return this.recordHealth(manager, batch);
    });
  }

  /** The endpoints' `failing_since` after these outcomes (in the caller's transaction). Answers the endpoints to disable. */
  private async recordHealth(manager: EntityManager, batch: readonly DeliveryRecord[]): Promise<EndpointToDisable[]> {
    const cutoff = new Date(this.clock.now().getTime() - this.config.webhookDisableAfterHours * 3_600_000);
    const health = new Map<string, EndpointOutcome>();
    const gone = new Map<string, EndpointToDisable>();
    for (const r of batch.filter((r) => r.attempted).sort((a, b) => a.at.getTime() - b.at.getTime())) {
      health.set(r.delivery.endpoint_id, { organizationId: r.delivery.organization_id, failedAt: r.status === 'delivered' ? null : r.at });
      if (r.responseStatus === 410) gone.set(r.delivery.endpoint_id, { organizationId: r.delivery.organization_id, endpointId: r.delivery.endpoint_id, reason: 'gone', detail: `the endpoint answered 410 Gone to delivery ${r.delivery.id}` });
    }
    const failing = await recordEndpointHealth(manager, health, cutoff);
    const hours = this.config.webhookDisableAfterHours;
    for (const endpoint of failing) {
      if (gone.has(endpoint.id)) continue;
      const detail = `every attempt failed since ${endpoint.failing_since.toISOString()} (more than ${hours} h)`;
      gone.set(endpoint.id, { organizationId: endpoint.organization_id, endpointId: endpoint.id, reason: 'failing', detail });
    }
    return [...gone.values()];
  }

  /** A failure here is the disabler's to log; the endpoint is disabled at its next failed attempt. */
  private async disable(toDisable: readonly EndpointToDisable[]): Promise<void> {
    if (toDisable.length > 0) await this.disabler.disable(toDisable).catch((error: unknown) => this.logger.error({ err: error }, 'disabling webhook endpoints failed'));
  }
}

/** What a fan-out leaves for after its transaction. */
interface FanOut {
  /** The outcomes of attempts not settled when the rows were written: recorded by an update once the rows are committed. */
  later: Promise<DeliveryRecord | null>[];
  /** Endpoints the settled attempts disable (410 Gone, failing for days). */
  toDisable: EndpointToDisable[];
  /** First attempts made (counted in `uncommitted` until the transaction ends). */
  attempts: number;
}

/** Settled without an attempt: the endpoint was disabled while the delivery waited. */
function settledUnsent(delivery: LeasedDelivery, at: Date, error: string): DeliveryRecord {
  return { delivery, status: 'failed', attempted: false, at, firstAttemptAt: delivery.first_attempt_at, nextAttemptAt: null, responseStatus: null, responseBody: null, error };
}

/** `headers` without those named in `names` (case-insensitively). */
function withoutNames(headers: Record<string, string>, names: readonly string[]): Record<string, string> {
  const taken = new Set(names.map((n) => n.toLowerCase()));
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !taken.has(name.toLowerCase())));
}
