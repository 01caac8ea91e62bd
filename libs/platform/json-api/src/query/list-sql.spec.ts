import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { defineResource, type ResourceSchema } from '../resource/resource-schema';
import { decodeCursor, encodeCursor, type CursorValue } from './cursor';
import { parseListQuery, type FlatQuery, type ListQuery } from './list-query';
import { buildListSql, cursorAlias, cursorValuesOf, pageFromRows } from './list-sql';

const schema: ResourceSchema = defineResource({
  type: 'widgets',
  singular: 'widget',
  path: '/v1/widgets',
  readTable: 'widgets_read',
  defaultSort: 'position',
  cursor: true,
  operations: ['list'],
  attributes: {
    name: { type: 'string', required: true, filter: true, sortable: true, searchable: true },
    description: { type: 'string', nullable: true, searchable: true },
    position: { type: 'integer', nullable: true, filter: true, sortable: true },
    score: { type: 'number', required: true, filter: true, sortable: true },
    active: { type: 'boolean', filter: true, sortable: true },
    owner_id: { type: 'string', format: 'uuid', filter: true },
    due_at: { type: 'date-time', filter: true, sortable: true, column: 'due' },
    tags: { type: 'array', items: { type: 'string' }, filter: true, searchable: true },
    rank: { type: 'integer', searchable: true },
    'odd"name': { type: 'string', filter: true },
  },
});
const noCursor: ResourceSchema = { ...schema, type: 'plain', cursor: false };

const ORG = '11111111-1111-4111-8111-111111111111';
const ID = '0e3b0b8a-4c1f-4b7a-9c63-6f0a1d2e3f40';
const TS = '2024-05-01T12:00:00.123456Z';
const secret = 'sql-secret';
const opts = { cursorSecret: secret };
const parse = (query: FlatQuery, s: ResourceSchema = schema) => parseListQuery(s, query, opts);

const SELECT =
  'SELECT "id", "created_at", "updated_at", "name", "description", "position", "score", "active", "owner_id", "due", "tags", "rank", "odd""name", ' +
  `to_char("created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "__created_at_cursor"`;

/** A query in cursor mode: the boundary values signed for the same query. */
function cursorQuery(query: FlatQuery, values: CursorValue[], direction: 'after' | 'before' = 'after'): ListQuery {
  const token = encodeCursor(parse(query).fingerprint, values, secret);
  return parse({ ...query, [`page[${direction}]`]: token });
}

/** The WHERE conditions after the organization scope, for filter tests. */
function filterOf(query: FlatQuery): { where: string; params: unknown[] } {
  const sql = buildListSql(schema, parse(query), ORG);
  const m = /WHERE "organization_id" = \$1 AND (.*)$/.exec(sql.countSql);
  assert.ok(m, sql.countSql);
  return { where: m[1], params: sql.countParams.slice(1) };
}

