import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { DateTime } from 'luxon';
import { computeShifts } from './shift-engine';
import type { OverrideInput, ScheduleInput, ScheduleRotationInput, ShadowInput, Shift } from './types';

const A = 1;
const B = 2;
const C = 3;

function rotation(attributes: Partial<ScheduleRotationInput> = {}): ScheduleRotationInput {
  return {
    id: 'r1',
    position: 1,
    time_zone: 'Etc/UTC',
    schedule_rotationable_type: 'ScheduleDailyRotation',
    schedule_rotationable_attributes: { handoff_time: '09:00' },
    members: [
      { user_id: A, position: 1 },
      { user_id: B, position: 2 },
    ],
    ...attributes,
  };
}

function shifts(from: string, to: string, rotations: ScheduleRotationInput[], extra: Partial<ScheduleInput> = {}): Shift[] {
  return computeShifts({ schedule_id: 's1', rotations, window: { from, to }, ...extra });
}

/** [user, starts_at, ends_at] in UTC, to compare whole timelines at a glance. */
const spans = (list: Shift[]) => list.map((s) => [s.user_id, s.starts_at.replace(':00.000Z', 'Z'), s.ends_at.replace(':00.000Z', 'Z')]);

const localOf = (instant: string, zone: string) => DateTime.fromISO(instant, { zone }).toFormat('ccc HH:mm');
const hours = (s: Shift) => (Date.parse(s.ends_at) - Date.parse(s.starts_at)) / 3_600_000;

