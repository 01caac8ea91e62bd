import { randomUUID } from 'node:crypto';
import type { TestApi, TestResponse } from '../../src/testing';
import type { ApiWorld } from './api-world';
import { unique, type Attributes } from './json-api';

/** A webhook endpoint of the organization (`org`'s unless another token is given), posting to a receiver that is never called. */
export const newWebhookEndpoint = (w: ApiWorld, attributes: Attributes = {}, token?: string): Promise<TestResponse['body']> =>
  w.create('/v1/webhooks/endpoints', 'webhooks_endpoints', { name: unique('Receiver'), url: 'https://receiver.example.test/in', ...attributes }, token);

/** What a seeded delivery differs in; the rest is a delivery the dispatcher gave up on after 3 attempts. */
export interface SeededDelivery {
  status?: 'pending' | 'retrying' | 'delivered' | 'failed';
  event_type?: string;
  /** The exact body; by default a small envelope naming the delivery. */
  payload?: string;
  created_at?: string;
  delivered_at?: string | null;
  attempts?: number;
  error?: string | null;
  response_status?: number | null;
}

/**
 * A delivery row as the webhook dispatcher writes it (the API only reads deliveries and puts them
 * back in line, so tests of the API seed them): its id.
 */
export async function seedDelivery(api: TestApi, organizationId: string, endpointId: string, d: SeededDelivery = {}): Promise<string> {
  const id = randomUUID();
  const at = d.created_at ?? new Date().toISOString();
  const eventType = d.event_type ?? 'incident.created';
  await api.runtime.dataSource.query(
    `INSERT INTO webhooks_deliveries (id, organization_id, endpoint_id, event_id, event_type, payload, status, attempts, next_attempt_at, response_status, response_body, error, last_attempt_at, delivered_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'body', $11, $12, $13, $12, $12)`,
    [
      id,
      organizationId,
      endpointId,
      randomUUID(),
      eventType,
      d.payload ?? JSON.stringify({ event: { id, type: eventType } }),
      d.status ?? 'failed',
      d.attempts ?? 3,
      d.status === 'pending' ? new Date(Date.now() + 60_000).toISOString() : null,
      'response_status' in d ? d.response_status : 500,
      'error' in d ? d.error : 'answered 500',
      at,
      d.delivered_at ?? null,
    ],
  );
  return id;
}
