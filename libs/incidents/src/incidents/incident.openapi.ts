import { buildOpenApiDocument, BULK_LIMIT, bulkCreateRequestSchema, documentContent, errorsResponse, requestDocumentSchema } from '@taproot/json-api';
import { incidentEventFunctionalityDefinition, incidentEventServiceDefinition } from '../event-links/event-link.schema';
import { incidentEventSchema } from '../timeline/incident-event.schema';
import { attachAlertSchema } from './incident-alerts.controller';
import { incidentImportSchema, incidentSchema, OPERATION_BODIES, type IncidentOperationName } from './incident.schema';

/** Method, request schema (the reference's names) and summary of each operation. */
const OPERATIONS: Record<IncidentOperationName, { method: 'put' | 'post' | 'delete'; body: string | null; operationId: string; summary: string }> = {
  mitigate: { method: 'put', body: 'mitigate_incident', operationId: 'mitigateIncident', summary: 'Mitigate an incident' },
  resolve: { method: 'put', body: 'resolve_incident', operationId: 'resolveIncident', summary: 'Resolve an incident' },
  cancel: { method: 'put', body: 'cancel_incident', operationId: 'cancelIncident', summary: 'Cancel an incident' },
  in_triage: { method: 'put', body: 'in_triage_incident', operationId: 'triageIncident', summary: 'Move an incident to triage' },
  restart: { method: 'put', body: 'restart_incident', operationId: 'restartIncident', summary: 'Restart a resolved or cancelled incident' },
  duplicate: { method: 'put', body: 'duplicate_incident', operationId: 'markAsDuplicateIncident', summary: 'Mark an incident as a duplicate of another one (and resolve it)' },
  unmark_as_duplicate: { method: 'put', body: null, operationId: 'unmarkAsDuplicateIncident', summary: 'Unmark an incident as duplicate (422 when it is not marked)' },
  detach_from_parent: { method: 'put', body: null, operationId: 'detachFromParentIncident', summary: 'Detach a sub-incident from its parent (422 when it has none)' },
  add_subscribers: { method: 'post', body: 'add_subscribers', operationId: 'addSubscribersToIncident', summary: 'Add subscribers to an incident' },
  remove_subscribers: { method: 'delete', body: 'remove_subscribers', operationId: 'removeSubscribersToIncident', summary: 'Remove subscribers from an incident' },
  assign_role_to_user: { method: 'post', body: 'assign_role_to_user', operationId: 'assignUserToIncident', summary: 'Assign an incident role to a user' },
  unassign_role_from_user: { method: 'delete', body: 'unassign_role_from_user', operationId: 'removeAssignedUserFromIncident', summary: 'Remove an incident role from a user' },
};

const ID = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { anyOf: [{ type: 'string', format: 'uuid', description: 'Resource UUID' }, { type: 'string', pattern: '^[a-z0-9_-]+$', description: 'Resource slug' }] },
};

/** `POST /v1/incidents/import` (docs/incidents.md, Bulk import), with its request and response documents. */
function importOpenApi(incident: unknown) {
  const schemas = {
    import_incidents: bulkCreateRequestSchema(
      incidentImportSchema,
      `Historical incidents to import as backfilled, at most ${BULK_LIMIT}; external_ids unique within the batch. One transaction: all are imported or none.`,
    ),
    import_incidents_response: {
      type: 'object',
      properties: {
        data: { type: 'array', items: incident, description: "Each item's incident, in item order" },
        meta: {
          type: 'object',
          properties: {
            import_id: { type: 'string', format: 'uuid', description: 'The import, as its events name it (metadata.import_id)' },
            imported: { type: 'integer', description: 'How many incidents the import created' },
            already_imported: { type: 'array', items: { type: 'integer' }, description: 'Indexes of the items whose external_id an earlier import created: answered, not imported again' },
          },
          required: ['import_id', 'imported', 'already_imported'],
        },
      },
      required: ['data', 'meta'],
    },
  };
  const path = {
    post: {
      operationId: 'importIncidents',
      summary: 'Import historical incidents (kind backfilled), all or none',
      tags: ['Incidents'],
      requestBody: { required: true, ...documentContent('import_incidents') },
      responses: {
        '200': { description: 'the incidents imported (or imported before)', ...documentContent('import_incidents_response') },
        '400': errorsResponse('malformed request body'),
        '401': errorsResponse('unauthorized'),
        '403': errorsResponse('the caller may not create incidents, or private ones (each private item named)'),
        '415': errorsResponse('request body is not application/vnd.api+json'),
        '422': errorsResponse(`more than ${BULK_LIMIT} items, or invalid items: every error points below /entities/<index>, nothing is imported`),
      },
    },
  };
  return { schemas, path };
}

