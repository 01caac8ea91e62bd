import { randomUUID, timingSafeEqual } from 'node:crypto';
import { Inject, Optional } from '@nestjs/common';
import { CommandHandler } from '@nestjs/cqrs';
import { CLOCK, TAPROOT_CONFIG, type Clock, type TaprootConfig } from '@taproot/config';
import { AlertCreationLimit } from '@taproot/auth';
import { type ResourceObject } from '@taproot/json-api';
import { CommitCache, UnitOfWork } from '@taproot/messaging';
import { ResourceWriteHandler, type Keep, type ResourceWriter, type Row, type WriteContext } from '@taproot/resources';
import { DataSource } from 'typeorm';
import { changeAlert, createAlert, unresolvedAlert, type AlertAccess } from '../../alerts/alert-writes';
import type { AlertRoute } from '../../alert-routes/route-alert';
import { routedAlertOf, routedTargets, sourceRoutes } from '../../alert-routes/source-routes';
import { markLeader, openLeader, organizationGroups } from '../../alert-groups/alert-grouping';
import { placeAlert, type AlertGroupRule } from '../../alert-groups/group-alerts';
import { ALERT_INCIDENTS, asSeenBy, type AlertIncidents } from '../../alerts/alert-includes';
import { alertDefinition } from '../../alerts/alert.schema';
import {
  applyAlertFields,
  draftFieldValue,
  IngestionError,
  mapAlertmanager,
  mapEmail,
  mapGenericWebhook,
  resolutionOf,
  SIGNATURE_HEADER,
  urgencyOf,
  verifySignature,
  type AlertDraft,
  type AlertFieldsConfig,
  type BuiltInFields,
  type GenericWebhookConfig,
  type IngestionRulesConfig,
  type NotificationTargetType,
} from '../../ingestion';
import { alertReceipt, recordReceipt, type Receipt } from '../alert-receipts';
import { pointerOf } from '../alert-source.schema';
import { IngestAlertsCommand, type IngestedAlerts, type InboundRequest } from './ingest-alerts.command';
import { AlertingError, AlertingErrorCode } from '../../errors';

interface SourceRow {
  id: string;
  organization_id: string;
  source_type: string;
  enabled: boolean;
  secret: string;
  alert_urgency_id: string | null;
  alert_template_attributes: GenericWebhookConfig['alert_template_attributes'];
  sourceable_attributes: (GenericWebhookConfig['sourceable_attributes'] & { accept_threaded_emails?: boolean; notification_target_type?: NotificationTargetType | null; notification_target_id?: string | null }) | null;
  alert_source_urgency_rules_attributes: IngestionRulesConfig['alert_source_urgency_rules_attributes'];
  resolution_rule_attributes: IngestionRulesConfig['resolution_rule_attributes'];
  deduplicate_alerts_by_key: boolean;
  deduplication_key_path: string | null;
  deduplication_key_regexp: string | null;
  alert_source_fields_attributes: AlertFieldsConfig['alert_source_fields_attributes'];
  /** The organization's built-in alert fields (id -> kind), read with the source: they never change. */
  built_in_fields: BuiltInFields;
}

/** One mapped item of a payload: a draft, or an email reply the source does not take (`accept_threaded_emails: false`). */
type Item = { draft: AlertDraft } | { suppressed: true };
/** An item with what the source's rules make of it. */
type Planned = { draft: AlertDraft; urgency: string | null; resolution: { identifier: string | null } | null } | { suppressed: true };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One answer for an unknown source and for bad credentials: the response never says whether the id exists. */
const unauthorized = (detail: string) => new AlertingError(AlertingErrorCode.InvalidAlertSourceCredentials, detail);

