import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { JsonApiError } from '../errors/json-api-error';
import { defineResource, type ResourceSchema } from '../resource/resource-schema';
import { encodeCursor } from './cursor';
import {
  DEFAULT_PAGE_SIZE,
  filterOperatorsOf,
  MAX_FILTER_VALUES,
  MAX_PAGE_SIZE,
  normalizeDateTime,
  parseListQuery,
  type FlatQuery,
  type ListQuery,
} from './list-query';

const schema: ResourceSchema = defineResource({
  type: 'widgets',
  singular: 'widget',
  path: '/v1/widgets',
  readTable: 'widgets_read',
  defaultSort: '-position',
  cursor: true,
  operations: ['list'],
  relationships: {
    owner: { type: 'users', many: false, idAttribute: 'owner_id' },
    teams: { type: 'teams', many: true, idAttribute: 'team_ids' },
  },
  extraFilters: {
    search: { description: 'regex' },
    mine: { description: 'only my widgets' },
    name: { description: 'shadowed by the attribute' },
  },
  attributes: {
    name: { type: 'string', required: true, filter: true, sortable: true, searchable: true },
    description: { type: 'string', nullable: true, searchable: true },
    kind: { type: 'string', enum: ['a', 'b'], filter: true },
    code: { type: 'string', filter: ['eq', 'in'] },
    position: { type: 'integer', nullable: true, filter: true, sortable: true },
    score: { type: 'number', filter: true, sortable: true },
    active: { type: 'boolean', filter: true, sortable: true },
    owner_id: { type: 'string', format: 'uuid', filter: true },
    due_at: { type: 'date-time', filter: ['gte', 'lt'], sortable: true },
    tags: { type: 'array', items: { type: 'string' }, filter: true },
    team_ids: { type: 'array', items: { type: 'string', format: 'uuid' } },
    settings: { type: 'object', filter: true, sortable: true },
    unsorted: { type: 'string', filter: false },
  },
});

const plain: ResourceSchema = {
  type: 'plains',
  singular: 'plain',
  path: '/v1/plains',
  readTable: 'plains_read',
  defaultSort: 'title',
  operations: ['list'],
  attributes: { title: { type: 'string', sortable: true, filter: true } },
};

const opts = { cursorSecret: 'test-secret' };
const parse = (query: FlatQuery, s: ResourceSchema = schema): ListQuery => parseListQuery(s, query, opts);

/** Asserts a 400 `JsonApiError` naming `parameter`, whose detail matches `detail`. */
function rejects(query: FlatQuery, parameter: string, detail?: RegExp, s: ResourceSchema = schema): void {
  assert.throws(
    () => parse(query, s),
    (error: unknown) => {
      assert.ok(error instanceof JsonApiError, `expected JsonApiError, got ${String(error)}`);
      assert.equal(error.status, 400);
      assert.equal(error.errors[0].code, 'INVALID_QUERY_PARAMETER');
      assert.deepEqual(error.errors[0].source, { parameter });
      if (detail) assert.match(error.errors[0].detail ?? '', detail);
      return true;
    },
  );
}

describe('parseListQuery: defaults', () => {
  test('an empty query gives page 1 of 20, the default sort with tiebreakers, nothing else', () => {
    const q = parse({});
    assert.deepEqual(q.page, { mode: 'offset', number: 1, size: DEFAULT_PAGE_SIZE });
    assert.deepEqual(q.sort, [
      { field: 'position', direction: 'desc' },
      { field: 'created_at', direction: 'desc' },
      { field: 'id', direction: 'desc' },
    ]);
    assert.deepEqual(q.filters, []);
    assert.equal(q.search, null);
    assert.deepEqual(q.include, []);
    assert.deepEqual(q.extra, {});
    assert.equal(typeof q.fingerprint, 'string');
  });

  test('undefined values and unknown top-level parameters are ignored', () => {
    const q = parse({ sort: undefined, 'fields[widgets]': 'name', foo: 'bar', filters: 'x' });
    assert.deepEqual(q.page, { mode: 'offset', number: 1, size: 20 });
  });

  test('a schema without created_at/updated_at declared still gets the tiebreakers', () => {
    assert.deepEqual(parse({}, plain).sort, [
      { field: 'title', direction: 'asc' },
      { field: 'created_at', direction: 'asc' },
      { field: 'id', direction: 'asc' },
    ]);
  });

  test('an invalid defaultSort is a programming error, not a 400', () => {
    assert.throws(
      () => parse({}, { ...plain, defaultSort: 'nope' }),
      (e: unknown) => !(e instanceof JsonApiError) && /invalid defaultSort 'nope' of plains/.test((e as Error).message),
    );
  });
});

