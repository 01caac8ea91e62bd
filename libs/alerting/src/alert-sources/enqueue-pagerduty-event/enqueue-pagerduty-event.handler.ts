import { randomBytes } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler } from '@nestjs/cqrs';
import { AlertCreationLimit } from '@taproot/auth';
import { CLOCK, TAPROOT_CONFIG, type Clock, type Logger, type TaprootConfig } from '@taproot/config';
import { CommitCache, UnitOfWork } from '@taproot/messaging';
import { ResourceWriteHandler, type Row } from '@taproot/resources';
import { LOGGER } from '@taproot/runtime';
import { DataSource } from 'typeorm';
import { changeAlert, createAlert, unresolvedAlert, type AlertAccess } from '../../alerts/alert-writes';
import { alertDefinition } from '../../alerts/alert.schema';
import { AlertingError, REFUSAL_CODES } from '../../errors';
import {
  accepted,
  changeAccepted,
  changeDraft,
  IngestionError,
  INVALID_ROUTING_KEY,
  invalidEvent,
  parseChangeEvent,
  parsePagerDutyEvent,
  triggerDraft,
  urgencyOf,
  type AlertDraft,
  type IngestionRulesConfig,
  type NotificationTargetType,
  type PagerDutyAlertEvent,
  type PagerDutyChangeEvent,
} from '../../ingestion';
import { EnqueuePagerDutyEventCommand, type PagerDutyAnswer } from './enqueue-pagerduty-event.command';

interface SourceRow extends IngestionRulesConfig {
  id: string;
  organization_id: string;
  source_type: string;
  enabled: boolean;
  alert_urgency_id: string | null;
  sourceable_attributes: { notification_target_type?: NotificationTargetType | null; notification_target_id?: string | null } | null;
}

const invalid = (errors: string[]): PagerDutyAnswer => ({ status: 400, body: invalidEvent(errors) });
const REFUSALS = new Set<string>(Object.values(REFUSAL_CODES));
const accessOf = (source: SourceRow): AlertAccess => ({ organizationId: source.organization_id, actor: { kind: 'system', id: `alert_source:${source.id}` }, userId: null });

/**
 * `POST /v2/enqueue` and `POST /v2/change/enqueue` (docs/pagerduty-events.md): the routing key is
 * an alert source's secret. A trigger goes through the alert create path as an ingested alert of
 * the source (deduplication by dedup_key, the source's urgency rules and notification target,
 * paging); acknowledge and resolve act on the source's unresolved alert with the dedup_key through
 * the alert change path, and do nothing (still 202, as PagerDuty) when there is none or the move
 * does not apply. Writes are group-committed like the other inbound routes.
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
    if (!source.enabled) return invalid(['The alert source of this routing key is disabled']);
    return work(source);
  }

  private async change(source: SourceRow, event: PagerDutyChangeEvent): Promise<PagerDutyAnswer> {
    const draft = changeDraft(event);
    await this.creationLimit.consume({ organizationId: source.organization_id, alertSourceId: source.id });
    const access = accessOf(source);
    await this.writeInGroup({ definition: alertDefinition, ...access }, (writer, ctx, keep) => createAlert(writer, ctx, keep, access, attributesOf(source, draft, null, { status: 'resolved' })));
    return { status: 202, body: changeAccepted() };
  }

  private async alert(source: SourceRow, event: PagerDutyAlertEvent): Promise<PagerDutyAnswer> {
    // PagerDuty generates a key for a trigger without one and answers it: 32 hex characters too.
    const key = event.dedupKey ?? randomBytes(16).toString('hex');
    const access = accessOf(source);
    const command = { definition: alertDefinition, ...access };
    if (event.action === 'trigger') {
      const draft = triggerDraft(event, key);
      let urgency: string | null;
      try {
        urgency = urgencyOf(source, draft.data);
      } catch (error) {
        // A rule stored before rules were validated: the sender cannot fix it, but must learn the event was not taken.
        if (!(error instanceof IngestionError)) throw error;
        return invalid([`The alert source's urgency rules cannot be applied: ${error.field}: ${error.message}`]);
      }
      await this.creationLimit.consume({ organizationId: source.organization_id, alertSourceId: source.id });
      const target = source.sourceable_attributes;
      const paging = { notification_target_type: target?.notification_target_type, notification_target_id: target?.notification_target_id };
      await this.writeInGroup(command, (writer, ctx, keep) => createAlert(writer, ctx, keep, access, attributesOf(source, draft, urgency, paging)));
    } else {
      const operation = event.action;
      await this.writeInGroup(command, async (writer, ctx, keep) => {
        const alert = await unresolvedAlert(ctx.manager, source.organization_id, source.source_type, source.id, key);
        if (!alert) return;
        try {
          await changeAlert(writer, ctx, keep, access, alert.id, { kind: 'operation', operation });
        } catch (error) {
          // Acknowledging an alert that pages nobody: PagerDuty drops what does not apply; the move wrote nothing.
          if (!(error instanceof AlertingError && REFUSALS.has(error.code))) throw error;
        }
      });
    }
    return { status: 202, body: accepted(key) };
  }

  private async source(routingKey: string): Promise<SourceRow | undefined> {
    const now = this.clock.now().getTime();
    const cached = this.sources.get(routingKey, now);
    if (cached) return cached;
    const [source] = (await this.dataSource.query(
      `SELECT id, organization_id, source_type, enabled, alert_urgency_id, sourceable_attributes, alert_source_urgency_rules_attributes
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
