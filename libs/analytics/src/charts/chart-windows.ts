import { JsonApiError, type Period } from '@taproot/json-api';

const DAY = 86_400_000;

/** How far back each period's chart looks: 30 days, 12 weeks, 12 months. */
const SPAN: Record<Period, number> = { day: 30, week: 12, month: 12 };

/** The start of the period holding `t` (UTC: midnight, Monday, the 1st). */
function periodStart(t: Date, period: Period): Date {
  const day = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate()));
  if (period === 'day') return day;
  if (period === 'week') return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY);
  return new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), 1));
}

function next(t: Date, period: Period): Date {
  if (period === 'day') return new Date(t.getTime() + DAY);
  if (period === 'week') return new Date(t.getTime() + 7 * DAY);
  return new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth() + 1, 1));
}

/** A chart's `period` query parameter: `day`, `week` or `month` (400 naming it otherwise). */
export function chartPeriod(raw: unknown, fallback?: Period): Period {
  if (raw === undefined && fallback) return fallback;
  if (raw === 'day' || raw === 'week' || raw === 'month') return raw;
  throw JsonApiError.of(400, 'Invalid query parameter', `period must be day, week or month (got ${JSON.stringify(raw ?? null)})`, 'INVALID_QUERY_PARAMETER', { parameter: 'period' });
}

/** The periods of a chart ending now, oldest first: each start and end (the last one ends now). */
export function chartPeriods(period: Period, now: Date): { key: string; from: Date; to: Date }[] {
  let start = periodStart(now, period);
  for (let i = 1; i < SPAN[period]; i++) start = periodStart(new Date(start.getTime() - DAY), period);
  const periods: { key: string; from: Date; to: Date }[] = [];
  for (let from = start; from < now; from = next(from, period)) {
    const to = next(from, period);
    periods.push({ key: from.toISOString().slice(0, 10), from, to: to < now ? to : now });
  }
  return periods;
}

/**
 * The share of each period no span covers, in percent with two decimals: overlapping spans (two
 * incidents at once) count once.
 */
export function uptimeOf(periods: readonly { key: string; from: Date; to: Date }[], spans: readonly { from: Date; to: Date }[]): Record<string, number> {
  const merged: { from: number; to: number }[] = [];
  for (const s of [...spans].map((s) => ({ from: s.from.getTime(), to: s.to.getTime() })).sort((a, b) => a.from - b.from)) {
    const last = merged[merged.length - 1];
    if (last && s.from <= last.to) last.to = Math.max(last.to, s.to);
    else merged.push({ ...s });
  }
  return Object.fromEntries(
    periods.map(({ key, from, to }) => {
      const length = to.getTime() - from.getTime();
      const down = merged.reduce((sum, s) => sum + Math.max(0, Math.min(s.to, to.getTime()) - Math.max(s.from, from.getTime())), 0);
      return [key, length > 0 ? Math.round((1 - down / length) * 10_000) / 100 : 100];
    }),
  );
}
