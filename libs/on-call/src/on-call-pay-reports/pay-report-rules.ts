import { ianaZoneOf } from '@taproot/config';
import { userRecords } from '@taproot/identity';
import { checkReferenced, type ResourceDefinition, type Row, type WriteContext } from '@taproot/resources';
import { OnCallErrorCode } from '../errors';
import { SCHEDULES } from '../shared/references';
import { refuse, timeZoneIssues, type Issue } from '../shared/times';
import { shiftsOfSchedules } from '../shifts/shift-reader';
import { payFigures, type PayTerms } from './pay-figures';

/** The longest period a report covers, in days: a year and a day keeps one computation bounded. */
export const MAX_PERIOD_DAYS = 366;
const DAY_MS = 86_400_000;
/** How far a day's start in any zone is from its start in UTC (UTC−12 to UTC+14). */
const ZONE_REACH_MS = 14 * 3_600_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar date `YYYY-MM-DD` that exists (not 2026-02-30). */
const isDate = (value: unknown): value is string => typeof value === 'string' && DATE.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);

/** The report's period and currency as they will be stored: real dates, in order, at most MAX_PERIOD_DAYS days. */
function termIssues(report: Row, changes: Row): Issue[] {
  const issues: Issue[] = timeZoneIssues(changes, ['time_zone']);
  const bad = ['start_date', 'end_date'].filter((name) => !isDate(report[name]));
  for (const name of bad) issues.push({ attribute: name, detail: `${name} must be a date as YYYY-MM-DD (got ${JSON.stringify(report[name])})`, code: OnCallErrorCode.InvalidPayReport });
  if (bad.length === 0) {
    const days = (Date.parse(String(report.end_date)) - Date.parse(String(report.start_date))) / DAY_MS + 1;
    if (days < 1) issues.push({ attribute: 'end_date', detail: `end_date (${String(report.end_date)}) must not be before start_date (${String(report.start_date)})`, code: OnCallErrorCode.InvalidTimeRange });
    else if (days > MAX_PERIOD_DAYS) issues.push({ attribute: 'end_date', detail: `the period may be at most ${MAX_PERIOD_DAYS} days (start_date to end_date, both included; got ${days})`, code: OnCallErrorCode.InvalidTimeRange });
  }
  if ('currency' in changes && !/^[A-Z]{3}$/.test(String(changes.currency))) {
    issues.push({ attribute: 'currency', detail: `currency must be an ISO 4217 code such as USD (got ${JSON.stringify(changes.currency)})`, code: OnCallErrorCode.InvalidPayReport });
  }
  return issues;
}

/** The organization's schedules the report covers: those it names, or all of them. */
async function schedulesOf(ctx: WriteContext, named: unknown): Promise<string[]> {
  if (Array.isArray(named) && named.length) return named.map(String);
  const rows = (await ctx.manager.query('SELECT id FROM schedules_read WHERE organization_id = $1', [ctx.organizationId])) as { id: string }[];
  return rows.map((r) => r.id);
}

/** Each user's own zone (for `use_responders_time_zone`); users without a known one keep the report's. */
async function userZones(ctx: WriteContext, userIds: number[]): Promise<Map<number, string>> {
  const users = await userRecords(ctx.manager, ctx.organizationId, userIds.map(String));
  const zones = new Map<number, string>();
  for (const [id, user] of users) {
    const zone = user.attributes.time_zone;
    if (typeof zone === 'string' && ianaZoneOf(zone)) zones.set(Number(id), zone);
  }
  return zones;
}

/**
 * The report computed from the shifts of its schedules now (docs/on-call-pay-reports.md):
 * the figures, `generated`, `last_generated_at` now. Shifts are read for the period widened by
 * the zones' reach, so every zone's days (the report's or a responder's) are covered.
 */
async function generated(report: Row, ctx: WriteContext): Promise<Row> {
  const from = new Date(Date.parse(`${String(report.start_date)}T00:00:00Z`) - ZONE_REACH_MS);
  const to = new Date(Date.parse(`${String(report.end_date)}T00:00:00Z`) + DAY_MS + ZONE_REACH_MS);
  const shifts = await shiftsOfSchedules(ctx.manager, ctx.organizationId, await schedulesOf(ctx, report.schedule_ids), { from, to });
  const terms = {
    start_date: String(report.start_date),
    end_date: String(report.end_date),
    time_zone: String(report.time_zone ?? 'Etc/UTC'),
    pay_type: report.pay_type,
    hourly_rate_cents: Number(report.hourly_rate_cents ?? 0),
    daily_rate_cents: Number(report.daily_rate_cents ?? 0),
    include_shadow: report.include_shadow === true,
  } as PayTerms;
  if (report.use_responders_time_zone === true) terms.user_time_zones = await userZones(ctx, [...new Set(shifts.map((s) => s.user_id))]);
  const { users, ...totals } = payFigures(shifts, terms);
  return { ...totals, user_breakdown: users, status: 'generated', last_generated_at: ctx.now.toISOString() };
}

/** What a write sends, checked: its terms over the stored report, the schedules it names. */
async function checked(current: Row | null, changes: Row, ctx: WriteContext): Promise<Row> {
  // An explicit null is the default, as an omitted value on create.
  const change = { ...changes };
  if (change.time_zone === null) change.time_zone = 'Etc/UTC';
  if (change.schedule_ids === null) change.schedule_ids = [];
  refuse(termIssues({ ...current, ...change }, change));
  return checkReferenced(ctx, change, { schedule_ids: SCHEDULES });
}

/**
 * Every create and update (a PUT, and `POST .../regenerate`, an update changing nothing)
 * recomputes the report from the shifts as they are now, in the write's transaction.
 */
export const PAY_REPORT_RULES: ResourceDefinition['rules'] = {
  async beforeCreate(attributes, ctx) {
    const report = await checked(null, attributes, ctx);
    return { ...report, ...(await generated(report, ctx)) };
  },
  async beforeUpdate(current, changes, ctx) {
    const change = await checked(current, changes, ctx);
    return { ...change, ...(await generated({ ...current, ...change }, ctx)) };
  },
};
