import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, TAPROOT_CONFIG, type Clock, type TaprootConfig } from '@taproot/config';
import { CommitCache, UnitOfWork } from '@taproot/messaging';
import { createHash } from 'node:crypto';
import type { Format, PageReply, PageRequest } from './public-page.controller';
import type { PageAddress } from './public-page.html';
import type { PublicPage } from './public-page.reader';

export const MEDIA_TYPES: Record<Format, string> = {
  html: 'text/html; charset=utf-8',
  json: 'application/json; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
};
/** Styles only, inline: nothing the page shows can load or run anything, should escaping ever fail. */
const CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

/**
 * Committed events that can change what a public page shows: the page, its components, groups and
 * announcements, incidents' status page events, verified domains (which page a Host names) and
 * incidents (title, private flag, maintenance window, deletion: what `publicIncidents` reads).
 * Templates and team grants are not shown; statuses are seeded, never written (no events).
 */
const PAGE_INPUTS = /^(status_page|status_page_component|status_page_component_group|status_page_announcement|incident_status_page_event|verified_domain|incident)\./;
/** Answers kept at most (pages × addresses × formats): a few tens of MB at worst. */
const MAX_ANSWERS = 1_000;

/** A page's answer in one format at one address, as sent: what the cache keeps. */
export interface PageAnswer {
  etag: string;
  /** Headers of the 200 and of the 304 alike. */
  validators: [string, string][];
  /** Headers of the 200 only. */
  content: [string, string][];
  body: Buffer;
}

/** The Host header's name, lower-cased, without port or final dot; null for an IP literal in brackets. */
export function hostName(request: Pick<PageRequest, 'headers'>): string | null {
  const host = request.headers.host;
  if (typeof host !== 'string' || host.startsWith('[')) return null;
  return host.split(':')[0].toLowerCase().replace(/\.$/, '') || null;
}

/** `/status/{slug}` (a slug or an id, as routed). */
export function slugAddress(publicUrl: string, slug: string): PageAddress {
  const base = `/status/${encodeURIComponent(slug)}`;
  return { base, url: `${publicUrl}${base}` };
}

/** The root of a custom domain. */
export const hostAddress = (request: Pick<PageRequest, 'protocol'>, host: string | null): PageAddress => ({ base: '', url: `${request.protocol}://${host}/` });

/** Strong validators compare equal; `If-None-Match` takes a list, weak forms and `*` (RFC 9110, 13.1.2). */
function matches(header: string | string[] | undefined, etag: string): boolean {
  if (typeof header !== 'string') return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}

/** What every answer with a body carries: its type, no sniffing, and the CSP on HTML. */
export function contentHeaders(contentType: string): [string, string][] {
  const headers: [string, string][] = [
    ['content-type', contentType],
    ['x-content-type-options', 'nosniff'],
  ];
  if (contentType === MEDIA_TYPES.html) headers.push(['content-security-policy', CSP]);
  return headers;
}

/** A rendered page as answered: its Cache-Control, a strong ETag over the bytes, noindex when asked. */
export function pageAnswer(format: Format, rendered: string, indexable: boolean, cacheControl: string): PageAnswer {
  const body = Buffer.from(rendered);
  const etag = `"${createHash('sha256').update(body).digest('base64url')}"`;
  const validators: [string, string][] = [
    ['cache-control', cacheControl],
    ['etag', etag],
  ];
  if (!indexable) validators.push(['x-robots-tag', 'noindex']);
  return { etag, validators, content: contentHeaders(MEDIA_TYPES[format]), body };
}

/** Sends the answer: 304 when `If-None-Match` names its ETag, the whole page otherwise. */
export function sendAnswer(answer: PageAnswer, request: Pick<PageRequest, 'headers'>, reply: PageReply): void {
  for (const [name, value] of answer.validators) reply.header(name, value);
  if (matches(request.headers['if-none-match'], answer.etag)) {
    reply.status(304).send();
    return;
  }
  for (const [name, value] of answer.content) reply.header(name, value);
  reply.status(200).send(answer.body);
}

/**
 * The public pages' answers kept in memory (docs/status-pages.md, Public page), by format and
 * address: the controller keeps what it rendered, the fast path (public-page.fast-path.ts) answers
 * from it. A change committed through this process drops every answer at its commit; another
 * replica's change shows within `STATUS_PAGE_CACHE_TTL_MS`, plus the one read that refreshes an
 * expired answer while other requests are still answered it (at most that long again). An answer
 * also goes when the page next changes by itself (`changesAt`). Only pages anyone may read are
 * kept.
 */
@Injectable()
export class PublicPageCache {
  private readonly answers: CommitCache<PageAnswer>;

  constructor(@Inject(TAPROOT_CONFIG) config: TaprootConfig, @Inject(CLOCK) private readonly clock: Clock, unitOfWork: UnitOfWork) {
    // An expired answer is re-read by one request while the others are answered the old one.
    const ttlMs = config.statusPageCacheTtlMs;
    this.answers = new CommitCache({ ttlMs, refreshMs: ttlMs, invalidatedBy: PAGE_INPUTS, maxEntries: MAX_ANSWERS }, unitOfWork);
  }

  get enabled(): boolean {
    return this.answers.enabled;
  }

  /** Taken before reading a page: what is kept with it is dropped if a change committed meanwhile. */
  mark(): number {
    return this.answers.mark();
  }

  find(format: Format, address: PageAddress): PageAnswer | undefined {
    return this.answers.get(`${format} ${address.url}`, this.clock.now().getTime());
  }

  keep(format: Format, address: PageAddress, page: PublicPage, answer: PageAnswer, mark: number): void {
    if (!page.anyoneMayRead) return;
    this.answers.set(`${format} ${address.url}`, answer, this.clock.now().getTime(), page.changesAt?.getTime() ?? Infinity, mark);
  }
}
