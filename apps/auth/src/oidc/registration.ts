import { errors } from 'oidc-provider';

const AUTH_METHODS = new Set(['none', 'client_secret_post', 'client_secret_basic']);
/** Plain HTTP only for the loopback interface (native apps' redirect listeners). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

function invalid(detail: string): never {
  throw new errors.InvalidClientMetadata(detail);
}

/**
 * Taproot's rules for self-registration (spec, Dynamic client registration), on top of what
 * oidc-provider checks: code flow only (client credentials are created by team admins), HTTPS
 * redirect URIs except on loopback, no organization or service user. Omitted scope: every
 * supported scope, narrowed by the user at consent. Refresh tokens come with the code grant.
 */
export function checkRegistration(metadata: Record<string, unknown>, allScopes: string): void {
  if (metadata.organization_id !== undefined || metadata.service_user_id !== undefined) {
    invalid('organization_id and service_user_id are not registrable; the organization is set when the first user authorizes the app');
  }
  const grantTypes = (metadata.grant_types as string[] | undefined) ?? ['authorization_code'];
  if (!grantTypes.includes('authorization_code') || grantTypes.some((g) => g !== 'authorization_code' && g !== 'refresh_token')) {
    invalid('grant_types must be ["authorization_code"]; client credentials applications are created by a team admin');
  }
  metadata.grant_types = ['authorization_code', 'refresh_token'];
  const responseTypes = (metadata.response_types as string[] | undefined) ?? ['code'];
  if (responseTypes.length !== 1 || responseTypes[0] !== 'code') invalid('response_types must be ["code"]');
  const method = metadata.token_endpoint_auth_method;
  if (method !== undefined && !AUTH_METHODS.has(String(method))) {
    invalid('token_endpoint_auth_method must be none, client_secret_post or client_secret_basic');
  }
  for (const uri of (metadata.redirect_uris as string[] | undefined) ?? []) {
    let url: URL;
    try {
      url = new URL(uri);
    } catch {
      throw new errors.InvalidRedirectUri(`redirect_uris: ${uri} is not a URL`);
    }
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))) {
      throw new errors.InvalidRedirectUri(`redirect_uris must use https (http only for 127.0.0.1, [::1] and localhost): ${uri}`);
    }
  }
  if (metadata.scope === undefined) metadata.scope = allScopes;
}
