import { JsonApiError, type Queryable } from '@taproot/json-api';
import type { Row, WriteContext } from './resource-definition';

/** Records of the organization an attribute may name, through the owning context's public lookup. */
export interface Reference {
  noun: string;
  code: string;
  existing(db: Queryable, organizationId: string, ids: readonly string[]): Promise<Set<string>>;
}

/**
 * Records an attribute may name by their id or by another key people type (a slug), through the
 * owning context's public lookup: each value that names one, to that record's id, which is stored.
 */
export interface KeyedReference {
  noun: string;
  code: string;
  resolve(db: Queryable, organizationId: string, values: readonly string[]): Promise<Map<string, string>>;
}

/** The ids `reference` finds among `values`, each to itself; a keyed reference's values to their ids. */
async function idsNamed(ctx: WriteContext, reference: Reference | KeyedReference, values: string[]): Promise<Map<string, string>> {
  if ('resolve' in reference) return reference.resolve(ctx.manager, ctx.organizationId, values);
  return new Map([...(await reference.existing(ctx.manager, ctx.organizationId, values))].map((id) => [id, id]));
}

/**
 * The ids `attributes` sends for `references` must name records of the caller's organization
 * (read in the command's transaction): one 422 naming each unknown id, e.g. `source.pointer`
 * `/data/attributes/assigned_to_group_ids/1`. Lists come back lower-cased and without repeats, a
 * keyed reference's values as the ids they name.
 */
export async function checkReferenced(ctx: WriteContext, attributes: Row, references: Record<string, Reference | KeyedReference>): Promise<Row> {
  const checked = { ...attributes };
  const issues: { attribute: string; detail: string; code: string }[] = [];
  for (const [attribute, reference] of Object.entries(references)) {
    const value = attributes[attribute];
    if (value == null) continue;
    const ids = Array.isArray(value) ? [...new Set(value.map((id) => String(id).toLowerCase()))] : [String(value)];
    const found = await idsNamed(ctx, reference, ids);
    for (const id of ids) {
      if (found.has(id)) continue;
      // The position the client sent it at (repeats before it do not shift it).
      const i = Array.isArray(value) ? value.findIndex((v) => String(v).toLowerCase() === id) : -1;
      const [pointer, label] = i >= 0 ? [`${attribute}/${i}`, `${attribute}[${i}]`] : [attribute, attribute];
      issues.push({ attribute: pointer, detail: `${label}: ${id} is not a ${reference.noun} of this organization`, code: reference.code });
    }
    if (Array.isArray(value)) checked[attribute] = [...new Set(ids.map((id) => found.get(id)))];
    else if ('resolve' in reference) checked[attribute] = found.get(ids[0]);
  }
  if (issues.length) throw JsonApiError.invalidAttributes(issues);
  return checked;
}
