import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { chartPeriod, chartPeriods, uptimeOf } from './chart-windows';

const at = (iso: string) => new Date(iso);

describe('chart windows', () => {
  test('30 days, 12 weeks (from Monday) or 12 months up to now, the last period ending now', () => {
    const now = at('2026-11-26T12:00:00Z');
    const days = chartPeriods('day', now);
    assert.equal(days.length, 30);
    assert.deepEqual([days[0].key, days[29].key, days[29].to.toISOString()], ['2026-10-28', '2026-11-26', now.toISOString()]);
    const weeks = chartPeriods('week', now);
    assert.deepEqual([weeks.length, weeks[11].key, new Date(weeks[0].key).getUTCDay()], [12, '2026-11-23', 1]);
    const months = chartPeriods('month', now);
    assert.deepEqual([months.length, months[0].key, months[11].key], [12, '2025-12-01', '2026-11-01']);
  });

  test('uptime: the share of each period no incident covers, overlapping incidents counted once', () => {
    const periods = [
      { key: 'a', from: at('2026-01-01T00:00:00Z'), to: at('2026-01-02T00:00:00Z') },
      { key: 'b', from: at('2026-01-02T00:00:00Z'), to: at('2026-01-03T00:00:00Z') },
    ];
    const spans = [
      { from: at('2026-01-01T06:00:00Z'), to: at('2026-01-01T12:00:00Z') },
      { from: at('2026-01-01T09:00:00Z'), to: at('2026-01-01T18:00:00Z') },
      { from: at('2026-01-02T23:00:00Z'), to: at('2026-01-03T05:00:00Z') },
    ];
    assert.deepEqual(uptimeOf(periods, spans), { a: 50, b: 95.83 });
    assert.deepEqual(uptimeOf(periods, []), { a: 100, b: 100 });
  });

  test('period is day, week or month; uptime charts default to day', () => {
    assert.equal(chartPeriod('week'), 'week');
    assert.equal(chartPeriod(undefined, 'day'), 'day');
    assert.throws(() => chartPeriod('year'), /period must be day, week or month/);
    assert.throws(() => chartPeriod(undefined), /period must be/);
  });
});
