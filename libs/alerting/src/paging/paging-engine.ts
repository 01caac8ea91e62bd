import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CLOCK, TAPROOT_CONFIG, type Clock, type Logger, type TaprootConfig } from '@taproot/config';
import { PassLoop, UnitOfWork } from '@taproot/messaging';
import { ResourceWriteHandler, type Keep, type ResourceWriteCommand, type WriteContext } from '@taproot/resources';
import { LOGGER } from '@taproot/runtime';
import { DataSource } from 'typeorm';
import { recordPagingEvents, type PagingEventLine } from '../alerts/alert-writes';
import { alertDefinition } from '../alerts/alert.schema';
import { signAcknowledgeToken } from './channels/acknowledge-link';
import { ChannelFailure, type ChannelKind, type NotificationChannel, type OutgoingNotification } from './channels/notification-channel';
import { claimDueSteps, fireSteps, PAGING_ACTOR, type ClaimedStep } from './fire-steps';
import { PagingLookups } from './paging-lookups';

/** The channels this process delivers through (channels.ts builds them from the configuration). */
export const NOTIFICATION_CHANNELS = Symbol('NOTIFICATION_CHANNELS');
export type NotificationChannels = ReadonlyMap<ChannelKind, NotificationChannel>;

/** Steps fired, and notifications claimed, per transaction. */
const BATCH = 200;
/** A claimed notification is another replica's to retry when its sender has not answered by then. */
const LEASE_MS = 60_000;
/** Claimed batches being sent at once by the sending loop (their sends, then their record). */
const SENDING_BATCHES = 4;
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

/** Items grouped by their organization, in first-seen order. */
function byOrganization<T>(items: readonly T[], organizationOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const organizationId = organizationOf(item);
    groups.set(organizationId, [...(groups.get(organizationId) ?? []), item]);
  }
  return groups;
}

/**
 * The paging engine of a process (docs/paging.md), two loops: one fires the due steps (durable
 * rows claimed with FOR UPDATE SKIP LOCKED, so any number of replicas share them and each fires
 * once; a batch in a few statements whatever its size), the other sends the due notifications
 * (claimed under a lease, so a crashed sender's are retried by another). Sending has its own loop
 * so a slow mail relay never delays an escalation, and a sending pass leaves its batch's sends
 * running beside the next passes, so a notification fired meanwhile is not held up by a slow send
 * either. Time comes from the injected clock; `tick` is one pass of both, sends included, which
 * tests call after moving the clock.
 */
@Injectable()
export class PagingEngine extends ResourceWriteHandler implements OnApplicationBootstrap, OnApplicationShutdown {
  // The loops call the methods at each pass (not bound once), so a probe wrapping them sees every pass.
  private readonly firing: PassLoop;
  private readonly sending: PassLoop;
  /** Batches the sending loop claimed whose sends or record are still going on. */
  private readonly sendingBatches = new Set<Promise<void>>();

  constructor(
    unitOfWork: UnitOfWork,
    @Inject(CLOCK) clock: Clock,
    private readonly dataSource: DataSource,
    @Inject(TAPROOT_CONFIG) private readonly config: TaprootConfig,
    @Inject(NOTIFICATION_CHANNELS) private readonly channels: NotificationChannels,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    super(unitOfWork, clock);
    const pollMs = config.pagingPollMs;
    this.firing = new PassLoop({ name: 'paging (firing)', pollMs, logger, pass: async () => (await this.fireDue()) >= BATCH });
    this.sending = new PassLoop({ name: 'paging (sending)', pollMs, logger, pass: () => this.sendPass() });
    // A committed alert change may have written a step due now: fire it without waiting for the poll
    // (the alert's own events only: a pass's timeline lines, alert_event.*, need no other pass).
    unitOfWork.onCommit((events) => {
      if (events.some((e) => e.type.startsWith('alert.'))) this.firing.kick();
    });
  }

  onApplicationBootstrap(): void {
    if (this.config.pagingPollMs <= 0) return;
    this.firing.start();
    this.sending.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.firing.stop();
    await this.sending.stop();
    await Promise.all(this.sendingBatches);
  }

  /** One pass: fires the steps due by the clock, then sends the notifications due. */
  async tick(): Promise<{ fired: number; sent: number }> {
    const fired = await this.fireDue();
    const sent = await this.sendClaimed(await this.claimDueNotifications());
    return { fired, sent };
  }

  /** One pass of the firing loop: fires the steps due by the clock; answers how many. */
  async fireDue(): Promise<number> {
    const { fired, notified } = await this.commitIsolated(async (scope) => {
      const claimed = await claimDueSteps(scope.manager, scope.now, BATCH);
      const lookups = new PagingLookups();
      let notified = 0;
      for (const [organizationId, steps] of byOrganization(claimed, (s) => s.organization_id)) {
        const fire = (some: readonly ClaimedStep[], memo: PagingLookups) => scope.attempt(systemCommand(organizationId), (writer, ctx, keep) => fireSteps(writer, ctx, keep, memo, some));
        const all = await fire(steps, lookups);
        if (all.ok) {
          notified += all.value;
          continue;
        }
        // One bad step must not hold up the others: each is fired alone; one that fails again
        // stays due (its savepoint is rolled back) and is tried on the next pass.
        for (const step of steps) {
          const alone = await fire([step], new PagingLookups());
          if (alone.ok) notified += alone.value;
          else this.logger.error({ err: alone.error, stepId: step.id }, 'paging step failed');
        }
      }
      return { fired: claimed.length, notified };
    });
    if (notified > 0) this.sending.kick();
    return fired;
  }