describe('buildListSql: offset pages', () => {
  test('default query: scoped, default sort with tiebreakers, LIMIT size+1 OFFSET 0', () => {
    const sql = buildListSql(schema, parse({}), ORG);
    assert.equal(
      sql.dataSql,
      `${SELECT} FROM "widgets_read" WHERE "organization_id" = $1 ORDER BY "position" ASC, "created_at" ASC, "id" ASC LIMIT $2 OFFSET $3`,
    );
    assert.deepEqual(sql.dataParams, [ORG, 21, 0]);
    assert.equal(sql.countSql, 'SELECT count(*)::int AS count FROM "widgets_read" WHERE "organization_id" = $1');
    assert.deepEqual(sql.countParams, [ORG]);
  });

  test('page 3 of 10 -> LIMIT 11 OFFSET 20; sort by a renamed column', () => {
    const sql = buildListSql(schema, parse({ 'page[number]': '3', 'page[size]': '10', sort: '-due_at,name' }), ORG);
    assert.match(sql.dataSql, /ORDER BY "due" DESC, "name" ASC, "created_at" ASC, "id" ASC LIMIT \$2 OFFSET \$3$/);
    assert.deepEqual(sql.dataParams, [ORG, 11, 20]);
    // A date-time sort key is also selected as exact text for its cursor.
    assert.ok(sql.dataSql.includes(`to_char("due" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "__due_at_cursor"`));
  });

  test('filters and search go into both statements with the same parameters', () => {
    const sql = buildListSql(schema, parse({ 'filter[name]': 'a', 'filter[search]': 'x', 'page[number]': '2' }), ORG);
    const where = `WHERE "organization_id" = $1 AND "name" = $2 AND ("name" ~* $3 OR "description" ~* $3 OR array_to_string("tags", ' ') ~* $3 OR "rank"::text ~* $3)`;
    assert.equal(sql.countSql, `SELECT count(*)::int AS count FROM "widgets_read" ${where}`);
    assert.deepEqual(sql.countParams, [ORG, 'a', 'x']);
    assert.equal(sql.dataSql, `${SELECT} FROM "widgets_read" ${where} ORDER BY "position" ASC, "created_at" ASC, "id" ASC LIMIT $4 OFFSET $5`);
    assert.deepEqual(sql.dataParams, [ORG, 'a', 'x', 21, 20]);
  });

  test('values are never interpolated', () => {
    const evil = "x'; DROP TABLE widgets_read; --";
    const sql = buildListSql(schema, parse({ 'filter[name]': evil, 'filter[search]': evil }), ORG);
    assert.ok(!sql.dataSql.includes('DROP'));
    assert.ok(!sql.countSql.includes('DROP'));
    assert.deepEqual(sql.countParams, [ORG, evil, evil]);
  });
});

describe('buildListSql: virtual filters', () => {
  const withVirtual: ResourceSchema = defineResource({
    ...schema,
    attributes: { ...schema.attributes, owner_names: { type: 'array', items: { type: 'string' }, virtual: true, filter: ['eq', 'not_in'] } },
  });

  test('are parsed like attributes of their type, never selected, and refused until rewritten', () => {
    const q = parse({ 'filter[owner_names][not_in]': 'Ann, Bo' }, withVirtual);
    assert.deepEqual(q.filters, [{ attribute: 'owner_names', operator: 'not_in', values: ['Ann', 'Bo'], parameter: 'filter[owner_names][not_in]' }]);
    assert.throws(() => buildListSql(withVirtual, q, ORG), /virtual filter owner_names must be rewritten/);
    const rewritten = { ...q, filters: [{ attribute: 'owner_id', operator: 'not_in' as const, values: [ID], parameter: 'filter[owner_names][not_in]' }] };
    const sql = buildListSql(withVirtual, rewritten, ORG);
    assert.ok(sql.dataSql.startsWith(`${SELECT} FROM`), 'the virtual attribute is not selected');
    assert.ok(sql.dataSql.includes('("owner_id" IS NULL OR "owner_id" <> $2)'));
  });
});

describe('buildListSql: list filters named otherwise than their column', () => {
  const withAlias: ResourceSchema = defineResource({
    ...schema,
    listFilters: { tag_names: { type: 'array', items: { type: 'string' }, column: 'tags', filter: ['eq', 'not_in'] } },
  });

  test('are parsed like attributes of their type, built on their column, never selected', () => {
    const q = parse({ 'filter[tag_names]': 'a,b', 'filter[tag_names][not_in]': 'c' }, withAlias);
    assert.deepEqual(q.filters.map((f) => [f.attribute, f.operator, f.values]), [['tag_names', 'eq', ['a', 'b']], ['tag_names', 'not_in', ['c']]]);
    const sql = buildListSql(withAlias, q, ORG);
    assert.ok(sql.countSql.endsWith('WHERE "organization_id" = $1 AND "tags" && $2 AND ("tags" IS NULL OR NOT ("tags" && $3))'), sql.countSql);
    assert.deepEqual(sql.countParams, [ORG, ['a', 'b'], ['c']]);
    assert.ok(sql.dataSql.startsWith(`${SELECT} FROM`), 'nothing more is selected');
  });

  test('take only their operators, and neither sort nor search', () => {
    assert.throws(() => parse({ 'filter[tag_names][in]': 'a' }, withAlias), /Operator 'in' is not allowed for 'tag_names'/);
    assert.throws(() => parse({ sort: 'tag_names' }, withAlias), /'tag_names' is not sortable/);
    assert.throws(() => parse({ 'filter[tag_names]': 'a' }), /Unknown filter 'tag_names'/);
  });
});

