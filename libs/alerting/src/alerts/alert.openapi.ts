import { buildOpenApiDocument, documentContent, errorsResponse, requestDocumentSchema } from '@taproot/json-api';
import { alertEventSchema } from './alert-event.schema';
import { alertListSchema, alertSchema, snoozeAlertSchema } from './alert.schema';
import { REFUSALS } from './alert.state';
import { ALERT_SOURCE_ROUTES_OPENAPI, INBOUND_ACCEPTED } from '../alert-sources/alert-sources.openapi';

const ID = { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };

/** An operation's request document: `data` of type alerts with these attributes (the reference's `additionalProperties: false`). */
const operationBody = (properties: Record<string, unknown>) => ({
  type: 'object',
  properties: { data: { type: 'object', properties: { type: { type: 'string', enum: ['alerts'] }, attributes: { type: 'object', additionalProperties: false, properties } } } },
});

/** The reference's bodies of `escalate` and `resolve` (both optional); `snooze` requires its own. */
const OPERATION_BODIES: Record<string, { schema: string; required: boolean }> = {
  snooze: { schema: 'snooze_alert', required: true },
  escalate: { schema: 'escalate_alert', required: false },
  resolve: { schema: 'resolve_alert', required: false },
};

/** The lifecycle operations (reference names). */
const OPERATIONS = {
  acknowledge: { operationId: 'acknowledgeAlert', summary: 'Acknowledge an alert' },
  resolve: { operationId: 'resolveAlert', summary: 'Resolve an alert (a non-paging one too)' },
  snooze: { operationId: 'snoozeAlert', summary: 'Snooze a paging alert for delay_minutes (status deferred)' },
  escalate: { operationId: 'escalateAlert', summary: 'Escalate an alert: page it (the next level when it is paging), reopening a resolved one' },
} as const;

/**
 * What `/v1/openapi.json` says of alerts and alert events: the paths generated from their
 * declarations (both update with PATCH, `updateMethod`), the list's parameters from its query
 * declaration (the services, groups, environments and labels filters), the create's 200 for a
 * deduplicated alert, and the lifecycle operations (docs/alert-lifecycle.md), merged by the api
 * into its document.
 */
function alertsOpenApi() {
  const generated = buildOpenApiDocument([alertSchema, alertEventSchema], { title: 'alerts', version: '1' });
  const schemas: Record<string, unknown> = {
    ...generated.components.schemas,
    snooze_alert: requestDocumentSchema(snoozeAlertSchema, 'create'),
    escalate_alert: operationBody({
      escalation_policy_id: { type: 'string', description: 'The escalation policy to escalate to; omitted, the policies the alert pages' },
      escalation_policy_level: { type: 'integer', minimum: 1, description: 'The level to page; omitted, the next level (same policy) or level 1 (another policy)' },
    }),
    resolve_alert: operationBody({
      resolution_message: { type: 'string', nullable: true, maxLength: 10000, description: "How the alert was resolved (written on the alert's timeline)" },
      resolve_related_incidents: { type: 'boolean', nullable: true, description: 'Resolve the incidents the alert is attached to as well' },
    }),
  };
  const paths = { ...generated.paths } as Record<string, Record<string, unknown>>;
  const list = buildOpenApiDocument([alertListSchema], { title: 'alert list', version: '1' }).paths['/v1/alerts'].get as { parameters: unknown[] };
  (paths['/v1/alerts'].get as { parameters: unknown[] }).parameters = list.parameters;
  const create = paths['/v1/alerts'].post as { responses: Record<string, unknown> };
  create.responses = { ...create.responses, '200': { description: 'an unresolved alert of the same source had the deduplication_key: that alert, updated', ...documentContent('alert_response') } };
  for (const [name, op] of Object.entries(OPERATIONS)) {
    paths[`/v1/alerts/{id}/${name}`] = {
      parameters: [ID],
      post: {
        ...op,
        tags: ['Alerts'],
        ...(OPERATION_BODIES[name] ? { requestBody: { required: OPERATION_BODIES[name].required, ...documentContent(OPERATION_BODIES[name].schema) } } : {}),
        responses: {
          '200': { description: 'the alert after the operation (unchanged for an idempotent repeat)', ...documentContent('alert_response') },
          '400': errorsResponse(`a refused move: ${REFUSALS.not_paging.hint} (open alert); ${REFUSALS.snooze_minutes.hint}`),
          '401': errorsResponse('unauthorized'),
          '403': errorsResponse('the caller may not update alerts'),
          '404': errorsResponse('no such alert'),
          '415': errorsResponse('request body is not application/vnd.api+json'),
          '422': errorsResponse('a move the alert lifecycle refuses (docs/alert-lifecycle.md), or an attribute of the body (pointer: the attribute)'),
        },
      },
    };
  }
  paths['/v1/alert_sources/{id}/alerts'] = INBOUND_PATH;
  return { schemas: { ...schemas, ...ALERT_SOURCE_ROUTES_OPENAPI.schemas }, paths: { ...paths, ...ALERT_SOURCE_ROUTES_OPENAPI.paths } };
}

/**
 * The inbound alert route (docs/alert-sources.md): public, authenticated by the source id with
 * its secret (an HMAC of the raw body, or `?secret=`); the body is the sender's own JSON.
 */
const INBOUND_PATH = {
  parameters: [
    { ...ID, description: 'The alert source id (its webhook_endpoint names it)' },
    { name: 'secret', in: 'query', required: false, schema: { type: 'string' }, description: "The source's secret, for senders that cannot sign (not for generic webhooks)" },
    { name: 'X-Taproot-Signature', in: 'header', required: false, schema: { type: 'string', pattern: '^sha256=[0-9a-fA-F]{64}$' }, description: "sha256=<hex HMAC-SHA256 of the raw body keyed with the source's secret>; required for generic webhooks" },
  ],
  post: {
    operationId: 'ingestAlerts',
    summary: 'Send alerts to an alert source (generic webhook JSON, Alertmanager webhook)',
    tags: ['AlertSources'],
    security: [],
    requestBody: { required: true, content: { 'application/json': { schema: { description: "The sender's payload, mapped by the source's configuration", oneOf: [{ type: 'object' }, { type: 'array' }] } } } },
    responses: {
      '202': INBOUND_ACCEPTED,
      '401': errorsResponse('unknown source, or a missing or wrong signature or secret: nothing is stored'),
      '409': errorsResponse('the alert source is disabled: nothing is stored (code ALERT_SOURCE_DISABLED)'),
      '413': errorsResponse('body larger than 1 MB'),
      '415': errorsResponse('request body is neither application/json nor application/vnd.api+json'),
      '422': errorsResponse("the payload or the source's mapping cannot be used (pointer: the offending field)"),
      '429': { description: 'more than 50 alerts a minute for this source', content: { 'application/json': { schema: { type: 'object', properties: { error: { type: 'string' } } } } } },
    },
  },
};

export const ALERTS_OPENAPI = alertsOpenApi();
