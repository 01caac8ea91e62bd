import { defineResource } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';
import { WEBHOOK_EVENT_TYPES } from '../webhook-event-types';

/** A delivery's `status` as served: the hosted API's words (its SDK parses these); the dispatcher's own are mapped by the read view. */
const SERVED_STATUSES = ['pending', 'success', 'failed'] as const;

const EQUALITY = ['eq', 'not_eq', 'in', 'not_in'] as const;

/**
 * A delivery of one event to one endpoint (reference `webhooks_delivery`; docs/webhooks.md). The
 * dispatcher writes the table; the API reads it through a view (`webhooks_deliveries_read`, the
 * status in the hosted API's words) and puts a delivery back in line
 * (`RedeliverWebhookDeliveryCommand`). Listed under its endpoint and across endpoints, newest first.
 */
export const webhooksDeliverySchema = defineResource({
  type: 'webhooks_deliveries',
  singular: 'webhooks_delivery',
  path: '/v1/webhooks/deliveries',
  parent: { path: '/v1/webhooks/endpoints', param: 'endpoint_id', attribute: 'endpoint_id', table: 'webhooks_endpoints', flatList: true, onParentDelete: 'cascade' },
  readTable: 'webhooks_deliveries_read',
  defaultSort: '-created_at',
  cursor: true,
  operations: ['list', 'get'],
  attributes: {
    endpoint_id: { type: 'string', format: 'uuid', required: true, writable: false, filter: EQUALITY, description: 'The endpoint the event is delivered to' },
    event_id: { type: 'string', format: 'uuid', required: true, writable: false, filter: EQUALITY, description: 'The event delivered: the webhook-id header, the same on every attempt' },
    event_type: { type: 'string', enum: WEBHOOK_EVENT_TYPES, required: true, writable: false, filter: EQUALITY, description: 'The webhook event type' },
    payload: { type: 'string', required: true, writable: false, description: 'The exact body sent (the same on every attempt)' },
    status: {
      type: 'string',
      enum: SERVED_STATUSES,
      required: true,
      writable: false,
      filter: EQUALITY,
      description: 'pending: waiting for its first attempt or a retry (see attempts, error, next_attempt_at); success: a 2xx answer came; failed: given up (retries exhausted, 410 Gone, or its endpoint disabled)',
    },
    response_status: { type: 'integer', nullable: true, writable: false, filter: true, description: "The HTTP status of the last attempt's answer; null before one or when none came" },
    attempts: { type: 'integer', required: true, writable: false, description: 'Attempts made' },
    error: { type: 'string', nullable: true, writable: false, description: 'Why the last attempt failed, in words; null after a success' },
    last_attempt_at: { type: 'date-time', nullable: true, writable: false, filter: true, description: 'When the last attempt started' },
    next_attempt_at: { type: 'date-time', nullable: true, writable: false, description: 'When the next attempt is due; null once settled' },
    delivered_at: { type: 'date-time', nullable: true, writable: false, filter: true, description: 'When a 2xx answer came' },
  },
});

/** A delivery put back in line by a caller; payload = the delivery as the API answers it. */
export const WEBHOOKS_DELIVERY_REDELIVERED = 'webhooks_delivery.redelivered';

export const webhooksDeliveryDefinition: ResourceDefinition = {
  schema: webhooksDeliverySchema,
  context: 'webhooks',
  table: 'webhooks_deliveries',
  permission: { family: 'webhooks' },
};
