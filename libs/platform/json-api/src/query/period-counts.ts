import { columnOf, isJsonAttribute, type AttributeDef, type ResourceSchema } from '../resource/resource-schema';
import type { Queryable } from './list-document';
import { quoteIdent } from './list-sql';

export const PERIODS = ['day', 'week', 'month'] as const;
export type Period = (typeof PERIODS)[number];

export const RULE_CONDITIONS = ['=', '!=', '>=', '<=', 'exists', 'not_exists', 'contains', 'not_contains', 'assigned', 'unassigned'] as const;
export type RuleCondition = (typeof RULE_CONDITIONS)[number];

/** One condition on a record's attribute (a dashboard dataset's filter rule). */
export interface PeriodRule {
  key: string;
  condition: RuleCondition;
  value?: string | null;
}

/** Rules joined by `operation`; the groups of a filter all hold (AND). */
export interface PeriodRuleGroup {
  operation: 'and' | 'or';
  rules: PeriodRule[];
}

export interface PeriodCountsQuery {
  from: Date;
  to: Date;
  period: Period;
  /** IANA zone the periods start in (midnight, Monday, the 1st there). */
  timeZone: string;
  filter?: PeriodRuleGroup[];
  /** An attribute whose values split the counts into series. */
  groupBy?: string | null;
  /** What each period holds: the records' count (default), or the sum or average of a numeric attribute. */
  aggregate?: { operation: 'count' | 'sum' | 'average'; key?: string | null };
  /** Conditions of the caller's view (a context's own, e.g. no private incidents), as SQL on the read model and its parameters after the query's. */
  scope?: (next: number) => { sql: string; params: unknown[] };
}

/** One series: its group's value (null without `groupBy`) and a value per period start (`YYYY-MM-DD` in the zone), every period of the range present. */
export interface PeriodSeries {
  group: string | null;
  values: Record<string, number>;
}

/** Why a query cannot be counted: names the part of the query at fault (`filter`, `group_by`, `aggregate`). */
export class PeriodCountsError extends Error {
  constructor(
    readonly part: 'filter' | 'group_by' | 'aggregate',
    message: string,
  ) {
    super(message);
  }
}

/** The attribute `key` of the schema that can be counted on: declared, stored, answered. */
function attributeOf(schema: ResourceSchema, key: string, part: PeriodCountsError['part']): AttributeDef {
  const def = Object.hasOwn(schema.attributes, key) ? schema.attributes[key] : key === 'created_at' || key === 'updated_at' ? ({ type: 'date-time' } as AttributeDef) : undefined;
  if (!def || def.virtual || def.sensitive) throw new PeriodCountsError(part, `${schema.type} have no attribute ${key} to ${part === 'filter' ? 'filter on' : part === 'group_by' ? 'group by' : 'aggregate'}`);
  return def;
}

const CAST: Partial<Record<AttributeDef['type'], string>> = { integer: 'bigint', number: 'numeric', 'date-time': 'timestamptz', boolean: 'boolean' };

/** Checks a query against the schema without running it: the same errors `countByPeriod` throws. */
export function checkPeriodQuery(schema: ResourceSchema, q: Pick<PeriodCountsQuery, 'filter' | 'groupBy' | 'aggregate'>): void {
  for (const group of q.filter ?? []) for (const rule of group.rules) attributeOf(schema, rule.key, 'filter');
  if (q.groupBy) attributeOf(schema, q.groupBy, 'group_by');
  const key = q.aggregate?.key;
  if (q.aggregate && q.aggregate.operation !== 'count') {
    if (!key) throw new PeriodCountsError('aggregate', `aggregate ${q.aggregate.operation} needs a key: a numeric attribute of ${schema.type}`);
    const def = attributeOf(schema, key, 'aggregate');
    if (def.type !== 'integer' && def.type !== 'number') throw new PeriodCountsError('aggregate', `aggregate key ${key} of ${schema.type} is not numeric`);
  }
}

