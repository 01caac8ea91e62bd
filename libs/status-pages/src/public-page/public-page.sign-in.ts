import { Inject, Injectable } from '@nestjs/common';
import { statusPageClient, type StatusPageClient } from '@taproot/auth';
import { TAPROOT_CONFIG, type TaprootConfig } from '@taproot/config';
import * as oidc from 'openid-client';
import type { PageAddress } from './public-page.html';
import type { PrivatePage } from './public-page.reader';

/**
 * Private status pages sign people in at the auth app (docs/status-pages.md, Sign-in): the api is
 * an OpenID Connect relying party with its own confidential client (`statusPageClient`), using
 * openid-client for discovery, the authorization URL (PKCE S256, state, nonce, scope `openid`)
 * and the code exchange with its ID token checks. Null configuration (no OAUTH_ISSUER): no
 * sign-in, private pages stay refused.
 */
@Injectable()
export class PageSignIn {
  private readonly client: StatusPageClient;
  private readonly issuer: string | null;
  private readonly publicUrl: string;
  private discovered: Promise<oidc.Configuration> | null = null;

  constructor(@Inject(TAPROOT_CONFIG) config: TaprootConfig) {
    this.client = statusPageClient(config);
    this.issuer = config.oauthIssuer;
    this.publicUrl = config.publicUrl;
  }

  /**
   * Where a private page's visitor starts signing in; null when the api trusts no auth app. A
   * page on a custom domain signs in at its address under the public URL (the cookie is that
   * host's), and the person comes back there.
   */
  startUrl(page: PrivatePage, address: PageAddress): string | null {
    if (!this.issuer) return null;
    const base = address.base || `/status/${page.id}`;
    return `${this.publicUrl}${base}/sign-in`;
  }

  /** The authorization request for `returnTo`'s page, and the transaction the callback checks it against. */
  async authorizationUrl(pageId: string, returnTo: string) {
    const config = await this.configuration();
    const transaction = { pageId, returnTo, state: oidc.randomState(), nonce: oidc.randomNonce(), verifier: oidc.randomPKCECodeVerifier() };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.client.redirectUri,
      scope: 'openid',
      state: transaction.state,
      nonce: transaction.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(transaction.verifier),
      code_challenge_method: 'S256',
    });
    return { url: url.href, transaction };
  }

  /**
   * Exchanges the callback's code (state, PKCE verifier, ID token signature, issuer, audience,
   * nonce and expiry checked by openid-client) and answers the ID token's subject and the access
   * token: the caller verifies the latter to learn the organization.
   */
  async exchange(query: string, checks: { state: string; nonce: string; verifier: string }): Promise<{ sub: string; accessToken: string }> {
    const config = await this.configuration();
    const tokens = await oidc.authorizationCodeGrant(config, new URL(`${this.client.redirectUri}?${query}`), {
      pkceCodeVerifier: checks.verifier,
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      idTokenExpected: true,
    });
    return { sub: tokens.claims()!.sub, accessToken: tokens.access_token };
  }

  /** Discovery once, on the first sign-in (the auth app may start after the api); a failure is tried again next time. */
  private configuration(): Promise<oidc.Configuration> {
    if (!this.issuer) throw new Error('no auth app to sign in with (OAUTH_ISSUER)');
    const issuer = new URL(this.issuer);
    this.discovered ??= oidc
      .discovery(issuer, this.client.clientId, undefined, oidc.ClientSecretBasic(this.client.clientSecret), {
        // A plain-HTTP issuer is a development or test deployment's own.
        execute: issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
      })
      .catch((error: unknown) => {
        this.discovered = null;
        throw error;
      });
    return this.discovered;
  }
}
