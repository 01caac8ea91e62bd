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

/** The list condition of a nested collection: the records of that parent only. */
export function parentScope(parent: ParentDef, parentId: string): ListFilter {
  return { attribute: parent.attribute, operator: 'eq', values: [parentId], parameter: parent.param };
}

/** The concrete collection path of a nested list (its page links), the parent as the client named it. */
export function nestedCollectionPath(schema: ResourceSchema, raw: string): string {
  return collectionPath(schema).replace(`{${schema.parent?.param}}`, encodeURIComponent(raw));
}
