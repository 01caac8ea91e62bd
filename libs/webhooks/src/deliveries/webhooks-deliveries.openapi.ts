import { documentContent, errorsResponse } from '@taproot/json-api';

/** The deliveries' route beyond their reads in `/v1/openapi.json` (the reference's `deliverWebhooksDelivery`). */
export const WEBHOOKS_DELIVERIES_OPENAPI = {
  paths: {
    '/v1/webhooks/deliveries/{id}/deliver': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
      post: {
        operationId: 'deliverWebhooksDelivery',
        summary: 'Retries a webhook delivery',
        description: 'Puts the delivery back in line (status pending, due now): the dispatcher sends it again with the same body and webhook-id. Attempts and the last error stay until the next attempt.',
        tags: ['WebhooksDeliveries'],
        responses: {
          '200': { description: 'webhooks_delivery put back in line', ...documentContent('webhooks_delivery_response') },
          '401': errorsResponse('unauthorized'),
          '403': errorsResponse('the caller may not update webhooks'),
          '404': errorsResponse('resource not found'),
          '422': errorsResponse("the delivery's endpoint is disabled"),
        },
      },
    },
  },
};
