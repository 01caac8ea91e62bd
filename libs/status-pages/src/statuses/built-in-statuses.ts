import { randomUUID } from 'node:crypto';
import type { Queryable } from '@taproot/json-api';

/**
 * The component statuses every organization's status pages show (`GET /v1/statuses`), from best
 * to worst and then maintenance: seeded for existing organizations by migration 1732300009010 and
 * for new ones by the organization seeder. Read-only: components name them by slug.
 */
export const BUILT_IN_STATUSES = [
  { slug: 'operational', name: 'Operational', color: '#16A34A', description: 'The component works as expected' },
  { slug: 'degraded_performance', name: 'Degraded Performance', color: '#CA8A04', description: 'The component works, slower or less reliably than usual' },
  { slug: 'partial_outage', name: 'Partial Outage', color: '#EA580C', description: 'Part of the component does not work for some users' },
  { slug: 'major_outage', name: 'Major Outage', color: '#DC2626', description: 'The component does not work' },
  { slug: 'under_maintenance', name: 'Under Maintenance', color: '#2563EB', description: 'The component is in planned maintenance' },
] as const;

export type BuiltInStatusSlug = (typeof BUILT_IN_STATUSES)[number]['slug'];

/**
 * Inserts the statuses the organizations lack into the write table and its read model (no event:
 * nobody created them). Each status is a millisecond after the one before, so the list's default
 * order (created_at) is the order above. Idempotent: (organization, slug) is unique.
 */
export async function seedBuiltInStatuses(db: Queryable, organizationIds: readonly string[], now: Date): Promise<void> {
  if (organizationIds.length === 0) return;
  const rows = organizationIds.flatMap((org) => BUILT_IN_STATUSES.map((s, i) => [randomUUID(), org, s.slug, s.name, s.color, s.description, new Date(now.getTime() + i).toISOString()]));
  await db.query(
    `INSERT INTO statuses (id, organization_id, slug, name, color, description, enabled, created_at, updated_at)
     SELECT (r->>0)::uuid, (r->>1)::uuid, r->>2, r->>3, r->>4, r->>5, true, (r->>6)::timestamptz, (r->>6)::timestamptz FROM jsonb_array_elements($1::jsonb) r
     ON CONFLICT DO NOTHING`,
    [JSON.stringify(rows)],
  );
  await db.query(
    `INSERT INTO statuses_read SELECT * FROM statuses WHERE organization_id = ANY($1::uuid[]) ON CONFLICT (id) DO NOTHING`,
    [organizationIds],
  );
}