describe('parseListQuery: page[number] and page[size]', () => {
  test('valid numbers and sizes', () => {
    assert.deepEqual(parse({ 'page[number]': '3', 'page[size]': '5' }).page, { mode: 'offset', number: 3, size: 5 });
    assert.deepEqual(parse({ 'page[number]': ' 2 ' }).page, { mode: 'offset', number: 2, size: 20 });
    assert.deepEqual(parse({ 'page[size]': '100' }).page, { mode: 'offset', number: 1, size: 100 });
  });

  test('a size above the maximum is clamped to 100', () => {
    assert.equal(parse({ 'page[size]': '101' }).page.size, MAX_PAGE_SIZE);
    assert.equal(parse({ 'page[size]': '100000' }).page.size, 100);
  });

  for (const bad of ['0', '-1', '1.5', 'abc', '', ' ', '1e3', '+2', '0x10', '99999999999999999999']) {
    test(`page[number]=${JSON.stringify(bad)} -> 400`, () => rejects({ 'page[number]': bad }, 'page[number]', /integer >= 1/));
    test(`page[size]=${JSON.stringify(bad)} -> 400`, () => rejects({ 'page[size]': bad }, 'page[size]', /integer >= 1/));
  }

  test('an offset beyond the safe integer range -> 400', () => {
    rejects({ 'page[number]': String(Number.MAX_SAFE_INTEGER), 'page[size]': '100' }, 'page[number]', /too large/);
  });

  test('repeated page parameters -> 400', () => {
    rejects({ 'page[number]': ['1', '2'] }, 'page[number]', /only once/);
    rejects({ 'page[size]': ['1', '2'] }, 'page[size]', /only once/);
  });

  test('unknown or malformed page parameters -> 400', () => {
    rejects({ 'page[offset]': '1' }, 'page[offset]', /Unknown page parameter/);
    rejects({ 'page[limit]': '1' }, 'page[limit]', /Unknown page parameter/);
    rejects({ page: '2' }, 'page', /Malformed page parameter/);
    rejects({ 'page[number][x]': '2' }, 'page[number][x]', /Malformed/);
    rejects({ 'page[': '2' }, 'page[', /Malformed/);
  });
});

describe('parseListQuery: sort', () => {
  test('comma list, - for descending, whitespace trimmed, tiebreakers take the last direction', () => {
    assert.deepEqual(parse({ sort: ' name , -position ' }).sort, [
      { field: 'name', direction: 'asc' },
      { field: 'position', direction: 'desc' },
      { field: 'created_at', direction: 'desc' },
      { field: 'id', direction: 'desc' },
    ]);
    assert.deepEqual(parse({ sort: '-name,position' }).sort, [
      { field: 'name', direction: 'desc' },
      { field: 'position', direction: 'asc' },
      { field: 'created_at', direction: 'asc' },
      { field: 'id', direction: 'asc' },
    ]);
  });

  test('created_at already present is not repeated; id still follows in the last direction', () => {
    assert.deepEqual(parse({ sort: 'created_at,-name' }).sort, [
      { field: 'created_at', direction: 'asc' },
      { field: 'name', direction: 'desc' },
      { field: 'id', direction: 'desc' },
    ]);
    assert.deepEqual(parse({ sort: '-updated_at' }).sort, [
      { field: 'updated_at', direction: 'desc' },
      { field: 'created_at', direction: 'desc' },
      { field: 'id', direction: 'desc' },
    ]);
  });

  test('a leading + (decoded to a space) reads as ascending', () => {
    assert.deepEqual(parse({ sort: ' name' }).sort[0], { field: 'name', direction: 'asc' });
  });

  test('an empty sort falls back to the default; empty items are skipped', () => {
    assert.deepEqual(parse({ sort: '' }).sort[0], { field: 'position', direction: 'desc' });
    assert.deepEqual(parse({ sort: ' , ' }).sort[0], { field: 'position', direction: 'desc' });
    assert.deepEqual(parse({ sort: 'name,,score' }).sort.slice(0, 2), [
      { field: 'name', direction: 'asc' },
      { field: 'score', direction: 'asc' },
    ]);
  });

  test('unknown, unsortable, object and duplicate fields -> 400 naming them', () => {
    rejects({ sort: 'nope' }, 'sort', /Unknown sort field 'nope'/);
    rejects({ sort: 'name,-bogus' }, 'sort', /Unknown sort field 'bogus'/);
    rejects({ sort: 'id' }, 'sort', /Unknown sort field 'id'/);
    rejects({ sort: 'kind' }, 'sort', /'kind' is not sortable/);
    rejects({ sort: 'settings' }, 'sort', /'settings' is not sortable/);
    rejects({ sort: 'name,-name' }, 'sort', /Duplicate sort field 'name'/);
    rejects({ sort: '-' }, 'sort', /Invalid sort field '-'/);
    rejects({ sort: ['name', 'score'] }, 'sort', /only once/);
  });
});

