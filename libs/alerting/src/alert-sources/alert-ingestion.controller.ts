import { timingSafeEqual } from 'node:crypto';
import { Controller, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AlertCreationLimit, Public } from '@taproot/identity';
import { JsonApiError, type FlatQuery, type ResourceObject } from '@taproot/json-api';
import type { Row } from '@taproot/resources';
import { DataSource } from 'typeorm';
import { ChangeAlertCommand, CreateAlertCommand, unresolvedAlert, type AlertAccess, type AlertCreated } from '../alerts/alert-commands';
import { IngestionError, mapAlertmanager, mapGenericWebhook, SIGNATURE_HEADER, verifySignature, type AlertDraft, type GenericWebhookConfig } from '../ingestion';
import { pointerOf } from './alert-source.schema';

/** The request as the api's body parsers leave it: the exact bytes received are kept for the HMAC. */
interface InboundRequest {
  headers: Record<string, string | string[] | undefined>;
  body?: unknown;
  rawBody?: Buffer | string;
}

interface SourceRow {
  id: string;
  organization_id: string;
  source_type: string;
  enabled: boolean;
  secret: string;
  alert_urgency_id: string | null;
  alert_template_attributes: GenericWebhookConfig['alert_template_attributes'];
  sourceable_attributes: GenericWebhookConfig['sourceable_attributes'];
  deduplicate_alerts_by_key: boolean;
  deduplication_key_path: string | null;
  deduplication_key_regexp: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One answer for an unknown source and for bad credentials: the response never says whether the id exists. */
const unauthorized = (detail: string) => JsonApiError.of(401, 'Unauthorized', detail, 'INVALID_ALERT_SOURCE_CREDENTIALS');

const sameSecret = (given: string, secret: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * `POST /v1/alert_sources/{id}/alerts`: where monitoring tools send alerts (docs/alert-sources.md).
 * Public (no bearer token): the unguessable source id with its secret authenticates the sender,
 * as an HMAC of the raw body (`X-Taproot-Signature: sha256=<hex>`, required for generic webhooks)
 * or, for senders that cannot sign (Alertmanager), the `?secret=` query. Each payload item becomes
 * an alert of the source (`alert_source_id`) through the alert create command (deduplication,
 * events: one path); a resolving item resolves the source's unresolved alert with its
 * deduplication key through the alert change command.
 */
@Public()
@Controller('v1/alert_sources')
export class AlertIngestionController {
  constructor(
    private readonly commands: CommandBus,
    private readonly dataSource: DataSource,
    private readonly creationLimit: AlertCreationLimit,
  ) {}

  @Post(':id/alerts')
  @HttpCode(202)
  async ingest(@Param('id') id: string, @Query() query: FlatQuery, @Req() request: InboundRequest) {
    const source = await this.authenticate(id, query, request);
    if (!source.enabled) throw JsonApiError.of(409, 'Alert source disabled', 'This alert source is disabled: it accepts no alerts', 'ALERT_SOURCE_DISABLED');
    const drafts = this.map(source, request.body);
    const access: AlertAccess = { organizationId: source.organization_id, actor: { kind: 'system', id: `alert_source:${source.id}` }, userId: null };
    const data: ResourceObject[] = [];
    for (const draft of drafts) {
      if (draft.resolve) {
        const resolved = await this.resolve(access, source, draft);
        if (resolved) data.push(resolved);
        continue;
      }
      // Spec, Limits: 50 alerts a minute per alert source.
      await this.creationLimit.consume({ organizationId: source.organization_id, alertSourceId: source.id });
      const created: AlertCreated = await this.commands.execute(new CreateAlertCommand(access, this.attributesOf(source, draft)));
      data.push(created.alert);
    }
    return { data };
  }

  private async authenticate(id: string, query: FlatQuery, request: InboundRequest): Promise<SourceRow> {
    const rejected = unauthorized('Unknown alert source or invalid credentials: sign the raw body (X-Taproot-Signature) or pass ?secret=');
    if (!UUID.test(id)) throw rejected;
    const [source] = (await this.dataSource.query('SELECT * FROM alert_sources WHERE id = $1', [id])) as SourceRow[];
    if (!source) throw rejected;
    const header = request.headers[SIGNATURE_HEADER];
    const signed = header !== undefined || source.source_type === 'generic_webhook';
    if (signed) {
      if (verifySignature(request.rawBody ?? '', source.secret, header) !== 'ok') throw rejected;
    } else if (typeof query.secret !== 'string' || !sameSecret(query.secret, source.secret)) {
      throw rejected;
    }
    return source;
  }

  private map(source: SourceRow, body: unknown): AlertDraft[] {
    try {
      if (source.source_type === 'email') throw new IngestionError('source_type', 'email alert sources receive alerts by email, not on this endpoint');
      if (source.source_type === 'alertmanager') return mapAlertmanager(body);
      return mapGenericWebhook(source, body);
    } catch (error) {
      if (!(error instanceof IngestionError)) throw error;
      throw new JsonApiError(422, [{ status: '422', title: 'Alert payload not accepted', code: 'INVALID_ALERT_PAYLOAD', detail: error.message, source: { pointer: `/${pointerOf(error.field)}` } }]);
    }
  }

  private attributesOf(source: SourceRow, draft: AlertDraft): Row {
    const { resolve: _resolve, ...attributes } = draft;
    const row: Row = { ...attributes, source: source.source_type, alert_source_id: source.id };
    if (source.alert_urgency_id) row.alert_urgency_id = source.alert_urgency_id;
    for (const [name, value] of Object.entries(row)) if (value === null) delete row[name];
    return row;
  }

  /** A resolving item resolves this alert source's unresolved alert with its key; without one there is nothing to resolve. */
  private async resolve(access: AlertAccess, source: SourceRow, draft: AlertDraft): Promise<ResourceObject | null> {
    if (draft.deduplication_key == null) return null;
    const alert = await unresolvedAlert(this.dataSource, source.organization_id, source.source_type, source.id, draft.deduplication_key);
    if (!alert) return null;
    return this.commands.execute(new ChangeAlertCommand(access, alert.id, { kind: 'operation', operation: 'resolve' }));
  }
}