describe('computeShifts: handoffs at the rotation\'s local wall-clock time', () => {
  test('weekly Monday 09:00 in America/New_York stays 09:00 local across the March and November changes', () => {
    const weekly = rotation({ time_zone: 'America/New_York', schedule_rotationable_type: 'ScheduleWeeklyRotation', schedule_rotationable_attributes: { handoff_time: '09:00', handoff_day: 'M' } });
    const spring = shifts('2025-03-04T00:00:00Z', '2025-03-12T00:00:00Z', [weekly]);
    assert.deepEqual(spans(spring), [
      [B, '2025-03-03T14:00Z', '2025-03-10T13:00Z'],
      [A, '2025-03-10T13:00Z', '2025-03-17T13:00Z'],
    ]);
    assert.equal(hours(spring[0]), 167);
    const autumn = shifts('2025-10-28T00:00:00Z', '2025-11-05T00:00:00Z', [weekly]);
    assert.deepEqual(autumn.map((s) => [localOf(s.starts_at, 'America/New_York'), localOf(s.ends_at, 'America/New_York'), hours(s)]), [
      ['Mon 09:00', 'Mon 09:00', 169], // 27 October to 3 November holds the hour set back
      ['Mon 09:00', 'Mon 09:00', 168],
    ]);
  });

  test('a handoff inside the skipped hour (02:30 on the spring-forward day) moves to 03:00, the first valid instant', () => {
    const daily = rotation({ time_zone: 'America/New_York', schedule_rotationable_attributes: { handoff_time: '02:30' } });
    assert.deepEqual(spans(shifts('2025-03-08T12:00:00Z', '2025-03-10T12:00:00Z', [daily])).map(([, s, e]) => [s, e]), [
      ['2025-03-08T07:30Z', '2025-03-09T07:00Z'], // 02:30 EST -> 03:00 EDT
      ['2025-03-09T07:00Z', '2025-03-10T06:30Z'], // 03:00 EDT -> 02:30 EDT
      ['2025-03-10T06:30Z', '2025-03-11T06:30Z'],
    ]);
  });

  test('a handoff inside the repeated hour happens once, at the earlier instant', () => {
    const daily = rotation({ time_zone: 'America/New_York', schedule_rotationable_attributes: { handoff_time: '01:30' } });
    const list = shifts('2025-11-01T12:00:00Z', '2025-11-03T00:00:00Z', [daily]);
    assert.deepEqual(spans(list).map(([, s, e]) => [s, e]), [
      ['2025-11-01T05:30Z', '2025-11-02T05:30Z'], // 01:30 EDT, the first 01:30 of the 2nd
      ['2025-11-02T05:30Z', '2025-11-03T06:30Z'], // 25 hours: the second 01:30 is no handoff
    ]);
  });

  test('Europe/London: 09:00 across the March change, 01:30 on the October day that repeats it', () => {
    const nine = shifts('2025-03-29T12:00:00Z', '2025-03-31T00:00:00Z', [rotation({ time_zone: 'Europe/London' })]);
    assert.deepEqual(spans(nine).map(([, s, e]) => [s, e]), [
      ['2025-03-29T09:00Z', '2025-03-30T08:00Z'],
      ['2025-03-30T08:00Z', '2025-03-31T08:00Z'],
    ]);
    const early = shifts('2025-10-25T12:00:00Z', '2025-10-27T00:00:00Z', [rotation({ time_zone: 'Europe/London', schedule_rotationable_attributes: { handoff_time: '01:30' } })]);
    assert.deepEqual(spans(early).map(([, s, e]) => [s, e]), [
      ['2025-10-25T00:30Z', '2025-10-26T00:30Z'],
      ['2025-10-26T00:30Z', '2025-10-27T01:30Z'],
    ]);
  });

  test('Australia/Lord_Howe\'s half-hour change: 09:00 stays 09:00, the day is 24.5 hours; 02:15 in its 30-minute gap hands off at 02:30', () => {
    const nine = shifts('2025-04-05T00:00:00Z', '2025-04-05T12:00:00Z', [rotation({ time_zone: 'Australia/Lord_Howe' })]);
    assert.deepEqual(spans(nine).map(([, s, e]) => [s, e]), [['2025-04-04T22:00Z', '2025-04-05T22:30Z']]);
    assert.equal(hours(nine[0]), 24.5);
    const gap = shifts('2025-10-04T12:00:00Z', '2025-10-04T18:00:00Z', [rotation({ time_zone: 'Australia/Lord_Howe', schedule_rotationable_attributes: { handoff_time: '02:15' } })]);
    // 5 October 2025, 02:00 (+10:30) becomes 02:30 (+11): 02:15 does not exist there.
    assert.deepEqual(spans(gap).map(([, s, e]) => [s, e]), [
      ['2025-10-03T15:45Z', '2025-10-04T15:30Z'],
      ['2025-10-04T15:30Z', '2025-10-05T15:15Z'],
    ]);
    assert.equal(localOf(gap[1].starts_at, 'Australia/Lord_Howe'), 'Sun 02:30');
  });

  test('a custom 12-hour rotation hands off at 09:00 and 21:00 local, 11 hours on the spring-forward night', () => {
    const twelve = rotation({
      time_zone: 'America/New_York',
      schedule_rotationable_type: 'ScheduleCustomRotation',
      schedule_rotationable_attributes: { handoff_time: '09:00', shift_length: 12, shift_length_unit: 'hours' },
      members: [A, B, C].map((user_id, position) => ({ user_id, position })),
    });
    const list = shifts('2025-03-08T15:00:00Z', '2025-03-09T20:00:00Z', [twelve]);
    assert.deepEqual(list.map((s) => [localOf(s.starts_at, 'America/New_York'), hours(s)]), [
      ['Sat 09:00', 12],
      ['Sat 21:00', 11],
      ['Sun 09:00', 12],
    ]);
    assert.deepEqual(new Set(list.map((s) => s.user_id)).size, 3, 'three members take the three periods in turn');
  });

  test('monthly on the last day of the month follows the month\'s length (30 April, 28 February); first_day_of_month on the 1st', () => {
    const last = rotation({ schedule_rotationable_type: 'ScheduleMonthlyRotation', schedule_rotationable_attributes: { handoff_time: '09:00', handoff_day: 'last_day_of_month' } });
    assert.deepEqual(spans(shifts('2025-02-01T00:00:00Z', '2025-05-01T00:00:00Z', [last])).map(([, s]) => s), [
      '2025-01-31T09:00Z',
      '2025-02-28T09:00Z',
      '2025-03-31T09:00Z',
      '2025-04-30T09:00Z',
    ]);
    const first = rotation({ schedule_rotationable_type: 'ScheduleMonthlyRotation', schedule_rotationable_attributes: { handoff_time: '00:00', handoff_day: 'first_day_of_month' }, time_zone: 'Asia/Kolkata' });
    assert.deepEqual(spans(shifts('2025-04-15T00:00:00Z', '2025-05-15T00:00:00Z', [first])).map(([, s, e]) => [s, e]), [
      ['2025-03-31T18:30Z', '2025-04-30T18:30Z'],
      ['2025-04-30T18:30Z', '2025-05-31T18:30Z'],
    ]);
  });

  test('biweekly hands off every other week on its day; the period holding start_time is the first member\'s', () => {
    const biweekly = rotation({
      schedule_rotationable_type: 'ScheduleBiweeklyRotation',
      schedule_rotationable_attributes: { handoff_time: '09:00', handoff_day: 'F' },
      start_time: '2025-06-04T12:00:00Z', // a Wednesday
    });
    assert.deepEqual(spans(shifts('2025-06-01T00:00:00Z', '2025-07-01T00:00:00Z', [biweekly])), [
      [A, '2025-06-04T12:00Z', '2025-06-13T09:00Z'],
      [B, '2025-06-13T09:00Z', '2025-06-27T09:00Z'],
      [A, '2025-06-27T09:00Z', '2025-07-11T09:00Z'],
    ]);
  });
});

