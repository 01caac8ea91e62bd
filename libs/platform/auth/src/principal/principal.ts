import type { EventActor } from '@taproot/messaging';

/** The authenticated caller of a request: every query is scoped by its organization. */
export interface Principal {
  organizationId: string;
  /** Integer user id (as in the reference), or null for a key without a user. */
  userId: number | null;
  apiKeyId: string | null;
  kind: 'global' | 'team' | 'personal' | 'oauth';
  /** The team a team key acts for (its records are the key's to edit); null otherwise. */
  teamId?: string | null;
  /** The organization's own per-minute limits; null fields fall back to the deployment default. */
  rateLimits?: OrganizationRateLimits;
  /** Fingerprint of the login session an OAuth token was issued in; API keys have none. */
  sessionId?: string | null;
}

export interface OrganizationRateLimits {
  readsPerMinute: number | null;
  writesPerMinute: number | null;
}

export function actorOf(principal: Principal): EventActor {
  return principal.apiKeyId
    ? { kind: 'api_key', id: principal.apiKeyId }
    : { kind: 'user', id: principal.userId === null ? null : String(principal.userId) };
}

/**
 * Who calls within the organization, as one string: the API key, or an OAuth token's client and
 * user together (rate-limit buckets and idempotency keys are theirs).
 */
export function principalSubject(principal: Principal): string {
  const clientId = (principal as { clientId?: string | null }).clientId ?? 'none';
  return principal.apiKeyId ? `key:${principal.apiKeyId}` : `oauth:${clientId}:${principal.organizationId}:${principal.userId}`;
}
