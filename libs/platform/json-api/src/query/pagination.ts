import type { CollectionDocument } from '../document/documents';
import type { FlatQuery, ListQuery } from './list-query';

export type CollectionLinks = CollectionDocument['links'];
export type CollectionMeta = CollectionDocument['meta'];

export interface LinksAndMetaInput {
  /** Collection path, e.g. `/v1/services`; links are relative URLs starting with it. */
  basePath: string;
  /** The client's original flat query object. */
  query: FlatQuery;
  q: ListQuery;
  totalCount: number;
  /** From `pageFromRows`. */
  hasNext: boolean;
  nextCursor: string | null;
  prevCursor: string | null;
}

function isPageKey(key: string): boolean {
  return key === 'page' || key.startsWith('page[');
}

/**
 * A link to `basePath` with the page parameters given first, then every other parameter of
 * the client's query in its order (repeats kept), all percent-encoded.
 */
function linkTo(basePath: string, query: FlatQuery, page: [string, string | number][]): string {
  const parts = page.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  for (const [key, raw] of Object.entries(query ?? {})) {
    if (raw === undefined || isPageKey(key)) continue;
    for (const value of Array.isArray(raw) ? raw : [raw]) {
      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(value)}`);
    }
  }
  return parts.length === 0 ? basePath : `${basePath}${basePath.includes('?') ? '&' : '?'}${parts.join('&')}`;
}

/**
 * `links` and `meta` of a collection document. Offset mode: links by `page[number]`.
 * Cursor mode: `self` repeats the cursor, `next` is `page[after]=<next_cursor>`, `prev` is
 * `page[before]=<cursor of the first row>`; `first`/`last` are offset links (`page[number]=1` /
 * the last page number), since a keyset page has no number; `current_page`, `next_page` and
 * `prev_page` are null. `prev`/`next`/`last` are null when there is no such page (`last` is
 * null when the collection is empty).
 */
export function buildLinksAndMeta(input: LinksAndMetaInput): { links: CollectionLinks; meta: CollectionMeta } {
  const { basePath, query, q, totalCount, hasNext } = input;
  const size = q.page.size;
  const totalPages = totalCount > 0 ? Math.ceil(totalCount / size) : 0;
  const byNumber = (n: number) => linkTo(basePath, query, [['page[number]', n], ['page[size]', size]]);
  const byCursor = (param: 'page[after]' | 'page[before]', cursor: string) =>
    linkTo(basePath, query, [[param, cursor], ['page[size]', size]]);
  const last = totalPages > 0 ? byNumber(totalPages) : null;

  if (q.page.mode === 'offset') {
    const current = q.page.number;
    const nextPage = hasNext ? current + 1 : null;
    const prevPage = current > 1 && totalPages > 0 ? Math.min(current - 1, totalPages) : null;
    return {
      links: {
        self: byNumber(current),
        first: byNumber(1),
        prev: prevPage === null ? null : byNumber(prevPage),
        next: nextPage === null ? null : byNumber(nextPage),
        last,
      },
      meta: {
        current_page: current,
        next_page: nextPage,
        prev_page: prevPage,
        total_count: totalCount,
        total_pages: totalPages,
        next_cursor: hasNext ? input.nextCursor : null,
      },
    };
  }

  const nextCursor = hasNext ? input.nextCursor : null;
  return {
    links: {
      self: byCursor(q.page.direction === 'after' ? 'page[after]' : 'page[before]', q.page.cursor),
      first: byNumber(1),
      prev: input.prevCursor === null ? null : byCursor('page[before]', input.prevCursor),
      next: nextCursor === null ? null : byCursor('page[after]', nextCursor),
      last,
    },
    meta: {
      current_page: null,
      next_page: null,
      prev_page: null,
      total_count: totalCount,
      total_pages: totalPages,
      next_cursor: nextCursor,
    },
  };
}
