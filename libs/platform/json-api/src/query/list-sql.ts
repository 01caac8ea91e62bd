import { columnOf, parentAttributeOf, type ResourceSchema } from '../resource/resource-schema';
import { encodeCursor, type CursorValue } from './cursor';
import { attributeOf, isNullableField, scalarTypeOf, type ListFilter, type ListQuery, type SortField } from './list-query';

/**
 * SQL of a list request over a resource's read model (PostgreSQL 15+). Identifiers come from
 * the declaration and are always double-quoted; every value is a bind parameter.
 */
export interface ListSql {
  dataSql: string;
  dataParams: unknown[];
  countSql: string;
  countParams: unknown[];
}

export interface PageOfRows<Row> {
  /** At most `size` rows, in the requested order (a `page[before]` page is reversed back). */
  rows: Row[];
  hasNext: boolean;
  hasPrev: boolean;
  /** Cursor of the last row when there is a next page (cursor-enabled resources only). */
  nextCursor: string | null;
  /** Cursor of the first row when there is a previous page (cursor-enabled resources only). */
  prevCursor: string | null;
}

/** Quotes an SQL identifier (same rule as `quoteIdent` of `@taproot/persistence`, which this platform lib does not import). */
export function quoteIdent(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

/** Select-list alias of a date-time sort key rendered as exact text for cursors. */
export function cursorAlias(field: string): string {
  return `__${field}_cursor`;
}

/**
 * Exact, session-independent text of a timestamptz: ISO 8601 in UTC with microseconds
 * (`2024-05-01T12:00:00.123456Z`). `::text` would follow the session's DateStyle/TimeZone and
 * a `Date` in JS would drop the microseconds; this round-trips through `::timestamptz`.
 */
function timestampText(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

function columnSql(schema: ResourceSchema, field: string): string {
  return quoteIdent(field === 'id' ? 'id' : columnOf(schema, field));
}

/**
 * Casts given to bind parameters compared with scalar columns: date-times are strings that
 * Postgres must read as timestamptz; integers are compared as bigint so an out-of-int4-range
 * value cannot fail the query. Other types take the column's type by inference.
 */
function castFor(schema: ResourceSchema, field: string): string {
  const def = field === 'id' ? undefined : attributeOf(schema, field);
  if (def?.type === 'date-time') return '::timestamptz';
  if (def?.type === 'integer') return '::bigint';
  return '';
}

/**
 * A filter on an attribute of the parent (`ParentDef.attributes`): the record's parent row in the
 * parent's read model meets it. A correlated EXISTS, so a page probes the parent's primary key
 * row by row.
 */
function parentFilterSql(schema: ResourceSchema, f: ListFilter, params: Params): string {
  const { attribute, readTable, attributes } = schema.parent!;
  const parent: ResourceSchema = { ...schema, readTable: readTable!, attributes: attributes!, parent: undefined };
  const child = quoteIdent(schema.readTable);
  return `EXISTS (SELECT 1 FROM ${quoteIdent(readTable!)} p WHERE p."id" = ${child}.${quoteIdent(attribute)} AND p."organization_id" = ${child}."organization_id" AND ${filterSql(parent, f, params)})`;
}

function filterSql(schema: ResourceSchema, f: ListFilter, params: Params): string {
  if (parentAttributeOf(schema, f.attribute)) return parentFilterSql(schema, f, params);
  const def = attributeOf(schema, f.attribute)!;
  if (def.virtual) throw new Error(`${f.parameter}: the virtual filter ${f.attribute} must be rewritten by the reader before building SQL`);
  const col = columnSql(schema, f.attribute);
  const op = f.operator;
  if (op === 'null' || op === 'not_null') {
    const isNull = op === 'null' ? f.values[0] === true : f.values[0] !== true;
    return `${col} IS ${isNull ? '' : 'NOT '}NULL`;
  }
  if (def.type === 'array') {
    // Arrays of scalars: any-of semantics by overlap; the parameter takes the column's array type.
    const p = params.add(f.values);
    if (op === 'eq' || op === 'in') return `${col} && ${p}`;
    if (op === 'not_eq' || op === 'not_in') return `(${col} IS NULL OR NOT (${col} && ${p}))`;
    throw new Error(`operator ${op} is not supported on array attribute ${f.attribute}`);
  }
  const cast = castFor(schema, f.attribute);
  const one = f.values.length === 1;
  switch (op) {
    case 'eq':
    case 'in':
      return one ? `${col} = ${params.add(f.values[0])}${cast}` : `${col} = ANY(${params.add(f.values)}${cast ? `${cast}[]` : ''})`;
    case 'not_eq':
    case 'not_in':
      // NULL is "not equal" to any value: such rows are kept.
      return one
        ? `(${col} IS NULL OR ${col} <> ${params.add(f.values[0])}${cast})`
        : `(${col} IS NULL OR ${col} <> ALL(${params.add(f.values)}${cast ? `${cast}[]` : ''}))`;
    case 'gt':
      return `${col} > ${params.add(f.values[0])}${cast}`;
    case 'gte':
      return `${col} >= ${params.add(f.values[0])}${cast}`;
    case 'lt':
      return `${col} < ${params.add(f.values[0])}${cast}`;
    case 'lte':
      return `${col} <= ${params.add(f.values[0])}${cast}`;
  }
  throw new Error(`unsupported filter operator ${String(op)}`);
}

function searchSql(schema: ResourceSchema, pattern: string, params: Params): string | null {
  const columns = Object.entries(schema.attributes)
    .filter(([, def]) => def.searchable)
    .map(([name, def]) => {
      const col = quoteIdent(def.column ?? name);
      if (def.type === 'string') return col;
      if (def.type === 'array' && def.items?.type !== 'object') return `array_to_string(${col}, ' ')`;
      return `${col}::text`;
    });
  if (columns.length === 0) return null;
  const p = params.add(pattern);
  return `(${columns.map((c) => `${c} ~* ${p}`).join(' OR ')})`;
}

interface KeysetKey {
  col: string;
  desc: boolean;
  nullable: boolean;
  value: CursorValue;
  /** Placeholder with cast; null when the boundary value is NULL (never bound). */
  ph: string | null;
}

/** Rows strictly after the boundary on one key, honouring Postgres' NULLS LAST (asc) / NULLS FIRST (desc). */
function strictlyAfter(k: KeysetKey): string | null {
  if (!k.nullable) return `${k.col} ${k.desc ? '<' : '>'} ${k.ph}`;
  if (k.value === null) return k.desc ? `${k.col} IS NOT NULL` : null;
  return k.desc ? `${k.col} < ${k.ph}` : `(${k.col} > ${k.ph} OR ${k.col} IS NULL)`;
}

function equalTo(k: KeysetKey): string {
  return k.value === null ? `${k.col} IS NULL` : `${k.col} = ${k.ph}`;
}

/**
 * "Row comes after the boundary" in the order of `keys`. A suffix of non-null keys sharing one
 * direction is a row comparison `(a, b) > ($1, $2)` (served by one index); other keys are
 * expanded `a > $1 OR (a = $1 AND ...)` with explicit NULL handling.
 */
function keysetSql(keys: KeysetKey[], i = 0): string {
  const rest = keys.slice(i);
  if (rest.every((k) => !k.nullable && k.desc === rest[0].desc)) {
    const op = rest[0].desc ? '<' : '>';
    if (rest.length === 1) return `${rest[0].col} ${op} ${rest[0].ph}`;
    return `(${rest.map((k) => k.col).join(', ')}) ${op} (${rest.map((k) => k.ph).join(', ')})`;
  }
  const k = keys[i];
  const strict = strictlyAfter(k);
  if (i === keys.length - 1) return strict ?? 'FALSE';
  const tail = `${equalTo(k)} AND ${keysetSql(keys, i + 1)}`;
  return strict === null ? `(${tail})` : `(${strict} OR (${tail}))`;
}

/** The sort keys as executed: a `page[before]` page runs the reversed order. */
function effectiveSort(q: ListQuery): SortField[] {
  const reverse = q.page.mode === 'cursor' && q.page.direction === 'before';
  return reverse ? q.sort.map((s) => ({ field: s.field, direction: s.direction === 'asc' ? 'desc' : 'asc' })) : q.sort;
}

/** Date-time sort keys, whose exact text the select list carries for cursors. */
function timestampSortFields(schema: ResourceSchema, q: ListQuery): string[] {
  const fields = q.sort.filter((s) => s.field !== 'id' && scalarTypeOf(schema, s.field) === 'date-time').map((s) => s.field);
  return fields.includes('created_at') ? fields : ['created_at', ...fields];
}

export function buildListSql(schema: ResourceSchema, q: ListQuery, organizationId: string): ListSql {
  const table = quoteIdent(schema.readTable);
  const params = new Params();
  const where = [`${quoteIdent('organization_id')} = ${params.add(organizationId)}`];
  for (const f of q.filters) where.push(filterSql(schema, f, params));
  if (q.search !== null) {
    const s = searchSql(schema, q.search, params);
    if (s) where.push(s);
  }
  const countSql = `SELECT count(*)::int AS count FROM ${table} WHERE ${where.join(' AND ')}`;
  const countParams = [...params.values];

  const columns: string[] = [];
  const stored = Object.entries(schema.attributes).filter(([, d]) => !d.virtual);
  for (const c of ['id', 'created_at', 'updated_at', ...stored.map(([n, d]) => d.column ?? n)]) {
    const quoted = quoteIdent(c);
    if (!columns.includes(quoted)) columns.push(quoted);
  }
  for (const field of timestampSortFields(schema, q)) {
    columns.push(`${timestampText(columnSql(schema, field))} AS ${quoteIdent(cursorAlias(field))}`);
  }

  const sort = effectiveSort(q);
  if (q.page.mode === 'cursor') {
    const values = q.page.values;
    const keys: KeysetKey[] = sort.map((s, i) => ({
      col: columnSql(schema, s.field),
      desc: s.direction === 'desc',
      nullable: isNullableField(schema, s.field) || values[i] === null,
      value: values[i],
      ph: values[i] === null ? null : `${params.add(values[i])}${castFor(schema, s.field)}`,
    }));
    where.push(keysetSql(keys));
  }
  const orderBy = sort.map((s) => `${columnSql(schema, s.field)} ${s.direction === 'desc' ? 'DESC' : 'ASC'}`).join(', ');
  let paging = `LIMIT ${params.add(q.page.size + 1)}`;
  if (q.page.mode === 'offset') paging += ` OFFSET ${params.add((q.page.number - 1) * q.page.size)}`;

  const dataSql = `SELECT ${columns.join(', ')} FROM ${table} WHERE ${where.join(' AND ')} ORDER BY ${orderBy} ${paging}`;
  return { dataSql, dataParams: params.values, countSql, countParams };
}

/** The boundary values of `row` for the query's sort keys (timestamps from their exact text). */
export function cursorValuesOf(schema: ResourceSchema, q: ListQuery, row: Record<string, unknown>): CursorValue[] {
  return q.sort.map((s) => {
    if (s.field !== 'id' && scalarTypeOf(schema, s.field) === 'date-time') {
      const text = row[cursorAlias(s.field)];
      if (text === null) return null;
      if (typeof text !== 'string') {
        throw new Error(`row lacks ${cursorAlias(s.field)}: cursors need the select list of buildListSql`);
      }
      return text;
    }
    const value = row[s.field === 'id' ? 'id' : columnOf(schema, s.field)];
    if (value === null || value === undefined) return null;
    if (typeof value === 'string' || typeof value === 'boolean') return value;
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    if (typeof value === 'bigint') return value.toString();
    throw new Error(`cannot put ${s.field} (${typeof value}) in a cursor`);
  });
}

export function cursorForRow(
  schema: ResourceSchema,
  q: ListQuery,
  row: Record<string, unknown>,
  opts: { cursorSecret: string },
): string {
  return encodeCursor(q.fingerprint, cursorValuesOf(schema, q, row), opts.cursorSecret);
}

/**
 * Turns the `size + 1` fetched rows into one page: trims the look-ahead row, restores the
 * order of a `page[before]` page, drops the cursor helper columns and, for cursor-enabled
 * resources, signs the cursors of the first and last rows. In offset mode `hasPrev` is
 * `number > 1` and `nextCursor` lets a client switch to keyset paging after page 1.
 */
export function pageFromRows<Row extends Record<string, unknown>>(
  schema: ResourceSchema,
  q: ListQuery,
  rows: Row[],
  opts: { cursorSecret: string },
): PageOfRows<Row> {
  const size = q.page.size;
  const more = rows.length > size;
  let page = rows.slice(0, size);
  let hasNext: boolean;
  let hasPrev: boolean;
  if (q.page.mode === 'offset') {
    hasNext = more;
    hasPrev = q.page.number > 1;
  } else if (q.page.direction === 'after') {
    hasNext = more;
    hasPrev = true; // the boundary row precedes this page
  } else {
    page = page.reverse();
    hasPrev = more;
    hasNext = page.length > 0; // the boundary row follows this page
  }
  const first = page[0];
  const last = page[page.length - 1];
  const nextCursor = schema.cursor && hasNext && last ? cursorForRow(schema, q, last, opts) : null;
  const prevCursor = schema.cursor && hasPrev && first ? cursorForRow(schema, q, first, opts) : null;

  const helpers = timestampSortFields(schema, q).map(cursorAlias);
  const clean = page.map((row) => {
    if (!helpers.some((h) => h in row)) return row;
    const copy: Record<string, unknown> = { ...row };
    for (const h of helpers) delete copy[h];
    return copy as Row;
  });
  return { rows: clean, hasNext, hasPrev, nextCursor, prevCursor };
}