describe('computeShifts: bounds, members and the turn order', () => {
  test('no members, no shifts; a window that is empty or reversed, no shifts', () => {
    assert.deepEqual(shifts('2025-01-01T00:00:00Z', '2025-02-01T00:00:00Z', [rotation({ members: [] })]), []);
    assert.deepEqual(shifts('2025-02-01T00:00:00Z', '2025-01-01T00:00:00Z', [rotation()]), []);
  });

  test('shifts overlapping the window come whole; start_time and end_time cut them', () => {
    const bounded = rotation({ start_time: '2025-01-01T15:00:00Z', end_time: '2025-01-04T12:00:00Z' });
    assert.deepEqual(spans(shifts('2024-12-01T00:00:00Z', '2025-02-01T00:00:00Z', [bounded])), [
      [A, '2025-01-01T15:00Z', '2025-01-02T09:00Z'],
      [B, '2025-01-02T09:00Z', '2025-01-03T09:00Z'],
      [A, '2025-01-03T09:00Z', '2025-01-04T09:00Z'],
      [B, '2025-01-04T09:00Z', '2025-01-04T12:00Z'],
    ]);
    assert.deepEqual(spans(shifts('2025-01-02T10:00:00Z', '2025-01-02T11:00:00Z', [bounded])), [[B, '2025-01-02T09:00Z', '2025-01-03T09:00Z']]);
  });

  test('members take turns by position, whatever order they are listed in', () => {
    const listed = rotation({ members: [{ user_id: C, position: 3 }, { user_id: A, position: 1 }, { user_id: B, position: 2 }], start_time: '2025-01-01T09:00:00Z' });
    assert.deepEqual(shifts('2025-01-01T09:00:00Z', '2025-01-04T09:00:00Z', [listed]).map((s) => s.user_id), [A, B, C]);
  });

  test('a window centuries after the anchor is computed without walking there (the period is found arithmetically)', () => {
    const hourly = rotation({ schedule_rotationable_type: 'ScheduleCustomRotation', schedule_rotationable_attributes: { handoff_time: '00:00', shift_length: 1, shift_length_unit: 'hours' }, start_time: '2000-01-01T00:00:00Z' });
    const started = performance.now();
    const list = shifts('2400-01-01T00:00:00Z', '2400-01-01T03:00:00Z', [hourly]);
    assert.ok(performance.now() - started < 500, 'about 3.5 million periods lie between: walking them takes seconds');
    assert.deepEqual(spans(list).map(([, s]) => s), ['2400-01-01T00:00Z', '2400-01-01T01:00Z', '2400-01-01T02:00Z']);
  });

  test("a time of day with an offset (the reference's format: time, stored as sent) is read in the rotation's zone", () => {
    const at = (handoff_time: string) =>
      spans(shifts('2025-03-04T00:00:00Z', '2025-03-12T00:00:00Z', [rotation({ time_zone: 'America/New_York', schedule_rotationable_attributes: { handoff_time } })]));
    for (const sent of ['09:00:00Z', '09:00:00.000Z', '09:00+05:30']) assert.deepEqual(at(sent), at('09:00'), sent);
    const windowed = rotation({ active_time_type: 'same_time', active_all_week: true, active_time_attributes: [{ start_time: '09:30:00Z', end_time: '17:00:00Z' }] });
    assert.deepEqual(spans(shifts('2025-01-01T00:00:00Z', '2025-01-02T00:00:00Z', [windowed]))[0].slice(1), ['2025-01-01T09:30Z', '2025-01-01T17:00Z']);
  });

  test('an unknown time zone or a malformed handoff time is refused', () => {
    assert.throws(() => shifts('2025-01-01T00:00:00Z', '2025-01-02T00:00:00Z', [rotation({ time_zone: 'Mars/Olympus' })]), /unknown time zone/);
    assert.throws(() => shifts('2025-01-01T00:00:00Z', '2025-01-02T00:00:00Z', [rotation({ schedule_rotationable_attributes: { handoff_time: '9am' } })]), /bad local time/);
  });
});