const sameSecret = (given: string, secret: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** Mapping runs before anything is stored: an IngestionError refuses the whole payload (422, its field as pointer). */
function mapped<T>(map: () => T): T {
  try {
    return map();
  } catch (error) {
    if (!(error instanceof IngestionError)) throw error;
    throw new AlertingError(AlertingErrorCode.InvalidAlertPayload, error.message, `/${pointerOf(error.field)}`);
  }
}

/**
 * `IngestAlerts` (docs/alert-sources.md): no bearer token; the unguessable source id with its
 * secret authenticates the sender, as an HMAC of the raw body (`X-Taproot-Signature:
 * sha256=<hex>`, required for generic webhooks) or, for senders that cannot sign (Alertmanager,
 * MTAs), the `?secret=` query. Each payload item becomes an alert of the source
 * (`alert_source_id`) through the alert create path (deduplication, events), its urgency set by the
 * source's urgency rules; a resolving item (the mapper's resolve state, or the source's resolution
 * rule) resolves the source's unresolved alert with its key through the alert change path. The
 * alerts and a receipt per item commit together, so a receipt exists exactly when its alert change
 * did; concurrent requests commit as a group, each isolated by a savepoint.
 */
@CommandHandler(IngestAlertsCommand)
export class IngestAlertsHandler extends ResourceWriteHandler {
  /**
   * Sources by id, so a steady sender costs no query to authenticate: a source's change (disabled,
   * new secret, new rules) applies at once in this process and within AUTH_CACHE_TTL_MS on others.
   */
  private readonly sources: CommitCache<SourceRow>;
  /** Each source's routes (docs/alert-routing.md), kept as its credentials are: a route's change applies at once here. */
  private readonly routes: CommitCache<AlertRoute[]>;
  /** Each organization's alert groups (docs/alert-groups.md), kept as the routes are. */
  private readonly groups: CommitCache<AlertGroupRule[]>;

  constructor(
    unitOfWork: UnitOfWork,
    @Inject(CLOCK) clock: Clock,
    @Inject(TAPROOT_CONFIG) config: TaprootConfig,
    private readonly dataSource: DataSource,
    private readonly creationLimit: AlertCreationLimit,
    @Optional() @Inject(ALERT_INCIDENTS) private readonly incidents?: AlertIncidents,
  ) {
    super(unitOfWork, clock);
    this.sources = new CommitCache({ ttlMs: config.authCacheTtlMs, invalidatedBy: /^alerts_source\./ }, unitOfWork);
    this.routes = new CommitCache({ ttlMs: config.authCacheTtlMs, invalidatedBy: /^alert_rout(e|ing_rule)\./ }, unitOfWork);
    this.groups = new CommitCache({ ttlMs: config.authCacheTtlMs, invalidatedBy: /^alert_group\./ }, unitOfWork);
  }

  async execute(c: IngestAlertsCommand): Promise<IngestedAlerts> {
    const source = await this.authenticate(c.sourceId, c.secret, c.request, c.drafts !== undefined);
    const items = mapped(() => c.drafts?.map((draft) => ({ draft })) ?? (c.route === 'alerts' ? monitoringItems(source, c.request) : emailItems(source, c.request)));
    // Rules stored before they were validated fail here, before anything is stored.
    const planned = mapped(() => items.map((item): Planned => ('draft' in item ? plan(source, item.draft) : item)));
    // Spec, Limits: 50 alerts a minute per alert source; a request over it stores nothing.
    for (const item of planned) {
      if ('draft' in item && !item.draft.resolve && !item.resolution) await this.creationLimit.consume({ organizationId: source.organization_id, alertSourceId: source.id });
    }
    const routes = await this.routesOf(source);
    const groups = await this.groupsOf(source.organization_id);
    const access: AlertAccess = { organizationId: source.organization_id, actor: { kind: 'system', id: `alert_source:${source.id}` }, userId: null };
    const command = { definition: alertDefinition, ...access };
    const { data, receipts } = await this.writeInGroup(command, async (writer, ctx, keep) => {
      const touched: ResourceObject[] = [];
      const stored: (Receipt & { id: string })[] = [];
      for (const item of planned) {
        const { alert, receipt } = await this.apply(writer, ctx, keep, access, source, routes, groups, item);
        if (alert) touched.push(alert);
        stored.push(await recordReceipt(ctx.manager, source.organization_id, source.id, receipt, ctx.now));
      }
      return { data: touched, receipts: stored };
    });
    // A sender sees the public incidents its alerts are attached to, never a private one's id.
    return { data: await asSeenBy(source.organization_id, null, data, this.incidents), meta: { receipts } };
  }

  private async authenticate(id: string, secret: unknown, request: InboundRequest, premapped: boolean): Promise<SourceRow> {
    const rejected = unauthorized('Unknown alert source or invalid credentials: sign the raw body (X-Taproot-Signature) or pass ?secret=');
    if (!UUID.test(id)) throw rejected;
    const source = await this.source(id.toLowerCase());
    if (!source) throw rejected;
    const header = request.headers[SIGNATURE_HEADER];
    // Drafts mapped by another front door (PagerDuty's routing key is the secret) carry no body to sign.
    const signed = header !== undefined || (source.source_type === 'generic_webhook' && !premapped);
    if (signed) {
      if (verifySignature(request.rawBody ?? '', source.secret, header) !== 'ok') throw rejected;
    } else if (typeof secret !== 'string' || !sameSecret(secret, source.secret)) {
      throw rejected;
    }
    // After the credentials check, so a stranger learns nothing.
    if (!source.enabled) throw new AlertingError(AlertingErrorCode.AlertSourceDisabled, 'This alert source is disabled: it accepts no alerts');
    return source;
  }

  private async source(id: string): Promise<SourceRow | undefined> {
    const now = this.clock.now().getTime();
    const cached = this.sources.get(id, now);
    if (cached) return cached;
    const [source] = (await this.dataSource.query(
      `SELECT s.*, (SELECT coalesce(jsonb_object_agg(f.id, f.kind), '{}') FROM alert_fields f WHERE f.organization_id = s.organization_id AND f.kind <> 'custom') AS built_in_fields
       FROM alert_sources s WHERE s.id = $1`,
      [id],
    )) as SourceRow[];
    if (source) this.sources.set(id, source, now);
    return source;
  }

  private async routesOf(source: SourceRow): Promise<AlertRoute[]> {
    const now = this.clock.now().getTime();
    const cached = this.routes.get(source.id, now);
    if (cached) return cached;
    const routes = await sourceRoutes(this.dataSource, source.organization_id, source.id);
    this.routes.set(source.id, routes, now);
    return routes;
  }

  private async groupsOf(organizationId: string): Promise<AlertGroupRule[]> {
    const now = this.clock.now().getTime();
    const cached = this.groups.get(organizationId, now);
    if (cached) return cached;
    const groups = await organizationGroups(this.dataSource, organizationId);
    this.groups.set(organizationId, groups, now);
    return groups;
  }

  private async apply(writer: ResourceWriter, ctx: WriteContext, keep: Keep, access: AlertAccess, source: SourceRow, routes: AlertRoute[], groups: AlertGroupRule[], item: Planned): Promise<{ alert?: ResourceObject; receipt: Receipt }> {
    if (!('draft' in item)) return { receipt: { state: 'failed', reason: 'suppressed' } };
    const { draft, urgency, resolution } = item;
    if (draft.resolve || resolution) {
      // The mapper's own resolve state goes by the draft's key; the resolution rule by its identifier.
      const key = draft.resolve ? draft.deduplication_key : (resolution?.identifier ?? null);
      const alert = await this.resolve(writer, ctx, keep, access, source, key, draft.ended_at);
      return alert ? { alert, receipt: alertReceipt('done', alert.id) } : { receipt: { state: 'failed', reason: 'no_route_matched' } };
    }
    const attributes = this.attributesOf(source, draft, urgency, ctx.now);
    // The routes' destinations page beside the target the payload or source names.
    const targets = routedTargets(routes, source, source.built_in_fields, draft, (attributes.alert_urgency_id as string | undefined) ?? null);
    if (targets.length > 1 || (targets.length === 1 && !draft.notification_target_id)) attributes.notification_targets = targets;
    // An alert its group's open leader takes pages no one: it is attached to the leader (docs/alert-groups.md).
    const place = groups.length ? placeAlert(groups, { ...routedAlertOf(source, source.built_in_fields, draft, (attributes.alert_urgency_id as string | undefined) ?? null), targets }) : null;
    const leader = place && (await openLeader(ctx, place));
    if (place) Object.assign(attributes, { alert_group_id: place.groupId, is_group_leader_alert: !leader, group_leader_alert_id: leader });
    if (leader) for (const name of ['notification_targets', 'notification_target_type', 'notification_target_id']) delete attributes[name];
    const created = await createAlert(writer, ctx, keep, access, attributes);
    if (place && !leader && !created.deduplicated) await markLeader(ctx, created.alert.id, place);
    return { alert: created.alert, receipt: created.deduplicated ? alertReceipt('failed', created.alert.id, 'deduplicated') : alertReceipt('done', created.alert.id) };
  }

  /**
   * The alert's attributes: the draft's, tagged with the source; the urgency rules' urgency, else
   * the source's default; its custom field values as the reference's `alert_field_values` (which
   * name the alert, so its id is chosen here).
   */
  private attributesOf(source: SourceRow, draft: AlertDraft, urgency: string | null, now: Date): Row {
    const { resolve: _resolve, state: _state, alert_field_values: values = [], ...attributes } = draft;
    const row: Row = { ...attributes, source: source.source_type, alert_source_id: source.id, alert_urgency_id: urgency ?? source.alert_urgency_id };
    if (values.length) {
      row.id = randomUUID();
      row.alert_field_values = values.map((v) => ({ id: randomUUID(), ...v, alert_id: row.id, created_at: now.toISOString(), updated_at: now.toISOString() }));
    }
    for (const [name, value] of Object.entries(row)) if (value === null) delete row[name];
    return row;
  }

  /**
   * A resolving item resolves this alert source's unresolved alert with its key (without one there
   * is nothing to resolve), ended when the sender says it ended (Alertmanager's `endsAt`), else now.
   */
  private async resolve(writer: ResourceWriter, ctx: WriteContext, keep: Keep, access: AlertAccess, source: SourceRow, key: string | null, endedAt: string | null): Promise<ResourceObject | null> {
    if (key == null) return null;
    const alert = await unresolvedAlert(ctx.manager, source.organization_id, source.source_type, source.id, key);
    if (!alert) return null;
    return changeAlert(writer, ctx, keep, access, alert.id, { kind: 'update', attributes: { status: 'resolved', ...(endedAt ? { ended_at: endedAt } : {}) } });
  }
}

/** The draft with the source's alert fields applied, and what the source's rules make of it (they see its field values). */
function plan(source: SourceRow, mapped: AlertDraft): Planned {
  const draft = applyAlertFields(source, source.built_in_fields, mapped);
  const field = (id: string) => draftFieldValue(draft, source.built_in_fields, id);
  return { draft, urgency: urgencyOf(source, draft.data, field), resolution: resolutionOf(source, draft.data, field) };
}

function monitoringItems(source: SourceRow, request: InboundRequest): Item[] {
  if (source.source_type === 'email') throw new IngestionError('source_type', `email alert sources receive mail on /v1/alert_sources/${source.id}/emails, not on this endpoint`);
  const drafts = source.source_type === 'alertmanager' ? mapAlertmanager(request.body) : mapGenericWebhook(source, request.body);
  return drafts.map((draft) => ({ draft }));
}

function emailItems(source: SourceRow, request: InboundRequest): Item[] {
  if (source.source_type !== 'email') throw new IngestionError('source_type', `only email alert sources receive mail: post to /v1/alert_sources/${source.id}/alerts`);
  const { body } = request;
  // A JSON string is no raw message: only message/rfc822 and text/plain bodies (bytes) are parsed as one.
  if (!Buffer.isBuffer(body) && (typeof body !== 'object' || body === null)) throw new IngestionError('body', 'expected an email (message/rfc822, or its JSON form)');
  const mapping = mapEmail(source, body as Buffer | Record<string, unknown>);
  if (!mapping.accepted) return [{ suppressed: true }];
  const target = source.sourceable_attributes;
  // The email source's notification target pages for every alert its mail opens.
  if (target?.notification_target_type && target.notification_target_id) {
    mapping.draft.notification_target_type = target.notification_target_type;
    mapping.draft.notification_target_id = target.notification_target_id;
  }
  return [{ draft: mapping.draft }];
}
