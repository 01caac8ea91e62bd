import { Controller, Inject, Injectable, Param, Post, Req, Res } from '@nestjs/common';
import { FailureThrottle, Public, RateLimiter, setRateLimitHeaders, SIGN_IN_WINDOW_SECONDS, type FailureBudgets } from '@taproot/auth';
import { CLOCK, TAPROOT_CONFIG, type Clock, type TaprootConfig } from '@taproot/config';
import { passwordMatches } from '@taproot/identity';
import { html } from '@taproot/runtime';
import { DataSource } from 'typeorm';
import { hostAddress, hostName, slugAddress } from './public-page.cache';
import { refuse, type PageReply, type PageRequest } from './public-page.controller';
import type { PageAddress } from './public-page.html';
import { PublicPageReader, type PageLookup, type PrivatePage } from './public-page.reader';
import { PageSessions, sessionPath } from './public-page.session';
import { see, type RedirectReply } from './public-page.sign-in.controller';

/** Failed passwords per page from one address, per page from anywhere, per address over all pages (15 minutes). */
export const PASSWORD_FAILURES_PER_PAGE_AND_IP = 5;
export const PASSWORD_FAILURES_PER_PAGE = 50;
export const PASSWORD_FAILURES_PER_IP = 20;

/** The form posts to the page's own address: that is what it may submit to, and nothing else. */
const FORM_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
export const ASK = 'This status page is protected by a password.';

/** The password form of a page, on its own address: 401 (asked, or a wrong password) or 429 (throttled). */
export function passwordForm(reply: PageReply, address: PageAddress, status: 401 | 429, error?: string): void {
  const invalid = error ? html` aria-invalid="true" aria-describedby="password-error"` : '';
  const page = html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Password required</title></head><body><header><h1>Password required</h1></header><main><p>${ASK}</p><form method="post" action="${address.base || '/'}"><p><label for="password">Password</label> <input id="password" name="password" type="password" required autocomplete="current-password"${invalid}></p>${error ? html`<p id="password-error">${error}</p>` : ''}<p><button type="submit">Show the page</button></p></form></main><footer><p>Taproot status pages</p></footer></body></html>`;
  reply.header('cache-control', 'no-store').header('content-type', 'text/html; charset=utf-8').header('x-content-type-options', 'nosniff').header('content-security-policy', FORM_CSP);
  reply.status(status).send(`<!doctype html>\n${page.value}`);
}

/** Failed attempts, limited as the auth app's sign-in is (FailureThrottle, same store and window). */
@Injectable()
export class PasswordThrottle extends FailureThrottle {
  constructor(@Inject(DataSource) db: DataSource, @Inject(CLOCK) clock: Clock) {
    super(new RateLimiter(db, clock, SIGN_IN_WINDOW_SECONDS));
  }

  static budgets(pageId: string, ip: string): FailureBudgets {
    return [
      [`status-page-password:page-ip:${pageId}:${ip}`, PASSWORD_FAILURES_PER_PAGE_AND_IP],
      [`status-page-password:page:${pageId}`, PASSWORD_FAILURES_PER_PAGE],
      [`status-page-password:ip:${ip}`, PASSWORD_FAILURES_PER_IP],
    ];
  }
}

type FormRequest = PageRequest & { ip: string; body?: unknown };

/**
 * `authentication_method` password (docs/status-pages.md, Sign-in): the page's own address takes
 * the form (`POST /status/{slug}`, or `POST /` on a custom domain: the cookie is that host's),
 * compares the password with the stored scrypt hash in constant time, and opens a session as the
 * auth app's sign-in does. The password is never logged or echoed.
 */
@Public()
@Controller()
export class PublicPagePasswordController {
  constructor(
    private readonly reader: PublicPageReader,
    private readonly sessions: PageSessions,
    private readonly throttle: PasswordThrottle,
    @Inject(TAPROOT_CONFIG) private readonly config: TaprootConfig,
  ) {}

  @Post('status/:slug')
  bySlug(@Param('slug') slug: string, @Req() request: FormRequest, @Res() reply: RedirectReply): Promise<void> {
    return this.submit(() => this.reader.bySlug(slug), slugAddress(this.config.publicUrl, slug), request, reply);
  }

  @Post()
  byHost(@Req() request: FormRequest, @Res() reply: RedirectReply): Promise<void> {
    const host = hostName(request);
    return this.submit(async () => (host ? this.reader.byHost(host) : { kind: 'missing' }), hostAddress(request, host), request, reply);
  }

  private async submit(find: () => Promise<PageLookup>, address: PageAddress, request: FormRequest, reply: RedirectReply): Promise<void> {
    const lookup = await find();
    if (lookup.kind === 'missing') return refuse(reply, 'html', 404, 'Not found', 'There is no status page at this address.');
    const back = address.base || '/';
    if (lookup.kind === 'page' || !lookup.page.password) return see(reply, back);
    const page: PrivatePage = lookup.page;
    const budgets = PasswordThrottle.budgets(page.id, request.ip);
    const blocked = await this.throttle.blocked(budgets);
    if (blocked) {
      setRateLimitHeaders(reply, blocked);
      reply.header('retry-after', String(blocked.retryAfterSeconds));
      return passwordForm(reply, address, 429, 'Too many wrong passwords. Try again later.');
    }
    const password = formPassword(request.body);
    const stored = password ? await this.reader.passwordHash(page) : null;
    if (!password || !stored || !(await passwordMatches(password, stored))) {
      await this.throttle.failed(budgets);
      return passwordForm(reply, address, 401, 'That password is not right.');
    }
    reply.header('set-cookie', await this.sessions.open(page, 'password', sessionPath(address)));
    see(reply, back);
  }
}

/** The form's `password` field (application/x-www-form-urlencoded, kept as bytes by the api's parser). */
function formPassword(body: unknown): string | null {
  if (!Buffer.isBuffer(body)) return null;
  return new URLSearchParams(body.toString('utf8')).get('password') || null;
}
