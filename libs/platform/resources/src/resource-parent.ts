import { collectionPath, isIntegerId, isUuid, JsonApiError, type ListFilter, type ParentDef, type Queryable, type ResourceSchema } from '@taproot/json-api';
import { quoteIdent } from '@taproot/persistence';

/**
 * The id of the parent record a nested route names (`{incident_role_id}`), in the caller's
 * organization; another organization's parent answers 404 exactly like a missing one. `lock`
 * (inside a write) keeps the parent from being deleted until the transaction ends.
 */
export async function findParent(db: Queryable, parent: ParentDef, organizationId: string, raw: string, lock = false): Promise<string> {
  if (parent.integerIds ? isIntegerId(raw) : isUuid(raw)) {
    const rows = (await db.query(
      `SELECT id FROM ${quoteIdent(parent.table)} WHERE id = $1 AND organization_id = $2${lock ? ' FOR KEY SHARE' : ''}`,
      [raw, organizationId],
    )) as { id: string }[];
    if (rows.length) return String(rows[0].id);
  }
  throw JsonApiError.notFound(parent.path.split('/').pop() ?? parent.path, raw);
}

/**
 * `findParent` for many raw ids in one query: each raw id mapped to the parent's id; the first
 * that is not a parent in the organization answers 404, as `findParent` would.
 */
export async function findParents(db: Queryable, parent: ParentDef, organizationId: string, raws: readonly string[], lock = false): Promise<Map<string, string>> {
  const wanted = [...new Set(raws)];
  const valid = wanted.filter((raw) => (parent.integerIds ? isIntegerId(raw) : isUuid(raw)));
  const rows = valid.length
    ? ((await db.query(
        `SELECT id FROM ${quoteIdent(parent.table)} WHERE id = ANY($1::${parent.integerIds ? 'bigint' : 'uuid'}[]) AND organization_id = $2${lock ? ' FOR KEY SHARE' : ''}`,
        [valid, organizationId],
      )) as { id: string }[])
    : [];
  const found = new Set(rows.map((r) => String(r.id)));
  const ids = new Map<string, string>();
  for (const raw of wanted) {
    const id = parent.integerIds ? String(Number(raw)) : raw.toLowerCase();
    if (!valid.includes(raw) || !found.has(id)) throw JsonApiError.notFound(parent.path.split('/').pop() ?? parent.path, raw);
    ids.set(raw, id);
  }
  return ids;
}

/** The list condition of a nested collection: the records of that parent only. */
export function parentScope(parent: ParentDef, parentId: string): ListFilter {
  return { attribute: parent.attribute, operator: 'eq', values: [parentId], parameter: parent.param };
}

/** The concrete collection path of a nested list (its page links), the parent as the client named it. */
export function nestedCollectionPath(schema: ResourceSchema, raw: string): string {
  return collectionPath(schema).replace(`{${schema.parent?.param}}`, encodeURIComponent(raw));
}
