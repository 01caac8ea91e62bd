import { documentContent, errorsResponse, resourceObjectSchema } from '@taproot/json-api';

const cidrs = (description: string) => ({ type: 'array', description, items: { type: 'string' } });

/** `GET /v1/ip_ranges` in `/v1/openapi.json`: the hosted API's `getIpRanges` and `ip_ranges_response`. */
export const IP_RANGES_OPENAPI = {
  schemas: {
    ip_ranges: {
      type: 'object',
      properties: {
        integrations_ipv4: cidrs('IPv4 ranges integrations (mail, SMS, chat) are called from.'),
        integrations_ipv6: cidrs('IPv6 ranges integrations (mail, SMS, chat) are called from.'),
        webhooks_ipv4: cidrs('IPv4 ranges webhooks are delivered from.'),
        webhooks_ipv6: cidrs('IPv6 ranges webhooks are delivered from.'),
      },
      required: ['integrations_ipv4', 'integrations_ipv6', 'webhooks_ipv4', 'webhooks_ipv6'],
    },
    ip_ranges_response: {
      type: 'object',
      properties: {
        data: resourceObjectSchema('ip_ranges', 'ip_ranges', { idDescription: 'Unique ID of the ip_ranges' }),
      },
      required: ['data'],
    },
  },
  paths: {
    '/v1/ip_ranges': {
      get: {
        operationId: 'getIpRanges',
        summary: 'Get IP ranges',
        description: "The addresses outgoing webhooks and integration calls come from: the operator's EGRESS_IP_RANGES, split by family (empty lists when unset).",
        tags: ['IpRanges'],
        responses: { '200': { description: 'ip_ranges found', ...documentContent('ip_ranges_response') }, '401': errorsResponse('unauthorized') },
      },
    },
  },
};
