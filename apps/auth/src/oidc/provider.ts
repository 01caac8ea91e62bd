import type { Clock, Logger } from '@taproot/config';
import { parseScope, SUPPORTED_SCOPES, type StatusPageClient } from '@taproot/auth';
import { postgresOidcAdapter, SIGNING_ALG } from '@taproot/identity';
import { createHash } from 'node:crypto';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet, type JWK } from 'jose';
import Provider, { errors, type KoaContextWithOIDC } from 'oidc-provider';
import type { DataSource } from 'typeorm';
import { messagePage, PAGE_HEADERS } from '../interactions/pages';
import { findAccount, loadAccount, SCOPE_CLAIMS, type AccountClaims } from './accounts';
import { checkRegistration } from './registration';

/** Access tokens and ID tokens live 1 hour (spec); codes 60 seconds. */
export const ACCESS_TOKEN_TTL = 3600;
export const ID_TOKEN_TTL = 3600;
export const AUTHORIZATION_CODE_TTL = 60;
const REFRESH_TOKEN_TTL = 30 * 24 * 3600;

export const OAUTH_ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  introspection: '/oauth/introspect',
  revocation: '/oauth/revoke',
  userinfo: '/oauth/userinfo',
  registration: '/oauth/register',
  jwks: '/oauth/discovery/keys',
  end_session: '/oauth/session/end',
  pushed_authorization_request: '/oauth/par',
} as const;

export interface OidcProviderOptions {
  dataSource: DataSource;
  clock: Clock;
  logger: Logger;
  issuer: string;
  /** The API's base URL: the `aud` of every access token. */
  audience: string;
  /** Private signing JWKs, the signing one first. */
  keys: JWK[];
  refreshGraceSeconds: number;
  /** Signs the provider's cookies (derived from the key-encryption secret). */
  cookieSecret: string;
  jwtId: (token: string) => Promise<string | null>;
  /** The api's own client for private status pages' sign-in (served as a static client). */
  statusPageClient: StatusPageClient;
}

/**
 * JWT access tokens are stored under their jti; a presented JWT is resolved to it once its
 * signature, issuer and expiry check out (null: not a live token of ours).
 */
export function accessTokenIds(opts: { keys: JWK[]; issuer: string; clock: Clock }): (token: string) => Promise<string | null> {
  const publicKeys = createLocalJWKSet(publicJwks(opts.keys));
  return async (token) => {
    try {
      const { payload } = await jwtVerify(token, publicKeys, { issuer: opts.issuer, currentDate: opts.clock.now() });
      return payload.jti ?? null;
    } catch {
      return null;
    }
  };
}

const PRIVATE_FIELDS = new Set(['d', 'p', 'q', 'dp', 'dq', 'qi']);
/** The signing keys' public halves: what verifies the tokens they signed. */
export const publicJwks = (keys: JWK[]): JSONWebKeySet => ({
  keys: keys.map((jwk) => Object.fromEntries(Object.entries(jwk).filter(([k]) => !PRIVATE_FIELDS.has(k))) as JWK),
});

/** Fields oidc-provider reads back from a stored access token (userinfo, introspection, revocation). */
const STORED_TOKEN_FIELDS = ['accountId', 'clientId', 'grantId', 'gty', 'scope', 'sid', 'sessionUid', 'expiresWithSession', 'extra'] as const;

/**
 * The status page client asks for `openid` only, to learn who signed in: it is Taproot itself,
 * so it gets that without a consent page (oidc-provider's first-party recipe). Any other client
 * finds only the grants its users consented to, as by default.
 */
function loadExistingGrant(statusPages: StatusPageClient, audience: string) {
  return async (ctx: KoaContextWithOIDC) => {
    const { client, session, result, provider } = ctx.oidc;
    const grantId = result?.consent?.grantId ?? session.grantIdFor(client.clientId);
    if (grantId) return provider.Grant.find(grantId);
    if (client.clientId !== statusPages.clientId) return undefined;
    const grant = new provider.Grant({ clientId: client.clientId, accountId: session.accountId });
    grant.addOIDCScope('openid');
    grant.addResourceScope(audience, 'openid');
    await grant.save();
    return grant;
  };
}

const ownToken = (_ctx: KoaContextWithOIDC, client: { clientId: string }, token: { clientId: string }) => token.clientId === client.clientId;

/** Client credentials need a resource scope (`ir.*`, `oc.*`, `ai.*`) or `all` (spec), and a live application. */
async function checkClientCredentials(dataSource: DataSource, ctx: KoaContextWithOIDC, clientId: string): Promise<void> {
  const requested = String(ctx.oidc.params.scope ?? '').split(' ').filter(Boolean);
  // ir.all and oc.all are ir.* and oc.* scopes: any meta or resource scope gives the token something to do.
  if (!requested.map((s) => parseScope(s).kind).some((kind) => kind === 'resource' || kind === 'meta')) {
    throw new errors.InvalidScope('client credentials need at least one resource scope (ir.*, oc.*, ai.*) or all', 'scope');
  }
  const [app]: { revoked_at: Date | null }[] = await dataSource.query('SELECT revoked_at FROM oauth_applications WHERE client_id = $1', [clientId]);
  if (!app || app.revoked_at) throw new errors.InvalidClient('the application was revoked');
}

/**
 * The OAuth 2.0 / OpenID Connect provider, configured (never re-implemented): storage on
 * Postgres, JWT access tokens for the API (the one resource server, `aud` = its base URL),
 * PKCE S256 for every code flow, rotating refresh tokens, RFC 7591 registration with
 * Taproot's rules, and the interaction pages at `/interaction/:uid` (docs/oauth.md).
 */
