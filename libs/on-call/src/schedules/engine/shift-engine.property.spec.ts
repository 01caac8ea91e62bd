import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { computeShifts } from './shift-engine';
import type { DayLetter, OverrideInput, RotationConfig, ScheduleRotationInput, ShadowInput, Shift } from './types';

// Fixed so a run is repeatable; fast-check prints the seed and path of a failure. FC_SEED explores others.
const SEED = Number(process.env.FC_SEED ?? 20251102);
const RUNS = 100;
const check = <T>(property: fc.IProperty<T>) => fc.assert(property, { seed: SEED, numRuns: RUNS });

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ZONES = ['America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kolkata', 'Pacific/Chatham', 'Etc/UTC'];
// DST changes of 2025 in those zones; windows are placed around them.
const CHANGES = ['2025-03-09T07:00:00Z', '2025-11-02T06:00:00Z', '2025-03-30T01:00:00Z', '2025-10-26T01:00:00Z', '2025-04-05T15:00:00Z', '2025-10-04T15:30:00Z', '2025-04-05T14:00:00Z', '2025-09-27T14:00:00Z'].map(Date.parse);
const LETTERS: DayLetter[] = ['S', 'M', 'T', 'W', 'R', 'F', 'U'];

const clock = fc.tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 15, 30, 45, 7)).map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);

const rotationable: fc.Arbitrary<Pick<RotationConfig, 'schedule_rotationable_type' | 'schedule_rotationable_attributes'>> = fc.oneof(
  clock.map((handoff_time) => ({ schedule_rotationable_type: 'ScheduleDailyRotation' as const, schedule_rotationable_attributes: { handoff_time } })),
  fc.tuple(clock, fc.constantFrom(...LETTERS), fc.constantFrom('ScheduleWeeklyRotation' as const, 'ScheduleBiweeklyRotation' as const)).map(([handoff_time, handoff_day, type]) => ({
    schedule_rotationable_type: type,
    schedule_rotationable_attributes: { handoff_time, handoff_day },
  })),
  fc.tuple(clock, fc.constantFrom('first_day_of_month' as const, 'last_day_of_month' as const)).map(([handoff_time, handoff_day]) => ({
    schedule_rotationable_type: 'ScheduleMonthlyRotation' as const,
    schedule_rotationable_attributes: { handoff_time, handoff_day },
  })),
  fc
    .oneof(
      fc.tuple(fc.integer({ min: 1, max: 36 }), fc.constant('hours' as const)),
      fc.tuple(fc.integer({ min: 1, max: 10 }), fc.constant('days' as const)),
      fc.tuple(fc.integer({ min: 1, max: 3 }), fc.constant('weeks' as const)),
    )
    .chain(([shift_length, shift_length_unit]) =>
      clock.map((handoff_time) => ({ schedule_rotationable_type: 'ScheduleCustomRotation' as const, schedule_rotationable_attributes: { handoff_time, shift_length, shift_length_unit } })),
    ),
);

const members = fc.uniqueArray(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 5 }).map((ids) => ids.map((user_id, position) => ({ user_id, position })));

/** A rotation active all week; its start_time (if any) lies before every window generated. */
const allWeekConfig: fc.Arbitrary<RotationConfig> = fc
  .tuple(rotationable, fc.constantFrom(...ZONES), members, fc.option(fc.integer({ min: Date.parse('2023-01-01'), max: Date.parse('2024-12-01') }), { nil: undefined }))
  .map(([r, time_zone, m, start]) => ({ ...r, time_zone, members: m, start_time: start === undefined ? null : new Date(start).toISOString() }));

