import { ALERT_METRICS } from '@taproot/alerting';
import type { Caller } from '@taproot/auth';
import { USER_METRICS } from '@taproot/identity';
import { ACTION_ITEM_METRICS, INCIDENT_METRICS } from '@taproot/incidents';
import { checkPeriodQuery, JsonApiError, PERIODS, PeriodCountsError, type Period, type PeriodCountsQuery, type PeriodRuleGroup, type PeriodSeries, type Queryable, type ResourceSchema } from '@taproot/json-api';
import type { PanelCollection } from './panel-params';

/** What a context answers for a collection it owns (its index.ts port): the records' declaration and their counts. */
interface PeriodSource {
  schema: ResourceSchema;
  count(db: Queryable, caller: Caller, q: PeriodCountsQuery): Promise<PeriodSeries[]>;
}

/** The context answering each collection; none keeps post mortems yet (docs/dashboards.md). */
const SOURCES: Record<PanelCollection, PeriodSource | null> = {
  incidents: INCIDENT_METRICS,
  alerts: ALERT_METRICS,
  incident_action_items: ACTION_ITEM_METRICS,
  users: USER_METRICS,
  incident_post_mortems: null,
};

const TITLES: Record<PanelCollection, string> = {
  incidents: 'Incidents',
  alerts: 'Alerts',
  incident_action_items: 'Action items',
  users: 'Users',
  incident_post_mortems: 'Post mortems',
};

interface Dataset {
  name?: string | null;
  collection?: PanelCollection;
  filter?: { operation?: 'and' | 'or'; rules?: { key?: string; condition?: string; value?: string }[] }[];
  group_by?: unknown;
  aggregate?: { operation?: 'count' | 'sum' | 'average'; key?: string | null; cumulative?: boolean | null } | null;
}

/** The window and periods a panel's data covers (the panel read's query, else its dashboard's, else the last 7 days by day in UTC). */
export interface DataWindow {
  from: Date;
  to: Date;
  period: Period;
  timeZone: string;
}

/** One series of a panel's `data`: per period start (`YYYY-MM-DD`), as the hosted API answers it. */
export interface PanelSeries {
  name: string;
  color: null;
  data: Record<string, number>;
}

const DAY = 86_400_000;

const badQuery = (parameter: string, detail: string) => JsonApiError.of(400, 'Invalid query parameter', detail, 'INVALID_QUERY_PARAMETER', { parameter });

/** `range` as the reference writes it: two ISO 8601 times separated by the word `to`. */
function parseRange(raw: string, parameter: string): { from: Date; to: Date } {
  const parts = raw.split(/\s+to\s+/i);
  const [from, to] = parts.map((p) => new Date(p.trim()));
  if (parts.length !== 2 || Number.isNaN(from.getTime()) || Number.isNaN(to.getTime()) || from > to) {
    throw badQuery(parameter, `${parameter} must be two ISO 8601 times separated by "to", the first not after the second (got ${JSON.stringify(raw)})`);
  }
  return { from, to };
}

/**
 * The window of a panel read: `range`, `period` and `time_zone` from the request's query, each
 * else from the dashboard (`range`, `period`), else the last 7 days, by day, in UTC. A malformed
 * one is a 400 naming the parameter.
 */
export function dataWindow(query: Record<string, unknown>, dashboard: { range?: unknown; period?: unknown }, now: Date): DataWindow {
  const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
  const range = text(query.range) ?? text(dashboard.range);
  const { from, to } = range ? parseRange(range, text(query.range) ? 'range' : 'dashboard range') : { from: new Date(now.getTime() - 7 * DAY), to: now };
  const period = text(query.period) ?? text(dashboard.period) ?? 'day';
  if (!(PERIODS as readonly string[]).includes(period)) throw badQuery('period', `period must be one of ${PERIODS.join(', ')} (got ${JSON.stringify(period)})`);
  const timeZone = text(query.time_zone) ?? 'UTC';
  try {
    new Intl.DateTimeFormat('en', { timeZone });
  } catch {
    throw badQuery('time_zone', `time_zone must be an IANA time zone such as Europe/Paris (got ${JSON.stringify(timeZone)})`);
  }
  // A year of days is the most one read computes.
  if (to.getTime() - from.getTime() > 400 * DAY) throw badQuery('range', 'range covers at most 400 days');
  return { from, to, period: period as Period, timeZone };
}

