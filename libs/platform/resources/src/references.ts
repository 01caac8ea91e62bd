import { JsonApiError, type Queryable } from '@taproot/json-api';
import type { Row, WriteContext } from './resource-definition';

/** Records of the organization an attribute may name, through the owning context's public lookup. */
export interface Reference {
  noun: string;
  code: string;
  existing(db: Queryable, organizationId: string, ids: readonly string[]): Promise<Set<string>>;
}

/**
 * The ids `attributes` sends for `references` must name records of the caller's organization
 * (read in the command's transaction): one 422 naming each unknown id, e.g. `source.pointer`
 * `/data/attributes/assigned_to_group_ids/1`. Lists come back lower-cased and without repeats.
 */
export async function checkReferenced(ctx: WriteContext, attributes: Row, references: Record<string, Reference>): Promise<Row> {
  const checked = { ...attributes };
  const issues: { attribute: string; detail: string; code: string }[] = [];
  for (const [attribute, reference] of Object.entries(references)) {
    const value = attributes[attribute];
    if (value == null) continue;
    const ids = Array.isArray(value) ? [...new Set(value.map((id) => String(id).toLowerCase()))] : [String(value)];
    const found = await reference.existing(ctx.manager, ctx.organizationId, ids);
    for (const [i, id] of ids.entries()) {
      if (found.has(id)) continue;
      const [pointer, label] = Array.isArray(value) ? [`${attribute}/${i}`, `${attribute}[${i}]`] : [attribute, attribute];
      issues.push({ attribute: pointer, detail: `${label}: ${id} is not a ${reference.noun} of this organization`, code: reference.code });
    }
    if (Array.isArray(value)) checked[attribute] = ids;
  }
  if (issues.length) throw JsonApiError.invalidAttributes(issues);
  return checked;
}