/** Any rotation: also restricted days and hours, and bounds inside the windows. */
const anyConfig: fc.Arbitrary<RotationConfig> = fc
  .tuple(
    allWeekConfig,
    fc.option(fc.subarray(LETTERS, { minLength: 1 }), { nil: undefined }),
    fc.constantFrom('all_day' as const, 'same_time' as const),
    fc.tuple(clock, clock),
    fc.option(fc.integer({ min: Date.parse('2025-01-01'), max: Date.parse('2025-12-31') }), { nil: undefined }),
  )
  .map(([config, days, type, [start_time, end_time], end]) => ({
    ...config,
    active_all_week: days === undefined,
    active_days: days,
    active_time_type: type,
    active_time_attributes: [{ start_time, end_time }],
    end_time: end === undefined ? null : new Date(end).toISOString(),
  }));

const asRotation = (config: RotationConfig, i: number): ScheduleRotationInput => ({ ...config, id: `r${i}`, position: i });

/** A window of an hour to sixty days around one of the DST changes. */
const window = fc
  .tuple(fc.constantFrom(...CHANGES), fc.integer({ min: -30 * DAY, max: 2 * DAY }), fc.integer({ min: HOUR, max: 60 * DAY }))
  .map(([change, offset, length]) => ({ from: change + offset, to: change + offset + length }));

const iso = (ms: number) => new Date(ms).toISOString();
const ms = (text: string) => Date.parse(text);

function run(rotations: ScheduleRotationInput[], w: { from: number; to: number }, extra: { overrides?: OverrideInput[]; shadows?: ShadowInput[] } = {}): Shift[] {
  return computeShifts({ schedule_id: 's1', rotations, window: { from: iso(w.from), to: iso(w.to) }, ...extra });
}

const key = (s: Shift) => JSON.stringify(s);

