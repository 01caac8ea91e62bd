import { AsyncResource } from 'node:async_hooks';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CLOCK, TAPROOT_CONFIG, type Clock, type Logger, type TaprootConfig } from '@taproot/config';
import { UnitOfWork } from '@taproot/messaging';
import { ResourceWriteHandler, type GroupRun, type ResourceWriteCommand } from '@taproot/resources';
import { LOGGER } from '@taproot/runtime';
import { DataSource } from 'typeorm';
import { recordPagingEvent } from '../alerts/alert-writes';
import { alertDefinition } from '../alerts/alert.schema';
import { signAcknowledgeToken } from './channels/acknowledge-link';
import { ChannelFailure, type ChannelKind, type NotificationChannel, type OutgoingNotification } from './channels/notification-channel';
import { fireStep, PAGING_ACTOR } from './fire-step';
import { PagingLookups } from './paging-lookups';

/** The channels this process delivers through (channels.ts builds them from the configuration). */
export const NOTIFICATION_CHANNELS = Symbol('NOTIFICATION_CHANNELS');
export type NotificationChannels = ReadonlyMap<ChannelKind, NotificationChannel>;

/** Steps fired, and notifications claimed, per transaction. */
const BATCH = 200;
/** A claimed notification is another replica's to retry when its sender has not answered by then. */
const LEASE_MS = 60_000;
/** Sends tried before a notification is given up. */
export const MAX_ATTEMPTS = 5;
/** The wait before attempt n+1: 10 s, 20 s, 40 s, ... at most 5 minutes. */
export const backoffMs = (attempts: number) => Math.min(10_000 * 2 ** (attempts - 1), 300_000);

const VERBS: Record<ChannelKind, { action: 'emailed' | 'texted' | 'called'; sent: string; noun: string }> = {
  email: { action: 'emailed', sent: 'E-mailed', noun: 'E-mail' },
  sms: { action: 'texted', sent: 'Texted', noun: 'SMS' },
  call: { action: 'called', sent: 'Called', noun: 'Call' },
};

interface ClaimedNotification {
  id: string;
  organization_id: string;
  alert_id: string;
  level: number;
  user_id: number;
  channel: ChannelKind;
  address: string;
  attempts: number;
  summary: string;
  description: string | null;
  short_id: string | null;
  alert_status: string;
  external_url: string | null;
}

type SendResult = { notification: ClaimedNotification; providerId: string | null } | { notification: ClaimedNotification; error: string; permanent: boolean };

/** The system's writes in an organization: paging's steps and its record of what it sent. */
const systemCommand = (organizationId: string): ResourceWriteCommand => ({ definition: alertDefinition, organizationId, actor: PAGING_ACTOR, userId: null });

/**
 * The paging engine of a process (docs/paging.md): fires the due steps (durable rows claimed with
 * FOR UPDATE SKIP LOCKED, so any number of replicas share them and each fires once) and sends the
 * due notifications (claimed under a lease, so a crashed sender's are retried by another). Time
 * comes from the injected clock; `tick` is one pass, which tests call after moving the clock.
 */