describe('buildListSql: filters on the parent\'s attributes', () => {
  const parts: ResourceSchema = defineResource({
    ...schema,
    type: 'widget_parts',
    readTable: 'widget_parts_read',
    parent: {
      path: '/v1/widgets',
      param: 'widget_id',
      attribute: 'widget_id',
      table: 'widgets',
      readTable: 'widgets_read',
      attributes: {
        widget_status: { type: 'string', column: 'status', enum: ['open', 'done'], filter: ['eq', 'not_in'] },
        widget_due_at: { type: 'date-time', column: 'due', filter: ['lt'] },
        widget_hidden: { type: 'boolean', column: 'hidden' },
      },
    },
    attributes: { ...schema.attributes, widget_id: { type: 'string', format: 'uuid', writable: 'create' } },
  });
  const exists = (condition: string) =>
    `EXISTS (SELECT 1 FROM "widgets_read" p WHERE p."id" = "widget_parts_read"."widget_id" AND p."organization_id" = "widget_parts_read"."organization_id" AND ${condition})`;

  test('are parsed like attributes and match the records whose parent row in its read model meets them', () => {
    const q = parse({ 'filter[widget_status][not_in]': 'done', 'filter[widget_due_at][lt]': '2024-05-01' }, parts);
    const sql = buildListSql(parts, q, ORG);
    assert.ok(sql.countSql.endsWith(`WHERE "organization_id" = $1 AND ${exists('("status" IS NULL OR "status" <> $2)')} AND ${exists('"due" < $3::timestamptz')}`), sql.countSql);
    assert.deepEqual(sql.countParams, [ORG, 'done', '2024-05-01T00:00:00.000Z']);
    assert.ok(!sql.dataSql.includes('"widget_status"') && !sql.dataSql.includes('"status", '), 'never selected');
  });

  test('only those declared filterable are the client\'s; the others serve the route\'s conditions', () => {
    assert.throws(() => parse({ 'filter[widget_hidden]': 'false' }, parts), /'widget_hidden' is not filterable/);
    const q = parseListQuery(parts, {}, { ...opts, scope: [{ attribute: 'widget_hidden', operator: 'eq', values: [false], parameter: 'hidden' }] });
    assert.ok(buildListSql(parts, q, ORG).countSql.endsWith(exists('"hidden" = $2')));
  });
});

