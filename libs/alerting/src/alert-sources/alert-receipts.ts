import { randomUUID } from 'node:crypto';
import { isUuid, type Queryable } from '@taproot/json-api';

/** Reference `receipt.reason` values this API gives (`validation_error` items are refused whole with a 422 and get none). */
export type ReceiptReason = 'no_route_matched' | 'deduplicated' | 'suppressed';

/**
 * What became of one item an inbound route processed (reference `receipt`, docs/alert-sources.md).
 * Ingestion is synchronous, so a stored receipt is final: `done` or `failed`, never `pending`.
 */
export interface Receipt {
  state: 'done' | 'failed';
  reason?: ReceiptReason;
  resource_type?: 'Alert';
  resource_id?: string;
}

export const alertReceipt = (state: Receipt['state'], alertId: string, reason?: ReceiptReason): Receipt => ({ state, ...(reason ? { reason } : {}), resource_type: 'Alert', resource_id: alertId });

/** Stores the receipt of one item of `alertSourceId`'s; its id goes back to the sender. */
export async function recordReceipt(db: Queryable, organizationId: string, alertSourceId: string, receipt: Receipt, now: Date): Promise<Receipt & { id: string }> {
  const id = randomUUID();
  await db.query(
    `INSERT INTO alert_receipts (id, organization_id, alert_source_id, state, reason, resource_type, resource_id, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)`,
    [id, organizationId, alertSourceId, receipt.state, receipt.reason ?? null, receipt.resource_type ?? null, receipt.resource_id ?? null, now],
  );
  return { id, ...receipt };
}

/** The organization's receipt, or undefined (another organization's id and a malformed id alike). */
export async function findReceipt(db: Queryable, organizationId: string, id: string): Promise<Receipt | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = (await db.query('SELECT state, reason, resource_type, resource_id FROM alert_receipts WHERE organization_id = $1 AND id = $2', [organizationId, id])) as Record<string, string | null>[];
  if (!row) return undefined;
  // Absent members are left out rather than null (reference: "present when set").
  return Object.fromEntries(Object.entries(row).filter(([, value]) => value !== null)) as unknown as Receipt;
}
