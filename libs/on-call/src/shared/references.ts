import { existingCatalogIds } from '@taproot/catalog';
import { existingTeamIds, existingUserIds, userRecords } from '@taproot/identity';
import { existingIds } from '@taproot/json-api';
import type { Reference, Row, WriteContext } from '@taproot/resources';
import { OnCallErrorCode } from '../errors';

/** What on-call records name: users and teams (identity's lookups), schedules, services (catalog's lookup). */
export const USERS: Reference = { noun: 'user', code: OnCallErrorCode.UnknownUser, existing: existingUserIds };
export const TEAMS: Reference = { noun: 'team', code: OnCallErrorCode.UnknownReference, existing: existingTeamIds };
export const SERVICES: Reference = { noun: 'service', code: OnCallErrorCode.UnknownReference, existing: (db, org, ids) => existingCatalogIds(db, org, 'services', ids) };
export const SCHEDULES: Reference = { noun: 'schedule', code: OnCallErrorCode.UnknownReference, existing: (db, org, ids) => existingIds(db, 'schedules', org, ids) };

/**
 * A user as the reference's `user_response` document shows one (`{ data: { id, type, attributes } }`,
 * `/v1/users` attributes), kept with the record when it is written; null for one no longer there.
 */
export async function userDocument(ctx: WriteContext, userId: string | number): Promise<Row | null> {
  const user = (await userRecords(ctx.manager, ctx.organizationId, [String(userId)])).get(String(userId));
  return user ? { data: user } : null;
}