describe('buildListSql: filter operators', () => {
  const cases: [FlatQuery, string, unknown[]][] = [
    [{ 'filter[name]': 'a' }, '"name" = $2', ['a']],
    [{ 'filter[name]': 'a,b' }, '"name" = ANY($2)', [['a', 'b']]],
    [{ 'filter[name][in]': 'a' }, '"name" = $2', ['a']],
    [{ 'filter[name][in]': 'a,b' }, '"name" = ANY($2)', [['a', 'b']]],
    [{ 'filter[name][not_eq]': 'a' }, '("name" IS NULL OR "name" <> $2)', ['a']],
    [{ 'filter[name][not_eq]': 'a,b' }, '("name" IS NULL OR "name" <> ALL($2))', [['a', 'b']]],
    [{ 'filter[name][not_in]': 'a,b' }, '("name" IS NULL OR "name" <> ALL($2))', [['a', 'b']]],
    [{ 'filter[name][null]': 'true' }, '"name" IS NULL', []],
    [{ 'filter[name][null]': 'false' }, '"name" IS NOT NULL', []],
    [{ 'filter[name][not_null]': 'true' }, '"name" IS NOT NULL', []],
    [{ 'filter[name][not_null]': 'false' }, '"name" IS NULL', []],
    [{ 'filter[position]': '1' }, '"position" = $2::bigint', [1]],
    [{ 'filter[position][in]': '1,2' }, '"position" = ANY($2::bigint[])', [[1, 2]]],
    [{ 'filter[position][not_in]': '1,2' }, '("position" IS NULL OR "position" <> ALL($2::bigint[]))', [[1, 2]]],
    [{ 'filter[position][gt]': '1' }, '"position" > $2::bigint', [1]],
    [{ 'filter[position][gte]': '1' }, '"position" >= $2::bigint', [1]],
    [{ 'filter[position][lt]': '1' }, '"position" < $2::bigint', [1]],
    [{ 'filter[position][lte]': '-1' }, '"position" <= $2::bigint', [-1]],
    [{ 'filter[score][gt]': '1.5' }, '"score" > $2', [1.5]],
    [{ 'filter[active]': 'false' }, '"active" = $2', [false]],
    [{ 'filter[active][not_eq]': 'true' }, '("active" IS NULL OR "active" <> $2)', [true]],
    [{ 'filter[owner_id][in]': `${ID},${ID.toUpperCase()}` }, '"owner_id" = ANY($2)', [[ID, ID]]],
    [{ 'filter[due_at][gte]': '2024-05-01' }, '"due" >= $2::timestamptz', ['2024-05-01T00:00:00.000Z']],
    [{ 'filter[created_at][lt]': TS }, '"created_at" < $2::timestamptz', [TS]],
    [
      { 'filter[updated_at]': `${TS},2024-01-01` },
      '"updated_at" = ANY($2::timestamptz[])',
      [[TS, '2024-01-01T00:00:00.000Z']],
    ],
    [{ 'filter[tags]': 'a,b' }, '"tags" && $2', [['a', 'b']]],
    [{ 'filter[tags][in]': 'a' }, '"tags" && $2', [['a']]],
    [{ 'filter[tags][not_eq]': 'a' }, '("tags" IS NULL OR NOT ("tags" && $2))', [['a']]],
    [{ 'filter[tags][not_in]': 'a,b' }, '("tags" IS NULL OR NOT ("tags" && $2))', [['a', 'b']]],
    [{ 'filter[tags][null]': 'true' }, '"tags" IS NULL', []],
    [{ 'filter[odd"name]': 'v' }, '"odd""name" = $2', ['v']],
    [
      { 'filter[position][gte]': '1', 'filter[position][lt]': '9', 'filter[name]': 'a' },
      '"position" >= $2::bigint AND "position" < $3::bigint AND "name" = $4',
      [1, 9, 'a'],
    ],
  ];
  for (const [query, where, params] of cases) {
    test(`${JSON.stringify(query)} -> ${where}`, () => {
      assert.deepEqual(filterOf(query), { where, params });
    });
  }

  test('search: one parameter, OR over the searchable columns', () => {
    assert.deepEqual(filterOf({ 'filter[search]': '^foo|bar$' }), {
      where: `("name" ~* $2 OR "description" ~* $2 OR array_to_string("tags", ' ') ~* $2 OR "rank"::text ~* $2)`,
      params: ['^foo|bar$'],
    });
  });
});