describe('computeShifts: active days and times', () => {
  // A's first week starts on Monday 26 May 2025, B's on 2 June.
  const weekly = { schedule_rotationable_type: 'ScheduleWeeklyRotation', schedule_rotationable_attributes: { handoff_time: '09:00', handoff_day: 'M' }, start_time: '2025-05-26T09:00:00Z' } as const;

  test('active days Monday to Friday leave the weekend without anyone; a week\'s weekdays are one shift per period', () => {
    const weekdays = rotation({ ...weekly, active_all_week: false, active_days: ['M', 'T', 'W', 'R', 'F'] });
    // 2 June 2025 is a Monday.
    assert.deepEqual(spans(shifts('2025-06-02T00:00:00Z', '2025-06-10T00:00:00Z', [weekdays])), [
      [A, '2025-06-02T00:00Z', '2025-06-02T09:00Z'],
      [B, '2025-06-02T09:00Z', '2025-06-07T00:00Z'],
      [B, '2025-06-09T00:00Z', '2025-06-09T09:00Z'],
      [A, '2025-06-09T09:00Z', '2025-06-14T00:00Z'],
    ]);
  });

  test('same_time: the same hours on each active day; custom: each day its own hours, past midnight allowed', () => {
    const office = rotation({ ...weekly, active_all_week: false, active_days: ['M', 'W'], active_time_type: 'same_time', active_time_attributes: [{ start_time: '10:00', end_time: '18:00' }], time_zone: 'Asia/Kolkata' });
    assert.deepEqual(spans(shifts('2025-06-02T00:00:00Z', '2025-06-08T00:00:00Z', [office])), [
      [B, '2025-06-02T04:30Z', '2025-06-02T12:30Z'],
      [B, '2025-06-04T04:30Z', '2025-06-04T12:30Z'],
    ]);
    const nights = rotation({
      ...weekly,
      active_all_week: false,
      active_days: ['F', 'U'],
      active_time_type: 'custom',
      active_day_times: [{ day_name: 'F', active_time_attributes: [{ start_time: '22:00', end_time: '06:00' }] }, { day_name: 'U', active_time_attributes: [{ start_time: '12:00', end_time: '13:00' }] }],
    });
    // Friday 6 June, Saturday (U) 7 June.
    assert.deepEqual(spans(shifts('2025-06-02T00:00:00Z', '2025-06-09T00:00:00Z', [nights])), [
      [B, '2025-06-06T22:00Z', '2025-06-07T06:00Z'],
      [B, '2025-06-07T12:00Z', '2025-06-07T13:00Z'],
    ]);
  });
});

