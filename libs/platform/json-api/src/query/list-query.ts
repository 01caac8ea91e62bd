import { JsonApiError } from '../errors/json-api-error';
import {
  FILTER_OPERATORS,
  isJsonAttribute,
  listFilterOf,
  parentAttributeOf,
  TIMESTAMP_ATTRIBUTES,
  type AttributeDef,
  type FilterOperator,
  type ResourceSchema,
  type ScalarType,
} from '../resource/resource-schema';
import { decodeCursor, fingerprintOf, type CursorValue } from './cursor';

/** The request's query object as Fastify's default parser gives it (flat keys, repeats as arrays). */
export type FlatQuery = Record<string, string | string[] | undefined>;

export const DEFAULT_PAGE_SIZE = 20;
/** A larger `page[size]` is clamped to this, not refused. */
export const MAX_PAGE_SIZE = 100;
/** Longest `filter[search]` pattern, in characters (code points). */
export const MAX_SEARCH_LENGTH = 200;
/** Most values one filter parameter may list. */
export const MAX_FILTER_VALUES = 100;

export type SortDirection = 'asc' | 'desc';

/** One ORDER BY key: an attribute name, or `id` (the final tiebreaker). */
export interface SortField {
  field: string;
  direction: SortDirection;
}

export type FilterValue = string | number | boolean;

/**
 * One `filter[attribute][operator]=values` condition, values coerced to the attribute's type
 * (date-times as normalised ISO strings in UTC, integers/numbers as numbers, booleans as
 * booleans, uuids lower-cased). For `null`/`not_null` `values` is `[true]` or `[false]`.
 */
export interface ListFilter {
  attribute: string;
  operator: FilterOperator;
  values: FilterValue[];
  /** The query key this came from, e.g. `filter[name][eq]`. */
  parameter: string;
}

export type ListPage =
  | { mode: 'offset'; number: number; size: number }
  | {
      mode: 'cursor';
      /** `after`: rows following the boundary row; `before`: rows preceding it. */
      direction: 'after' | 'before';
      /** The token as the client sent it. */
      cursor: string;
      /** Boundary row's values, one per `sort` key. */
      values: CursorValue[];
      size: number;
    };

export interface ListQuery {
  page: ListPage;
  /** Full, deterministic order: the client's (or default) keys, then `created_at`, then `id`. */
  sort: SortField[];
  /** AND-ed attribute filters. */
  filters: ListFilter[];
  /** `filter[search]` regex (case-insensitive), or null. */
  search: string | null;
  /** Relationship names of `include`. */
  include: string[];
  /** `schema.extraFilters` values (other than `search`) for the resource's own handler. */
  extra: Record<string, string>;
  /** Fingerprint of sort + filters + search + extra, bound into cursors. */
  fingerprint: string;
}

export interface ParseListQueryOptions {
  cursorSecret: string;
  /**
   * Conditions of the route, not of the client (a nested collection's parent): applied with the
   * client's filters and bound into cursors, so a cursor of one parent is stale under another.
   */
  scope?: ListFilter[];
}

const TIEBREAKERS = ['created_at', 'id'] as const;

/**
 * Declared attribute, falling back to the timestamp attributes every resource has, then to its
 * parent's (`ParentDef.attributes`), then to the list filters named otherwise (`listFilters`).
 */
export function attributeOf(schema: ResourceSchema, name: string): AttributeDef | undefined {
  if (Object.prototype.hasOwnProperty.call(schema.attributes, name)) return schema.attributes[name];
  if (Object.prototype.hasOwnProperty.call(TIMESTAMP_ATTRIBUTES, name)) return TIMESTAMP_ATTRIBUTES[name];
  return parentAttributeOf(schema, name) ?? listFilterOf(schema, name);
}

/** Scalar type a filter/sort key compares as (`id` is a uuid string; arrays use their item type). */
export function scalarTypeOf(schema: ResourceSchema, field: string): ScalarType | 'object' {
  if (field === 'id') return 'string';
  const def = attributeOf(schema, field);
  if (!def) throw new Error(`${schema.type} has no attribute ${field}`);
  if (def.type === 'array') return def.items?.type ?? 'string';
  return def.type;
}

