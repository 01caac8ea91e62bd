import { randomBytes } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler } from '@nestjs/cqrs';
import { AlertCreationLimit } from '@taproot/auth';
import { CLOCK, TAPROOT_CONFIG, type Clock, type Logger, type TaprootConfig } from '@taproot/config';
import { CommitCache, UnitOfWork } from '@taproot/messaging';
import { ResourceWriteHandler, type Row } from '@taproot/resources';
import { LOGGER } from '@taproot/runtime';
import { DataSource } from 'typeorm';
import { changeAlert, createAlert, unresolvedAlert, type AlertAccess } from '../../alerts/alert-writes';
import { alertDefinition } from '../../alerts/alert.schema';
import { AlertingError, AlertingErrorCode, REFUSAL_CODES } from '../../errors';
import { IngestAlertsCommand } from '../ingest-alerts/ingest-alerts.command';
import {
  accepted,
  changeAccepted,
  changeDraft,
  emptyDraft,
  INVALID_ROUTING_KEY,
  invalidEvent,
  parseChangeEvent,
  parsePagerDutyEvent,
  triggerDraft,
  type AlertDraft,
  type NotificationTargetType,
  type PagerDutyAlertEvent,
  type PagerDutyChangeEvent,
} from '../../ingestion';
import { EnqueuePagerDutyEventCommand, type PagerDutyAnswer } from './enqueue-pagerduty-event.command';

interface SourceRow {
  id: string;
  organization_id: string;
  source_type: string;
  enabled: boolean;
  alert_urgency_id: string | null;
  sourceable_attributes: { notification_target_type?: NotificationTargetType | null; notification_target_id?: string | null } | null;
}

const invalid = (errors: string[]): PagerDutyAnswer => ({ status: 400, body: invalidEvent(errors) });
const DISABLED = 'The alert source of this routing key is disabled';
const REFUSALS = new Set<string>(Object.values(REFUSAL_CODES));
/** What IngestAlerts' refusals answer in PagerDuty's 400 (an empty text: the refusal's own detail). */
const INGESTION_REFUSALS: Partial<Record<string, string>> = {
  [AlertingErrorCode.InvalidAlertSourceCredentials]: INVALID_ROUTING_KEY,
  [AlertingErrorCode.AlertSourceDisabled]: DISABLED,
  [AlertingErrorCode.InvalidAlertPayload]: '',
};
const accessOf = (source: SourceRow): AlertAccess => ({ organizationId: source.organization_id, actor: { kind: 'system', id: `alert_source:${source.id}` }, userId: null });

/**
 * `POST /v2/enqueue` and `POST /v2/change/enqueue` (docs/pagerduty-events.md): the routing key is
 * an alert source's secret. A trigger or a resolve is mapped here and ingested as an item of the
 * source by IngestAlerts, like its webhook's (alert fields, urgency rules, routes, deduplication by
 * dedup_key, the alerts-a-minute limit, receipts, group commit); acknowledge acts on the source's
 * unresolved alert with the dedup_key through the alert change path. None, or a move that does not
 * apply, changes nothing (still 202, as PagerDuty). A change event is a resolved alert of the source.
 */
@CommandHandler(EnqueuePagerDutyEventCommand)
export class EnqueuePagerDutyEventHandler extends ResourceWriteHandler {
  /** Sources by routing key, so a steady sender costs no query to authenticate (IngestAlertsHandler's bound). */
  private readonly sources: CommitCache<SourceRow>;

  constructor(
    unitOfWork: UnitOfWork,
    @Inject(CLOCK) clock: Clock,
    @Inject(TAPROOT_CONFIG) config: TaprootConfig,
    private readonly dataSource: DataSource,
    private readonly creationLimit: AlertCreationLimit,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly commands: CommandBus,
  ) {
    super(unitOfWork, clock);
    this.sources = new CommitCache({ ttlMs: config.authCacheTtlMs, invalidatedBy: /^alerts_source\./ }, unitOfWork);
  }

  async execute(c: EnqueuePagerDutyEventCommand): Promise<PagerDutyAnswer> {
    if (c.route === 'change') {
      const parsed = parseChangeEvent(c.body);
      if (!parsed.ok) return invalid(parsed.errors);
      return this.asSource(parsed.event.routingKey, c.route, (source) => this.change(source, parsed.event));
    }
    const parsed = parsePagerDutyEvent(c.body);
    if (!parsed.ok) return invalid(parsed.errors);
    return this.asSource(parsed.event.routingKey, c.route, (source) => this.alert(source, parsed.event));
  }

