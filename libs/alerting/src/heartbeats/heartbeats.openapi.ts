import { errorsResponse } from '@taproot/json-api';
import type { InboundMediaTypes } from '@taproot/runtime';

const HEARTBEAT_ID = { name: 'heartbeat_id', in: 'path', required: true, schema: { type: 'string' } };
const ID = { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
const SECRET = { name: 'secret', in: 'query', required: false, schema: { type: 'string' }, description: "The heartbeat's secret, for senders that cannot set Authorization: Bearer <secret>" };
const PINGED = { '204': { description: 'pinged: the heartbeat is active for another interval (an expiry alert is resolved)' } };
const publicPing = (operationId: string) => ({
  operationId,
  summary: "Ping a heartbeat through its ping_url, with its secret as bearer token",
  tags: ['Heartbeats'],
  security: [],
  parameters: [SECRET],
  responses: { ...PINGED, '401': errorsResponse('unknown heartbeat or wrong secret') },
});

/** Heartbeats' routes beyond CRUD in `/v1/openapi.json` (docs/heartbeats.md). */
export const HEARTBEATS_OPENAPI = {
  schemas: {},
  paths: {
    '/v1/heartbeats/{heartbeat_id}/ping': {
      parameters: [HEARTBEAT_ID],
      post: {
        operationId: 'pingHeartbeat',
        summary: 'Ping a heartbeat',
        tags: ['Heartbeats'],
        responses: { ...PINGED, '401': errorsResponse('unauthorized'), '403': errorsResponse('the caller may not update heartbeats'), '404': errorsResponse('resource not found') },
      },
    },
    '/v1/heartbeats/{id}/ping_heartbeat': { parameters: [ID], post: publicPing('pingHeartbeatBySecret'), get: publicPing('pingHeartbeatBySecretGet') },
    '/v1/heartbeat_emails': {
      post: {
        operationId: 'pingHeartbeatByEmail',
        summary: "A mail relay hands over mail sent to a heartbeat's email_address: a ping",
        tags: ['Heartbeats'],
        security: [],
        parameters: [{ name: 'recipient', in: 'query', required: false, schema: { type: 'string' }, description: 'The envelope recipient, when the relay knows it' }],
        requestBody: {
          required: true,
          content: { 'message/rfc822': { schema: { type: 'string' } }, 'application/json': { schema: { type: 'object', properties: { to: { type: 'string' }, from: { type: 'string' }, subject: { type: 'string' }, text: { type: 'string' } } } } },
        },
        responses: { ...PINGED, '401': errorsResponse('no heartbeat has a recipient address'), '422': errorsResponse('not an email') },
      },
    },
  },
};

const EMAIL_URL = /^\/v1\/heartbeat_emails(?:[?#]|$)/;
/** What a mail relay posts (the alert sources' raw media types are parsed as bytes already). */
const EMAIL_MEDIA_TYPES = ['application/json', 'message/rfc822', 'text/plain'];

/** The context's inbound media types with the heartbeats' mail route's added. */
export function withHeartbeatEmails(inbound: InboundMediaTypes): InboundMediaTypes {
  return { ...inbound, accepts: (url, mediaType) => inbound.accepts(url, mediaType) || (EMAIL_URL.test(url) && mediaType !== undefined && EMAIL_MEDIA_TYPES.includes(mediaType)) };
}