/** A dataset's counting query: its filter groups, its grouping attribute (the `{key, value}` form counts ungrouped) and its aggregate. */
function queryOf(dataset: Dataset): Pick<PeriodCountsQuery, 'filter' | 'groupBy' | 'aggregate'> {
  const filter: PeriodRuleGroup[] = (dataset.filter ?? []).map((group) => ({
    operation: group.operation === 'or' ? 'or' : 'and',
    rules: (group.rules ?? []).map((r) => ({ key: String(r.key ?? ''), condition: (r.condition ?? '=') as PeriodRuleGroup['rules'][number]['condition'], value: r.value ?? null })),
  }));
  const groupBy = typeof dataset.group_by === 'string' && dataset.group_by !== '' ? dataset.group_by : null;
  const aggregate = dataset.aggregate?.operation ? { operation: dataset.aggregate.operation, key: dataset.aggregate.key ?? null } : undefined;
  return { filter, groupBy, aggregate };
}

/**
 * Checks a panel's datasets against their collections' attributes (rule keys, `group_by`,
 * aggregate keys): the 422 naming `params` and the dataset, or nothing.
 */
export function checkPanelParams(params: { datasets?: Dataset[] } | null | undefined): void {
  for (const [index, dataset] of (params?.datasets ?? []).entries()) {
    const groupBy = dataset.group_by;
    const objectForm = typeof groupBy === 'object' && groupBy !== null && typeof (groupBy as { key?: unknown }).key === 'string' && typeof (groupBy as { value?: unknown }).value === 'string';
    if (groupBy != null && typeof groupBy !== 'string' && !objectForm) {
      throw JsonApiError.invalidAttributes([{ attribute: 'params', detail: `params.datasets[${index}].group_by must be an attribute name or an object with key and value strings` }]);
    }
    for (const [g, group] of (dataset.filter ?? []).entries()) {
      for (const [r, rule] of (group.rules ?? []).entries()) {
        if (typeof rule.key !== 'string' || rule.key === '') throw JsonApiError.invalidAttributes([{ attribute: 'params', detail: `params.datasets[${index}].filter[${g}].rules[${r}].key is required` }]);
      }
    }
    const source = SOURCES[dataset.collection ?? 'incidents'];
    if (!source) continue;
    try {
      checkPeriodQuery(source.schema, queryOf(dataset));
    } catch (error) {
      if (!(error instanceof PeriodCountsError)) throw error;
      throw JsonApiError.invalidAttributes([{ attribute: 'params', detail: `params.datasets[${index}].${error.part}: ${error.message}` }]);
    }
  }
}

/** Running totals, period after period (`aggregate.cumulative`). */
function cumulated(values: Record<string, number>): Record<string, number> {
  let total = 0;
  return Object.fromEntries(Object.entries(values).map(([period, value]) => [period, (total += value)]));
}

/** A panel's `data`: one series per dataset, or per value of its `group_by` (`None` for records without one). */
export async function panelData(db: Queryable, caller: Caller, params: { datasets?: Dataset[] }, window: DataWindow): Promise<PanelSeries[]> {
  const series: PanelSeries[] = [];
  for (const dataset of params.datasets ?? []) {
    const collection = dataset.collection ?? 'incidents';
    const source = SOURCES[collection];
    const q = queryOf(dataset);
    // No context keeps post mortems yet: their series has no periods.
    const counted = source ? await source.count(db, caller, { ...window, ...q }) : [{ group: null, values: {} }];
    const name = dataset.name ?? TITLES[collection];
    for (const { group, values } of counted) {
      series.push({ name: q.groupBy ? (group ?? 'None') : name, color: null, data: dataset.aggregate?.cumulative ? cumulated(values) : values });
    }
  }
  return series;
}