describe('buildListSql: keyset pages', () => {
  test('uniform directions over non-null keys: one row comparison', () => {
    const q = cursorQuery({ sort: 'name', 'page[size]': '5' }, ['m', TS, ID]);
    const sql = buildListSql(schema, q, ORG);
    assert.equal(
      sql.dataSql,
      `${SELECT} FROM "widgets_read" WHERE "organization_id" = $1 AND ("name", "created_at", "id") > ($2, $3::timestamptz, $4) ` +
        'ORDER BY "name" ASC, "created_at" ASC, "id" ASC LIMIT $5',
    );
    assert.deepEqual(sql.dataParams, [ORG, 'm', TS, ID, 6]);
    assert.equal(sql.countSql, 'SELECT count(*)::int AS count FROM "widgets_read" WHERE "organization_id" = $1');
    assert.deepEqual(sql.countParams, [ORG]);
  });

  test('descending: < and DESC', () => {
    const q = cursorQuery({ sort: '-score' }, [2.5, TS, ID]);
    const sql = buildListSql(schema, q, ORG);
    assert.match(
      sql.dataSql,
      /WHERE "organization_id" = \$1 AND \("score", "created_at", "id"\) < \(\$2, \$3::timestamptz, \$4\) ORDER BY "score" DESC, "created_at" DESC, "id" DESC LIMIT \$5$/,
    );
    assert.deepEqual(sql.dataParams, [ORG, 2.5, TS, ID, 21]);
  });

  test('page[before] inverts the comparison and the ORDER BY', () => {
    const q = cursorQuery({ sort: '-score' }, [2.5, TS, ID], 'before');
    const sql = buildListSql(schema, q, ORG);
    assert.match(
      sql.dataSql,
      /AND \("score", "created_at", "id"\) > \(\$2, \$3::timestamptz, \$4\) ORDER BY "score" ASC, "created_at" ASC, "id" ASC LIMIT \$5$/,
    );
  });

  test('mixed directions: OR-expanded, with a row comparison for the uniform tail', () => {
    const q = cursorQuery({ sort: 'name,-score' }, ['m', 2.5, TS, ID]);
    const sql = buildListSql(schema, q, ORG);
    assert.match(
      sql.dataSql,
      /AND \("name" > \$2 OR \("name" = \$2 AND \("score", "created_at", "id"\) < \(\$3, \$4::timestamptz, \$5\)\)\) ORDER BY "name" ASC, "score" DESC, "created_at" DESC, "id" DESC LIMIT \$6$/,
    );
    assert.deepEqual(sql.dataParams, [ORG, 'm', 2.5, TS, ID, 21]);
  });

  test('mixed directions before: every key inverted', () => {
    const q = cursorQuery({ sort: 'name,-score' }, ['m', 2.5, TS, ID], 'before');
    const sql = buildListSql(schema, q, ORG);
    assert.match(
      sql.dataSql,
      /AND \("name" < \$2 OR \("name" = \$2 AND \("score", "created_at", "id"\) > \(\$3, \$4::timestamptz, \$5\)\)\) ORDER BY "name" DESC, "score" ASC, "created_at" ASC, "id" ASC/,
    );
  });

  test('nullable key ascending (NULLS LAST): NULLs come after every value', () => {
    const sql = buildListSql(schema, cursorQuery({ sort: 'position' }, [3, TS, ID]), ORG);
    assert.match(
      sql.dataSql,
      /AND \(\("position" > \$2::bigint OR "position" IS NULL\) OR \("position" = \$2::bigint AND \("created_at", "id"\) > \(\$3::timestamptz, \$4\)\)\) ORDER BY "position" ASC/,
    );
    assert.deepEqual(sql.dataParams, [ORG, 3, TS, ID, 21]);
  });

  test('nullable key ascending at a NULL boundary: only later NULLs', () => {
    const sql = buildListSql(schema, cursorQuery({ sort: 'position' }, [null, TS, ID]), ORG);
    assert.match(sql.dataSql, /AND \("position" IS NULL AND \("created_at", "id"\) > \(\$2::timestamptz, \$3\)\) ORDER BY/);
    assert.deepEqual(sql.dataParams, [ORG, TS, ID, 21]);
  });

  test('nullable key descending (NULLS FIRST)', () => {
    let sql = buildListSql(schema, cursorQuery({ sort: '-position' }, [3, TS, ID]), ORG);
    assert.match(
      sql.dataSql,
      /AND \("position" < \$2::bigint OR \("position" = \$2::bigint AND \("created_at", "id"\) < \(\$3::timestamptz, \$4\)\)\) ORDER BY "position" DESC/,
    );
    sql = buildListSql(schema, cursorQuery({ sort: '-position' }, [null, TS, ID]), ORG);
    assert.match(
      sql.dataSql,
      /AND \("position" IS NOT NULL OR \("position" IS NULL AND \("created_at", "id"\) < \(\$2::timestamptz, \$3\)\)\) ORDER BY "position" DESC/,
    );
  });

  test('nullable key with page[before] runs the reversed order (DESC, NULLS FIRST)', () => {
    const sql = buildListSql(schema, cursorQuery({ sort: 'position' }, [null, TS, ID], 'before'), ORG);
    assert.match(
      sql.dataSql,
      /AND \("position" IS NOT NULL OR \("position" IS NULL AND \("created_at", "id"\) < \(\$2::timestamptz, \$3\)\)\) ORDER BY "position" DESC, "created_at" DESC, "id" DESC/,
    );
  });

  test('filters come before the keyset; count has no keyset or limit', () => {
    const q = cursorQuery({ sort: 'name', 'filter[active]': 'true' }, ['m', TS, ID]);
    const sql = buildListSql(schema, q, ORG);
    assert.match(sql.dataSql, /WHERE "organization_id" = \$1 AND "active" = \$2 AND \("name", "created_at", "id"\) > \(\$3, \$4::timestamptz, \$5\) ORDER BY/);
    assert.deepEqual(sql.dataParams, [ORG, true, 'm', TS, ID, 21]);
    assert.equal(sql.countSql, 'SELECT count(*)::int AS count FROM "widgets_read" WHERE "organization_id" = $1 AND "active" = $2');
    assert.deepEqual(sql.countParams, [ORG, true]);
  });

  test('a date-time sort key is compared as timestamptz and selected as text', () => {
    const q = cursorQuery({ sort: '-due_at' }, ['2024-01-01T00:00:00.000001Z', TS, ID]);
    const sql = buildListSql(schema, q, ORG);
    assert.ok(sql.dataSql.includes(`AS "__due_at_cursor"`));
    assert.match(sql.dataSql, /AND \("due" < \$2::timestamptz OR \("due" = \$2::timestamptz AND \("created_at", "id"\) < \(\$3::timestamptz, \$4\)\)\)/);
  });
});