describe('parseListQuery: include', () => {
  test('relationship names, trimmed, de-duplicated, repeats merged', () => {
    assert.deepEqual(parse({ include: 'owner, teams,owner' }).include, ['owner', 'teams']);
    assert.deepEqual(parse({ include: ['owner', 'teams'] }).include, ['owner', 'teams']);
    assert.deepEqual(parse({ include: '' }).include, []);
  });

  test('unknown relationship -> 400 naming it', () => {
    rejects({ include: 'owner,bogus' }, 'include', /Unknown relationship 'bogus'/);
    rejects({ include: 'owner.teams' }, 'include', /'owner.teams'/);
    rejects({ include: 'owner' }, 'include', /'owner'/, plain);
  });
});

describe('parseListQuery: filters', () => {
  const one = (query: FlatQuery) => {
    const q = parse(query);
    assert.equal(q.filters.length, 1);
    return q.filters[0];
  };

  test('filter[attr] means eq; a list means any of; values trimmed, empty items dropped', () => {
    assert.deepEqual(one({ 'filter[name]': 'foo' }), { attribute: 'name', operator: 'eq', values: ['foo'], parameter: 'filter[name]' });
    assert.deepEqual(one({ 'filter[name]': ' foo , bar ,, ' }).values, ['foo', 'bar']);
    assert.deepEqual(one({ 'filter[name][eq]': 'a b' }).values, ['a b']);
  });

  test('every operator on an integer attribute', () => {
    for (const op of ['eq', 'not_eq', 'gt', 'gte', 'lt', 'lte', 'in', 'not_in'] as const) {
      assert.deepEqual(one({ [`filter[position][${op}]`]: '-3' }), {
        attribute: 'position',
        operator: op,
        values: [-3],
        parameter: `filter[position][${op}]`,
      });
    }
    assert.deepEqual(one({ 'filter[position][in]': '1, 2,3' }).values, [1, 2, 3]);
    assert.deepEqual(one({ 'filter[position][not_in]': '1,2' }).values, [1, 2]);
    assert.deepEqual(one({ 'filter[position][not_eq]': '1,2' }).values, [1, 2]);
    assert.deepEqual(one({ 'filter[position]': '007' }).values, [7]);
    assert.deepEqual(one({ 'filter[position]': '-0' }).values, [0]);
  });

  test('null and not_null take true or false', () => {
    assert.deepEqual(one({ 'filter[position][null]': 'true' }).values, [true]);
    assert.deepEqual(one({ 'filter[position][null]': 'false' }).values, [false]);
    assert.deepEqual(one({ 'filter[position][not_null]': ' true ' }), {
      attribute: 'position',
      operator: 'not_null',
      values: [true],
      parameter: 'filter[position][not_null]',
    });
    rejects({ 'filter[position][null]': 'yes' }, 'filter[position][null]', /Invalid value 'yes'.*true or false/);
    rejects({ 'filter[position][not_null]': 'true,false' }, 'filter[position][not_null]', /true or false/);
    rejects({ 'filter[position][null]': '1' }, 'filter[position][null]', /'1'/);
    rejects({ 'filter[position][null]': ['true', 'true'] }, 'filter[position][null]', /only once/);
  });

  test('number coercion', () => {
    assert.deepEqual(one({ 'filter[score][gte]': '1.5' }).values, [1.5]);
    assert.deepEqual(one({ 'filter[score]': '-2,.5,3.,1e-7,2E3' }).values, [-2, 0.5, 3, 1e-7, 2000]);
    for (const bad of ['abc', '1.2.3', 'NaN', 'Infinity', '1e999', '0x1', '1,5e']) {
      rejects({ 'filter[score][lt]': bad }, 'filter[score][lt]', undefined);
    }
    rejects({ 'filter[score][lt]': 'abc' }, 'filter[score][lt]', /Invalid value 'abc' for filter\[score\]\[lt\]: expected a number/);
  });

  test('integer coercion is strict', () => {
    for (const bad of ['1.0', '1e3', 'abc', '+1', ' 1 2', '9007199254740993', '0x1f']) {
      rejects({ 'filter[position]': bad }, 'filter[position]', /expected an integer/);
    }
  });

  test('boolean: true/false only, eq/not_eq/in/not_in/null/not_null', () => {
    assert.deepEqual(one({ 'filter[active]': 'true' }).values, [true]);
    assert.deepEqual(one({ 'filter[active][not_eq]': 'false' }).values, [false]);
    assert.deepEqual(one({ 'filter[active][in]': 'true,false' }).values, [true, false]);
    for (const bad of ['TRUE', '1', 'yes', 't']) rejects({ 'filter[active]': bad }, 'filter[active]', /true or false/);
    for (const op of ['gt', 'gte', 'lt', 'lte']) {
      rejects({ [`filter[active][${op}]`]: 'true' }, `filter[active][${op}]`, new RegExp(`Operator '${op}' is not allowed for 'active'`));
    }
  });

  test('string: equality operators only; enums and uuids validated', () => {
    for (const op of ['gt', 'gte', 'lt', 'lte']) {
      rejects({ [`filter[name][${op}]`]: 'a' }, `filter[name][${op}]`, /not allowed for 'name'; allowed: eq, not_eq, in, not_in, null, not_null/);
    }
    assert.deepEqual(one({ 'filter[kind][in]': 'a,b' }).values, ['a', 'b']);
    rejects({ 'filter[kind]': 'a,c' }, 'filter[kind]', /Invalid value 'c'.*one of a, b/);
    const id = '0E3B0B8A-4C1F-4B7A-9C63-6F0A1D2E3F40';
    assert.deepEqual(one({ 'filter[owner_id]': id }).values, [id.toLowerCase()]);
    rejects({ 'filter[owner_id]': 'not-a-uuid' }, 'filter[owner_id]', /Invalid value 'not-a-uuid'.*uuid/);
    rejects({ 'filter[owner_id][in]': `${id},123` }, 'filter[owner_id][in]', /'123'/);
  });

  test('date-time: normalised to ISO UTC; plain dates are midnight UTC', () => {
    assert.deepEqual(one({ 'filter[due_at][gte]': '2024-05-01' }).values, ['2024-05-01T00:00:00.000Z']);
    assert.deepEqual(one({ 'filter[due_at][lt]': '2024-05-01T12:30:00+02:00' }).values, ['2024-05-01T10:30:00.000Z']);
    assert.deepEqual(one({ 'filter[created_at][eq]': '2024-05-01T12:30:00.123456Z' }).values, ['2024-05-01T12:30:00.123456Z']);
    // An unencoded + arrives as a space.
    assert.deepEqual(one({ 'filter[created_at][gt]': '2024-05-01T12:30:00 02:00' }).values, ['2024-05-01T10:30:00.000Z']);
    rejects({ 'filter[due_at][gte]': 'yesterday' }, 'filter[due_at][gte]', /Invalid value 'yesterday'.*RFC 3339/);
    rejects({ 'filter[due_at][gte]': '2024-13-01' }, 'filter[due_at][gte]', /'2024-13-01'/);
    rejects({ 'filter[due_at][gte]': '2024-05-01T10:00:00' }, 'filter[due_at][gte]', /offset/);
  });

  test('normalizeDateTime accepts strict RFC 3339 / ISO 8601 only', () => {
    const ok: [string, string][] = [
      ['2024-02-29', '2024-02-29T00:00:00.000Z'],
      ['2024-05-01T00:00:00Z', '2024-05-01T00:00:00.000Z'],
      ['2024-05-01t00:00:00z', '2024-05-01T00:00:00.000Z'],
      ['2024-05-01 00:00:00Z', '2024-05-01T00:00:00.000Z'],
      ['2024-05-01T00:00Z', '2024-05-01T00:00:00.000Z'],
      ['2024-05-01T00:00:00.5Z', '2024-05-01T00:00:00.500Z'],
      ['2024-05-01T00:00:00.000001Z', '2024-05-01T00:00:00.000001Z'],
      ['2024-05-01T01:00:00.1234567+01:00', '2024-05-01T00:00:00.1234567Z'],
      ['2024-05-01T00:00:00-0530', '2024-05-01T05:30:00.000Z'],
      ['2024-01-01T00:30:00+01:00', '2023-12-31T23:30:00.000Z'],
    ];
    for (const [input, expected] of ok) assert.equal(normalizeDateTime(input), expected, input);
    const bad = [
      'yesterday', '2024-13-01', '2024-00-10', '2023-02-29', '2024-04-31', '2024-05-00', '0000-01-01', '24-05-01', '2024-5-1',
      '2024-05-01T24:00:00Z', '2024-05-01T10:60:00Z', '2024-05-01T10:00:60Z', '2024-05-01T10:00:00+24:00', '2024-05-01T10:00:00',
      '2024-05-01T10Z', '2024-05-01T10:00:00.Z', '2024-05-01T10:00:00.1234567890Z', '1714557600', '', ' 2024-05-01', '2024-05-01Z',
    ];
    for (const input of bad) assert.equal(normalizeDateTime(input), null, input);
  });

  test('gt/gte/lt/lte take exactly one value', () => {
    rejects({ 'filter[position][gt]': '1,2' }, 'filter[position][gt]', /exactly one value/);
    rejects({ 'filter[position][lte]': ['1', '2'] }, 'filter[position][lte]', /only once/);
  });

  test("an empty value filters nothing (the hosted API's Terraform provider sends filter[slug]= for unset members)", () => {
    assert.deepEqual(parse({ 'filter[name]': '' }).filters, []);
    assert.deepEqual(parse({ 'filter[name][in]': ' , ', 'filter[position][gt]': '2' }).filters.map((f) => f.parameter), ['filter[position][gt]']);
  });

  test(`more than ${MAX_FILTER_VALUES} values -> 400`, () => {
    const many = Array.from({ length: MAX_FILTER_VALUES + 1 }, (_, i) => String(i)).join(',');
    rejects({ 'filter[position][in]': many }, 'filter[position][in]', /more than 100 values/);
    assert.equal(one({ 'filter[position][in]': many.split(',').slice(0, 100).join(',') }).values.length, 100);
  });

  test('NUL characters -> 400', () => {
    rejects({ 'filter[name]': 'a\u0000b' }, 'filter[name]', /NUL/);
  });

  test('repeated list-valued filters merge; other repeats -> 400', () => {
    assert.deepEqual(one({ 'filter[name]': ['a', 'b,c'] }).values, ['a', 'b', 'c']);
    assert.deepEqual(one({ 'filter[position][not_in]': ['1', '2'] }).values, [1, 2]);
    rejects({ 'filter[position][gte]': ['1', '2'] }, 'filter[position][gte]', /only once/);
  });

  test('the same attribute and operator twice (filter[x] and filter[x][eq]) -> 400', () => {
    rejects({ 'filter[name]': 'a', 'filter[name][eq]': 'b' }, 'filter[name][eq]', /repeats the eq filter on 'name'/);
  });

  test('several operators on one attribute are AND-ed', () => {
    const q = parse({ 'filter[position][gte]': '1', 'filter[position][lt]': '5', 'filter[name]': 'x' });
    assert.deepEqual(
      q.filters.map((f) => [f.attribute, f.operator, f.values]),
      [
        ['position', 'gte', [1]],
        ['position', 'lt', [5]],
        ['name', 'eq', ['x']],
      ],
    );
  });

  test('an explicit operator list restricts the operators', () => {
    assert.deepEqual(one({ 'filter[code]': 'x' }).operator, 'eq');
    assert.deepEqual(one({ 'filter[code][in]': 'x,y' }).operator, 'in');
    rejects({ 'filter[code][not_eq]': 'x' }, 'filter[code][not_eq]', /Operator 'not_eq' is not allowed for 'code'; allowed: eq, in/);
    rejects({ 'filter[due_at]': '2024-01-01' }, 'filter[due_at]', /Operator 'eq' is not allowed for 'due_at'; allowed: gte, lt/);
  });

  test('arrays of scalars: equality operators with item-typed values', () => {
    assert.deepEqual(one({ 'filter[tags]': 'a,b' }).values, ['a', 'b']);
    assert.deepEqual(one({ 'filter[tags][not_in]': 'a' }).operator, 'not_in');
    rejects({ 'filter[tags][gt]': 'a' }, 'filter[tags][gt]', /not allowed/);
  });

  test('unknown attributes, unfilterable attributes and unknown operators -> 400', () => {
    rejects({ 'filter[bogus]': 'x' }, 'filter[bogus]', /Unknown filter 'bogus'/);
    rejects({ 'filter[description]': 'x' }, 'filter[description]', /'description' is not filterable/);
    rejects({ 'filter[unsorted]': 'x' }, 'filter[unsorted]', /'unsorted' is not filterable/);
    rejects({ 'filter[team_ids]': 'x' }, 'filter[team_ids]', /'team_ids' is not filterable/);
    rejects({ 'filter[settings]': 'x' }, 'filter[settings]', /'settings' is not filterable/);
    rejects({ 'filter[id]': 'x' }, 'filter[id]', /Unknown filter 'id'/);
    rejects({ 'filter[name][like]': 'x' }, 'filter[name][like]', /Unknown filter operator 'like'/);
    rejects({ 'filter[name][EQ]': 'x' }, 'filter[name][EQ]', /Unknown filter operator 'EQ'/);
  });

  test('nested or malformed filter keys -> 400', () => {
    rejects({ 'filter[name][eq][x]': 'a' }, 'filter[name][eq][x]', /nested too deeply/);
    rejects({ 'filter[a][b][c][d]': 'a' }, 'filter[a][b][c][d]', /nested too deeply/);
    rejects({ filter: 'a' }, 'filter', /Malformed filter parameter/);
    rejects({ 'filter[]': 'a' }, 'filter[]', /Malformed/);
    rejects({ 'filter[name': 'a' }, 'filter[name', /Malformed/);
    rejects({ 'filter[name][]': 'a' }, 'filter[name][]', /Malformed/);
    rejects({ 'filter[name]x': 'a' }, 'filter[name]x', /Malformed/);
    rejects({ 'filter[na[me]': 'a' }, 'filter[na[me]', /Malformed/);
  });
});

