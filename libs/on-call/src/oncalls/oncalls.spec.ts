import { expect, test } from '@jest/globals';
import { shift } from '../shared/shift.fixture';
import { answeredIn, oncallsOf, type LevelOfOncalls, type OncallSources } from './oncalls';

const window = { from: '2026-12-01T00:00:00.000Z', to: '2026-12-02T00:00:00.000Z' };
const sources: OncallSources = {
  policies: new Map([['p1', { id: 'p1', name: 'Primary' }]]),
  paths: new Map([
    ['path1', { id: 'path1', name: 'Default', default: true, notification_type: 'audible', path_type: 'escalation' }],
    ['quiet', { id: 'quiet', name: 'Nights', default: false, notification_type: 'quiet', path_type: 'escalation' }],
    ['held', { id: 'held', name: 'Maintenance', default: false, notification_type: 'audible', path_type: 'deferral' }],
  ]),
  shifts: new Map([
    [
      's1',
      [
        shift(7, '2026-11-30T09:00:00.000Z', '2026-12-01T09:00:00.000Z'),
        shift(8, '2026-12-01T09:00:00.000Z', '2026-12-02T09:00:00.000Z'),
        shift(9, '2026-12-01T10:00:00.000Z', '2026-12-01T11:00:00.000Z', { is_shadow: true }),
      ],
    ],
  ]),
  scheduleNames: new Map([['s1', 'Follow the sun']]),
  teamMembers: new Map([['t1', [3, 4]]]),
};
const level = (position: number, targets: LevelOfOncalls['notification_target_params'], path = 'path1'): LevelOfOncalls => ({
  escalation_policy_id: 'p1',
  escalation_policy_path_id: path,
  position,
  notification_target_params: targets,
});

test("a schedule target's users are on call for their shifts overlapping the window (shadows are not), a user's and a team's for the whole window", () => {
  const entries = oncallsOf([level(1, [{ id: 's1', type: 'schedule' }]), level(2, [{ id: '5', type: 'user' }, { id: 't1', type: 'team' }, { id: 'x', type: 'service' }])], sources, window);
  expect(entries.map((e) => [e.escalation_level, e.user_id, e.schedule_name, e.starts_at, e.ends_at])).toEqual([
    [1, 7, 'Follow the sun', '2026-11-30T09:00:00.000Z', '2026-12-01T09:00:00.000Z'],
    [1, 8, 'Follow the sun', '2026-12-01T09:00:00.000Z', '2026-12-02T09:00:00.000Z'],
    [2, 3, null, window.from, window.to],
    [2, 4, null, window.from, window.to],
    [2, 5, null, window.from, window.to],
  ]);
  expect(entries[0]).toMatchObject({ escalation_policy_id: 'p1', escalation_policy_name: 'Primary', escalation_policy_path_name: 'Default', is_default_path: true, notification_type: 'audible' });
});

test('earliest keeps, per level, only who is on call first', () => {
  const entries = oncallsOf([level(1, [{ id: 's1', type: 'schedule' }])], sources, window, { earliest: true });
  expect(entries.map((e) => e.user_id)).toEqual([7]);
});

test("a deferral path's levels list no one: it holds alerts back and pages nobody", () => {
  const entries = oncallsOf([level(1, [{ id: '5', type: 'user' }], 'held'), level(1, [{ id: '6', type: 'user' }])], sources, window);
  expect(entries.map((e) => e.user_id)).toEqual([6]);
});

test('audibleFirst (filter[notification_types] given) puts audible paths before quiet ones, whatever their levels', () => {
  const levels = [level(1, [{ id: '5', type: 'user' }], 'quiet'), level(2, [{ id: '6', type: 'user' }])];
  expect(oncallsOf(levels, sources, window).map((e) => e.user_id)).toEqual([5, 6]);
  expect(oncallsOf(levels, sources, window, { audibleFirst: true }).map((e) => [e.notification_type, e.user_id])).toEqual([
    ['audible', 6],
    ['quiet', 5],
  ]);
});

test('answeredIn writes the same instants with the time zone asked for (DST included); none asked, UTC as computed', () => {
  const [entry] = oncallsOf([level(1, [{ id: '5', type: 'user' }])], sources, { from: '2026-07-01T12:00:00.000Z', to: '2026-12-01T12:00:00.000Z' });
  expect(answeredIn(entry, undefined)).toBe(entry);
  const local = answeredIn(entry, 'America/New_York');
  expect([local.starts_at, local.ends_at]).toEqual(['2026-07-01T08:00:00.000-04:00', '2026-12-01T07:00:00.000-05:00']);
  expect([Date.parse(local.starts_at), Date.parse(local.ends_at)]).toEqual([Date.parse(entry.starts_at), Date.parse(entry.ends_at)]);
});
