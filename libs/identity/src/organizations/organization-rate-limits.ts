import type { EntityManager } from 'typeorm';
import type { OrganizationRateLimits } from '@taproot/auth';

/** A new value per limit: a count, `null` for the deployment default, or absent to keep it. */
export type RateLimitChange = Partial<OrganizationRateLimits>;

/**
 * Sets an organization's own read/write limits (spec, Limits: "higher limits are set through the
 * account manager"; here the operator's `taproot org limits`). Returns the stored values, or
 * null when the organization does not exist.
 */
export async function setOrganizationRateLimits(
  manager: EntityManager,
  organizationId: string,
  change: RateLimitChange,
): Promise<OrganizationRateLimits | null> {
  // Wrapped in a SELECT: TypeORM answers a bare UPDATE with [rows, count] instead of the rows.
  const rows = await manager.query(
    `WITH changed AS (UPDATE organizations
        SET rate_limit_reads_per_minute = CASE WHEN $2 THEN $3::integer ELSE rate_limit_reads_per_minute END,
            rate_limit_writes_per_minute = CASE WHEN $4 THEN $5::integer ELSE rate_limit_writes_per_minute END,
            updated_at = now()
      WHERE id::text = $1
      RETURNING rate_limit_reads_per_minute AS reads, rate_limit_writes_per_minute AS writes)
     SELECT * FROM changed`,
    [organizationId, 'readsPerMinute' in change, change.readsPerMinute ?? null, 'writesPerMinute' in change, change.writesPerMinute ?? null],
  );
  return toLimits(rows);
}

/** An organization's own limits (null fields: the deployment default), or null when it does not exist. */
export async function organizationRateLimits(manager: EntityManager, organizationId: string): Promise<OrganizationRateLimits | null> {
  return toLimits(
    await manager.query(
      'SELECT rate_limit_reads_per_minute AS reads, rate_limit_writes_per_minute AS writes FROM organizations WHERE id::text = $1',
      [organizationId],
    ),
  );
}

function toLimits([row]: { reads: number | null; writes: number | null }[]): OrganizationRateLimits | null {
  return row ? { readsPerMinute: row.reads, writesPerMinute: row.writes } : null;
}
