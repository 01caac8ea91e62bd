import { describe, expect, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { defineResource, type ResourceSchema } from '../resource/resource-schema';
import { encodeCursor } from './cursor';
import { parseListQuery, type FlatQuery } from './list-query';
import { buildLinksAndMeta } from './pagination';

const schema: ResourceSchema = defineResource({
  type: 'services',
  singular: 'service',
  path: '/v1/services',
  readTable: 'services_read',
  defaultSort: 'name',
  cursor: true,
  operations: ['list'],
  attributes: {
    name: { type: 'string', required: true, filter: true, sortable: true, searchable: true },
    position: { type: 'integer', filter: true, sortable: true },
  },
});
const opts = { cursorSecret: 'pagination-secret' };
const P = '/v1/services';

function build(query: FlatQuery, totalCount: number, hasNext: boolean, nextCursor: string | null = null, prevCursor: string | null = null) {
  const q = parseListQuery(schema, query, opts);
  return buildLinksAndMeta({ basePath: P, query, q, totalCount, hasNext, nextCursor, prevCursor });
}
const page = (n: number, size = 20, rest = '') => `${P}?page%5Bnumber%5D=${n}&page%5Bsize%5D=${size}${rest}`;

describe('buildLinksAndMeta: offset mode', () => {
  test('first of several pages', () => {
    assert.deepEqual(build({}, 45, true, 'NEXT'), {
      links: { self: page(1), first: page(1), prev: null, next: page(2), last: page(3) },
      meta: { current_page: 1, next_page: 2, prev_page: null, total_count: 45, total_pages: 3, next_cursor: 'NEXT' },
    });
  });

  test('a middle page', () => {
    assert.deepEqual(build({ 'page[number]': '2', 'page[size]': '10' }, 45, true), {
      links: { self: page(2, 10), first: page(1, 10), prev: page(1, 10), next: page(3, 10), last: page(5, 10) },
      meta: { current_page: 2, next_page: 3, prev_page: 1, total_count: 45, total_pages: 5, next_cursor: null },
    });
  });

  test('the last page has no next and no next_cursor', () => {
    const { links, meta } = build({ 'page[number]': '5', 'page[size]': '10' }, 45, false, 'IGNORED');
    assert.equal(links.next, null);
    assert.equal(links.prev, page(4, 10));
    assert.equal(links.last, page(5, 10));
    assert.equal(meta.next_page, null);
    assert.equal(meta.next_cursor, null);
  });

  test('a page beyond the last: prev points to the last page', () => {
    const { links, meta } = build({ 'page[number]': '9', 'page[size]': '10' }, 45, false);
    assert.equal(links.self, page(9, 10));
    assert.equal(links.prev, page(5, 10));
    assert.equal(meta.prev_page, 5);
    assert.equal(meta.current_page, 9);
  });

  test('an empty collection: no prev, next or last; total_pages 0', () => {
    assert.deepEqual(build({}, 0, false), {
      links: { self: page(1), first: page(1), prev: null, next: null, last: null },
      meta: { current_page: 1, next_page: null, prev_page: null, total_count: 0, total_pages: 0, next_cursor: null },
    });
    assert.equal(build({ 'page[number]': '3' }, 0, false).links.prev, null);
  });

  test('exact multiples of the size', () => {
    assert.equal(build({ 'page[size]': '10' }, 30, true).meta.total_pages, 3);
    assert.equal(build({ 'page[size]': '10' }, 31, true).meta.total_pages, 4);
    assert.equal(build({ 'page[size]': '10' }, 1, false).meta.total_pages, 1);
  });

  test('a clamped size appears as 100 in the links', () => {
    const { links, meta } = build({ 'page[size]': '500' }, 250, true);
    assert.equal(links.next, page(2, 100));
    assert.equal(meta.total_pages, 3);
  });

  test('other parameters are kept in order and encoded; only page parameters change', () => {
    const query: FlatQuery = {
      'filter[name]': 'a b,c&d',
      'page[number]': '2',
      sort: '-position',
      'page[size]': '5',
      include: ['x', 'y'],
      unknown: 'kept',
      skipped: undefined,
    };
    const q = parseListQuery({ ...schema, relationships: { x: { type: 'x', many: false, idAttribute: 'x' }, y: { type: 'y', many: false, idAttribute: 'y' } } }, query, opts);
    const { links } = buildLinksAndMeta({ basePath: P, query, q, totalCount: 12, hasNext: true, nextCursor: null, prevCursor: null });
    const rest = '&filter%5Bname%5D=a%20b%2Cc%26d&sort=-position&include=x&include=y&unknown=kept';
    assert.equal(links.self, page(2, 5, rest));
    assert.equal(links.first, page(1, 5, rest));
    assert.equal(links.prev, page(1, 5, rest));
    assert.equal(links.next, page(3, 5, rest));
    assert.equal(links.last, page(3, 5, rest));
  });

  test('links are relative and parse back to the same parameters', () => {
    const { links } = build({ 'filter[name]': 'ä,+', sort: 'name' }, 100, true);
    const url = new URL(links.next!, 'http://x');
    assert.equal(url.pathname, P);
    expect([...url.searchParams]).toEqual([
      ['page[number]', '2'],
      ['page[size]', '20'],
      ['filter[name]', 'ä,+'],
      ['sort', 'name'],
    ]);
  });
});

describe('buildLinksAndMeta: cursor mode', () => {
  const q0 = parseListQuery(schema, { sort: 'name' }, opts);
  const cursor = encodeCursor(q0.fingerprint, ['m', '2024-01-01T00:00:00.000000Z', '0e3b0b8a-4c1f-4b7a-9c63-6f0a1d2e3f40'], opts.cursorSecret);
  const cur = (param: 'after' | 'before', c: string, rest = '&sort=name') => `${P}?page%5B${param}%5D=${c}&page%5Bsize%5D=10${rest}`;

  test('after: next by page[after], prev by page[before], page numbers null', () => {
    const { links, meta } = build({ sort: 'name', 'page[after]': cursor, 'page[size]': '10' }, 95, true, 'NEXT', 'PREV');
    assert.deepEqual(links, {
      self: cur('after', cursor),
      first: page(1, 10, '&sort=name'),
      prev: cur('before', 'PREV'),
      next: cur('after', 'NEXT'),
      last: page(10, 10, '&sort=name'),
    });
    assert.deepEqual(meta, { current_page: null, next_page: null, prev_page: null, total_count: 95, total_pages: 10, next_cursor: 'NEXT' });
  });

  test('after, end of the list: next and next_cursor null', () => {
    const { links, meta } = build({ sort: 'name', 'page[after]': cursor, 'page[size]': '10' }, 95, false, null, 'PREV');
    assert.equal(links.next, null);
    assert.equal(meta.next_cursor, null);
    assert.equal(links.prev, cur('before', 'PREV'));
  });

  test('before: self repeats page[before]; no previous page -> prev null', () => {
    const { links, meta } = build({ sort: 'name', 'page[before]': cursor, 'page[size]': '10' }, 95, true, 'NEXT', null);
    assert.equal(links.self, cur('before', cursor));
    assert.equal(links.prev, null);
    assert.equal(links.next, cur('after', 'NEXT'));
    assert.equal(meta.next_cursor, 'NEXT');
    assert.equal(meta.current_page, null);
  });

  test('empty result: last null', () => {
    const { links, meta } = build({ sort: 'name', 'page[after]': cursor, 'page[size]': '10' }, 0, false);
    assert.equal(links.last, null);
    assert.equal(meta.total_pages, 0);
  });
});
