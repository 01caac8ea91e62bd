import { parse, type Filter } from 'scim2-parse-filter';
import { ScimError } from './scim-errors';

/** A filterable attribute: the SQL expression it reads and how RFC 7643 compares it. */
export interface ScimAttribute {
  sql: string;
  type: 'string' | 'boolean' | 'dateTime';
  /** RFC 7643 §2.2 `caseExact`; strings compare case-insensitively otherwise. */
  caseExact?: boolean;
}

/** By attribute path, lower-cased (`username`, `emails.value`, `meta.created`). */
export type ScimAttributes = Readonly<Record<string, ScimAttribute>>;

const fail = (detail: string) => new ScimError(400, detail, 'invalidFilter');

/** `urn:ietf:params:scim:schemas:core:2.0:User:userName` and `userName` name the same attribute. */
function attributeOf(attributes: ScimAttributes, path: string): ScimAttribute {
  const bare = path.startsWith('urn:') ? path.slice(path.lastIndexOf(':') + 1) : path;
  const attribute = attributes[bare.toLowerCase()];
  if (!attribute) throw fail(`filter: unknown or unfilterable attribute "${path}" (filterable: ${Object.keys(attributes).join(', ')})`);
  return attribute;
}

const ORDER: Record<string, string> = { gt: '>', ge: '>=', lt: '<', le: '<=' };

/**
 * RFC 7644 §3.4.2.2 filters as an SQL condition on the given attributes, values bound as
 * parameters (appended to `params`): `eq ne co sw ew gt ge lt le pr`, `and`, `or`, `not` and
 * value paths (`emails[type eq "work"]`). The text is parsed by scim2-parse-filter; anything it or
 * this refuses is a 400 `invalidFilter` naming what is wrong.
 */
export function filterSql(text: string, attributes: ScimAttributes, params: unknown[]): string {
  let ast: Filter;
  try {
    ast = parse(text);
  } catch (error) {
    throw fail(`filter ${JSON.stringify(text)} is not a SCIM filter: ${(error as Error).message}`);
  }
  return condition(ast, attributes, params, '');
}

function condition(f: Filter, attributes: ScimAttributes, params: unknown[], prefix: string): string {
  const bind = (value: unknown) => `$${params.push(value)}`;
  switch (f.op) {
    case 'and':
    case 'or':
      return `(${f.filters.map((g) => condition(g, attributes, params, prefix)).join(f.op === 'and' ? ' AND ' : ' OR ')})`;
    case 'not':
      return `NOT COALESCE(${condition(f.filter, attributes, params, prefix)}, false)`;
    case '[]':
      // A multi-valued attribute's values are columns of the row here: its sub-attributes are `<path>.<sub>`.
      return condition(f.valFilter, attributes, params, `${prefix}${f.attrPath}.`);
    case 'pr': {
      const a = attributeOf(attributes, prefix + f.attrPath);
      return a.type === 'string' ? `COALESCE(${a.sql}, '') <> ''` : `${a.sql} IS NOT NULL`;
    }
    default: {
      const path = prefix + f.attrPath;
      const a = attributeOf(attributes, path);
      const value = f.compValue;
      if (a.type === 'boolean') {
        if (typeof value !== 'boolean' || (f.op !== 'eq' && f.op !== 'ne')) throw fail(`filter: ${path} is a boolean: compare it with eq or ne and true or false`);
        return `${a.sql} ${f.op === 'eq' ? '=' : '<>'} ${bind(value)}`;
      }
      if (typeof value !== 'string') throw fail(`filter: ${path} takes a string value, got ${JSON.stringify(value)}`);
      if (a.type === 'dateTime') {
        if (Number.isNaN(Date.parse(value))) throw fail(`filter: ${path} takes a date-time, got ${JSON.stringify(value)}`);
        const op = f.op === 'eq' ? '=' : f.op === 'ne' ? '<>' : ORDER[f.op];
        if (!op) throw fail(`filter: ${f.op} does not apply to the date-time ${path}`);
        return `${a.sql} ${op} ${bind(value)}::timestamptz`;
      }
      const [column, v] = a.caseExact ? [a.sql, bind(value)] : [`lower(${a.sql})`, `lower(${bind(value)})`];
      switch (f.op) {
        case 'eq':
          return `${column} = ${v}`;
        case 'ne':
          return `${column} IS DISTINCT FROM ${v}`;
        case 'co':
          return `strpos(${column}, ${v}) > 0`;
        case 'sw':
          return `starts_with(${column}, ${v})`;
        case 'ew':
          return `right(${column}, length(${v})) = ${v}`;
        default:
          return `${column} COLLATE "C" ${ORDER[f.op]} ${v}`;
      }
    }
  }
}