describe('computeShifts properties (fast-check, fixed seed)', () => {
  test('within an all-week rotation, shifts tile the window: no gap, no overlap, each one non-empty', () => {
    check(
      fc.property(allWeekConfig, window, (config, w) => {
        const list = run([asRotation(config, 1)], w);
        assert.ok(list.length > 0);
        assert.ok(ms(list[0].starts_at) <= w.from, `first shift starts ${list[0].starts_at}, after the window's start ${iso(w.from)}`);
        assert.ok(ms(list.at(-1)!.ends_at) >= w.to);
        for (const [i, s] of list.entries()) {
          assert.ok(ms(s.starts_at) < ms(s.ends_at), `empty shift ${key(s)}`);
          if (i > 0) assert.equal(s.starts_at, list[i - 1].ends_at, `between shifts ${i - 1} and ${i}`);
        }
      }),
    );
  });

  test('every instant of the window has exactly one primary member per rotation, one of its members', () => {
    check(
      fc.property(fc.array(allWeekConfig, { minLength: 1, maxLength: 3 }), window, fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 20 }), (configs, w, points) => {
        const rotations = configs.map(asRotation);
        const list = run(rotations, w);
        for (const point of points) {
          const t = Math.min(w.to - 1, Math.floor(w.from + point * (w.to - w.from)));
          for (const r of rotations) {
            const on = list.filter((s) => s.rotation_id === r.id && ms(s.starts_at) <= t && t < ms(s.ends_at));
            assert.equal(on.length, 1, `${r.id} at ${iso(t)}: ${on.map(key).join(', ')}`);
            assert.ok(r.members.some((m) => m.user_id === on[0].user_id));
          }
        }
      }),
    );
  });

  test('an override replaces exactly its own interval and splits the shift it lands in', () => {
    check(
      fc.property(allWeekConfig, window, fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 1, max: 72 * 60 }), (config, w, at, minutes) => {
        const start = Math.floor(w.from + at * (w.to - w.from));
        const override: OverrideInput = { id: 'o1', user_id: 99, starts_at: iso(start), ends_at: iso(start + minutes * 60_000) };
        const [o0, o1] = [start, start + minutes * 60_000];
        const rotations = [asRotation(config, 1)];
        // The base timeline over a window wide enough to hold every shift the override touches.
        const wide = { from: Math.min(w.from, o0), to: Math.max(w.to, o1) };
        const expected = run(rotations, wide)
          .flatMap((s): Array<[number, number, number]> => {
            const [s0, s1] = [ms(s.starts_at), ms(s.ends_at)];
            return (
              [
                [s0, Math.min(s1, o0)],
                [Math.max(s0, o1), s1],
              ] as Array<[number, number]>
            )
              .filter(([a, b]) => a < b)
              .map(([a, b]) => [s.user_id, a, b]);
          })
          .concat([[99, o0, o1]])
          .filter(([, a, b]) => b > w.from && a < w.to)
          .sort((x, y) => x[1] - y[1]);
        const actual = run(rotations, w, { overrides: [override] }).map((s): [number, number, number] => [s.user_id, ms(s.starts_at), ms(s.ends_at)]);
        assert.deepEqual(actual, expected);
      }),
    );
  });

  test('a window computed in two halves equals the window computed whole (overrides, shadows and restricted hours included)', () => {
    const override = fc
      .tuple(fc.constantFrom(...CHANGES), fc.integer({ min: -40 * DAY, max: 40 * DAY }), fc.integer({ min: HOUR, max: 5 * DAY }), fc.integer({ min: 1, max: 3 }))
      .map(([change, offset, length, user]): OverrideInput => ({ id: `o${offset}`, user_id: 90 + user, starts_at: iso(change + offset), ends_at: iso(change + offset + length) }));
    check(
      fc.property(fc.array(anyConfig, { minLength: 1, maxLength: 3 }), window, fc.double({ min: 0, max: 1, noNaN: true }), fc.array(override, { maxLength: 4 }), fc.integer({ min: 1, max: 50 }), (configs, w, split, overrides, shadowed) => {
        const rotations = configs.map(asRotation);
        const middle = Math.floor(w.from + split * (w.to - w.from));
        const shadows: ShadowInput[] = [
          { id: 'sh1', shadow_user_id: 77, shadowable_type: 'User', shadowable_id: String(shadowed), starts_at: iso(w.from - DAY), ends_at: iso(middle + HOUR) },
          { id: 'sh2', shadow_user_id: 78, shadowable_type: 'Schedule', shadowable_id: 's1', starts_at: iso(middle - HOUR), ends_at: iso(w.to + DAY) },
        ];
        const extra = { overrides, shadows };
        const whole = run(rotations, w, extra).map(key);
        const halves = [...run(rotations, { from: w.from, to: middle }, extra), ...run(rotations, { from: middle, to: w.to }, extra)].map(key);
        assert.deepEqual([...new Set(halves)].sort(), [...new Set(whole)].sort());
        assert.equal(new Set(whole).size, whole.length, 'no shift twice');
      }),
    );
  });

  test('changing a rotation never alters shifts that had already ended when the change took effect', () => {
    check(
      fc.property(anyConfig, anyConfig, window, fc.double({ min: 0, max: 1, noNaN: true }), (before, after, w, at) => {
        const change = Math.floor(w.from + at * (w.to - w.from));
        const original = asRotation(before, 1);
        const changed: ScheduleRotationInput = { ...asRotation(after, 1), effective_from: iso(change), history: [{ ...before, effective_from: null }] };
        const endedBefore = (list: Shift[]) => list.filter((s) => ms(s.ends_at) < change).map(key);
        const later = (list: Shift[]) => list.filter((s) => ms(s.starts_at) > change).map(key);
        const now = run([changed], w);
        const old = run([original], w);
        assert.deepEqual(endedBefore(now), endedBefore(old));
        // One that ended at the change instant is kept too; a running one is cut there.
        const kept = new Set(now.map(key));
        for (const s of old.filter((s) => ms(s.ends_at) === change)) assert.ok(kept.has(key(s)), key(s));
        // After the change, the new configuration alone decides.
        assert.deepEqual(later(now), later(run([asRotation(after, 1)], w)));
      }),
    );
  });
});