describe('pageFromRows', () => {
  const row = (i: number, extra: Record<string, unknown> = {}) => ({
    id: `00000000-0000-4000-8000-00000000000${i}`,
    name: `n${i}`,
    score: i,
    position: i % 2 === 0 ? null : i,
    created_at: new Date(`2024-01-0${i}T00:00:00.000Z`),
    [cursorAlias('created_at')]: `2024-01-0${i}T00:00:00.00000${i}Z`,
    ...extra,
  });
  const rows = (n: number) => Array.from({ length: n }, (_, i) => row(i + 1));
  const values = (q: ListQuery, token: string | null) =>
    token === null ? null : decodeCursor(token, { secret, fingerprint: q.fingerprint, parameter: 'page[after]' });

  test('offset page with a look-ahead row: trimmed, hasNext, next cursor of the last row', () => {
    const q = parse({ sort: 'name', 'page[size]': '3' });
    const page = pageFromRows(schema, q, rows(4), opts);
    assert.deepEqual(page.rows.map((r) => r.id), rows(3).map((r) => r.id));
    assert.equal(page.hasNext, true);
    assert.equal(page.hasPrev, false);
    assert.deepEqual(values(q, page.nextCursor), ['n3', '2024-01-03T00:00:00.000003Z', rows(3)[2].id]);
    assert.equal(page.prevCursor, null);
    // The helper column is not part of the returned rows; others are untouched.
    assert.ok(page.rows.every((r) => !(cursorAlias('created_at') in r)));
    assert.ok(page.rows[0].created_at instanceof Date);
  });

  test('offset last page: no next; page 2 has a previous page', () => {
    const q = parse({ sort: 'name', 'page[size]': '3', 'page[number]': '2' });
    const page = pageFromRows(schema, q, rows(2), opts);
    assert.equal(page.rows.length, 2);
    assert.equal(page.hasNext, false);
    assert.equal(page.hasPrev, true);
    assert.equal(page.nextCursor, null);
    assert.deepEqual(values(q, page.prevCursor), ['n1', '2024-01-01T00:00:00.000001Z', rows(1)[0].id]);
  });

  test('a resource without cursor support never gets cursors', () => {
    const q = parse({ 'page[size]': '3', 'page[number]': '2' }, noCursor);
    const page = pageFromRows(noCursor, q, rows(4), opts);
    assert.equal(page.hasNext, true);
    assert.equal(page.nextCursor, null);
    assert.equal(page.prevCursor, null);
  });

  test('after: hasPrev is true, cursors of the first and last row', () => {
    const q = cursorQuery({ sort: '-position', 'page[size]': '2' }, [null, TS, ID]);
    const page = pageFromRows(schema, q, rows(3), opts);
    assert.deepEqual(page.rows.map((r) => r.name), ['n1', 'n2']);
    assert.equal(page.hasNext, true);
    assert.equal(page.hasPrev, true);
    assert.deepEqual(values(q, page.prevCursor), [1, '2024-01-01T00:00:00.000001Z', rows(1)[0].id]);
    assert.deepEqual(values(q, page.nextCursor), [null, '2024-01-02T00:00:00.000002Z', rows(2)[1].id]);
  });

  test('after, last page: no next cursor', () => {
    const q = cursorQuery({ sort: 'name', 'page[size]': '5' }, ['a', TS, ID]);
    const page = pageFromRows(schema, q, rows(2), opts);
    assert.equal(page.hasNext, false);
    assert.equal(page.nextCursor, null);
    assert.notEqual(page.prevCursor, null);
  });

  test('before: the reversed rows are put back in order', () => {
    const q = cursorQuery({ sort: 'name', 'page[size]': '2' }, ['z', TS, ID], 'before');
    // Fetched in reversed order: n3, n2, and the look-ahead n1.
    const page = pageFromRows(schema, q, [row(3), row(2), row(1)], opts);
    assert.deepEqual(page.rows.map((r) => r.name), ['n2', 'n3']);
    assert.equal(page.hasPrev, true);
    assert.equal(page.hasNext, true);
    assert.deepEqual(values(q, page.prevCursor)?.[0], 'n2');
    assert.deepEqual(values(q, page.nextCursor)?.[0], 'n3');
  });

  test('before, first page and empty pages', () => {
    const q = cursorQuery({ sort: 'name', 'page[size]': '2' }, ['z', TS, ID], 'before');
    let page = pageFromRows(schema, q, [row(2), row(1)], opts);
    assert.deepEqual(page.rows.map((r) => r.name), ['n1', 'n2']);
    assert.equal(page.hasPrev, false);
    assert.equal(page.prevCursor, null);
    assert.equal(page.hasNext, true);
    page = pageFromRows(schema, q, [], opts);
    assert.deepEqual(page, { rows: [], hasNext: false, hasPrev: false, nextCursor: null, prevCursor: null });
  });

  test('a date-time sort key takes its exact text; bigint values stay strings', () => {
    const q = parse({ sort: 'due_at', 'page[size]': '1' });
    const r = { ...row(1), due: new Date(0), [cursorAlias('due_at')]: '1970-01-01T00:00:00.000007Z' };
    const page = pageFromRows(schema, q, [r, row(2)], opts);
    assert.deepEqual(values(q, page.nextCursor), ['1970-01-01T00:00:00.000007Z', '2024-01-01T00:00:00.000001Z', r.id]);
    assert.ok(!(cursorAlias('due_at') in page.rows[0]));
    const qp = parse({ sort: 'position' });
    assert.deepEqual(cursorValuesOf(schema, qp, { ...row(1), position: '9007199254740993' }), [
      '9007199254740993',
      '2024-01-01T00:00:00.000001Z',
      row(1).id,
    ]);
    assert.deepEqual(cursorValuesOf(schema, qp, { ...row(1), position: 7n }).slice(0, 1), ['7']);
  });

  test('rows without the cursor text column are a programming error', () => {
    const q = parse({ sort: 'name', 'page[size]': '1' });
    assert.throws(() => pageFromRows(schema, q, [{ id: ID, name: 'a' }, { id: ID, name: 'b' }], opts), /__created_at_cursor/);
  });
});