/**
 * Whether the read-model column may hold NULL. Conservative: only `id`, the timestamps and
 * required non-nullable attributes are known to be filled (the projection stores NULL for an
 * attribute a snapshot lacks).
 */
export function isNullableField(schema: ResourceSchema, field: string): boolean {
  if (field === 'id' || field === 'created_at' || field === 'updated_at') return false;
  const def = attributeOf(schema, field);
  if (def?.alwaysStored) return false;
  return !(def?.required === true && def.nullable !== true);
}

const ALL_OPERATORS: readonly FilterOperator[] = FILTER_OPERATORS;
const EQUALITY_OPERATORS: readonly FilterOperator[] = ['eq', 'not_eq', 'in', 'not_in', 'null', 'not_null'];

/** Operators an attribute accepts: those valid for its type, narrowed by an explicit list. */
export function filterOperatorsOf(def: AttributeDef): FilterOperator[] {
  if (!def.filter) return [];
  if (isJsonAttribute(def) || def.type === 'object') return [];
  let valid: readonly FilterOperator[];
  switch (def.type) {
    case 'integer':
    case 'number':
    case 'date-time':
      valid = ALL_OPERATORS;
      break;
    default:
      // string (incl. uuid/enum), boolean, and arrays of scalars (overlap semantics)
      valid = EQUALITY_OPERATORS;
  }
  if (def.filter === true) return [...valid];
  return valid.filter((op) => (def.filter as readonly FilterOperator[]).includes(op));
}

function isSortableDef(def: AttributeDef | undefined): boolean {
  return !!def && def.sortable === true && def.type !== 'object' && def.type !== 'array';
}

// ---------------------------------------------------------------------------------------------
// Value coercion

const INTEGER_RE = /^-?\d+$/;
const NUMBER_RE = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/**
 * `YYYY-MM-DD`, or date + `T`/space + `HH:MM[:SS[.fraction]]` + `Z` or `±HH:MM` / `±HHMM`.
 * A ` HH:MM` offset is read as `+HH:MM`: an unencoded `+` in a query string decodes to a space.
 */
const DATE_TIME_RE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:([Zz])|([+\- ])(\d{2}):?(\d{2})))?$/;

function daysInMonth(year: number, month: number): number {
  return [31, year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][
    month - 1
  ];
}

/**
 * Strict ISO 8601 / RFC 3339 date-time (offset required) or plain date (midnight UTC),
 * normalised to `YYYY-MM-DDTHH:MM:SS.fffZ` in UTC; fraction digits beyond milliseconds are
 * kept (Postgres rounds them to microseconds). Returns null when invalid.
 */
export function normalizeDateTime(input: string): string | null {
  const m = DATE_TIME_RE.exec(input);
  if (!m) return null;
  const [, y, mo, d, hh, mi, ss, frac, z, sign, oh, om] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hh === undefined) {
    const ms = Date.parse(`${y}-${mo}-${d}T00:00:00.000Z`);
    return Number.isNaN(ms) ? null : new Date(ms).toISOString();
  }
  if (!z && !sign) return null; // a time needs Z or an offset
  if (Number(hh) > 23 || Number(mi) > 59 || Number(ss ?? '0') > 59) return null;
  if (sign && (Number(oh) > 23 || Number(om) > 59)) return null;
  const fraction = frac ?? '';
  const offset = z ? 'Z' : `${sign === '-' ? '-' : '+'}${oh}:${om}`;
  const canonical = `${y}-${mo}-${d}T${hh}:${mi}:${ss ?? '00'}.${fraction.slice(0, 3).padEnd(3, '0')}${offset}`;
  const ms = Date.parse(canonical);
  if (Number.isNaN(ms)) return null;
  const iso = new Date(ms).toISOString();
  if (fraction.length <= 3) return iso;
  // Sub-millisecond digits do not change with the offset (whole minutes), so keep them.
  return `${iso.slice(0, 20)}${fraction}Z`;
}

function badValue(parameter: string, value: string, expected: string): JsonApiError {
  return JsonApiError.badParameter(parameter, `Invalid value '${value}' for ${parameter}: expected ${expected}`);
}

