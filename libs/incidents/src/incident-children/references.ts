import { existingCatalogIds } from '@taproot/catalog';
import { existingTeamIds, existingUserIds, userRecords } from '@taproot/identity';
import { existingIds } from '@taproot/json-api';
import { type Reference, type Row, type WriteContext } from '@taproot/resources';
import { IncidentsErrorCode } from '../errors';

export const USERS: Reference = { noun: 'user', code: IncidentsErrorCode.UnknownUser, existing: existingUserIds };
export const TEAMS: Reference = { noun: 'team', code: IncidentsErrorCode.UnknownReference, existing: existingTeamIds };
export const SUB_STATUSES: Reference = { noun: 'sub-status', code: IncidentsErrorCode.UnknownReference, existing: (db, org, ids) => existingIds(db, 'sub_statuses', org, ids) };
export const SERVICES: Reference = { noun: 'service', code: IncidentsErrorCode.UnknownReference, existing: (db, org, ids) => existingCatalogIds(db, org, 'services', ids) };
export const FUNCTIONALITIES: Reference = { noun: 'functionality', code: IncidentsErrorCode.UnknownReference, existing: (db, org, ids) => existingCatalogIds(db, org, 'functionalities', ids) };

/**
 * A user as the reference's `user_flat_response` shows one (`/v1/users` attributes, integer
 * `id`), as they are now; null for no user (a key without one) or one no longer there.
 */
export async function flatUser(ctx: WriteContext, userId: string | number | null | undefined): Promise<Row | null> {
  if (userId == null) return null;
  const user = (await userRecords(ctx.manager, ctx.organizationId, [String(userId)])).get(String(userId));
  return user ? { id: Number(user.id), ...user.attributes } : null;
}
