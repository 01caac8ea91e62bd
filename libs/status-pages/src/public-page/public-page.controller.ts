import { Controller, Get, Inject, Param, Req, Res } from '@nestjs/common';
import { Public } from '@taproot/auth';
import { TAPROOT_CONFIG, type TaprootConfig } from '@taproot/config';
import { html } from '@taproot/runtime';
import { contentHeaders, hostAddress, hostName, MEDIA_TYPES, pageAnswer, PublicPageCache, sendAnswer, slugAddress } from './public-page.cache';
import { pageAtom, pageJson } from './public-page.formats';
import { pageHtml, type PageAddress } from './public-page.html';
import { PublicPageReader, type PageLookup, type PrivatePage, type PublicPage } from './public-page.reader';
import { ASK, passwordForm } from './public-page.password';
import { PageSessions } from './public-page.session';
import { PageSignIn } from './public-page.sign-in';

export interface PageRequest {
  headers: Record<string, string | string[] | undefined>;
  protocol: string;
}
export interface PageReply {
  status(code: number): PageReply;
  header(name: string, value: string): PageReply;
  send(body?: string | Buffer): unknown;
}

export type Format = 'html' | 'json' | 'atom';

const NOT_FOUND = 'There is no status page at this address.';
const SIGN_IN = 'This status page is private: it is shown to the people of its organization once they sign in.';
const NO_SIGN_IN = `${SIGN_IN} This deployment has no sign-in for status pages (no auth app is configured), so it cannot be shown.`;

/**
 * The public status page (docs/status-pages.md, Public page): `/status/{slug}` as HTML,
 * `/status/{slug}/index.json` and `/status/{slug}/feed.atom`, and the same three at `/`,
 * `/index.json` and `/feed.atom` of a verified custom domain. No bearer token: anyone may read a
 * public page (limited per client address like every public route).
 */
@Public()
@Controller()
export class PublicPageController {
  private readonly publicUrl: string;

  constructor(
    private readonly reader: PublicPageReader,
    private readonly cache: PublicPageCache,
    private readonly sessions: PageSessions,
    private readonly signIn: PageSignIn,
    @Inject(TAPROOT_CONFIG) config: TaprootConfig,
  ) {
    this.publicUrl = config.publicUrl;
  }

  @Get('status/:slug')
  html(@Param('slug') slug: string, @Req() request: PageRequest, @Res() reply: PageReply) {
    return this.bySlug(slug, 'html', request, reply);
  }

  @Get('status/:slug/index.json')
  json(@Param('slug') slug: string, @Req() request: PageRequest, @Res() reply: PageReply) {
    return this.bySlug(slug, 'json', request, reply);
  }

  @Get('status/:slug/feed.atom')
  atom(@Param('slug') slug: string, @Req() request: PageRequest, @Res() reply: PageReply) {
    return this.bySlug(slug, 'atom', request, reply);
  }

  @Get()
  domainHtml(@Req() request: PageRequest, @Res() reply: PageReply) {
    return this.byHost('html', request, reply);
  }

  @Get('index.json')
  domainJson(@Req() request: PageRequest, @Res() reply: PageReply) {
    return this.byHost('json', request, reply);
  }

  @Get('feed.atom')
  domainAtom(@Req() request: PageRequest, @Res() reply: PageReply) {
    return this.byHost('atom', request, reply);
  }

  private async bySlug(slug: string, format: Format, request: PageRequest, reply: PageReply): Promise<void> {
    const mark = this.cache.mark();
    await this.answer(await this.reader.bySlug(slug), slugAddress(this.publicUrl, slug), format, request, reply, mark);
  }

  private async byHost(format: Format, request: PageRequest, reply: PageReply): Promise<void> {
    const host = hostName(request);
    const mark = this.cache.mark();
    const lookup: PageLookup = host ? await this.reader.byHost(host) : { kind: 'missing' };
    await this.answer(lookup, hostAddress(request, host), format, request, reply, mark);
  }

  /** `mark`: the cache's, taken before the page was read (PublicPageCache.keep). */
  private async answer(lookup: PageLookup, address: PageAddress, format: Format, request: PageRequest, reply: PageReply, mark: number): Promise<void> {
    if (lookup.kind === 'missing') return refuse(reply, format, 404, 'Not found', NOT_FOUND);
    let page: PublicPage;
    if (lookup.kind === 'sign-in') {
      if (!(await this.sessions.holds(request, lookup.page))) return this.askSignIn(lookup.page, address, format, reply);
      page = await lookup.page.read();
    } else page = lookup.page;
    // A private page's answer is for the person signed in: no shared cache may keep it, nor this process's.
    const answer = pageAnswer(format, await this.render(page, address, format), page.indexable, lookup.kind === 'page' ? 'public, max-age=30' : 'private, no-cache');
    if (lookup.kind === 'page') this.cache.keep(format, address, page, answer, mark);
    sendAnswer(answer, request, reply);
  }

  /**
   * A browser is sent to sign in (303), or shown the password form; a script or a feed reader
   * cannot follow a sign-in, so the JSON and the feed answer 401 naming where to sign in. No
   * WWW-Authenticate: the sign-in is a browser's, not an HTTP authentication scheme.
   */
  private askSignIn(page: PrivatePage, address: PageAddress, format: Format, reply: PageReply): void {
    if (page.password) {
      // The form is on the page's own address (public-page.password.ts).
      if (format === 'html') return passwordForm(reply, address, 401);
      return refuse(reply, format, 401, 'Password required', `${ASK} Enter it at ${address.url}`, address.url);
    }
    const start = this.signIn.startUrl(page, address);
    if (!start) return refuse(reply, format, 401, 'Sign-in required', NO_SIGN_IN);
    if (format !== 'html') return refuse(reply, format, 401, 'Sign-in required', `${SIGN_IN} Sign in at ${start}`, start);
    reply.header('cache-control', 'no-store').header('location', start).status(303).send();
  }

  private async render(page: PublicPage, address: PageAddress, format: Format): Promise<string> {
    if (format === 'html') return pageHtml(page, address);
    if (format === 'json') return pageJson(page, address);
    return pageAtom(page, address, await this.reader.feed(page));
  }

}

/**
 * A refusal in the route's format; the feed's is plain text, which a feed reader shows as it is.
 * `signIn`: where to sign in, linked from the HTML and named in the JSON's `links`.
 */
export function refuse(reply: PageReply, format: Format, status: 400 | 401 | 403 | 404, title: string, detail: string, signIn?: string): void {
  reply.header('cache-control', 'no-store');
  if (format === 'json') {
    const error = { status: String(status), title, detail, ...(signIn ? { links: { sign_in: signIn } } : {}) };
    return send(reply, status, MEDIA_TYPES.json, JSON.stringify({ errors: [error] }));
  }
  if (format === 'atom') return send(reply, status, 'text/plain; charset=utf-8', `${title}: ${detail}\n`);
  const link = signIn ? html`<p><a href="${signIn}">Sign in</a></p>` : '';
  const page = html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head><body><header><h1>${title}</h1></header><main><p>${detail}</p>${link}</main><footer><p>Taproot status pages</p></footer></body></html>`;
  send(reply, status, MEDIA_TYPES.html, `<!doctype html>\n${page.value}`);
}

function send(reply: PageReply, status: number, contentType: string, body: string): void {
  for (const [name, value] of contentHeaders(contentType)) reply.header(name, value);
  reply.status(status).send(body);
}
