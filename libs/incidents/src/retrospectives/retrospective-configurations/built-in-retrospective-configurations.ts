import { randomUUID } from 'node:crypto';
import type { Queryable } from '@taproot/json-api';
import { RETROSPECTIVE_CONFIGURATION_KINDS } from './retrospective-configuration.schema';

/**
 * Inserts the retrospective configurations the organizations lack, one of each kind naming
 * nothing, into the write table and its read model (no event: nobody created them). Seeded for
 * existing organizations by migration 1732300010800 and for new ones by the organization seeder.
 * `skip` is a millisecond before `mandatory`, so the list's default order (created_at) is the
 * reference's enum order. Idempotent: (organization, kind) is unique.
 */
export async function seedRetrospectiveConfigurations(db: Queryable, organizationIds: readonly string[], now: Date): Promise<void> {
  if (organizationIds.length === 0) return;
  const rows = organizationIds.flatMap((org) => RETROSPECTIVE_CONFIGURATION_KINDS.map((kind, i) => [randomUUID(), org, kind, new Date(now.getTime() + i).toISOString()]));
  await db.query(
    `INSERT INTO retrospective_configurations (id, organization_id, kind, severity_ids, group_ids, incident_type_ids, created_at, updated_at)
     SELECT (r->>0)::uuid, (r->>1)::uuid, r->>2, '{}', '{}', '{}', (r->>3)::timestamptz, (r->>3)::timestamptz FROM jsonb_array_elements($1::jsonb) r
     ON CONFLICT DO NOTHING`,
    [JSON.stringify(rows)],
  );
  await db.query('INSERT INTO retrospective_configurations_read SELECT * FROM retrospective_configurations WHERE organization_id = ANY($1::uuid[]) ON CONFLICT (id) DO NOTHING', [organizationIds]);
}