@Injectable()
export class PagingEngine extends ResourceWriteHandler implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  // Bound where the engine is made, outside any request: a pass woken by a request's commit is not
  // part of that request (its queries and logs carry no request id), as with the outbox relay.
  private readonly loopOutsideRequests = AsyncResource.bind(() => this.loop());

  constructor(
    unitOfWork: UnitOfWork,
    @Inject(CLOCK) clock: Clock,
    private readonly dataSource: DataSource,
    @Inject(TAPROOT_CONFIG) private readonly config: TaprootConfig,
    @Inject(NOTIFICATION_CHANNELS) private readonly channels: NotificationChannels,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    super(unitOfWork, clock);
    // A committed alert change may have written a step due now: fire it without waiting for the poll
    // (the alert's own events only: a pass's timeline lines, alert_event.*, need no other pass).
    unitOfWork.onCommit((events) => {
      if (events.some((e) => e.type.startsWith('alert.'))) this.kick();
    });
  }

  onApplicationBootstrap(): void {
    if (this.config.pagingPollMs > 0) this.schedule();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    for (const channel of this.channels.values()) await channel.close?.();
  }

  /** Runs a pass now (or right after the running one) when the loop runs. */
  kick(): void {
    if (this.config.pagingPollMs <= 0 || this.stopped) return;
    if (this.running) this.again = true;
    else this.loopOutsideRequests();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(this.loopOutsideRequests, this.config.pagingPollMs);
    this.timer.unref();
  }

  private loop(): void {
    clearTimeout(this.timer);
    this.running = this.tick()
      .then((done) => {
        // A full batch means more is due: go on at once.
        if (done.fired >= BATCH || done.sent >= BATCH) this.again = true;
      })
      .catch((error: unknown) => this.logger.error({ err: error }, 'paging pass failed'))
      .finally(() => {
        this.running = null;
        if (this.again && !this.stopped) {
          this.again = false;
          this.loop();
        } else this.schedule();
      });
  }

  /** One pass: fires the steps due by the clock, then sends the notifications due. */
  async tick(): Promise<{ fired: number; sent: number }> {
    const fired = await this.fireDue();
    const sent = await this.sendDue();
    return { fired, sent };
  }

  private async fireDue(): Promise<number> {
    const due = (await this.dataSource.query('SELECT id, organization_id, alert_id FROM alert_paging_steps WHERE fired_at IS NULL AND due_at <= $1 ORDER BY due_at LIMIT $2', [
      this.clock.now(),
      BATCH,
    ])) as { id: string; organization_id: string; alert_id: string }[];
    if (due.length === 0) return 0;
    const lookups = new PagingLookups();
    const runs: GroupRun[] = due.map((step) => async (scope) => {
      try {
        await scope.write(systemCommand(step.organization_id), (writer, ctx, keep) => fireStep(writer, ctx, keep, lookups, { id: step.id, alertId: step.alert_id }));
      } catch (error) {
        // Its savepoint is rolled back: the step stays due and is tried again on the next pass.
        this.logger.error({ err: error, stepId: step.id }, 'paging step failed');
        throw error;
      }
    });
    await this.commitGroup(runs);
    return due.length;
  }

  private async sendDue(): Promise<number> {
    const now = this.clock.now();
    const [claimed] = (await this.dataSource.query(
      `UPDATE alert_notifications n SET claimed_until = $2, attempts = n.attempts + 1
         FROM alerts a
        WHERE n.id IN (SELECT id FROM alert_notifications WHERE status = 'pending' AND due_at <= $1 AND (claimed_until IS NULL OR claimed_until <= $1)
                        ORDER BY due_at LIMIT $3 FOR UPDATE SKIP LOCKED)
          AND a.id = n.alert_id
       RETURNING n.id, n.organization_id, n.alert_id, n.level, n.user_id, n.channel, n.address, n.attempts, a.summary, a.description, a.short_id, a.status AS alert_status, a.external_url`,
      [now, new Date(now.getTime() + LEASE_MS), BATCH],
    )) as [ClaimedNotification[], number];
    if (claimed.length === 0) return 0;
    // Each send on its own: a slow or failing address never holds up the others.
    const results = await Promise.all(claimed.map((n) => this.send(n)));
    await this.commitGroup(results.map((result) => (scope) => scope.write(systemCommand(result.notification.organization_id), (_writer, ctx, keep) => this.recordSend(ctx, keep, result))));
    return claimed.length;
  }

  private async send(n: ClaimedNotification): Promise<SendResult> {
    const channel = this.channels.get(n.channel);
    if (!channel) return { notification: n, error: `no ${n.channel} channel is configured (docs/paging.md)`, permanent: true };
    try {
      const sent = await channel.send(this.outgoing(n));
      return { notification: n, providerId: sent.providerId };
    } catch (error) {
      const permanent = error instanceof ChannelFailure && error.permanent;
      return { notification: n, error: error instanceof Error ? error.message : String(error), permanent };
    }
  }

  private outgoing(n: ClaimedNotification): OutgoingNotification {
    const { acknowledgeLinkSecret, acknowledgeLinkTtlHours, publicUrl } = this.config;
    const expiresAt = new Date(this.clock.now().getTime() + acknowledgeLinkTtlHours * 3_600_000);
    const token = signAcknowledgeToken({ notificationId: n.id, organizationId: n.organization_id, alertId: n.alert_id, userId: n.user_id, expiresAt }, acknowledgeLinkSecret);
    return {
      id: n.id,
      channel: n.channel,
      address: n.address,
      organizationId: n.organization_id,
      alert: { id: n.alert_id, shortId: n.short_id, summary: n.summary, description: n.description, status: n.alert_status, url: n.external_url },
      escalationLevel: n.level,
      acknowledgeUrl: `${publicUrl}/v1/alert_acknowledgements?token=${token}`,
    };
  }

  /** Writes the outcome of a send and its line on the alert's timeline; a failure is retried with backoff. */
  private async recordSend(ctx: Parameters<typeof recordPagingEvent>[0], keep: Parameters<typeof recordPagingEvent>[1], result: SendResult): Promise<void> {
    const n = result.notification;
    const verbs = VERBS[n.channel];
    const line = (action: 'emailed' | 'texted' | 'called' | 'notified', details: string) => recordPagingEvent(ctx, keep, n.alert_id, { action, details, level: n.level, targetType: 'User', pageReason: null });
    if ('providerId' in result) {
      await ctx.manager.query(`UPDATE alert_notifications SET status = 'sent', sent_at = $2, provider_id = $3, claimed_until = NULL WHERE id = $1`, [n.id, ctx.now, result.providerId]);
      return line(verbs.action, `${verbs.sent} user ${n.user_id} at ${n.address} (level ${n.level})`);
    }
    const giveUp = result.permanent || n.attempts >= MAX_ATTEMPTS;
    if (giveUp) {
      await ctx.manager.query(`UPDATE alert_notifications SET status = 'failed', last_error = $2, claimed_until = NULL WHERE id = $1 AND status = 'pending'`, [n.id, result.error]);
      return line('notified', `${verbs.noun} to user ${n.user_id} at ${n.address} failed (attempt ${n.attempts}): ${result.error}; not retried`);
    }
    const wait = backoffMs(n.attempts);
    await ctx.manager.query(`UPDATE alert_notifications SET due_at = $2, last_error = $3, claimed_until = NULL WHERE id = $1 AND status = 'pending'`, [n.id, new Date(ctx.now.getTime() + wait), result.error]);
    return line('notified', `${verbs.noun} to user ${n.user_id} at ${n.address} failed (attempt ${n.attempts} of ${MAX_ATTEMPTS}): ${result.error}; retried in ${wait / 1000} s`);
  }
}