export function createOidcProvider(opts: OidcProviderOptions): Provider {
  const { dataSource, audience, jwtId } = opts;
  const scopes = SUPPORTED_SCOPES.join(' ');

  const provider = new Provider(opts.issuer, {
    adapter: postgresOidcAdapter(dataSource, { clock: opts.clock, refreshGraceSeconds: opts.refreshGraceSeconds, jwtId }),
    findAccount: findAccount(dataSource),
    clients: [
      {
        client_id: opts.statusPageClient.clientId,
        client_secret: opts.statusPageClient.clientSecret,
        client_name: 'Taproot status pages',
        redirect_uris: [opts.statusPageClient.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
        scope: 'openid',
      },
    ],
    loadExistingGrant: loadExistingGrant(opts.statusPageClient, audience),
    jwks: { keys: opts.keys },
    cookies: { keys: [createHash('sha256').update(`cookies:${opts.cookieSecret}`).digest('base64url')] },
    routes: OAUTH_ROUTES,
    scopes: [...SUPPORTED_SCOPES],
    claims: SCOPE_CLAIMS,
    responseTypes: ['code'],
    pkce: { required: () => true },
    enabledJWA: { idTokenSigningAlgValues: [SIGNING_ALG] },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      id_token_signed_response_alg: SIGNING_ALG,
    },
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    ttl: {
      AuthorizationCode: AUTHORIZATION_CODE_TTL,
      AccessToken: ACCESS_TOKEN_TTL,
      ClientCredentials: ACCESS_TOKEN_TTL,
      IdToken: ID_TOKEN_TTL,
      RefreshToken: REFRESH_TOKEN_TTL,
      Grant: REFRESH_TOKEN_TTL,
      Session: 14 * 24 * 3600,
      Interaction: 3600,
    },
    rotateRefreshToken: true,
    // Every code-flow client gets a refresh token (spec, token response), offline_access or not.
    issueRefreshToken: (_ctx: KoaContextWithOIDC, client: { grantTypeAllowed(g: string): boolean }) => client.grantTypeAllowed('refresh_token'),
    interactions: { url: (_ctx: KoaContextWithOIDC, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    extraClientMetadata: {
      properties: ['organization_id', 'service_user_id'],
      // Runs for every client it loads; on /oauth/register it applies Taproot's registration rules.
      validator: (ctx: KoaContextWithOIDC, key: string, _value: unknown, metadata: Record<string, unknown>) => {
        if (key === 'organization_id' && ctx?.oidc?.route === 'registration') checkRegistration(metadata, scopes);
      },
    },
    features: {
      devInteractions: { enabled: false },
      // A client introspects and revokes its own tokens only (the API verifies JWTs itself).
      introspection: { enabled: true, allowedPolicy: ownToken },
      revocation: { enabled: true, allowedPolicy: ownToken },
      userinfo: { enabled: true },
      clientCredentials: { enabled: true },
      registration: { enabled: true, issueRegistrationAccessToken: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => audience,
        useGrantedResource: () => true,
        getResourceServerInfo: async (ctx: KoaContextWithOIDC, resource: string, client: { clientId: string }) => {
          if (resource !== audience) throw new errors.InvalidTarget('the only resource is the Taproot API');
          if (ctx.oidc.params?.grant_type === 'client_credentials') await checkClientCredentials(dataSource, ctx, client.clientId);
          return {
            // OpenID scopes too: the API's token then also works at UserInfo (spec).
            scope: scopes,
            audience,
            accessTokenTTL: ACCESS_TOKEN_TTL,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: SIGNING_ALG } },
          };
        },
      },
    },
    formats: {
      customizers: {
        // The claims the API verifier reads, and a stored copy so revocation and UserInfo find the token.
        jwt: async (ctx: KoaContextWithOIDC, token: Record<string, unknown> & { kind: string; adapter: { upsert(id: string, p: object, ttl: number): Promise<void> } }, jwt: { payload: Record<string, unknown> }) => {
          const { payload } = jwt;
          if (token.kind === 'ClientCredentials') {
            const metadata = ctx.oidc.client.metadata() as { organization_id?: string; service_user_id?: number };
            payload.org_id = metadata.organization_id;
            payload.sub = String(metadata.service_user_id);
          } else {
            // The token grants have just loaded the account (ctx.oidc.account): no second query for it.
            const accountId = String(token.accountId);
            const loaded = ctx.oidc.account?.accountId === accountId ? ctx.oidc.account : null;
            payload.org_id = (loaded ? ((await loaded.claims()) as AccountClaims) : await loadAccount(dataSource, accountId))?.team_id;
            // The login session: the per-client sid when logout features set one, else the session's uid.
            payload.sid = token.sid ?? token.sessionUid;
          }
          const stored: Record<string, unknown> = { kind: token.kind, jti: payload.jti, iat: payload.iat, exp: payload.exp };
          for (const field of STORED_TOKEN_FIELDS) if (token[field] !== undefined) stored[field] = token[field];
          await token.adapter.upsert(String(payload.jti), stored, Number(payload.exp) - Number(payload.iat));
        },
      },
    },
    // The provider's own error pages: the interaction pages' layout with the error code and
    // description, never a stack trace.
    renderError: (ctx: KoaContextWithOIDC, out: { error: string; error_description?: string }) => {
      const page = messagePage('Sign-in error', `${out.error}: ${out.error_description ?? 'the request could not be completed'}`, ctx.status);
      ctx.set(PAGE_HEADERS);
      ctx.body = page.body;
    },
  });
  // Behind a TLS-terminating proxy the issuer is https while the hop is http.
  provider.proxy = true;
  provider.on('server_error', (_ctx: unknown, error: Error) => opts.logger.error({ err: error }, 'oauth provider error'));
  return provider;
}