  /** The event's source, found by its routing key; none (or a disabled one) answers PagerDuty's 400. */
  private async asSource(routingKey: string, route: string, work: (source: SourceRow) => Promise<PagerDutyAnswer>): Promise<PagerDutyAnswer> {
    const source = await this.source(routingKey);
    if (!source) {
      // Never the key itself: it is a credential.
      this.logger.info({ route }, 'PagerDuty event refused: no alert source has its routing key');
      return invalid([INVALID_ROUTING_KEY]);
    }
    if (!source.enabled) return invalid([DISABLED]);
    return work(source);
  }

  private async change(source: SourceRow, event: PagerDutyChangeEvent): Promise<PagerDutyAnswer> {
    const draft = changeDraft(event);
    await this.creationLimit.consume({ organizationId: source.organization_id, alertSourceId: source.id });
    const access = accessOf(source);
    await this.writeInGroup({ definition: alertDefinition, ...access }, (writer, ctx, keep) => createAlert(writer, ctx, keep, access, attributesOf(source, draft, null, { status: 'resolved' })));
    return { status: 202, body: changeAccepted() };
  }

  /**
   * Trigger and resolve are ingested items of the source (IngestAlerts: its alert fields, urgency
   * rules, routes, the alerts-a-minute limit, receipts), mapped here; acknowledge is ours.
   */
  private async alert(source: SourceRow, event: PagerDutyAlertEvent): Promise<PagerDutyAnswer> {
    // PagerDuty generates a key for a trigger without one and answers it: 32 hex characters too.
    const key = event.dedupKey ?? randomBytes(16).toString('hex');
    if (event.action === 'acknowledge') {
      await this.acknowledge(source, key);
      return { status: 202, body: accepted(key) };
    }
    const draft = event.action === 'trigger' ? triggerDraft(event, key) : { ...emptyDraft(`Resolve ${key}`, event.data), deduplication_key: key, resolve: true };
    const target = source.sourceable_attributes;
    // The source's notification target pages, as for an email source's alerts; its routes add theirs.
    if (event.action === 'trigger' && target?.notification_target_type && target.notification_target_id) {
      draft.notification_target_type = target.notification_target_type;
      draft.notification_target_id = target.notification_target_id;
    }
    try {
      await this.commands.execute(new IngestAlertsCommand(source.id, 'alerts', { headers: {} }, event.routingKey, [draft]));
    } catch (error) {
      const refused = error instanceof AlertingError ? INGESTION_REFUSALS[error.code] : undefined;
      if (refused === undefined) throw error;
      return invalid([refused || (error as AlertingError).detail]);
    }
    return { status: 202, body: accepted(key) };
  }

  /** The source's unresolved alert with the key, acknowledged; none, or a move that does not apply, changes nothing. */
  private async acknowledge(source: SourceRow, key: string): Promise<void> {
    const access = accessOf(source);
    await this.writeInGroup({ definition: alertDefinition, ...access }, async (writer, ctx, keep) => {
      const alert = await unresolvedAlert(ctx.manager, source.organization_id, source.source_type, source.id, key);
      if (!alert) return;
      try {
        await changeAlert(writer, ctx, keep, access, alert.id, { kind: 'operation', operation: 'acknowledge' });
      } catch (error) {
        // Acknowledging an alert that pages nobody: PagerDuty drops what does not apply; the move wrote nothing.
        if (!(error instanceof AlertingError && REFUSALS.has(error.code))) throw error;
      }
    });
  }

  private async source(routingKey: string): Promise<SourceRow | undefined> {
    const now = this.clock.now().getTime();
    const cached = this.sources.get(routingKey, now);
    if (cached) return cached;
    const [source] = (await this.dataSource.query(
      `SELECT id, organization_id, source_type, enabled, alert_urgency_id, sourceable_attributes
         FROM alert_sources WHERE secret = $1`,
      [routingKey],
    )) as SourceRow[];
    if (source) this.sources.set(routingKey, source, now);
    return source;
  }
}

/** The alert's attributes: the draft's, tagged with the source; the urgency rules' urgency, else the source's default; null members left out. */
function attributesOf(source: SourceRow, draft: AlertDraft, urgency: string | null, more: Row): Row {
  const { resolve: _resolve, ...attributes } = draft;
  const row: Row = { ...attributes, source: source.source_type, alert_source_id: source.id, alert_urgency_id: urgency ?? source.alert_urgency_id, ...more };
  return Object.fromEntries(Object.entries(row).filter(([, value]) => value != null));
}
