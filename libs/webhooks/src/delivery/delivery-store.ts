import type { DomainEvent } from '@taproot/messaging';
import type { DataSource, EntityManager } from 'typeorm';
import { webhookEventTypeOf, webhookPayload } from './webhook-events';

/** A delivery this process holds the lease of, with what an attempt needs of its endpoint. */
export interface LeasedDelivery {
  id: string;
  organization_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  payload: string;
  /** `pending`: not attempted since it was made or redelivered; an attempt now starts its retry window. */
  status: 'pending' | 'retrying' | 'delivered' | 'failed';
  attempts: number;
  first_attempt_at: Date | null;
  /** The lease: the attempt is this process's until then; its outcome is recorded only while the row still carries it. */
  leased_until: Date;
  url: string;
  secret: string;
  custom_headers: { name: string; value: string }[];
  enabled: boolean;
}

/**
 * The leased rows with their endpoint (`leased`: a data-modifying CTE returning deliveries);
 * `payload`: its column, or NULL when the caller has the bodies already.
 */
const withEndpoints = (leased: string, payload = 'l.payload') => `WITH leased AS (${leased})
  SELECT l.id, l.organization_id, l.endpoint_id, l.event_id, l.event_type, ${payload} AS payload, l.status, l.attempts, l.first_attempt_at, l.leased_until,
         e.url, e.secret, e.custom_headers, e.enabled
    FROM leased l JOIN webhooks_endpoints e ON e.id = l.endpoint_id AND e.organization_id = l.organization_id`;

const FAN_OUT = withEndpoints(`
  INSERT INTO webhooks_deliveries (id, organization_id, endpoint_id, event_id, event_type, payload, next_attempt_at, leased_until, created_at, updated_at)
  SELECT gen_random_uuid(), e.organization_id, e.id, v.event_id, v.event_type, v.payload, $2, $2, $3, $3
    FROM json_to_recordset($1::json) AS v(event_id uuid, organization_id uuid, event_type text, payload text)
    JOIN webhooks_endpoints e ON e.organization_id = v.organization_id AND e.enabled AND (cardinality(e.event_types) = 0 OR v.event_type = ANY(e.event_types))
  ON CONFLICT (endpoint_id, event_id) DO NOTHING
  RETURNING *`, 'NULL');

/**
 * Makes the deliveries of a batch of consumed events: one row per event and enabled endpoint of
 * its organization subscribed to its webhook type (no event types: every type), in one statement
 * for the whole batch (the endpoints found and the rows inserted together; a row that exists is
 * left alone, so an event consumed again makes nothing). The rows are made leased to this process
 * until `leasedUntil` and due then, so the caller sends them at once without claiming them again,
 * and another replica takes them when the lease ends if this process could not.
 */
export async function fanOut(manager: EntityManager, events: readonly DomainEvent[], now: Date, leasedUntil: Date): Promise<LeasedDelivery[]> {
  const delivered = events.flatMap((event) => {
    const type = webhookEventTypeOf(event);
    return type ? [{ event, type }] : [];
  });
  if (delivered.length === 0) return [];
  // Built once per event, whatever the number of its endpoints, and not read back.
  const payloads = new Map(delivered.map((d) => [d.event.id, webhookPayload(d.event, d.type)]));
  // One JSON parameter, not an array per column: JSON.stringify escapes the bodies natively,
  // where pg escapes each array element with two regular expressions.
  const rows: LeasedDelivery[] = await manager.query(FAN_OUT, [
    JSON.stringify(delivered.map((d) => ({ event_id: d.event.id, organization_id: d.event.organization_id, event_type: d.type, payload: payloads.get(d.event.id) }))),
    leasedUntil,
    now,
  ]);
  for (const row of rows) row.payload = payloads.get(row.event_id)!;
  return rows;
}

const CLAIM_DUE = withEndpoints(`
  UPDATE webhooks_deliveries SET leased_until = $2, next_attempt_at = $2
   WHERE id IN (SELECT id FROM webhooks_deliveries
                 WHERE next_attempt_at <= $1 AND (leased_until IS NULL OR leased_until <= $1)
                 ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
  RETURNING *`);

/**
 * Leases up to `limit` due deliveries of every organization (a retry whose time came, a redelivery,
 * a row whose previous lease ran out) to this process until `leasedUntil`. SKIP LOCKED: replicas
 * claiming together take different rows, so each attempt has one owner. A leased row is due again
 * when its lease ends, in case its owner dies before recording the attempt.
 */
export function claimDue(dataSource: DataSource, now: Date, leasedUntil: Date, limit: number): Promise<LeasedDelivery[]> {
  return dataSource.query(CLAIM_DUE, [now, leasedUntil, limit]);
}

