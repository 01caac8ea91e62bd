import { randomUUID } from 'node:crypto';
import type { Queryable } from '@taproot/json-api';

/**
 * The hosted API's built-in alert fields: every organization has one of each kind from the start
 * (migration 1732300002920 for existing organizations, the organization seeder for new ones).
 * Clients look them up by kind (`GET /v1/alert_fields?filter[kind]=title`, the Terraform
 * provider's alert-source example) and map them to templates in `alert_source_fields_attributes`;
 * at ingestion each fills the alert attribute of its kind (docs/alert-fields.md). They cannot be
 * renamed or deleted. Their slug is their kind.
 */
export const BUILT_IN_ALERT_FIELDS = [
  { kind: 'title', name: 'Title' },
  { kind: 'description', name: 'Description' },
  { kind: 'external_url', name: 'Source Link' },
  { kind: 'external_id', name: 'External ID' },
  { kind: 'state', name: 'State' },
] as const;

export type BuiltInAlertFieldKind = (typeof BUILT_IN_ALERT_FIELDS)[number]['kind'];

/**
 * Inserts the built-in fields the organizations lack, into the write table and its read model (no
 * event: nobody created them). A custom field that already took a kind's slug leaves the built-in
 * the slug `<kind>-built-in`. Idempotent: the unique index on (organization, kind) of built-ins
 * keeps one of each.
 */
export async function seedBuiltInAlertFields(db: Queryable, organizationIds: readonly string[], now: Date): Promise<void> {
  if (organizationIds.length === 0) return;
  for (const suffix of ['', '-built-in']) {
    const rows = organizationIds.flatMap((org) => BUILT_IN_ALERT_FIELDS.map((f) => [randomUUID(), org, f.name, `${f.kind}${suffix}`, f.kind]));
    await db.query(
      `INSERT INTO alert_fields (id, organization_id, name, slug, kind, created_at, updated_at)
       SELECT (r->>0)::uuid, (r->>1)::uuid, r->>2, r->>3, r->>4, $2, $2 FROM jsonb_array_elements($1::jsonb) r
       ON CONFLICT DO NOTHING`,
      [JSON.stringify(rows), now],
    );
  }
  // The read model takes the rows the write table holds (same ids).
  await db.query(
    `INSERT INTO alert_fields_read (id, organization_id, name, slug, kind, created_at, updated_at)
     SELECT id, organization_id, name, slug, kind, created_at, updated_at FROM alert_fields
     WHERE organization_id = ANY($1::uuid[]) AND kind <> 'custom' ON CONFLICT (id) DO NOTHING`,
    [organizationIds],
  );
}

/** The organization's built-in fields by id (their kind); built-ins never change, so callers may cache it. */
export async function builtInFieldsOf(db: Queryable, organizationId: string): Promise<Record<string, string>> {
  const rows = (await db.query(`SELECT id, kind FROM alert_fields WHERE organization_id = $1 AND kind <> 'custom'`, [organizationId])) as { id: string; kind: string }[];
  return Object.fromEntries(rows.map((r) => [r.id, r.kind]));
}