function coerce(def: AttributeDef, parameter: string, value: string): FilterValue {
  const isArray = def.type === 'array';
  const type: ScalarType | 'object' = isArray ? (def.items?.type ?? 'string') : (def.type as ScalarType);
  const format = isArray ? def.items?.format : def.format;
  const enumValues = isArray ? def.items?.enum : def.enum;
  switch (type) {
    case 'integer': {
      const n = Number(value);
      if (!INTEGER_RE.test(value) || !Number.isSafeInteger(n)) throw badValue(parameter, value, 'an integer');
      return n === 0 ? 0 : n; // no -0
    }
    case 'number': {
      const n = Number(value);
      if (!NUMBER_RE.test(value) || !Number.isFinite(n)) throw badValue(parameter, value, 'a number');
      return n === 0 ? 0 : n;
    }
    case 'boolean':
      if (value === 'true') return true;
      if (value === 'false') return false;
      throw badValue(parameter, value, 'true or false');
    case 'date-time': {
      const iso = normalizeDateTime(value);
      if (iso === null) {
        throw badValue(parameter, value, 'an RFC 3339 date-time with Z or an offset (e.g. 2024-05-01T12:00:00Z) or a date (YYYY-MM-DD)');
      }
      return iso;
    }
    case 'string': {
      if (format === 'uuid') {
        if (!UUID_RE.test(value)) throw badValue(parameter, value, 'a uuid');
        return value.toLowerCase();
      }
      if (enumValues && !enumValues.map(String).includes(value)) {
        throw badValue(parameter, value, `one of ${enumValues.join(', ')}`);
      }
      return value;
    }
    default:
      throw JsonApiError.badParameter(parameter, `${parameter} is not filterable`);
  }
}

// ---------------------------------------------------------------------------------------------
// Parameter helpers

function asSingle(key: string, raw: string | string[]): string {
  if (Array.isArray(raw)) throw JsonApiError.badParameter(key, `${key} must be given only once`);
  if (typeof raw !== 'string') throw JsonApiError.badParameter(key, `${key} must be a string`);
  return raw;
}

function asList(key: string, raw: string | string[]): string[] {
  const parts = Array.isArray(raw) ? raw : [raw];
  if (!parts.every((p) => typeof p === 'string')) throw JsonApiError.badParameter(key, `${key} must be a string`);
  return parts
    .flatMap((p) => p.split(','))
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
}

function positiveInteger(key: string, raw: string): number {
  const value = raw.trim();
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1) {
    throw JsonApiError.badParameter(key, `${key} must be an integer >= 1, got '${raw}'`);
  }
  return n;
}

const PAGE_KEY = /^page\[(number|size|after|before)\]$/;
const FILTER_KEY = /^filter\[([^[\]]+)\](?:\[([^[\]]+)\])?$/;
const BRACKETED = /^[a-z_]+(\[[^[\]]*\])+$/i;

/**
 * Parses a sort expression (`name,-created_at`): comma list, `-` = descending, whitespace
 * trimmed, empty items skipped. Unknown, unsortable or repeated fields -> 400 naming `parameter`.
 */
export function parseSortExpression(schema: ResourceSchema, expression: string, parameter = 'sort'): SortField[] {
  const fields: SortField[] = [];
  const seen = new Set<string>();
  for (const item of expression.split(',').map((s) => s.trim())) {
    if (item.length === 0) continue;
    const descending = item.startsWith('-');
    const field = (descending ? item.slice(1) : item).trim();
    if (field.length === 0) throw JsonApiError.badParameter(parameter, `Invalid sort field '${item}'`);
    const def = attributeOf(schema, field);
    if (!def) throw JsonApiError.badParameter(parameter, `Unknown sort field '${field}'`);
    if (!isSortableDef(def)) throw JsonApiError.badParameter(parameter, `'${field}' is not sortable`);
    if (seen.has(field)) throw JsonApiError.badParameter(parameter, `Duplicate sort field '${field}'`);
    seen.add(field);
    fields.push({ field, direction: descending ? 'desc' : 'asc' });
  }
  return fields;
}

