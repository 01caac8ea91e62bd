import { errorsResponse } from '@taproot/json-api';
/**
 * What `/v1/openapi.json` says of the email route and of receipts (docs/alert-sources.md), merged
 * into the alerts' document (alert.openapi.ts) beside the webhook route.
 */
const MEDIA = 'application/vnd.api+json';

/** The reference's `receipt`. */
const RECEIPT = {
  type: 'object',
  required: ['state'],
  properties: {
    state: { type: 'string', enum: ['pending', 'done', 'failed'], description: 'Delivery state of the receipt.' },
    reason: { type: 'string', enum: ['no_route_matched', 'deduplicated', 'suppressed', 'validation_error'], description: 'Reason a receipt failed. Present when state is failed.' },
    resource_type: { type: 'string', description: 'Type of the referenced resource (present when set).' },
    resource_id: { type: 'string', description: 'ID of the referenced resource (present when set).' },
  },
};

/** The 202 of both inbound routes: the alerts touched, and one receipt per payload item in order. */
export const INBOUND_ACCEPTED = {
  description: 'the alerts created, deduplicated into or resolved by the payload; meta.receipts: one receipt per item, in order (its id for GET /v1/alerts/receipts/{id})',
  content: {
    [MEDIA]: {
      schema: {
        type: 'object',
        required: ['data', 'meta'],
        properties: {
          data: { type: 'array', items: { type: 'object' } },
          meta: {
            type: 'object',
            properties: { receipts: { type: 'array', items: { allOf: [{ $ref: '#/components/schemas/receipt' }, { type: 'object', required: ['id'], properties: { id: { type: 'string', format: 'uuid' } } }] } } },
          },
        },
      },
    },
  },
};

/** The parsed form of an email (what an inbound-parse webhook or an MTA pipe posts). */
const PARSED_EMAIL = {
  type: 'object',
  properties: {
    from: { type: 'string' },
    to: { type: 'string' },
    subject: { type: 'string' },
    text: { type: 'string' },
    html: { type: 'string' },
    date: { type: 'string' },
    message_id: { type: 'string' },
    in_reply_to: { type: 'string' },
    references: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
  },
  description: 'One of subject, text or html is required',
};
const RAW_EMAIL = { type: 'string', format: 'binary', description: 'The RFC 822 message as received' };

const EMAILS_PATH = {
  parameters: [
    { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' }, description: 'The email alert source id' },
    { name: 'secret', in: 'query', required: false, schema: { type: 'string' }, description: "The source's secret (or sign the raw body)" },
    { name: 'X-Taproot-Signature', in: 'header', required: false, schema: { type: 'string', pattern: '^sha256=[0-9a-fA-F]{64}$' }, description: "sha256=<hex HMAC-SHA256 of the raw body keyed with the source's secret>" },
  ],
  post: {
    operationId: 'ingestAlertEmail',
    summary: 'Hand an email to an email alert source: one alert per message (threaded replies per accept_threaded_emails)',
    tags: ['AlertSources'],
    security: [],
    requestBody: { required: true, content: { 'message/rfc822': { schema: RAW_EMAIL }, 'text/plain': { schema: RAW_EMAIL }, 'application/json': { schema: PARSED_EMAIL } } },
    responses: {
      '202': INBOUND_ACCEPTED,
      '401': errorsResponse('unknown source, or a missing or wrong signature or secret: nothing is stored'),
      '409': errorsResponse('the alert source is disabled: nothing is stored (code ALERT_SOURCE_DISABLED)'),
      '413': errorsResponse('body larger than 10 MB (raw) or 1 MB (JSON)'),
      '415': errorsResponse('request body is not message/rfc822, text/plain, application/json or application/vnd.api+json'),
      '422': errorsResponse('not an email, or not an email source (pointer: the offending field)'),
      '429': { description: 'more than 50 alerts a minute for this source', content: { 'application/json': { schema: { type: 'object', properties: { error: { type: 'string' } } } } } },
    },
  },
};

const RECEIPT_PATH = {
  get: {
    operationId: 'getReceipt',
    summary: 'Get a receipt: what became of an item sent to an inbound alert route',
    tags: ['Alerts'],
    parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'Receipt ID' }],
    responses: {
      '200': { description: 'receipt found', content: { 'application/json': { schema: { $ref: '#/components/schemas/receipt' } } } },
      '401': errorsResponse('unauthorized'),
      '403': errorsResponse('the caller may not read alerts'),
      '404': errorsResponse("no receipt with this id in the caller's organization"),
    },
  },
};

export const ALERT_SOURCE_ROUTES_OPENAPI = {
  schemas: { receipt: RECEIPT },
  paths: { '/v1/alert_sources/{id}/emails': EMAILS_PATH, '/v1/alerts/receipts/{id}': RECEIPT_PATH },
};
