import {
  AI_FAMILIES,
  INCIDENT_RESPONSE_FAMILIES,
  ON_CALL_FAMILIES,
  type PermissionAction,
  type PermissionFamily,
} from './permission-model';
import { FULL_ACCESS, intersect, permissionSet, union, type GrantList, type PermissionSet } from './permission-set';

/**
 * OAuth scopes (spec, Authentication > Scopes) as permissions. Effective permissions of a token
 * are its role's permissions intersected with what its scopes grant, so a scope never raises a
 * caller above their role.
 */

/** `openid`, `profile`, `email`: identity claims only, no resource access. */
export const OPENID_SCOPES = ['openid', 'profile', 'email'] as const;
export const META_SCOPES = ['all', 'ir.all', 'oc.all'] as const;

/**
 * Scope resource names (`ir.<resource>`, `oc.<resource>`, `ai.<resource>`) and the permission
 * families each covers. Most are the family of the same name; the exceptions are noted.
 */
export const SCOPE_RESOURCES: Readonly<Record<string, readonly PermissionFamily[]>> = {
  // The incident and its parts: private incidents, feedback and incident communications.
  'ir.incidents': ['incidents', 'private_incidents', 'incident_feedbacks', 'incident_communication'],
  'ir.services': ['services'],
  'ir.environments': ['environments'],
  'ir.functionalities': ['functionalities'],
  'ir.severities': ['severities'],
  'ir.incident_types': ['incident_types'],
  'ir.incident_roles': ['incident_roles'],
  'ir.workflows': ['workflows'],
  'ir.catalogs': ['catalogs'],
  'ir.groups': ['groups'],
  'ir.playbooks': ['playbooks'],
  // The role field is singular: `retrospective_permissions`.
  'ir.retrospectives': ['retrospective'],
  'ir.status_pages': ['status_pages'],
  'ir.form_fields': ['form_fields'],
  'ir.pulses': ['pulses'],
  'oc.alerts': ['alerts'],
  'oc.schedules': ['schedules'],
  'oc.escalation_policies': ['escalation_policies'],
  'oc.alert_routing_rules': ['alert_routing_rules'],
  'oc.heartbeats': ['heartbeats'],
  'oc.alert_sources': ['alert_sources'],
  'oc.live_call_routing': ['live_call_routing'],
  // The role field is `schedule_override_permissions`.
  'oc.shift_overrides': ['schedule_override'],
  'ai.chat': ['ai_chat'],
};

const READ: readonly PermissionAction[] = ['read'];
/** A `:write` scope includes read. */
const WRITE: readonly PermissionAction[] = ['create', 'read', 'update', 'delete', 'send'];

export type ParsedScope =
  | { kind: 'openid'; scope: string }
  | { kind: 'meta'; scope: (typeof META_SCOPES)[number] }
  | { kind: 'resource'; scope: string; resource: string; access: 'read' | 'write'; families: readonly PermissionFamily[] }
  | { kind: 'unknown'; scope: string };

export function parseScope(scope: string): ParsedScope {
  if ((OPENID_SCOPES as readonly string[]).includes(scope)) return { kind: 'openid', scope };
  if ((META_SCOPES as readonly string[]).includes(scope)) return { kind: 'meta', scope: scope as (typeof META_SCOPES)[number] };
  const match = /^((?:ir|oc|ai)\.[a-z_]+):(read|write)$/.exec(scope);
  if (match && Object.hasOwn(SCOPE_RESOURCES, match[1])) {
    return { kind: 'resource', scope, resource: match[1], access: match[2] as 'read' | 'write', families: SCOPE_RESOURCES[match[1]] };
  }
  return { kind: 'unknown', scope };
}

/** Every scope a client may request: the OpenID and meta scopes and both levels of each resource. */
export const SUPPORTED_SCOPES: readonly string[] = [
  ...OPENID_SCOPES,
  ...META_SCOPES,
  ...Object.keys(SCOPE_RESOURCES).flatMap((r) => [`${r}:read`, `${r}:write`]),
];

const grantAll = (families: readonly PermissionFamily[], actions: readonly PermissionAction[]): GrantList =>
  Object.fromEntries(families.map((f) => [f, actions]));

/**
 * What a set of granted scopes allows, before the role is applied. `all` covers everything,
 * AI included; `ir.all` and `oc.all` cover every family of their role type but no `ai.*`.
 * OpenID and unknown scopes grant nothing.
 */
export function scopeGrants(scopes: Iterable<string>): PermissionSet {
  const parts: PermissionSet[] = [];
  for (const raw of scopes) {
    const scope = parseScope(raw);
    if (scope.kind === 'meta') {
      if (scope.scope === 'all') return FULL_ACCESS;
      const families = scope.scope === 'ir.all' ? INCIDENT_RESPONSE_FAMILIES : ON_CALL_FAMILIES;
      parts.push(permissionSet(grantAll(families.filter((f) => !(AI_FAMILIES as readonly string[]).includes(f)), WRITE)));
    } else if (scope.kind === 'resource') {
      parts.push(permissionSet(grantAll(scope.families, scope.access === 'write' ? WRITE : READ)));
    }
  }
  return union(...parts);
}

/**
 * A caller's effective permissions: the role side as is for an API key (`scopes` null: keys
 * carry no scopes), or intersected with the token's scopes for an OAuth token.
 */
export function withScopes(role: PermissionSet, scopes: Iterable<string> | null): PermissionSet {
  return scopes === null ? role : intersect(role, scopeGrants(scopes));
}

/** Space-separated OAuth `scope` string to a list (RFC 6749 section 3.3). */
export function splitScopes(scope: string): string[] {
  return scope.split(/\s+/).filter((s) => s.length > 0);
}