/** SQL of one rule on the read model; its value goes to `params`. */
function ruleSql(schema: ResourceSchema, rule: PeriodRule, params: unknown[]): string {
  const def = attributeOf(schema, rule.key, 'filter');
  const column = quoteIdent(columnOf(schema, rule.key));
  const empty = def.type === 'array' ? (isJsonAttribute(def) ? `coalesce(jsonb_array_length(${column}), 0) = 0` : `coalesce(cardinality(${column}), 0) = 0`) : `${column} IS NULL`;
  const value = (cast?: string) => {
    params.push(rule.value ?? null);
    return `$${params.length}${cast ? `::${cast}` : ''}`;
  };
  switch (rule.condition) {
    case 'exists':
    case 'assigned':
      return `NOT (${empty})`;
    case 'not_exists':
    case 'unassigned':
      return empty;
    case 'contains':
      return `${column}::text ILIKE '%' || ${value()} || '%'`;
    case 'not_contains':
      return `${column}::text NOT ILIKE '%' || ${value()} || '%'`;
    case '=':
      return def.type === 'array' ? `${column}::text ILIKE '%' || ${value()} || '%'` : `${column}::text = ${value()}`;
    case '!=':
      return `${column}::text IS DISTINCT FROM ${value()}`;
    case '>=':
    case '<=':
      return `${column} ${rule.condition} ${value(CAST[def.type] ?? 'text')}`;
  }
}

/**
 * Counts (or sums, or averages) the organization's records of a declared resource per period of
 * a range, by `created_at`, from its read model: one series, or one per value of `groupBy`. Every
 * period of the range is present (0 where nothing happened). The query's keys are the resource's
 * attributes, never SQL: an unknown one throws a `PeriodCountsError`.
 */
export async function countByPeriod(db: Queryable, schema: ResourceSchema, organizationId: string, q: PeriodCountsQuery): Promise<PeriodSeries[]> {
  checkPeriodQuery(schema, q);
  const params: unknown[] = [organizationId, q.from, q.to, q.period, q.timeZone];
  const conditions = (q.filter ?? [])
    .filter((g) => g.rules.length > 0)
    .map((g) => `(${g.rules.map((r) => ruleSql(schema, r, params)).join(g.operation === 'or' ? ' OR ' : ' AND ')})`);
  if (q.scope) {
    const scope = q.scope(params.length + 1);
    params.push(...scope.params);
    conditions.push(`(${scope.sql})`);
  }
  const group = q.groupBy ? `${quoteIdent(columnOf(schema, q.groupBy))}::text` : 'NULL::text';
  const operation = q.aggregate?.operation ?? 'count';
  const measured = operation === 'count' ? 'count(*)' : `${operation === 'sum' ? 'sum' : 'avg'}(${quoteIdent(columnOf(schema, q.aggregate!.key!))})`;
  const bucket = `date_trunc($4, created_at AT TIME ZONE $5)`;
  const rows = (await db.query(
    `WITH counted AS (
       SELECT ${bucket} AS bucket, ${group} AS "group", ${measured}::float8 AS value
         FROM ${quoteIdent(schema.readTable)}
        WHERE organization_id = $1 AND created_at >= $2 AND created_at <= $3${conditions.map((c) => ` AND ${c}`).join('')}
        GROUP BY 1, 2),
     buckets AS (
       SELECT generate_series(date_trunc($4, $2::timestamptz AT TIME ZONE $5), date_trunc($4, $3::timestamptz AT TIME ZONE $5), ('1 ' || $4)::interval) AS bucket),
     groups AS (SELECT DISTINCT "group" FROM counted UNION SELECT NULL::text WHERE NOT EXISTS (SELECT 1 FROM counted))
     SELECT to_char(b.bucket, 'YYYY-MM-DD') AS period, g."group", coalesce(c.value, 0) AS value
       FROM buckets b CROSS JOIN groups g
       LEFT JOIN counted c ON c.bucket = b.bucket AND c."group" IS NOT DISTINCT FROM g."group"
      ORDER BY g."group" NULLS FIRST, b.bucket`,
    params,
  )) as { period: string; group: string | null; value: number }[];
  const series = new Map<string | null, Record<string, number>>();
  for (const row of rows) {
    const values = series.get(row.group) ?? {};
    values[row.period] = Number(row.value);
    series.set(row.group, values);
  }
  return [...series].map(([group, values]) => ({ group, values }));
}