describe('parseListQuery: filter[search]', () => {
  test('a valid pattern is kept as given', () => {
    assert.equal(parse({ 'filter[search]': 'foo|^bar' }).search, 'foo|^bar');
    assert.equal(parse({ 'filter[search]': ' spaced ' }).search, ' spaced ');
    assert.equal(parse({ 'filter[search]': '' }).search, null);
    assert.equal(parse({ 'filter[search]': 'x'.repeat(200) }).search, 'x'.repeat(200));
    assert.equal(parse({ 'filter[search]': 'é'.repeat(200) }).search?.length, 200);
  });

  test('longer than 200 characters -> 400', () => {
    rejects({ 'filter[search]': 'x'.repeat(201) }, 'filter[search]', /at most 200 characters/);
  });

  test('a pattern JS cannot compile -> 400 with the reason', () => {
    rejects({ 'filter[search]': 'foo(' }, 'filter[search]', /not a valid regular expression: .*Unterminated group/);
    rejects({ 'filter[search]': '[z-a]' }, 'filter[search]', /not a valid regular expression/);
    rejects({ 'filter[search]': '*' }, 'filter[search]', /not a valid regular expression/);
  });

  test('backreferences -> 400; an escaped backslash before a digit is fine', () => {
    rejects({ 'filter[search]': '(a)\\1' }, 'filter[search]', /backreferences \(\\1\)/);
    rejects({ 'filter[search]': '(a)(b)\\9' }, 'filter[search]', /backreferences/);
    assert.equal(parse({ 'filter[search]': 'a\\\\1' }).search, 'a\\\\1');
    assert.equal(parse({ 'filter[search]': '\\d+\\.\\w' }).search, '\\d+\\.\\w');
  });

  test('operators, repeats and NUL -> 400', () => {
    rejects({ 'filter[search][eq]': 'x' }, 'filter[search][eq]', /does not take an operator/);
    rejects({ 'filter[search]': ['a', 'b'] }, 'filter[search]', /only once/);
    rejects({ 'filter[search]': 'a\u0000' }, 'filter[search]', /NUL/);
  });

  test('a resource without searchable attributes has no filter[search]', () => {
    rejects({ 'filter[search]': 'x' }, 'filter[search]', /Unknown filter 'search'/, plain);
  });
});

