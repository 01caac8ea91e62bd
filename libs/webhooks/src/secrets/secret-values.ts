import type { Queryable } from '@taproot/json-api';

/**
 * The values of the organization's secrets of these names, by name (a name without a secret is
 * left out): the dispatcher renders custom headers with them at send time (`renderHeaderValue`).
 * Read from the write table, the only place a value is kept (answers, events and the read model
 * hold REDACTED).
 */
export async function secretValues(db: Queryable, organizationId: string, names: readonly string[]): Promise<Map<string, string>> {
  if (names.length === 0) return new Map();
  const rows = (await db.query('SELECT name, secret FROM secrets WHERE organization_id = $1 AND name = ANY($2::text[]) AND secret IS NOT NULL', [organizationId, [...new Set(names)]])) as {
    name: string;
    secret: string;
  }[];
  return new Map(rows.map((row) => [row.name, row.secret]));
}
