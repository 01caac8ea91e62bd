import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, TAPROOT_CONFIG, type Clock, type TaprootConfig } from '@taproot/config';
import { parseCookie, stringifySetCookie } from 'cookie';
import { errors, jwtVerify, SignJWT, type JWTPayload } from 'jose';

/** A signed-in person's session on one private page: an hour, as the auth app's tokens. */
export const SESSION_SECONDS = 3600;
/** Time to sign in at the auth app and come back. */
const SIGN_IN_SECONDS = 600;
const ISSUER = 'taproot-status-pages';
const ALGORITHM = 'HS256';

/** The page a session or a sign-in is for: its id and its organization. */
export interface PageScope {
  id: string;
  organizationId: string;
}

/** What the browser keeps while it signs in at the auth app (the callback checks all of it). */
export interface SignInTransaction {
  pageId: string;
  /** Where to come back to: the page's path at the public URL. */
  returnTo: string;
  state: string;
  nonce: string;
  verifier: string;
}

interface CookieRequest {
  headers: Record<string, string | string[] | undefined>;
}

/**
 * Private status pages' cookies (docs/status-pages.md, Sign-in): the session of one page and
 * the sign-in under way, each a JWT signed with the status page session secret (HS256, jose),
 * HttpOnly, SameSite=Lax, Secure when the public URL is https. A session names its page and
 * organization in `aud` and is checked against both, so it opens that page only; its `exp` is
 * judged on the injected clock.
 */
@Injectable()
export class PageSessions {
  private readonly key: Uint8Array;
  private readonly secure: boolean;

  constructor(
    @Inject(TAPROOT_CONFIG) config: TaprootConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.key = new TextEncoder().encode(config.statusPageSessionSecret);
    this.secure = config.publicUrl.startsWith('https:');
  }

  /** One cookie per page, so sessions on several pages live side by side. */
  static cookieName(pageId: string): string {
    return `taproot_status_${pageId}`;
  }

  /**
   * The Set-Cookie of a new session on `page` for `subject` (a user's id, or `password`); `path`:
   * `/status` under the public URL, `/` on a custom domain (sessionPath).
   */
  async open(page: PageScope, subject: string, path = SESSION_COOKIE_PATH): Promise<string> {
    const token = await this.sign({ sub: subject }, sessionAudience(page), SESSION_SECONDS);
    return this.cookie(PageSessions.cookieName(page.id), token, SESSION_SECONDS, path);
  }

  /** Whether the request carries a live session of this page (and of its organization). */
  async holds(request: CookieRequest, page: PageScope): Promise<boolean> {
    return (await this.verify(cookiesOf(request)[PageSessions.cookieName(page.id)], sessionAudience(page))) !== null;
  }

  /** The Set-Cookie that ends the session of `pageId` (set with `path`). */
  close(pageId: string, path = SESSION_COOKIE_PATH): string {
    return this.cookie(PageSessions.cookieName(pageId), '', 0, path);
  }

  /** The Set-Cookie of a sign-in under way; only the callback's path receives it. */
  async begin(transaction: SignInTransaction): Promise<string> {
    return this.cookie(SIGN_IN_COOKIE, await this.sign({ ...transaction }, SIGN_IN_AUDIENCE, SIGN_IN_SECONDS), SIGN_IN_SECONDS, CALLBACK_COOKIE_PATH);
  }

  /** The sign-in under way, if its cookie is there, intact and not too old. */
  async transaction(request: CookieRequest): Promise<SignInTransaction | null> {
    const payload = await this.verify(cookiesOf(request)[SIGN_IN_COOKIE], SIGN_IN_AUDIENCE);
    if (!payload) return null;
    const { pageId, returnTo, state, nonce, verifier } = payload;
    const fields = [pageId, returnTo, state, nonce, verifier];
    return fields.every((f) => typeof f === 'string') ? ({ pageId, returnTo, state, nonce, verifier } as SignInTransaction) : null;
  }

  /** The Set-Cookie that drops the sign-in cookie once it has been used. */
  end(): string {
    return this.cookie(SIGN_IN_COOKIE, '', 0, CALLBACK_COOKIE_PATH);
  }

  private async sign(claims: JWTPayload, audience: string, seconds: number): Promise<string> {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    return new SignJWT(claims).setProtectedHeader({ alg: ALGORITHM }).setIssuer(ISSUER).setAudience(audience).setIssuedAt(now).setExpirationTime(now + seconds).sign(this.key);
  }

  private async verify(token: string | undefined, audience: string): Promise<JWTPayload | null> {
    if (!token) return null;
    try {
      const { payload } = await jwtVerify(token, this.key, { issuer: ISSUER, audience, algorithms: [ALGORITHM], currentDate: this.clock.now() });
      return payload;
    } catch (error) {
      if (error instanceof errors.JOSEError) return null;
      throw error;
    }
  }

  private cookie(name: string, value: string, maxAge: number, path = SESSION_COOKIE_PATH): string {
    return stringifySetCookie({ name, value, path, maxAge, httpOnly: true, sameSite: 'lax', secure: this.secure });
  }
}

const SIGN_IN_COOKIE = 'taproot_status_sign_in';
const SIGN_IN_AUDIENCE = 'status-page-sign-in';
const SESSION_COOKIE_PATH = '/status';
const CALLBACK_COOKIE_PATH = '/status/sign-in';
/** Where a page's session cookie goes: every `/status/...` address (by slug and by id alike), or a custom domain's whole site. */
export const sessionPath = (address: { base: string }): string => (address.base ? SESSION_COOKIE_PATH : '/');
const sessionAudience = (page: PageScope) => `status-page:${page.organizationId}:${page.id}`;

function cookiesOf(request: CookieRequest): Record<string, string | undefined> {
  const header = request.headers.cookie;
  return typeof header === 'string' ? parseCookie(header) : {};
}
