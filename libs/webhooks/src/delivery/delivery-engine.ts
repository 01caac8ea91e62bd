import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CLOCK, TAPROOT_CONFIG, type Clock, type Logger, type TaprootConfig } from '@taproot/config';
import { PassLoop, UnitOfWork, type DomainEvent } from '@taproot/messaging';
import { LOGGER } from '@taproot/runtime';
import { DataSource } from 'typeorm';
import { ConcurrencyLimit } from './concurrency-limit';
import { claimDue, fanOut, recordDeliveries, recordEndpointHealth, type DeliveryRecord, type EndpointOutcome, type LeasedDelivery } from './delivery-store';
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
 * ways: the fan-out of consumed events, inserted leased to this process and handed over as the
 * statement returns (no second round trip before the first attempt), and a worker loop claiming due rows (retries, redeliveries, the rows of a process that
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
   * Makes the deliveries of consumed events, leased to this process, in one statement; `send` them
   * once it resolves. An event consumed again makes none: its (endpoint, event) rows exist.
   */
  fanOut(events: readonly DomainEvent[]): Promise<LeasedDelivery[]> {
    const now = this.clock.now();
    return fanOut(this.dataSource.manager, events, now, new Date(now.getTime() + this.leaseMs));
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
    return this.attempts.size === 0 && this.outcomes.length === 0 && this.flushing === null;
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

  private async attempt(delivery: LeasedDelivery): Promise<void> {
    const at = this.clock.now();
    // Too little of the lease left for a whole attempt (it waited behind others): the row may
    // become another owner's before this one could record it, so it is left for then.
    if (delivery.leased_until.getTime() - at.getTime() < this.config.webhookTimeoutMs) return;
    if (!delivery.enabled) return this.record(settledUnsent(delivery, at, 'endpoint disabled'));
    let outcome: WebhookAttemptOutcome;
    try {
      outcome = await this.post(delivery, at, await this.customHeaders(delivery));
    } catch (error) {
      // A secret gone, or the database failing to give it: an attempt without an answer, retried later.
      const words = error instanceof MissingSecretError ? error.message : `the custom headers could not be rendered (${error instanceof Error ? error.message : String(error)})`;
      outcome = { status: null, body: null, error: words, blocked: false };
    }
    this.record(this.recordOf(delivery, at, outcome));
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
        // A failure here is the disabler's to log; the endpoint is disabled at its next failed attempt.
        if (toDisable.length > 0) await this.disabler.disable(toDisable).catch((error: unknown) => this.logger.error({ err: error }, 'disabling webhook endpoints failed'));
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
    const now = this.clock.now();
    const cutoff = new Date(now.getTime() - this.config.webhookDisableAfterHours * 3_600_000);
    const health = new Map<string, EndpointOutcome>();
    const gone = new Map<string, EndpointToDisable>();
    for (const r of [...batch].filter((r) => r.attempted).sort((a, b) => a.at.getTime() - b.at.getTime())) {
      health.set(r.delivery.endpoint_id, { organizationId: r.delivery.organization_id, failedAt: r.status === 'delivered' ? null : r.at });
      if (r.responseStatus === 410) gone.set(r.delivery.endpoint_id, { organizationId: r.delivery.organization_id, endpointId: r.delivery.endpoint_id, reason: 'gone', detail: `the endpoint answered 410 Gone to delivery ${r.delivery.id}` });
    }
    return this.dataSource.transaction(async (manager) => {
      // Outcomes need not wait for the WAL's flush to disk: one lost in a crash leaves its row
      // leased, and it is attempted again when the lease ends (at least once, as for a killed process).
      await manager.query('SET LOCAL synchronous_commit = off');
      await recordDeliveries(manager, batch, now);
      const failing = await recordEndpointHealth(manager, health, cutoff);
      const hours = this.config.webhookDisableAfterHours;
      for (const endpoint of failing) {
        if (gone.has(endpoint.id)) continue;
        const detail = `every attempt failed since ${endpoint.failing_since.toISOString()} (more than ${hours} h)`;
        gone.set(endpoint.id, { organizationId: endpoint.organization_id, endpointId: endpoint.id, reason: 'failing', detail });
      }
      return [...gone.values()];
    });
  }
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
