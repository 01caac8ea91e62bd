import { buildOpenApiDocument, requestDocumentSchema } from '@taproot/json-api';
import { alertEventSchema } from './alert-event.schema';
import { alertSchema, snoozeAlertSchema } from './alert.schema';
import { REFUSALS } from './alert.state';

const MEDIA = 'application/vnd.api+json';
const doc = (schema: string) => ({ content: { [MEDIA]: { schema: { $ref: `#/components/schemas/${schema}` } } } });
const errors = (description: string) => ({ description, ...doc('errors_list') });
const ID = { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };

/** The lifecycle operations (reference names); only `snooze` takes a body (`snooze_alert`). */
const OPERATIONS = {
  acknowledge: { operationId: 'acknowledgeAlert', summary: 'Acknowledge an alert' },
  resolve: { operationId: 'resolveAlert', summary: 'Resolve an alert (a non-paging one too)' },
  snooze: { operationId: 'snoozeAlert', summary: 'Snooze a paging alert for delay_minutes (status deferred)' },
  escalate: { operationId: 'escalateAlert', summary: 'Escalate an alert: page it (the next level when it is paging), reopening a resolved one' },
} as const;

/**
 * What `/v1/openapi.json` says of alerts and alert events: the paths generated from their
 * declarations, with the alert's update as PATCH, the create's 200 for a deduplicated alert, and
 * the lifecycle operations (docs/alert-lifecycle.md), merged by the api into its document.
 */
function alertsOpenApi() {
  const generated = buildOpenApiDocument([alertSchema, alertEventSchema], { title: 'alerts', version: '1' });
  const schemas: Record<string, unknown> = { ...generated.components.schemas, snooze_alert: requestDocumentSchema(snoozeAlertSchema, 'create') };
  const paths = { ...generated.paths } as Record<string, Record<string, unknown>>;
  const item = paths['/v1/alerts/{id}'];
  const { put, ...rest } = item as { put: { operationId?: string } } & Record<string, unknown>;
  paths['/v1/alerts/{id}'] = { ...rest, patch: { ...put, operationId: 'updateAlert' } };
  const create = paths['/v1/alerts'].post as { responses: Record<string, unknown> };
  create.responses = { ...create.responses, '200': { description: 'an unresolved alert of the same source had the deduplication_key: that alert, updated', ...doc('alert_response') } };
  for (const [name, op] of Object.entries(OPERATIONS)) {
    paths[`/v1/alerts/{id}/${name}`] = {
      parameters: [ID],
      post: {
        ...op,
        tags: ['Alerts'],
        ...(name === 'snooze' ? { requestBody: { required: true, ...doc('snooze_alert') } } : {}),
        responses: {
          '200': { description: 'the alert after the operation (unchanged for an idempotent repeat)', ...doc('alert_response') },
          '400': errors(`a refused move: ${REFUSALS.not_paging.hint} (open alert); ${REFUSALS.snooze_minutes.hint}`),
          '401': errors('unauthorized'),
          '403': errors('the caller may not update alerts'),
          '404': errors('no such alert'),
          '415': errors('request body is not application/vnd.api+json'),
          '422': errors('a move the alert lifecycle refuses (docs/alert-lifecycle.md)'),
        },
      },
    };
  }
  return { schemas, paths };
}

export const ALERTS_OPENAPI = alertsOpenApi();