describe('computeShifts: overrides and shadows', () => {
  const weekly = rotation({ schedule_rotationable_type: 'ScheduleWeeklyRotation', schedule_rotationable_attributes: { handoff_time: '09:00', handoff_day: 'M' }, start_time: '2025-06-02T09:00:00Z' });
  const override = (id: string, user_id: number, starts_at: string, ends_at: string): OverrideInput => ({ id, user_id, starts_at, ends_at });

  test('an override splits the shift it lands in and replaces exactly its own interval', () => {
    const list = shifts('2025-06-02T09:00:00Z', '2025-06-09T09:00:00Z', [weekly], { overrides: [override('o1', C, '2025-06-04T12:00:00Z', '2025-06-05T12:00:00Z')] });
    assert.deepEqual(spans(list), [
      [A, '2025-06-02T09:00Z', '2025-06-04T12:00Z'],
      [C, '2025-06-04T12:00Z', '2025-06-05T12:00Z'],
      [A, '2025-06-05T12:00Z', '2025-06-09T09:00Z'],
    ]);
    assert.deepEqual(list.map((s) => [s.is_override, s.override_id, s.rotation_id]), [
      [false, null, 'r1'],
      [true, 'o1', null],
      [false, null, 'r1'],
    ]);
  });

  test('an override across a handoff shortens both shifts; one in a later override\'s way resumes after it', () => {
    const across = shifts('2025-06-08T00:00:00Z', '2025-06-11T00:00:00Z', [weekly], { overrides: [override('o1', C, '2025-06-08T12:00:00Z', '2025-06-10T12:00:00Z')] });
    assert.deepEqual(spans(across), [
      [A, '2025-06-02T09:00Z', '2025-06-08T12:00Z'],
      [C, '2025-06-08T12:00Z', '2025-06-10T12:00Z'],
      [B, '2025-06-10T12:00Z', '2025-06-16T09:00Z'],
    ]);
    const nested = shifts('2025-06-03T00:00:00Z', '2025-06-04T00:00:00Z', [weekly], {
      overrides: [override('outer', C, '2025-06-03T00:00:00Z', '2025-06-04T00:00:00Z'), override('inner', B, '2025-06-03T06:00:00Z', '2025-06-03T07:00:00Z')],
    });
    assert.deepEqual(spans(nested.filter((s) => s.is_override)), [
      [C, '2025-06-03T00:00Z', '2025-06-03T06:00Z'],
      [B, '2025-06-03T06:00Z', '2025-06-03T07:00Z'],
      [C, '2025-06-03T07:00Z', '2025-06-04T00:00Z'],
    ]);
  });

  test('an override outranks every rotation, even outside a rotation\'s active hours', () => {
    const second = rotation({ id: 'r2', position: 2, members: [{ user_id: B, position: 1 }], active_all_week: false, active_days: ['M'] });
    const list = shifts('2025-06-03T00:00:00Z', '2025-06-03T02:00:00Z', [weekly, second], { overrides: [override('o1', C, '2025-06-03T00:00:00Z', '2025-06-03T01:00:00Z')] });
    assert.deepEqual(list.map((s) => [s.rotation_id, s.user_id, s.starts_at.slice(11, 16), s.ends_at.slice(5, 16)]), [
      [null, C, '00:00', '06-03T01:00'],
      ['r1', A, '01:00', '06-09T09:00'],
    ]);
  });

  test('a shadow of a user mirrors that user\'s shifts (overrides included) within the shadow\'s interval', () => {
    const shadow: ShadowInput = { id: 'sh1', shadow_user_id: 9, shadowable_type: 'User', shadowable_id: String(B), starts_at: '2025-06-10T00:00:00Z', ends_at: '2025-06-20T00:00:00Z' };
    const list = shifts('2025-06-01T00:00:00Z', '2025-06-30T00:00:00Z', [weekly], { shadows: [shadow], overrides: [override('o1', B, '2025-06-04T00:00:00Z', '2025-06-11T00:00:00Z')] });
    assert.deepEqual(
      list.filter((s) => s.is_shadow).map((s) => [s.user_id, s.shadowed_user_id, s.shadow_id, s.starts_at.slice(0, 16), s.ends_at.slice(0, 16)]),
      [
        [9, B, 'sh1', '2025-06-10T00:00', '2025-06-11T00:00'],
        [9, B, 'sh1', '2025-06-11T00:00', '2025-06-16T09:00'],
      ],
    );
  });

  test('a shadow of a schedule mirrors all its primary shifts; another schedule\'s come from the caller', () => {
    const own: ShadowInput = { id: 'sh1', shadow_user_id: 9, shadowable_type: 'Schedule', shadowable_id: 's1', starts_at: '2025-06-08T00:00:00Z', ends_at: '2025-06-10T00:00:00Z' };
    const list = shifts('2025-06-08T00:00:00Z', '2025-06-10T00:00:00Z', [weekly], { shadows: [own] });
    assert.deepEqual(spans(list.filter((s) => s.is_shadow)), [
      [9, '2025-06-08T00:00Z', '2025-06-09T09:00Z'],
      [9, '2025-06-09T09:00Z', '2025-06-10T00:00Z'],
    ]);
    const other = shifts('2025-06-08T00:00:00Z', '2025-06-10T00:00:00Z', [], {
      shadows: [{ ...own, shadowable_id: 's2' }],
      other_schedule_shifts: { s2: [{ ...list[0], schedule_id: 's2', starts_at: '2025-06-01T00:00:00.000Z', ends_at: '2025-06-09T00:00:00.000Z' }] },
    });
    assert.deepEqual(spans(other), [[9, '2025-06-08T00:00Z', '2025-06-09T00:00Z']]);
  });
});

describe('computeShifts: a rotation\'s versions', () => {
  test('a change takes effect at its instant: shifts that ended before it keep the old configuration, the running one is cut there', () => {
    const before = rotation({ start_time: '2025-01-01T09:00:00Z' });
    const after = { ...before, members: [{ user_id: C, position: 1 }], effective_from: '2025-01-03T12:00:00Z', history: [{ ...before, effective_from: null }] };
    assert.deepEqual(spans(shifts('2025-01-01T00:00:00Z', '2025-01-05T00:00:00Z', [after])), [
      [A, '2025-01-01T09:00Z', '2025-01-02T09:00Z'],
      [B, '2025-01-02T09:00Z', '2025-01-03T09:00Z'],
      [A, '2025-01-03T09:00Z', '2025-01-03T12:00Z'],
      [C, '2025-01-03T12:00Z', '2025-01-04T09:00Z'],
      [C, '2025-01-04T09:00Z', '2025-01-05T09:00Z'],
    ]);
  });
});
