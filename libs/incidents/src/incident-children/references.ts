import { existingCatalogIds } from '@taproot/catalog';
import { existingTeamIds, existingUserIds, userRecords } from '@taproot/identity';
import { existingIds, JsonApiError, type Queryable } from '@taproot/json-api';
import type { Row, WriteContext } from '@taproot/resources';
import { IncidentsErrorCode } from '../errors';

/** Records of the organization an attribute may name, through the owning context's public lookup. */
export interface Reference {
  noun: string;
  code: string;
  existing(db: Queryable, organizationId: string, ids: readonly string[]): Promise<Set<string>>;
}

export const USERS: Reference = { noun: 'user', code: IncidentsErrorCode.UnknownUser, existing: existingUserIds };
export const TEAMS: Reference = { noun: 'team', code: IncidentsErrorCode.UnknownReference, existing: existingTeamIds };
export const SUB_STATUSES: Reference = { noun: 'sub-status', code: IncidentsErrorCode.UnknownReference, existing: (db, org, ids) => existingIds(db, 'sub_statuses', org, ids) };
export const SERVICES: Reference = { noun: 'service', code: IncidentsErrorCode.UnknownReference, existing: (db, org, ids) => existingCatalogIds(db, org, 'services', ids) };
export const FUNCTIONALITIES: Reference = { noun: 'functionality', code: IncidentsErrorCode.UnknownReference, existing: (db, org, ids) => existingCatalogIds(db, org, 'functionalities', ids) };

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

/**
 * A user as the reference's `user_flat_response` shows one (`/v1/users` attributes, integer
 * `id`), as they are now; null for no user (a key without one) or one no longer there.
 */
export async function flatUser(ctx: WriteContext, userId: string | number | null | undefined): Promise<Row | null> {
  if (userId == null) return null;
  const user = (await userRecords(ctx.manager, ctx.organizationId, [String(userId)])).get(String(userId));
  return user ? { id: Number(user.id), ...user.attributes } : null;
}