/** `/v1/incidents/{incident_id}/alerts` (docs/alerts.md, Alerts on incidents); `alert_list` comes from the alerting context's document. */
function incidentAlertsPaths() {
  const incidentId = { ...ID, name: 'incident_id' };
  const alertList = (description: string) => ({ description, ...documentContent('alert_list') });
  const refused = { '401': errorsResponse('unauthorized'), '404': errorsResponse('no such incident (or a private one the caller may not read)') };
  return {
    '/v1/incidents/{incident_id}/alerts': {
      parameters: [incidentId],
      get: {
        operationId: 'listIncidentAlerts',
        summary: 'List the alerts attached to an incident (needs incidents read and alerts read)',
        tags: ['Alerts'],
        responses: { '200': alertList('the incident\'s alerts'), '400': errorsResponse('malformed query'), '403': errorsResponse('the caller may not read incidents or alerts'), ...refused },
      },
      post: {
        operationId: 'attachAlert',
        summary: 'Attach alerts to an incident (events on the alerts and the incident timeline)',
        tags: ['Alerts'],
        requestBody: { required: true, ...documentContent('attach_alert') },
        responses: { '200': alertList('the incident\'s alerts after the attachment'), '403': errorsResponse('the caller may not update incidents'), ...refused, '422': errorsResponse('an id that is not an alert of the organization') },
      },
    },
    '/v1/incidents/{incident_id}/alerts/{alert_id}': {
      parameters: [incidentId, { name: 'alert_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
      get: {
        operationId: 'getIncidentAlert',
        summary: 'An alert attached to the incident (404 when it is not attached)',
        tags: ['Alerts'],
        responses: { '200': { description: 'the alert', ...documentContent('alert_response') }, '403': errorsResponse('the caller may not read incidents or alerts'), ...refused },
      },
      delete: {
        operationId: 'detachAlert',
        summary: 'Detach an alert from an incident (events on the alert and the incident timeline)',
        tags: ['Alerts'],
        responses: { '200': alertList('the incident\'s alerts left'), '403': errorsResponse('the caller may not update incidents'), ...refused },
      },
    },
  };
}

/**
 * What `/v1/openapi.json` says of incidents and timelines: the CRUD paths and schemas generated
 * from their declarations, plus the operations (`/v1/incidents/{id}/mitigate`, ...) and the
 * import, merged by the api into its document.
 */
function incidentsOpenApi() {
  // The event links live under events and keep an event from being deleted (409): the generator
  // reads that from their declarations (their own paths come out as the api generates them).
  const generated = buildOpenApiDocument([incidentSchema, incidentEventSchema, incidentEventServiceDefinition.schema, incidentEventFunctionalityDefinition.schema], { title: 'incidents', version: '1' });
  const schemas: Record<string, unknown> = { ...generated.components.schemas };
  const paths: Record<string, unknown> = { ...generated.paths };
  for (const [name, op] of Object.entries(OPERATIONS)) {
    if (op.body) schemas[op.body] = requestDocumentSchema(OPERATION_BODIES[name as IncidentOperationName], 'create');
    paths[`/v1/incidents/{id}/${name}`] = {
      parameters: [ID],
      [op.method]: {
        operationId: op.operationId,
        summary: op.summary,
        tags: ['Incidents'],
        ...(op.body ? { requestBody: { required: true, ...documentContent(op.body) } } : {}),
        responses: {
          '200': { description: 'the incident after the operation', ...documentContent('incident_response') },
          '400': errorsResponse('malformed request body'),
          '401': errorsResponse('unauthorized'),
          '403': errorsResponse('the caller may not update incidents'),
          '404': errorsResponse('no such incident (or a private one the caller may not read)'),
          '415': errorsResponse('request body is not application/vnd.api+json'),
          '422': errorsResponse('invalid attributes, or a move the incident lifecycle refuses (docs/incident-lifecycle.md)'),
        },
      },
    };
  }
  const imports = importOpenApi((schemas.incident_response as { properties: { data: unknown } }).properties.data);
  schemas.attach_alert = requestDocumentSchema(attachAlertSchema, 'create');
  return { schemas: { ...schemas, ...imports.schemas }, paths: { ...paths, '/v1/incidents/import': imports.path, ...incidentAlertsPaths() } };
}

export const INCIDENTS_OPENAPI = incidentsOpenApi();