describe('parseListQuery: extra filters', () => {
  test('declared extra filters land in extra as given', () => {
    const q = parse({ 'filter[mine]': ' true ' });
    assert.deepEqual(q.extra, { mine: ' true ' });
    assert.deepEqual(q.filters, []);
  });

  test('a filterable attribute wins over an extra filter of the same name', () => {
    const q = parse({ 'filter[name]': 'x' });
    assert.deepEqual(q.extra, {});
    assert.equal(q.filters[0].attribute, 'name');
  });

  test('operators or repeats on extra filters -> 400', () => {
    rejects({ 'filter[mine][eq]': 'true' }, 'filter[mine][eq]', /does not take an operator/);
    rejects({ 'filter[mine]': ['a', 'b'] }, 'filter[mine]', /only once/);
  });
});

describe('parseListQuery: cursor pagination', () => {
  const token = (query: FlatQuery, values: unknown[], secret = opts.cursorSecret) =>
    encodeCursor(parse(query).fingerprint, values as never, secret);
  const boundary = [3, '2024-05-01T00:00:00.123456Z', '0e3b0b8a-4c1f-4b7a-9c63-6f0a1d2e3f40'];

  test('page[after] decodes the boundary values', () => {
    const after = token({ sort: '-position' }, boundary);
    assert.deepEqual(parse({ sort: '-position', 'page[after]': after, 'page[size]': '5' }).page, {
      mode: 'cursor',
      direction: 'after',
      cursor: after,
      values: boundary,
      size: 5,
    });
    const before = parse({ sort: '-position', 'page[before]': after }).page;
    assert.equal(before.mode === 'cursor' && before.direction, 'before');
  });

  test('null values are allowed for nullable keys only', () => {
    const ok = token({}, [null, '2024-05-01T00:00:00.000000Z', boundary[2]]);
    assert.deepEqual(parse({ 'page[after]': ok }).page.mode, 'cursor');
    rejects({ 'page[after]': token({}, [3, null, boundary[2]]) }, 'page[after]', /^Invalid cursor$/);
  });

  test('values of the wrong type or count -> Invalid cursor', () => {
    rejects({ 'page[after]': token({}, ['3', 'not a date', boundary[2]]) }, 'page[after]', /^Invalid cursor$/);
    rejects({ 'page[after]': token({}, [1.5, boundary[1], boundary[2]]) }, 'page[after]', /^Invalid cursor$/);
    rejects({ 'page[after]': token({}, [3, boundary[1]]) }, 'page[after]', /^Invalid cursor$/);
    rejects({ sort: 'active', 'page[after]': token({ sort: 'active' }, ['true', boundary[1], boundary[2]]) }, 'page[after]', /^Invalid cursor$/);
    rejects({ sort: 'score', 'page[after]': token({ sort: 'score' }, ['1.5x', boundary[1], boundary[2]]) }, 'page[after]', /^Invalid cursor$/);
    rejects({ sort: 'name', 'page[after]': token({ sort: 'name' }, [1, boundary[1], boundary[2]]) }, 'page[after]', /^Invalid cursor$/);
    rejects({ sort: 'name', 'page[after]': token({ sort: 'name' }, ['a', boundary[1], 7]) }, 'page[after]', /^Invalid cursor$/);
    assert.equal(parse({ sort: 'score', 'page[after]': token({ sort: 'score' }, ['1.5', boundary[1], boundary[2]]) }).page.mode, 'cursor');
  });

  test('an integer key accepts a bigint string from the driver', () => {
    assert.equal(parse({ 'page[after]': token({}, ['9007199254740993', boundary[1], boundary[2]]) }).page.mode, 'cursor');
  });

  test('tampered, undecodable or foreign cursors -> 400 Invalid cursor', () => {
    const good = token({}, boundary);
    const flipped = (good[5] === 'A' ? 'B' : 'A');
    rejects({ 'page[after]': good.slice(0, 5) + flipped + good.slice(6) }, 'page[after]', /^Invalid cursor$/);
    rejects({ 'page[after]': good.slice(0, -3) }, 'page[after]', /^Invalid cursor$/);
    rejects({ 'page[after]': 'not a cursor!' }, 'page[after]', /^Invalid cursor$/);
    rejects({ 'page[after]': '' }, 'page[after]', /^Invalid cursor$/);
    rejects({ 'page[before]': token({}, boundary, 'other-secret') }, 'page[before]', /^Invalid cursor$/);
    rejects({ 'page[after]': Buffer.from('{"v":[1]}').toString('base64url') }, 'page[after]', /^Invalid cursor$/);
  });

  test('a cursor issued under another sort, filter or search -> 400 stale cursor', () => {
    const c = token({ sort: '-position', 'filter[name]': 'a,b', 'filter[search]': 'x' }, boundary);
    const base = { sort: '-position', 'filter[name]': 'a,b', 'filter[search]': 'x' };
    assert.equal(parse({ ...base, 'page[after]': c }).page.mode, 'cursor');
    // Same filter, other spelling: still valid.
    assert.equal(parse({ ...base, 'filter[name][in]': 'b, a', 'filter[name]': undefined, 'page[after]': c }).page.mode, 'cursor');
    rejects({ ...base, sort: 'position', 'page[after]': c }, 'page[after]', /Stale cursor/);
    rejects({ ...base, 'filter[name]': 'a', 'page[after]': c }, 'page[after]', /Stale cursor/);
    rejects({ ...base, 'filter[search]': 'y', 'page[after]': c }, 'page[after]', /Stale cursor/);
    rejects({ ...base, 'filter[mine]': '1', 'page[after]': c }, 'page[after]', /Stale cursor/);
    rejects({ sort: '-position', 'page[after]': c }, 'page[after]', /Stale cursor/);
  });

  test('a scope of the route is applied and binds its cursors: another scope finds them stale', () => {
    const scope = (owner: string) => ({ ...opts, scope: [{ attribute: 'owner_id', operator: 'eq' as const, values: [owner], parameter: 'owner_id' }] });
    const [mine, theirs] = ['0e3b0b8a-4c1f-4b7a-9c63-6f0a1d2e3f41', '0e3b0b8a-4c1f-4b7a-9c63-6f0a1d2e3f42'];
    const q = parseListQuery(schema, { 'filter[kind]': 'a' }, scope(mine));
    assert.deepEqual(q.filters.map((f) => [f.attribute, f.values]), [['owner_id', [mine]], ['kind', ['a']]]);
    const c = encodeCursor(q.fingerprint, boundary as never, opts.cursorSecret);
    assert.equal(parseListQuery(schema, { 'filter[kind]': 'a', 'page[after]': c }, scope(mine)).page.mode, 'cursor');
    assert.throws(() => parseListQuery(schema, { 'filter[kind]': 'a', 'page[after]': c }, scope(theirs)), /Stale cursor/);
  });

  test('the page size may change between cursor pages', () => {
    const c = token({}, boundary);
    assert.equal(parse({ 'page[after]': c, 'page[size]': '7' }).page.size, 7);
  });

  test('page[after] with page[before], with page[number], or on a resource without cursors -> 400', () => {
    const c = token({}, boundary);
    rejects({ 'page[after]': c, 'page[before]': c }, 'page[before]', /cannot be combined/);
    rejects({ 'page[after]': c, 'page[number]': '2' }, 'page[number]', /page\[number\] cannot be combined with page\[after\]/);
    rejects({ 'page[before]': c, 'page[number]': '1' }, 'page[number]', /page\[before\]/);
    rejects({ 'page[after]': c }, 'page[after]', /Cursor pagination is not supported for plains/, plain);
    rejects({ 'page[before]': c }, 'page[before]', /not supported/, plain);
    rejects({ 'page[after]': [c, c] }, 'page[after]', /only once/);
  });
});

