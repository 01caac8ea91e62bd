import { JsonApiError } from '@taproot/json-api';
import type { Principal } from '@taproot/auth';
import { MAX_LIFETIME_YEARS, type ApiKeyKind } from './api-key.schema';
import { IdentityErrorCode } from '../errors';

/**
 * Spec, "API keys": a key without a user cannot be made a schedule owner. For the on-call
 * context: call it before making the calling principal own a schedule. `attribute` names the
 * attribute of the request the error points at.
 */
export function assertCanOwnSchedule(principal: Pick<Principal, 'userId'>, attribute = 'owner_user_id'): void {
  if (principal.userId !== null) return;
  throw JsonApiError.invalidAttributes([
    { attribute, detail: 'a key without a user cannot be made a schedule owner', code: IdentityErrorCode.KeyWithoutUser },
  ]);
}

export function invalidAttribute(attribute: string, detail: string, code = IdentityErrorCode.InvalidAttribute): JsonApiError {
  return JsonApiError.invalidAttributes([{ attribute, detail, code }]);
}

function addYears(date: Date, years: number): Date {
  const d = new Date(date.getTime());
  d.setUTCFullYear(d.getUTCFullYear() + years);
  return d;
}

/**
 * An `expires_at` the client sent (already a valid RFC 3339 date-time): strictly after `now`
 * and at most five years ahead (reference: "in the future (maximum 5 years)").
 */
export function parseExpiry(value: unknown, now: Date, attribute = 'expires_at'): Date {
  const at = typeof value === 'string' ? new Date(value) : null;
  if (!at || Number.isNaN(at.getTime())) throw invalidAttribute(attribute, `${attribute} must be an RFC 3339 date-time`);
  if (at.getTime() <= now.getTime()) {
    throw invalidAttribute(attribute, `${attribute} must be in the future (got ${value as string}, now is ${now.toISOString()})`);
  }
  const latest = addYears(now, MAX_LIFETIME_YEARS);
  if (at.getTime() > latest.getTime()) {
    throw invalidAttribute(attribute, `${attribute} must be at most ${MAX_LIFETIME_YEARS} years ahead (before ${latest.toISOString()})`);
  }
  return at;
}

export interface KeyScope {
  /** The user a personal key belongs to; null for team and organization keys (service accounts). */
  userId: number | null;
  groupId: string | null;
  roleId: string | null;
  onCallRoleId: string | null;
}

const present = (value: unknown): value is string => value !== undefined && value !== null;

/**
 * Who a new key belongs to, from its kind (reference, createApiKey):
 * - `personal`: the calling user; a caller without a user (a team or organization key) cannot
 *   create one.
 * - `team`: requires `group_id`, a team of the organization (checked by the create command).
 * - `organization`: carries `role_id` / `on_call_role_id` (nullable strings; roles arrive in a
 *   parallel change, which validates that they exist).
 * Attributes of another kind are refused rather than silently stored.
 */
export function scopeOfNewKey(kind: ApiKeyKind, attributes: Record<string, unknown>, principal: Principal): KeyScope {
  const issues: { attribute: string; detail: string }[] = [];
  const notFor = (attribute: string) => {
    if (present(attributes[attribute])) issues.push({ attribute, detail: `${attribute} does not apply to ${kind} keys` });
  };
  if (kind === 'personal') {
    if (principal.userId === null) {
      issues.push({ attribute: 'kind', detail: 'a key without a user cannot create a personal key: personal keys belong to the calling user' });
    }
    notFor('group_id');
  }
  if (kind === 'team' && !present(attributes.group_id)) issues.push({ attribute: 'group_id', detail: 'group_id is required when kind is team' });
  if (kind !== 'organization') {
    notFor('role_id');
    notFor('on_call_role_id');
  }
  if (kind === 'organization') notFor('group_id');
  if (issues.length) throw JsonApiError.invalidAttributes(issues);
  return {
    userId: kind === 'personal' ? principal.userId : null,
    groupId: kind === 'team' ? (attributes.group_id as string) : null,
    roleId: kind === 'organization' ? ((attributes.role_id as string | null | undefined) ?? null) : null,
    onCallRoleId: kind === 'organization' ? ((attributes.on_call_role_id as string | null | undefined) ?? null) : null,
  };
}

/** The grace period a rotation leaves the old token: `[now, endsAt)`, never past the old expiry. */
export function graceEnd(now: Date, minutes: number, previousExpiry: Date | null): Date {
  const end = new Date(now.getTime() + minutes * 60_000);
  return previousExpiry && previousExpiry.getTime() < end.getTime() ? previousExpiry : end;
}
