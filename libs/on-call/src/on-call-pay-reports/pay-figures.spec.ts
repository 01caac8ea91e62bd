import { describe, expect, test } from '@jest/globals';
import { shift } from '../shared/shift.fixture';
import { dayStarts, hourlyPay, payFigures, type PayTerms } from './pay-figures';

const TERMS: PayTerms = { start_date: '2026-03-02', end_date: '2026-03-03', time_zone: 'Etc/UTC', pay_type: 'hourly', hourly_rate_cents: 1000, daily_rate_cents: 5000, include_shadow: false };

describe('pay figures', () => {
  test('time on call is clipped to the period and overlapping shifts count once', () => {
    const figures = payFigures(
      [
        shift(1, '2026-03-01T12:00:00Z', '2026-03-02T12:00:00Z'), // 12 h inside
        shift(1, '2026-03-02T06:00:00Z', '2026-03-02T18:00:00Z', { schedule_id: 's2' }), // overlaps: +6 h
        shift(2, '2026-03-03T20:00:00Z', '2026-03-04T20:00:00Z'), // 4 h inside
      ],
      TERMS,
    );
    expect(figures.users).toEqual([
      { user_id: 1, total_duration: 18 * 3600, days_on_call: 1, total_pay_cents: 18_000 },
      { user_id: 2, total_duration: 4 * 3600, days_on_call: 1, total_pay_cents: 4_000 },
    ]);
    expect(figures).toMatchObject({ total_duration: 22 * 3600, users_count: 2, total_pay_cents: 22_000 });
  });

  test('daily pay counts the days in the report zone with any time on call', () => {
    // 23:00-01:00 UTC is 18:00-20:00 in New York: one day there, two in UTC.
    const shifts = [shift(1, '2026-03-02T23:00:00Z', '2026-03-03T01:00:00Z')];
    expect(payFigures(shifts, { ...TERMS, pay_type: 'daily' }).total_pay_cents).toBe(10_000);
    expect(payFigures(shifts, { ...TERMS, pay_type: 'daily', time_zone: 'America/New_York' }).total_pay_cents).toBe(5_000);
    // The responder's own zone wins over the report's.
    const own = { ...TERMS, pay_type: 'daily' as const, user_time_zones: new Map([[1, 'America/New_York']]) };
    expect(payFigures(shifts, own).users[0].days_on_call).toBe(1);
  });

  test('shadow shifts count only with include_shadow', () => {
    const shifts = [shift(1, '2026-03-02T00:00:00Z', '2026-03-02T10:00:00Z'), shift(3, '2026-03-02T00:00:00Z', '2026-03-02T10:00:00Z', { is_shadow: true, shadowed_user_id: 1 })];
    expect(payFigures(shifts, TERMS)).toMatchObject({ users_count: 1, total_duration: 36_000 });
    expect(payFigures(shifts, { ...TERMS, include_shadow: true })).toMatchObject({ users_count: 2, total_duration: 72_000 });
  });

  test('hourly pay rounds half up to the cent', () => {
    expect(hourlyPay(1, 1800)).toBe(1); // 0.5 cent
    expect(hourlyPay(1, 1799)).toBe(0);
    expect(hourlyPay(5400, 333)).toBe(500); // 499.5
  });

  test('a day in a zone changing its clocks is 23 or 25 hours long', () => {
    const [start, end] = dayStarts('2026-03-08', '2026-03-08', 'America/New_York');
    expect((end - start) / 3_600_000).toBe(23);
  });
});
