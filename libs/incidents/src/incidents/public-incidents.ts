import type { Queryable } from '@taproot/json-api';

/** What a public status page may show of an incident (docs/status-pages.md, Public page). */
export interface PublicIncident {
  id: string;
  /** The public title when one is set, the title otherwise. */
  title: string;
  /** A maintenance's planned window (null for an incident or an unplanned one). */
  scheduledFor: Date | null;
  scheduledUntil: Date | null;
}

/**
 * The organization's incidents among `ids` as a public status page shows them, by id. Private
 * incidents are left out: their updates never reach a public page, whatever page they name.
 */
export async function publicIncidents(db: Queryable, organizationId: string, ids: readonly string[]): Promise<Map<string, PublicIncident>> {
  if (ids.length === 0) return new Map();
  const rows = (await db.query(
    `SELECT id, COALESCE(public_title, title) AS title, scheduled_for, scheduled_until
       FROM incidents_read WHERE organization_id = $1 AND id = ANY($2::uuid[]) AND NOT private`,
    [organizationId, ids],
  )) as { id: string; title: string; scheduled_for: Date | null; scheduled_until: Date | null }[];
  return new Map(rows.map((r) => [r.id, { id: r.id, title: r.title, scheduledFor: r.scheduled_for, scheduledUntil: r.scheduled_until }]));
}
