import { Controller, Get, Inject, Param, Req, Res } from '@nestjs/common';
import { Public } from '@taproot/auth';
import { TAPROOT_CONFIG, type TaprootConfig } from '@taproot/config';
import { createHash } from 'node:crypto';
import { html } from '@taproot/runtime';
import { pageAtom, pageJson } from './public-page.formats';
import { pageHtml, type PageAddress } from './public-page.html';
import { PublicPageReader, type PageLookup, type PublicPage } from './public-page.reader';

interface PageRequest {
  headers: Record<string, string | string[] | undefined>;
  protocol: string;
}
interface PageReply {
  status(code: number): PageReply;
  header(name: string, value: string): PageReply;
  send(body?: string): unknown;
}

type Format = 'html' | 'json' | 'atom';
const MEDIA_TYPES: Record<Format, string> = {
  html: 'text/html; charset=utf-8',
  json: 'application/json; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
};
/** Styles only, inline: nothing the page shows can load or run anything, should escaping ever fail. */
const CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

const NOT_FOUND = 'There is no status page at this address.';
const SIGN_IN =
  'This status page is private: it is shown to people who sign in. Signing in to status pages is not available yet, so it cannot be shown.';

/** The Host header's name, lower-cased, without port or final dot; null for an IP literal in brackets. */
function hostName(request: PageRequest): string | null {
  const host = request.headers.host;
  if (typeof host !== 'string' || host.startsWith('[')) return null;
  return host.split(':')[0].toLowerCase().replace(/\.$/, '') || null;
}

/** Strong validators compare equal; `If-None-Match` takes a list, weak forms and `*` (RFC 9110, 13.1.2). */
function matches(header: string | string[] | undefined, etag: string): boolean {
  if (typeof header !== 'string') return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}

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
    const base = `/status/${encodeURIComponent(slug)}`;
    await this.answer(await this.reader.bySlug(slug), { base, url: `${this.publicUrl}${base}` }, format, request, reply);
  }

  private async byHost(format: Format, request: PageRequest, reply: PageReply): Promise<void> {
    const host = hostName(request);
    const lookup: PageLookup = host ? await this.reader.byHost(host) : { kind: 'missing' };
    await this.answer(lookup, { base: '', url: `${request.protocol}://${host}/` }, format, request, reply);
  }

  private async answer(lookup: PageLookup, address: PageAddress, format: Format, request: PageRequest, reply: PageReply): Promise<void> {
    if (lookup.kind === 'missing') return this.refuse(reply, format, 404, 'Not found', NOT_FOUND);
    // No WWW-Authenticate: no scheme it could name works until the sign-in is served.
    if (lookup.kind === 'sign-in') return this.refuse(reply, format, 401, 'Sign-in required', SIGN_IN);
    const body = await this.render(lookup.page, address, format);
    const etag = `"${createHash('sha256').update(body).digest('base64url')}"`;
    reply.header('cache-control', 'public, max-age=30').header('etag', etag);
    if (!lookup.page.indexable) reply.header('x-robots-tag', 'noindex');
    if (matches(request.headers['if-none-match'], etag)) {
      reply.status(304).send();
      return;
    }
    this.send(reply, 200, MEDIA_TYPES[format], body);
  }

  private async render(page: PublicPage, address: PageAddress, format: Format): Promise<string> {
    if (format === 'html') return pageHtml(page, address);
    if (format === 'json') return pageJson(page, address);
    return pageAtom(page, address, await this.reader.feed(page));
  }

  /** A refusal in the route's format; the feed's is plain text, which a feed reader shows as it is. */
  private refuse(reply: PageReply, format: Format, status: 401 | 404, title: string, detail: string): void {
    reply.header('cache-control', 'no-store');
    if (format === 'json') return this.send(reply, status, MEDIA_TYPES.json, JSON.stringify({ errors: [{ status: String(status), title, detail }] }));
    if (format === 'atom') return this.send(reply, status, 'text/plain; charset=utf-8', `${title}: ${detail}\n`);
    const page = html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head><body><header><h1>${title}</h1></header><main><p>${detail}</p></main><footer><p>Taproot status pages</p></footer></body></html>`;
    this.send(reply, status, MEDIA_TYPES.html, `<!doctype html>\n${page.value}`);
  }

  private send(reply: PageReply, status: number, contentType: string, body: string): void {
    reply.header('content-type', contentType).header('x-content-type-options', 'nosniff');
    if (contentType === MEDIA_TYPES.html) reply.header('content-security-policy', CSP);
    reply.status(status).send(body);
  }
}