/** Appends `created_at` then `id` (unless present) in the direction of the last explicit key. */
export function withTiebreakers(fields: SortField[]): SortField[] {
  const direction: SortDirection = fields.length > 0 ? fields[fields.length - 1].direction : 'asc';
  const out = [...fields];
  for (const field of TIEBREAKERS) {
    if (!out.some((f) => f.field === field)) out.push({ field, direction });
  }
  return out;
}

/** Canonical form of the row-set-deciding parts of a query, hashed into cursors. */
export function listFingerprint(
  schema: ResourceSchema,
  parts: Pick<ListQuery, 'sort' | 'filters' | 'search' | 'extra'>,
): string {
  const filters = parts.filters
    .map((f) => {
      switch (f.operator) {
        case 'eq':
        case 'in':
          return [f.attribute, 'in', [...new Set(f.values.map((v) => JSON.stringify(v)))].sort()];
        case 'not_eq':
        case 'not_in':
          return [f.attribute, 'not_in', [...new Set(f.values.map((v) => JSON.stringify(v)))].sort()];
        case 'null':
          return [f.attribute, 'null', f.values[0]];
        case 'not_null':
          return [f.attribute, 'null', !f.values[0]];
        default:
          return [f.attribute, f.operator, f.values];
      }
    })
    .map((f) => JSON.stringify(f))
    .sort();
  const extra = Object.keys(parts.extra)
    .sort()
    .map((k) => [k, parts.extra[k]]);
  return fingerprintOf([
    schema.type,
    parts.sort.map((s) => `${s.direction === 'desc' ? '-' : ''}${s.field}`),
    filters,
    parts.search,
    extra,
  ]);
}

// ---------------------------------------------------------------------------------------------
// Search

/** Validates a `filter[search]` pattern; returns null when it is empty. */
function parseSearch(parameter: string, pattern: string): string | null {
  if (pattern.length === 0) return null;
  if ([...pattern].length > MAX_SEARCH_LENGTH) {
    throw JsonApiError.badParameter(parameter, `${parameter} must be at most ${MAX_SEARCH_LENGTH} characters`);
  }
  if (pattern.includes('\u0000')) throw JsonApiError.badParameter(parameter, `${parameter} must not contain NUL characters`);
  try {
    new RegExp(pattern, 'i');
  } catch (error) {
    throw JsonApiError.badParameter(parameter, `${parameter} is not a valid regular expression: ${(error as Error).message}`);
  }
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] !== '\\') continue;
    const next = pattern[i + 1];
    if (next !== undefined && next >= '1' && next <= '9') {
      throw JsonApiError.badParameter(parameter, `${parameter} must not use backreferences (\\${next})`);
    }
    i++; // skip the escaped character (so `\\1` is a literal backslash then 1)
  }
  return pattern;
}

// ---------------------------------------------------------------------------------------------

interface RawFilter {
  key: string;
  attribute: string;
  operator: FilterOperator;
  raw: string | string[];
}

/**
 * The relationship names of `include` (comma-separated, repeats merged), each once, in the order
 * asked: a list's and a single read's alike. A name the declaration does not list is a 400.
 */