/** What became of a leased delivery: an attempt's result, or settled without one. */
export interface DeliveryRecord {
  delivery: LeasedDelivery;
  status: 'delivered' | 'failed' | 'retrying';
  /** False when settled without sending (its endpoint disabled): the attempt count and last answer stay. */
  attempted: boolean;
  at: Date;
  firstAttemptAt: Date | null;
  nextAttemptAt: Date | null;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
}

/**
 * Text as the JSON parameter can carry it into a text column: a lone surrogate or a NUL would have
 * PostgreSQL refuse the whole flush, again at every retry, so they become U+FFFD.
 */
const storable = (text: string | null) => text?.toWellFormed().replaceAll('\u0000', '\uFFFD') ?? null;

/**
 * Records a flush of outcomes in one statement. A row is written only while it still carries the
 * lease its outcome was made under: one whose lease ran out and that another process claimed is
 * that process's to record. The outcomes go as one JSON parameter (times as ISO strings), which
 * costs less to build and read than an array per column.
 */
export async function recordDeliveries(manager: EntityManager, records: readonly DeliveryRecord[], now: Date): Promise<void> {
  await manager.query(
    `UPDATE webhooks_deliveries d SET
        status = v.status,
        attempts = d.attempts + CASE WHEN v.attempted THEN 1 ELSE 0 END,
        next_attempt_at = v.next_attempt_at,
        leased_until = NULL,
        first_attempt_at = v.first_attempt_at,
        last_attempt_at = CASE WHEN v.attempted THEN v.at ELSE d.last_attempt_at END,
        response_status = CASE WHEN v.attempted THEN v.response_status ELSE d.response_status END,
        response_body = CASE WHEN v.attempted THEN v.response_body ELSE d.response_body END,
        error = v.error,
        delivered_at = CASE WHEN v.status = 'delivered' THEN v.at ELSE d.delivered_at END,
        updated_at = $2
       FROM json_to_recordset($1::json) AS v(id uuid, organization_id uuid, lease timestamptz, status text, attempted boolean, at timestamptz,
                                              first_attempt_at timestamptz, next_attempt_at timestamptz, response_status int, response_body text, error text)
      WHERE d.id = v.id AND d.organization_id = v.organization_id AND d.leased_until = v.lease`,
    [
      JSON.stringify(
        records.map((r) => ({
          id: r.delivery.id,
          organization_id: r.delivery.organization_id,
          lease: r.delivery.leased_until,
          status: r.status,
          attempted: r.attempted,
          at: r.at,
          first_attempt_at: r.firstAttemptAt,
          next_attempt_at: r.nextAttemptAt,
          response_status: r.responseStatus,
          response_body: storable(r.responseBody),
          error: storable(r.error),
        })),
      ),
      now,
    ],
  );
}

/** An endpoint whose every attempt failed since `failing_since`. */
export interface FailingEndpoint {
  id: string;
  organization_id: string;
  failing_since: Date;
}

/** An endpoint's latest attempt of a flush: `failedAt` null when it succeeded. */
export interface EndpointOutcome {
  organizationId: string;
  failedAt: Date | null;
}

/**
 * Keeps each endpoint's `failing_since` (docs/webhook-delivery.md, "Disabling"): cleared by a
 * success, set by the first failure after one; written only when that changes, in the write table
 * and its read model together. Bookkeeping of the dispatcher, not a change of the endpoint: no
 * event, `updated_at` unchanged. Answers the enabled endpoints among `outcomes` (by endpoint id)
 * failing since `cutoff` or earlier, to be disabled.
 */
export async function recordEndpointHealth(manager: EntityManager, outcomes: ReadonlyMap<string, EndpointOutcome>, cutoff: Date): Promise<FailingEndpoint[]> {
  if (outcomes.size === 0) return [];
  const rows = (await manager.query(
    `WITH changed AS (
       UPDATE webhooks_endpoints e SET failing_since = CASE WHEN v.failed_at IS NULL THEN NULL ELSE COALESCE(e.failing_since, v.failed_at) END
         FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[]) AS v(id, organization_id, failed_at)
        WHERE e.id = v.id AND e.organization_id = v.organization_id
          AND ((v.failed_at IS NULL) = (e.failing_since IS NOT NULL) OR (v.failed_at IS NOT NULL AND e.enabled AND e.failing_since <= $4))
        RETURNING e.id, e.organization_id, e.failing_since, e.enabled),
     read AS (
       UPDATE webhooks_endpoints_read r SET failing_since = c.failing_since FROM changed c
        WHERE r.id = c.id AND r.organization_id = c.organization_id AND r.failing_since IS DISTINCT FROM c.failing_since)
     SELECT * FROM changed`,
    [[...outcomes.keys()], [...outcomes.values()].map((o) => o.organizationId), [...outcomes.values()].map((o) => o.failedAt), cutoff],
  )) as (FailingEndpoint & { enabled: boolean })[];
  return rows.filter((r) => r.enabled && r.failing_since !== null && r.failing_since.getTime() <= cutoff.getTime());
}