describe('filterOperatorsOf', () => {
  test('operators by type, narrowed by an explicit list', () => {
    const all = ['eq', 'not_eq', 'gt', 'gte', 'lt', 'lte', 'in', 'not_in', 'null', 'not_null'];
    const eq = ['eq', 'not_eq', 'in', 'not_in', 'null', 'not_null'];
    assert.deepEqual(filterOperatorsOf({ type: 'integer', filter: true }), all);
    assert.deepEqual(filterOperatorsOf({ type: 'number', filter: true }), all);
    assert.deepEqual(filterOperatorsOf({ type: 'date-time', filter: true }), all);
    assert.deepEqual(filterOperatorsOf({ type: 'string', filter: true }), eq);
    assert.deepEqual(filterOperatorsOf({ type: 'string', format: 'uuid', filter: true }), eq);
    assert.deepEqual(filterOperatorsOf({ type: 'boolean', filter: true }), eq);
    assert.deepEqual(filterOperatorsOf({ type: 'array', items: { type: 'string' }, filter: true }), eq);
    assert.deepEqual(filterOperatorsOf({ type: 'array', items: { type: 'object' }, filter: true }), []);
    assert.deepEqual(filterOperatorsOf({ type: 'object', filter: true }), []);
    assert.deepEqual(filterOperatorsOf({ type: 'string', filter: false }), []);
    assert.deepEqual(filterOperatorsOf({ type: 'string' }), []);
    assert.deepEqual(filterOperatorsOf({ type: 'string', filter: ['eq', 'gt'] }), ['eq']);
    assert.deepEqual(filterOperatorsOf({ type: 'integer', filter: ['lt', 'eq'] }), ['eq', 'lt']);
  });
});

describe('fingerprint', () => {
  test('depends on sort, filters, search and extra but not on page or include', () => {
    const fp = (query: FlatQuery) => parse(query).fingerprint;
    const base = fp({ sort: 'name' });
    assert.equal(fp({ sort: 'name', 'page[size]': '3', 'page[number]': '2', include: 'owner' }), base);
    assert.equal(fp({ sort: ' name ' }), base);
    assert.notEqual(fp({ sort: '-name' }), base);
    assert.notEqual(fp({ sort: 'name', 'filter[position][gt]': '1' }), base);
    assert.notEqual(fp({ sort: 'name', 'filter[position][gt]': '1' }), fp({ sort: 'name', 'filter[position][gte]': '1' }));
    assert.equal(fp({ 'filter[name]': 'a', 'filter[position][gt]': '1' }), fp({ 'filter[position][gt]': '1', 'filter[name][in]': 'a' }));
    assert.equal(fp({ 'filter[position][null]': 'true' }), fp({ 'filter[position][not_null]': 'false' }));
    assert.notEqual(fp({ 'filter[search]': 'a' }), fp({}));
    assert.notEqual(parseListQuery({ ...schema, type: 'others' }, {}, opts).fingerprint, fp({}));
  });
});