export function parseInclude(schema: ResourceSchema, raw: string | string[] | undefined): string[] {
  if (raw === undefined) return [];
  const names: string[] = [];
  for (const name of asList('include', raw)) {
    if (!schema.relationships || !Object.prototype.hasOwnProperty.call(schema.relationships, name)) {
      const known = Object.keys(schema.relationships ?? {});
      throw JsonApiError.badParameter('include', `Unknown relationship '${name}' in include; ${known.length ? `known: ${known.join(', ')}` : `${schema.type} include nothing`}`);
    }
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

/**
 * Turns a list request's query string into a validated `ListQuery`; every problem is a 400
 * naming the parameter (`JsonApiError.badParameter`). Unknown top-level parameters are ignored;
 * unknown `page[...]`/`filter[...]` keys are refused.
 *
 * Repeated keys are refused, except `include` and the list-valued filters (`eq`, `not_eq`,
 * `in`, `not_in`), whose repeats are merged as if comma-joined.
 */
export function parseListQuery(schema: ResourceSchema, query: FlatQuery, opts: ParseListQueryOptions): ListQuery {
  let pageNumber: number | undefined;
  let pageSize = DEFAULT_PAGE_SIZE;
  let after: string | undefined;
  let before: string | undefined;
  let sortRaw: string | undefined;
  let include: string[] = [];
  let search: string | null = null;
  const rawFilters: RawFilter[] = [];
  const extra: Record<string, string> = {};
  const searchable = Object.values(schema.attributes).some((a) => a.searchable);

  for (const [key, raw] of Object.entries(query ?? {})) {
    if (raw === undefined) continue;

    if (key === 'page' || key.startsWith('page[')) {
      const m = PAGE_KEY.exec(key);
      if (!m) {
        throw JsonApiError.badParameter(
          key,
          /^page\[[^[\]]*\]$/.test(key)
            ? `Unknown page parameter ${key}; use page[number], page[size], page[after] or page[before]`
            : `Malformed page parameter ${key}`,
        );
      }
      const value = asSingle(key, raw);
      switch (m[1]) {
        case 'number':
          pageNumber = positiveInteger(key, value);
          break;
        case 'size':
          pageSize = Math.min(positiveInteger(key, value), MAX_PAGE_SIZE);
          break;
        case 'after':
          after = value.trim();
          break;
        case 'before':
          before = value.trim();
          break;
      }
      continue;
    }

    if (key === 'filter' || key.startsWith('filter[')) {
      const m = FILTER_KEY.exec(key);
      if (!m) {
        const deep = BRACKETED.test(key) && (key.match(/\[/g)?.length ?? 0) > 2;
        throw JsonApiError.badParameter(
          key,
          deep
            ? `${key} is nested too deeply; use filter[<attribute>] or filter[<attribute>][<operator>]`
            : `Malformed filter parameter ${key}; use filter[<attribute>] or filter[<attribute>][<operator>]`,
        );
      }
      const [, name, op] = m;
      const def = attributeOf(schema, name);
      if (def?.filter) {
        if (op !== undefined && !(FILTER_OPERATORS as readonly string[]).includes(op)) {
          throw JsonApiError.badParameter(key, `Unknown filter operator '${op}' in ${key}; operators: ${FILTER_OPERATORS.join(', ')}`);
        }
        const operator = (op ?? 'eq') as FilterOperator;
        const allowed = filterOperatorsOf(def);
        if (allowed.length === 0) throw JsonApiError.badParameter(key, `'${name}' is not filterable`);
        if (!allowed.includes(operator)) {
          throw JsonApiError.badParameter(key, `Operator '${operator}' is not allowed for '${name}'; allowed: ${allowed.join(', ')}`);
        }
        if (rawFilters.some((f) => f.attribute === name && f.operator === operator)) {
          throw JsonApiError.badParameter(key, `${key} repeats the ${operator} filter on '${name}'`);
        }
        rawFilters.push({ key, attribute: name, operator, raw });
        continue;
      }
      if (name === 'search' && searchable) {
        if (op !== undefined) throw JsonApiError.badParameter(key, 'filter[search] does not take an operator');
        search = parseSearch(key, asSingle(key, raw));
        continue;
      }
      if (name !== 'search' && schema.extraFilters && Object.prototype.hasOwnProperty.call(schema.extraFilters, name)) {
        if (op !== undefined) throw JsonApiError.badParameter(key, `filter[${name}] does not take an operator`);
        const value = asSingle(key, raw);
        // Blank: no filter, as for the attributes' filters below.
        if (value.trim() !== '') extra[name] = value;
        continue;
      }
      if (def) throw JsonApiError.badParameter(key, `'${name}' is not filterable`);
      throw JsonApiError.badParameter(key, `Unknown filter '${name}'`);
    }

    if (key === 'sort') {
      sortRaw = asSingle(key, raw);
      continue;
    }

    if (key === 'include') {
      include = parseInclude(schema, raw);
      continue;
    }
    // Any other top-level parameter is not ours: ignored.
  }

  // Filters: values are coerced once every key is known (a repeat was refused above). A filter
  // without a value filters nothing, as in the hosted API: its Terraform provider's plural data
  // sources send `filter[slug]=` for every member left unset.
  const requested: ListFilter[] = rawFilters.flatMap(({ key, attribute, operator, raw }) => {
    const def = attributeOf(schema, attribute)!;
    const listValued = operator === 'eq' || operator === 'not_eq' || operator === 'in' || operator === 'not_in';
    if (!listValued) asSingle(key, raw);
    const items = asList(key, raw);
    if (items.length === 0) return [];
    if (items.length > MAX_FILTER_VALUES) {
      throw JsonApiError.badParameter(key, `${key} lists more than ${MAX_FILTER_VALUES} values`);
    }
    for (const item of items) {
      if (item.includes('\u0000')) throw JsonApiError.badParameter(key, `${key} must not contain NUL characters`);
    }
    if (operator === 'null' || operator === 'not_null') {
      if (items.length !== 1 || (items[0] !== 'true' && items[0] !== 'false')) {
        throw badValue(key, items.join(','), 'true or false');
      }
      return { attribute, operator, values: [items[0] === 'true'], parameter: key };
    }
    if (!listValued && items.length !== 1) {
      throw JsonApiError.badParameter(key, `${key} takes exactly one value, got '${items.join(',')}'`);
    }
    return { attribute, operator, values: items.map((v) => coerce(def, key, v)), parameter: key };
  });
  const filters = [...(opts.scope ?? []), ...requested];

  // Sort
  let explicit: SortField[] = sortRaw === undefined ? [] : parseSortExpression(schema, sortRaw, 'sort');
  if (explicit.length === 0) {
    try {
      explicit = parseSortExpression(schema, schema.defaultSort ?? '', 'sort');
    } catch (error) {
      throw new Error(`invalid defaultSort '${schema.defaultSort}' of ${schema.type}: ${(error as Error).message}`);
    }
  }
  const sort = withTiebreakers(explicit);
  const fingerprint = listFingerprint(schema, { sort, filters, search, extra });

  // Page
  let page: ListPage;
  if (after !== undefined || before !== undefined) {
    const parameter = after !== undefined ? 'page[after]' : 'page[before]';
    if (!schema.cursor) {
      throw JsonApiError.badParameter(parameter, `Cursor pagination is not supported for ${schema.type}; use page[number]`);
    }
    if (after !== undefined && before !== undefined) {
      throw JsonApiError.badParameter('page[before]', 'page[after] and page[before] cannot be combined');
    }
    if (pageNumber !== undefined) {
      throw JsonApiError.badParameter('page[number]', `page[number] cannot be combined with ${parameter}`);
    }
    const cursor = (after ?? before)!;
    const values = decodeCursor(cursor, { secret: opts.cursorSecret, fingerprint, parameter });
    validateCursorValues(schema, sort, values, parameter);
    page = { mode: 'cursor', direction: after !== undefined ? 'after' : 'before', cursor, values, size: pageSize };
  } else {
    page = { mode: 'offset', number: pageNumber ?? 1, size: pageSize };
    if (!Number.isSafeInteger((page.number - 1) * page.size)) {
      throw JsonApiError.badParameter('page[number]', 'page[number] is too large');
    }
  }

  return { page, sort, filters, search, include, extra, fingerprint };
}

/** A signed cursor is still checked against the sort keys it must describe. */
function validateCursorValues(schema: ResourceSchema, sort: SortField[], values: CursorValue[], parameter: string): void {
  const invalid = () => JsonApiError.badParameter(parameter, 'Invalid cursor');
  if (values.length !== sort.length) throw invalid();
  sort.forEach((key, i) => {
    const v = values[i];
    if (v === null) {
      if (!isNullableField(schema, key.field)) throw invalid();
      return;
    }
    switch (scalarTypeOf(schema, key.field)) {
      case 'date-time':
        if (typeof v !== 'string' || normalizeDateTime(v) === null) throw invalid();
        break;
      case 'integer':
        if (!(typeof v === 'number' ? Number.isSafeInteger(v) : typeof v === 'string' && INTEGER_RE.test(v))) throw invalid();
        break;
      case 'number':
        if (!(typeof v === 'number' || (typeof v === 'string' && NUMBER_RE.test(v)))) throw invalid();
        break;
      case 'boolean':
        if (typeof v !== 'boolean') throw invalid();
        break;
      default:
        if (typeof v !== 'string') throw invalid();
    }
  });
}
