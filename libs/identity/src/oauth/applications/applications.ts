import { JsonApiError, toResourceObject, type SingleDocument } from '@taproot/json-api';
import { domainEvent, type DomainEvent, type EventActor } from '@taproot/messaging';
import { randomBytes, randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { parseScope, splitScopes } from '@taproot/auth';
import { oauthApplicationSchema } from './application.schema';
import { IdentityError, IdentityErrorCode } from '../../errors';

/**
 * OAuth applications of an organization (docs/oauth.md, "Client-credentials applications"): the
 * `oauth_applications` row, the provider's `Client` payload in `oauth_payloads` (what
 * oidc-provider authenticates against) and, for client-credentials applications, the service
 * user their tokens act as. Plain functions on a transaction's manager, shared by the admin API's
 * commands and the `taproot app` CLI; each returns the event of its change for the caller to emit.
 */

export const OAUTH_APPLICATION_EVENTS = {
  created: 'oauth_application.created',
  updated: 'oauth_application.updated',
  deleted: 'oauth_application.deleted',
  rotated: 'oauth_application.rotated',
} as const;

type Row = Record<string, unknown>;

/** Who changes an application: the event's organization and actor, and the user recorded as creator. */
export interface ApplicationActor {
  organizationId: string;
  actor: EventActor;
  userId: number | null;
}

export interface ApplicationResult {
  document: SingleDocument;
  event: DomainEvent;
  /** Only from create and rotate: the one time the secret is shown. */
  clientSecret?: string;
}

/** The `Client` payload's model name in `oauth_payloads` (oidc-provider's adapter storage). */
const CLIENT_MODEL = 'Client';

const invalidScope = (detail: string) => JsonApiError.invalidAttributes([{ attribute: 'scope', detail, code: IdentityErrorCode.InvalidScope }]);

export type ApplicationKind = 'client_credentials' | 'registered';

/**
 * An application's scope, normalized (single spaces, no repeats): only scopes of the spec's table
 * (a 422 naming `scope` otherwise). A client-credentials application also needs at least one
 * resource scope (`ir.*`, `oc.*`, `ai.*`, their meta scopes included) or `all`, since a token
 * without one could do nothing, and no OpenID scope, since no person signs in.
 */
export function parseApplicationScope(value: unknown, kind: ApplicationKind = 'client_credentials'): string {
  const scopes = [...new Set(typeof value === 'string' ? splitScopes(value) : [])];
  if (scopes.length === 0) throw invalidScope('scope must list at least one scope, e.g. "ir.incidents:read"');
  const parsed = scopes.map(parseScope);
  const unknown = parsed.filter((s) => s.kind === 'unknown').map((s) => s.scope);
  if (unknown.length) throw invalidScope(`scope has unknown scopes: ${unknown.join(', ')} (docs/oauth.md lists the supported scopes)`);
  if (kind === 'registered') return scopes.join(' ');
  const openid = parsed.filter((s) => s.kind === 'openid').map((s) => s.scope);
  if (openid.length) throw invalidScope(`scope cannot include ${openid.join(', ')}: a client-credentials application acts without a person signing in`);
  return scopes.join(' ');
}

/** A new client secret: 256 random bits, shown once. */
const newClientSecret = () => randomBytes(32).toString('base64url');

/** The served document of an application, read back in the transaction that changed it. */
async function documentOf(manager: EntityManager, organizationId: string, clientId: string, clientSecret?: string): Promise<SingleDocument> {
  const [row] = await manager.query('SELECT * FROM oauth_applications_view WHERE id = $1 AND organization_id = $2', [clientId, organizationId]);
  const data = toResourceObject(oauthApplicationSchema, row);
  return { data: clientSecret === undefined ? data : { ...data, attributes: { ...data.attributes, client_secret: clientSecret } } };
}

/** The event of a change: the served attributes, never the secret. */
function eventOf(type: string, by: ApplicationActor, document: SingleDocument, now: Date): DomainEvent {
  const { id, attributes } = document.data as { id: string; attributes: Row };
  const { client_secret: _secret, ...snapshot } = attributes;
  return domainEvent({
    type,
    organizationId: by.organizationId,
    aggregateType: oauthApplicationSchema.type,
    aggregateId: id,
    actor: by.actor,
    payload: { id, ...snapshot },
    occurredAt: now,
  });
}

async function result(manager: EntityManager, type: string, by: ApplicationActor, clientId: string, now: Date, clientSecret?: string): Promise<ApplicationResult> {
  const document = await documentOf(manager, by.organizationId, clientId, clientSecret);
  return { document, event: eventOf(type, by, document, now), ...(clientSecret === undefined ? {} : { clientSecret }) };
}

/** The organization's seeded roles of a kind (`admin`, `no_access`), incident response and on-call. */
async function systemRoles(manager: EntityManager, organizationId: string, kind: string): Promise<{ roleId: string; onCallRoleId: string }> {
  const [row] = await manager.query(
    `SELECT (SELECT id::text FROM roles WHERE organization_id = $1 AND system_role = $2) AS role_id,
            (SELECT id::text FROM on_call_roles WHERE organization_id = $1 AND system_role = $2) AS on_call_role_id`,
    [organizationId, kind],
  );
  if (!row?.role_id || !row?.on_call_role_id) throw new Error(`organization ${organizationId} has no seeded ${kind} roles`);
  return { roleId: row.role_id, onCallRoleId: row.on_call_role_id };
}

/**
 * The roles of a client-credentials application's service user: the organization's Admin roles.
 * Its tokens carry the application's scopes, and effective permissions are role ∩ scopes, so
 * what the application may do is exactly what its scopes grant (bounded by Admin: billing stays
 * read-only), and a scope change applies to the next token without touching roles.
 */
export function serviceUserRoles(manager: EntityManager, organizationId: string) {
  return systemRoles(manager, organizationId, 'admin');
}

export async function organizationExists(manager: EntityManager, organizationId: string): Promise<boolean> {
  const [row] = await manager.query('SELECT 1 FROM organizations WHERE id::text = $1', [organizationId]);
  return row !== undefined;
}

/**
 * A client-credentials application: its row, its service user (a `users` row with an address
 * nobody receives mail at and the Admin roles) and its `Client` payload, whose `client_secret`
 * oidc-provider compares as stored (so it is at rest in the database, like any client of the
 * provider). `scope` is validated by `parseApplicationScope`.
 */
export async function createClientCredentialsApplication(
  manager: EntityManager,
  by: ApplicationActor,
  input: { name: string; scope: string },
  now: Date,
): Promise<ApplicationResult> {
  const clientId = randomUUID();
  const clientSecret = newClientSecret();
  const roles = await serviceUserRoles(manager, by.organizationId);
  const [{ id: serviceUserId }] = await manager.query(
    `INSERT INTO users (organization_id, email, name, role, role_id, on_call_role_id, created_at, updated_at)
     VALUES ($1, $2, $3, 'admin', $4, $5, $6, $6) RETURNING id`,
    [by.organizationId, `app-${clientId}@apps.taproot.invalid`, input.name, roles.roleId, roles.onCallRoleId, now],
  );
  await manager.query(
    `INSERT INTO oauth_applications (client_id, organization_id, name, kind, scope, service_user_id, created_by_user_id, created_at, updated_at)
     VALUES ($1, $2, $3, 'client_credentials', $4, $5, $6, $7, $7)`,
    [clientId, by.organizationId, input.name, input.scope, serviceUserId, by.userId, now],
  );
  const client = {
    client_id: clientId,
    client_secret: clientSecret,
    client_name: input.name,
    grant_types: ['client_credentials'],
    response_types: [],
    redirect_uris: [],
    token_endpoint_auth_method: 'client_secret_basic',
    scope: input.scope,
    organization_id: by.organizationId,
    service_user_id: serviceUserId,
  };
  await manager.query('INSERT INTO oauth_payloads (model, id, payload) VALUES ($1, $2, $3)', [CLIENT_MODEL, clientId, client]);
  return result(manager, OAUTH_APPLICATION_EVENTS.created, by, clientId, now, clientSecret);
}

/** A live application of the organization, locked for the change: 404 when unknown, 409 when revoked. */
export async function loadApplicationForUpdate(manager: EntityManager, organizationId: string, clientId: string): Promise<Row> {
  const [row] = await manager.query('SELECT * FROM oauth_applications WHERE client_id = $1 AND organization_id::text = $2 FOR UPDATE', [
    clientId,
    organizationId,
  ]);
  if (!row) throw JsonApiError.notFound(oauthApplicationSchema.type, clientId);
  if (row.revoked_at !== null) {
    throw new IdentityError(IdentityErrorCode.ApplicationRevoked, `OAuth application ${clientId} is revoked; create a new one instead`);
  }
  return row;
}

/**
 * Renames an application or changes its scope, in its row and in the provider's client (the next
 * token request sees it; tokens already issued keep their scopes until they expire, at most an
 * hour). `scope` is validated by the caller with `parseApplicationScope` for the application's kind.
 */
export async function updateApplication(
  manager: EntityManager,
  by: ApplicationActor,
  current: Row,
  changes: { name?: string; scope?: string },
  now: Date,
): Promise<ApplicationResult> {
  const name = changes.name ?? (current.name as string);
  const scope = changes.scope ?? (current.scope as string);
  await manager.query('UPDATE oauth_applications SET name = $1, scope = $2, updated_at = $3 WHERE client_id = $4', [name, scope, now, current.client_id]);
  await manager.query(`UPDATE oauth_payloads SET payload = payload || $1::jsonb WHERE model = $2 AND id = $3`, [
    { client_name: name, scope },
    CLIENT_MODEL,
    current.client_id,
  ]);
  if (current.service_user_id !== null && changes.name !== undefined) {
    await manager.query('UPDATE users SET name = $1, updated_at = $2 WHERE id = $3 AND organization_id = $4', [name, now, current.service_user_id, by.organizationId]);
  }
  return result(manager, OAUTH_APPLICATION_EVENTS.updated, by, current.client_id as string, now);
}

/**
 * A new client secret, effective at once (the old one stops authenticating; tokens already issued
 * stay valid until they expire). A client without a secret (a public client) has none to rotate.
 */
export async function rotateApplicationSecret(manager: EntityManager, by: ApplicationActor, current: Row, now: Date): Promise<ApplicationResult> {
  const [client] = await manager.query('SELECT payload FROM oauth_payloads WHERE model = $1 AND id = $2', [CLIENT_MODEL, current.client_id]);
  if (!client?.payload?.client_secret) {
    throw new IdentityError(IdentityErrorCode.NoClientSecret, `OAuth application ${current.client_id as string} is a public client and has no secret to rotate`);
  }
  const clientSecret = newClientSecret();
  await manager.query(`UPDATE oauth_payloads SET payload = payload || $1::jsonb WHERE model = $2 AND id = $3`, [
    { client_secret: clientSecret },
    CLIENT_MODEL,
    current.client_id,
  ]);
  await manager.query('UPDATE oauth_applications SET updated_at = $1 WHERE client_id = $2', [now, current.client_id]);
  return result(manager, OAUTH_APPLICATION_EVENTS.rotated, by, current.client_id as string, now, clientSecret);
}

/**
 * Revocation: the row stays (audit, `revoked_at`); the provider's client and everything issued to
 * it (grants, codes, refresh and opaque tokens) are deleted, so the provider no longer knows the
 * client; the service user gets the No Access roles, so access tokens already issued (JWTs the
 * API checks without asking the provider) grant nothing from now on.
 */
export async function revokeApplication(manager: EntityManager, by: ApplicationActor, current: Row, now: Date): Promise<ApplicationResult> {
  await manager.query('UPDATE oauth_applications SET revoked_at = $1, updated_at = $1 WHERE client_id = $2', [now, current.client_id]);
  await manager.query(`DELETE FROM oauth_payloads WHERE (model = $1 AND id = $2) OR (model <> $1 AND payload->>'clientId' = $2)`, [CLIENT_MODEL, current.client_id]);
  if (current.service_user_id !== null) {
    const none = await systemRoles(manager, by.organizationId, 'no_access');
    await manager.query(
      `UPDATE users SET role = 'no_access', role_id = $1, on_call_role_id = $2, updated_at = $3 WHERE id = $4 AND organization_id = $5`,
      [none.roleId, none.onCallRoleId, now, current.service_user_id, by.organizationId],
    );
  }
  return result(manager, OAUTH_APPLICATION_EVENTS.deleted, by, current.client_id as string, now);
}
