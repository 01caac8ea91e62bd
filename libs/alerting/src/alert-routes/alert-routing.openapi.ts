import { documentContent, errorsResponse } from '@taproot/json-api';

const settingsSchema = {
  type: 'object',
  required: ['data'],
  properties: {
    data: {
      type: 'object',
      required: ['id', 'type', 'attributes'],
      properties: {
        id: { type: 'string', description: "The organization's id" },
        type: { type: 'string', enum: ['alert_routing_settings'] },
        attributes: {
          type: 'object',
          properties: {
            advanced_alert_routing: { type: 'boolean', description: 'The route list and route updates need it (default true)' },
            asynchronous_rule_updates: { type: 'boolean', description: "Every route's rule update saved after the answer, not only a large graph's (default false)" },
          },
        },
      },
    },
  },
};

const updateSchema = {
  type: 'object',
  required: ['data'],
  properties: { data: { type: 'object', required: ['status', 'alert_route_id'], properties: { id: { type: 'string', description: 'The request id' }, type: { type: 'string', enum: ['alert_route_rule_updates'] }, attributes: { type: 'object' } } } },
};

/** The hosted API's status object, as its Terraform provider decodes it (not a JSON:API document). */
const asyncStatusSchema = {
  type: 'object',
  required: ['status'],
  properties: {
    status: { type: 'string', enum: ['pending', 'success', 'error'], description: 'pending: saved after the answer, not yet; success: saved; error: refused' },
    error: { type: 'string', description: "With status error: the problems' details, joined by '; '" },
  },
};

const requestPathParameters = [
  { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
  { name: 'request_id', in: 'path', required: true, schema: { type: 'string' }, description: "The update's request_id attribute, else its X-Request-Id" },
];

/** Alert routing's Taproot-only routes in `/v1/openapi.json` (docs/alert-routing.md). */
export const ALERT_ROUTING_OPENAPI = {
  schemas: { alert_routing_settings_response: settingsSchema, alert_route_rule_update_response: updateSchema, alert_route_async_rule_creation_status: asyncStatusSchema },
  paths: {
    '/v1/alert_routing_settings': {
      get: {
        operationId: 'getAlertRoutingSettings',
        summary: "The organization's alert routing settings",
        tags: ['AlertRoutes'],
        responses: { '200': { description: 'the settings', ...documentContent('alert_routing_settings_response') }, '401': errorsResponse('unauthorized'), '403': errorsResponse('the caller may not read alert routing rules') },
      },
      patch: {
        operationId: 'updateAlertRoutingSettings',
        summary: "Change the organization's alert routing settings",
        tags: ['AlertRoutes'],
        requestBody: { required: true, ...documentContent('alert_routing_settings_response') },
        responses: {
          '200': { description: 'the settings', ...documentContent('alert_routing_settings_response') },
          '401': errorsResponse('unauthorized'),
          '403': errorsResponse('the caller may not update alert routing rules'),
          '422': errorsResponse('an unknown setting, or not a boolean (pointer: the attribute)'),
        },
      },
    },
    '/v1/alert_routes/{id}/async_rule_creation_status/{request_id}': {
      parameters: requestPathParameters,
      get: {
        operationId: 'getAlertRouteAsyncRuleCreationStatus',
        summary: "Where a route's rule update stands, in the hosted API's words: pending, success, or error with its message",
        tags: ['AlertRoutes'],
        responses: {
          '200': { description: 'the status', content: { 'application/json': { schema: { $ref: '#/components/schemas/alert_route_async_rule_creation_status' } } } },
          '401': errorsResponse('unauthorized'),
          '403': errorsResponse('the caller may not read alert routing rules'),
          '404': errorsResponse('no update of this route under this request id'),
        },
      },
    },
    '/v1/alert_routes/{id}/rule_updates/{request_id}': {
      parameters: requestPathParameters,
      get: {
        operationId: 'getAlertRouteRuleUpdate',
        summary: "Where a route's rule update stands: pending, completed, or failed with its errors",
        tags: ['AlertRoutes'],
        responses: {
          '200': { description: 'the update', ...documentContent('alert_route_rule_update_response') },
          '401': errorsResponse('unauthorized'),
          '403': errorsResponse('the caller may not read alert routing rules'),
          '404': errorsResponse('no update of this route under this request id'),
        },
      },
    },
  },
};
