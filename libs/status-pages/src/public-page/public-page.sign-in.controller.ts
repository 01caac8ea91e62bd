import { Controller, Get, Inject, Param, Req, Res } from '@nestjs/common';
import { ACCESS_TOKEN_VERIFIER, Public, STATUS_PAGE_CALLBACK_PATH, type AccessTokenVerifier } from '@taproot/auth';
import { type Logger } from '@taproot/config';
import { LOGGER } from '@taproot/runtime';
import { hostName } from './public-page.cache';
import { refuse, type PageReply, type PageRequest } from './public-page.controller';
import { PublicPageReader } from './public-page.reader';
import { PageSessions } from './public-page.session';
import { PageSignIn } from './public-page.sign-in';

const FAILED = 'Signing in did not complete. Open the status page again to start over.';
const OTHER_ORGANIZATION = 'This status page is shown to the people of the organization it belongs to, and you signed in as someone of another organization.';

type QueryRequest = PageRequest & { url: string };
export interface RedirectReply extends PageReply {
  redirect(url: string, code?: number): unknown;
}

/**
 * The sign-in routes of private status pages: `/status/{slug}/sign-in` (sends the browser to the
 * auth app), `/status/sign-in/callback` (the client's redirect URI: exchanges the code, admits a
 * user of the page's organization only, sets the page's session cookie) and
 * `/status/{slug}/sign-out` (drops it; `/sign-out` on a custom domain).
 */
@Public()
@Controller()
export class PublicPageSignInController {
  constructor(
    private readonly reader: PublicPageReader,
    private readonly signIn: PageSignIn,
    private readonly sessions: PageSessions,
    @Inject(ACCESS_TOKEN_VERIFIER) private readonly tokens: AccessTokenVerifier,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @Get('status/:slug/sign-in')
  async start(@Param('slug') slug: string, @Req() request: QueryRequest, @Res() reply: RedirectReply): Promise<void> {
    const lookup = await this.reader.bySlug(slug);
    const page = `/status/${encodeURIComponent(slug)}`;
    if (lookup.kind === 'missing') return refuse(reply, 'html', 404, 'Not found', 'There is no status page at this address.');
    // A public page (or one made public since) needs no sign-in, a password page asks on its own
    // address, and someone already signed in goes straight back.
    if (lookup.kind === 'page' || lookup.page.password || (await this.sessions.holds(request, lookup.page))) return see(reply, page);
    const { url, transaction } = await this.signIn.authorizationUrl(lookup.page.id, page);
    reply.header('set-cookie', await this.sessions.begin(transaction));
    see(reply, url);
  }

  @Get(STATUS_PAGE_CALLBACK_PATH.slice(1))
  async callback(@Req() request: QueryRequest, @Res() reply: RedirectReply): Promise<void> {
    const transaction = await this.sessions.transaction(request);
    reply.header('set-cookie', this.sessions.end());
    if (!transaction) return refuse(reply, 'html', 400, 'Sign-in failed', FAILED);
    let signedIn: { sub: string; accessToken: string };
    try {
      signedIn = await this.signIn.exchange(request.url.split('?')[1] ?? '', transaction);
    } catch (error) {
      // The auth app's refusal, a state mismatch, a bad ID token: the reason is logged (no token or code in it).
      this.logger.warn({ err: { name: (error as Error).name, message: (error as Error).message } }, 'status page sign-in refused');
      return refuse(reply, 'html', 400, 'Sign-in failed', FAILED);
    }
    const lookup = await this.reader.bySlug(transaction.pageId);
    if (lookup.kind !== 'sign-in') return see(reply, transaction.returnTo);
    // The access token names the organization the person picked, checked as the api checks it.
    const principal = await this.tokens.verify(signedIn.accessToken);
    if (!principal || String(principal.userId) !== signedIn.sub || principal.organizationId !== lookup.page.organizationId) {
      return refuse(reply, 'html', 403, 'Not allowed', OTHER_ORGANIZATION);
    }
    reply.header('set-cookie', await this.sessions.open(lookup.page, String(principal.userId)));
    see(reply, transaction.returnTo);
  }

  @Get('status/:slug/sign-out')
  async signOut(@Param('slug') slug: string, @Res() reply: RedirectReply): Promise<void> {
    const lookup = await this.reader.bySlug(slug);
    if (lookup.kind !== 'missing') reply.header('set-cookie', this.sessions.close(lookup.page.id));
    see(reply, `/status/${encodeURIComponent(slug)}`);
  }

  /** A custom domain's password session (its cookie is that host's). */
  @Get('sign-out')
  async signOutOfDomain(@Req() request: QueryRequest, @Res() reply: RedirectReply): Promise<void> {
    const host = hostName(request);
    const lookup = host ? await this.reader.byHost(host) : null;
    if (lookup && lookup.kind !== 'missing') reply.header('set-cookie', this.sessions.close(lookup.page.id, '/'));
    see(reply, '/');
  }
}

/** 303: the browser GETs the next address whatever it was asked with. */
export function see(reply: RedirectReply, url: string): void {
  reply.header('cache-control', 'no-store');
  reply.redirect(url, 303);
}