  /**
   * One pass of the sending loop: claims the notifications due and starts their sends, without
   * waiting for them (at most SENDING_BATCHES batches at once, waited for here when that many are
   * out). A batch whose record fails is logged: its leases run out and another pass sends it again.
   */
  async sendPass(): Promise<boolean> {
    while (this.sendingBatches.size >= SENDING_BATCHES) await Promise.race(this.sendingBatches);
    const claimed = await this.claimDueNotifications();
    if (claimed.length === 0) return false;
    const batch: Promise<void> = this.sendClaimed(claimed).then(
      () => void this.sendingBatches.delete(batch),
      (error: unknown) => {
        this.sendingBatches.delete(batch);
        this.logger.error({ err: error, notifications: claimed.length }, 'paging sends not recorded');
      },
    );
    this.sendingBatches.add(batch);
    return claimed.length >= BATCH;
  }

  private async claimDueNotifications(): Promise<ClaimedNotification[]> {
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
    return claimed;
  }

  /** Sends claimed notifications, then records their outcomes; answers how many. */
  private async sendClaimed(claimed: readonly ClaimedNotification[]): Promise<number> {
    if (claimed.length === 0) return 0;
    // Each send on its own: a slow or failing address never holds up the others.
    const results = await Promise.all(claimed.map((n) => this.send(n)));
    await this.commitIsolated(async (scope) => {
      for (const [organizationId, some] of byOrganization(results, (r) => r.notification.organization_id)) {
        const record = (these: readonly SendResult[]) => scope.attempt(systemCommand(organizationId), (_writer, ctx, keep) => recordSends(ctx, keep, these));
        if ((await record(some)).ok) continue;
        for (const result of some) {
          const alone = await record([result]);
          // Unrecorded, the notification's lease runs out and it is sent again (the same Message-Id).
          if (!alone.ok) this.logger.error({ err: alone.error, notificationId: result.notification.id }, 'recording a paging send failed');
        }
      }
    });
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
}

/**
 * Writes the outcomes of sends of one organization and their lines on the alerts' timelines, a
 * statement per kind of outcome: sent; failed for good (permanent, or the last attempt); to retry
 * after the backoff.
 */
async function recordSends(ctx: WriteContext, keep: Keep, results: readonly SendResult[]): Promise<void> {
  const sent: { id: string; providerId: string | null }[] = [];
  const failed: { id: string; error: string }[] = [];
  const retried: { id: string; dueAt: Date; error: string }[] = [];
  const lines: { alertId: string; line: PagingEventLine }[] = [];
  for (const result of results) {
    const n = result.notification;
    const verbs = VERBS[n.channel];
    const line = (action: PagingEventLine['action'], details: string) => lines.push({ alertId: n.alert_id, line: { action, details, level: n.level, targetType: 'User', pageReason: null } });
    if ('providerId' in result) {
      sent.push({ id: n.id, providerId: result.providerId });
      line(verbs.action, `${verbs.sent} user ${n.user_id} at ${n.address} (level ${n.level})`);
    } else if (result.permanent || n.attempts >= MAX_ATTEMPTS) {
      failed.push({ id: n.id, error: result.error });
      line('notified', `${verbs.noun} to user ${n.user_id} at ${n.address} failed (attempt ${n.attempts}): ${result.error}; not retried`);
    } else {
      const wait = backoffMs(n.attempts);
      retried.push({ id: n.id, dueAt: new Date(ctx.now.getTime() + wait), error: result.error });
      line('notified', `${verbs.noun} to user ${n.user_id} at ${n.address} failed (attempt ${n.attempts} of ${MAX_ATTEMPTS}): ${result.error}; retried in ${wait / 1000} s`);
    }
  }
  const { manager, organizationId, now } = ctx;
  // The alerts first (in id order), then their notifications: the order an alert change takes them
  // (it locks the alert, then cancels its unsent notifications), so the two never deadlock.
  await manager.query('SELECT id FROM alerts WHERE id = ANY($1::uuid[]) AND organization_id = $2 ORDER BY id FOR KEY SHARE', [[...new Set(lines.map((l) => l.alertId))], organizationId]);
  if (sent.length) {
    await manager.query(
      `UPDATE alert_notifications n SET status = 'sent', sent_at = $3, provider_id = v.provider_id, claimed_until = NULL
         FROM unnest($1::uuid[], $2::text[]) AS v(id, provider_id) WHERE n.id = v.id AND n.organization_id = $4`,
      [sent.map((s) => s.id), sent.map((s) => s.providerId), now, organizationId],
    );
  }
  if (failed.length) {
    await manager.query(
      `UPDATE alert_notifications n SET status = 'failed', last_error = v.error, claimed_until = NULL
         FROM unnest($1::uuid[], $2::text[]) AS v(id, error) WHERE n.id = v.id AND n.organization_id = $3 AND n.status = 'pending'`,
      [failed.map((f) => f.id), failed.map((f) => f.error), organizationId],
    );
  }
  if (retried.length) {
    await manager.query(
      `UPDATE alert_notifications n SET due_at = v.due_at, last_error = v.error, claimed_until = NULL
         FROM unnest($1::uuid[], $2::timestamptz[], $3::text[]) AS v(id, due_at, error) WHERE n.id = v.id AND n.organization_id = $4 AND n.status = 'pending'`,
      [retried.map((r) => r.id), retried.map((r) => r.dueAt), retried.map((r) => r.error), organizationId],
    );
  }
  await recordPagingEvents(ctx, keep, lines);
}
