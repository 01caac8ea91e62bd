import { describe, expect, test } from '@jest/globals';
import { choosePath, deferredUntil, firstStep, nextStep, pathAfterDeferral, pickRecipients, type AlertFacts, type EscalationPlan, type PathRule, type PlanLevel, type PlanPath } from './escalation-plan';

// 2026-11-30 is a Monday; 2026-12-06 a Sunday.
const MONDAY_NOON = new Date('2026-11-30T12:00:00.000Z');

const level = (position: number, delay = 5): PlanLevel => ({
  id: `level-${position}`,
  position,
  delay,
  notification_target_params: [{ id: '1', type: 'user' }],
  paging_strategy_configuration_strategy: 'default',
  paging_strategy_configuration_schedule_strategy: 'on_call_only',
});

const path = (id: string, extra: Partial<PlanPath> = {}): PlanPath => ({
  id,
  name: id,
  path_type: 'escalation',
  default: false,
  position: 1,
  match_mode: 'match-all-rules',
  rules: [],
  initial_delay: 0,
  repeat: false,
  repeat_count: null,
  retrigger_timeout_minutes: null,
  notification_type: 'audible',
  time_restriction_time_zone: null,
  time_restrictions: [],
  levels: [level(1)],
  ...extra,
});

const facts = (extra: Partial<AlertFacts> & { json?: Record<string, unknown[]>; fields?: Record<string, unknown[]> } = {}): AlertFacts => ({
  urgencyId: null,
  serviceIds: [],
  source: null,
  hasIncidents: false,
  valuesAt: (p) => extra.json?.[p] ?? [],
  fieldValues: (id) => extra.fields?.[id] ?? [],
  ...extra,
});

const plan = (...paths: PlanPath[]): EscalationPlan => ({ policy: { id: 'p', name: 'Primary' }, paths });

/** Whether a path with these rules is taken over the default path. */
const takes = (rules: PathRule[], alert: AlertFacts = facts(), at = MONDAY_NOON, extra: Partial<PlanPath> = {}) =>
  choosePath(plan(path('fallback', { default: true, position: 0 }), path('ruled', { rules, ...extra })), alert, at)?.id === 'ruled';

describe('choosePath: rules', () => {
  test('alert_urgency: the alert urgency is one of urgency_ids', () => {
    const rule = { rule_type: 'alert_urgency', urgency_ids: ['high', 'critical'] };
    expect(takes([rule], facts({ urgencyId: 'high' }))).toBe(true);
    expect(takes([rule], facts({ urgencyId: 'low' }))).toBe(false);
    expect(takes([rule], facts({ urgencyId: null }))).toBe(false);
  });

  test('service: one of the alert services is named (uuids in any case)', () => {
    const rule = { rule_type: 'service', service_ids: ['AAAAAAAA-0000-4000-8000-000000000001'] };
    expect(takes([rule], facts({ serviceIds: ['x', 'aaaaaaaa-0000-4000-8000-000000000001'] }))).toBe(true);
    expect(takes([rule], facts({ serviceIds: ['x'] }))).toBe(false);
    expect(takes([rule], facts())).toBe(false);
  });

  test('source: is, is_not, is_one_of, is_not_one_of', () => {
    const source = (operator: string, values: string[], alert: string | null) => takes([{ rule_type: 'source', operator, values }], facts({ source: alert }));
    expect(source('is', ['datadog'], 'datadog')).toBe(true);
    expect(source('is', ['datadog'], 'grafana')).toBe(false);
    expect(source('is_not', ['datadog'], 'grafana')).toBe(true);
    expect(source('is_not', ['datadog'], 'datadog')).toBe(false);
    expect(source('is_one_of', ['datadog', 'grafana'], 'grafana')).toBe(true);
    expect(source('is_one_of', ['datadog', 'grafana'], null)).toBe(false);
    expect(source('is_not_one_of', ['datadog', 'grafana'], 'email')).toBe(true);
    expect(source('is_not_one_of', ['datadog', 'grafana'], null)).toBe(true);
  });

  test('related_incidents: is_set, is_not_set', () => {
    expect(takes([{ rule_type: 'related_incidents', operator: 'is_set' }], facts({ hasIncidents: true }))).toBe(true);
    expect(takes([{ rule_type: 'related_incidents', operator: 'is_set' }], facts())).toBe(false);
    expect(takes([{ rule_type: 'related_incidents', operator: 'is_not_set' }], facts())).toBe(true);
    expect(takes([{ rule_type: 'related_incidents', operator: 'is_not_set' }], facts({ hasIncidents: true }))).toBe(false);
  });

  test('json_path: every operator over the values the engine found (their string form)', () => {
    const json = (operator: string, found: unknown[], operand: { value?: string; values?: string[] } = {}) =>
      takes([{ rule_type: 'json_path', json_path: '$.labels.env', operator, ...operand }], facts({ json: { '$.labels.env': found } }));
    expect(json('is', ['production'], { value: 'production' })).toBe(true);
    expect(json('is', [42], { value: '42' })).toBe(true);
    expect(json('is', ['staging'], { value: 'production' })).toBe(false);
    expect(json('is_not', ['staging'], { value: 'production' })).toBe(true);
    expect(json('is_not', ['staging', 'production'], { value: 'production' })).toBe(false);
    expect(json('contains', ['eu-production-1'], { value: 'production' })).toBe(true);
    expect(json('contains', [['a', 'b']], { value: 'b' })).toBe(true);
    expect(json('contains', ['staging'], { value: 'production' })).toBe(false);
    expect(json('does_not_contain', ['staging'], { value: 'production' })).toBe(true);
    expect(json('does_not_contain', ['production'], { value: 'prod' })).toBe(false);
    expect(json('contains_key', [{ team: 'sre' }], { value: 'team' })).toBe(true);
    expect(json('contains_key', [{ owner: 'sre' }], { value: 'team' })).toBe(false);
    expect(json('does_not_contain_key', [{ owner: 'sre' }], { value: 'team' })).toBe(true);
    expect(json('does_not_contain_key', [{ team: 'sre' }], { value: 'team' })).toBe(false);
    expect(json('starts_with', ['prod-eu'], { value: 'prod' })).toBe(true);
    expect(json('starts_with', ['eu-prod'], { value: 'prod' })).toBe(false);
    expect(json('does_not_start_with', ['eu-prod'], { value: 'prod' })).toBe(true);
    expect(json('does_not_start_with', ['prod-eu'], { value: 'prod' })).toBe(false);
    expect(json('matches', ['db-07'], { value: '^db-\\d+$' })).toBe(true);
    expect(json('matches', ['web-07'], { value: '^db-\\d+$' })).toBe(false);
    // An invalid pattern matches nothing.
    expect(json('matches', ['db-07'], { value: '(' })).toBe(false);
    expect(json('does_not_match', ['web-07'], { value: '^db-' })).toBe(true);
    expect(json('does_not_match', ['db-07'], { value: '^db-' })).toBe(false);
    expect(json('is_one_of', ['staging'], { values: ['production', 'staging'] })).toBe(true);
    expect(json('is_one_of', ['dev'], { values: ['production', 'staging'] })).toBe(false);
    expect(json('is_not_one_of', ['dev'], { values: ['production', 'staging'] })).toBe(true);
    expect(json('is_not_one_of', ['staging'], { values: ['production', 'staging'] })).toBe(false);
    expect(json('is_set', ['x'])).toBe(true);
    expect(json('is_set', [null])).toBe(false);
    expect(json('is_set', [])).toBe(false);
    expect(json('is_not_set', [])).toBe(true);
    expect(json('is_not_set', ['x'])).toBe(false);
    // Nothing there is nothing equal.
    expect(json('is', [], { value: 'production' })).toBe(false);
    expect(json('is_not', [], { value: 'production' })).toBe(true);
  });

  test('field: the operators over the alert field values, is_empty and is_not_empty', () => {
    const field = (operator: string, found: unknown[], values: string[] = []) =>
      takes([{ rule_type: 'field', fieldable_type: 'AlertField', fieldable_id: 'f1', operator, values }], facts({ fields: { f1: found } }));
    expect(field('is', ['eu'], ['eu'])).toBe(true);
    expect(field('is', ['us'], ['eu'])).toBe(false);
    expect(field('is_one_of', ['us'], ['eu', 'us'])).toBe(true);
    expect(field('starts_with', ['eu-west'], ['eu'])).toBe(true);
    expect(field('is_empty', [])).toBe(true);
    expect(field('is_empty', [''])).toBe(true);
    expect(field('is_empty', [[]])).toBe(true);
    expect(field('is_empty', ['x'])).toBe(false);
    expect(field('is_not_empty', ['x'])).toBe(true);
    expect(field('is_not_empty', [null, ''])).toBe(false);
  });

  test('working_hour: Monday to Friday 09:00 to 17:00 in the path zone (UTC by default)', () => {
    const within = (value: boolean, at: string, zone: string | null = null) =>
      takes([{ rule_type: 'working_hour', within_working_hour: value }], facts(), new Date(at), { time_restriction_time_zone: zone });
    expect(within(true, '2026-11-30T09:00:00Z')).toBe(true);
    expect(within(true, '2026-11-30T08:59:00Z')).toBe(false);
    expect(within(true, '2026-11-30T17:00:00Z')).toBe(false);
    expect(within(true, '2026-12-05T12:00:00Z')).toBe(false); // Saturday
    expect(within(false, '2026-12-05T12:00:00Z')).toBe(true);
    expect(within(false, '2026-11-30T12:00:00Z')).toBe(false);
    // 14:30 UTC is 09:30 in New York (EST), 10:30 UTC is 05:30 there.
    expect(within(true, '2026-11-30T14:30:00Z', 'America/New_York')).toBe(true);
    expect(within(true, '2026-11-30T10:30:00Z', 'America/New_York')).toBe(false);
  });

  test('deferral_window rules play no part on an escalation path', () => {
    const deferral = { rule_type: 'deferral_window', time_zone: 'Etc/UTC', time_blocks: [] };
    expect(takes([deferral])).toBe(true);
    expect(takes([deferral, { rule_type: 'alert_urgency', urgency_ids: ['high'] }], facts({ urgencyId: 'low' }))).toBe(false);
  });

  test('match-all-rules needs every rule, match-any-rule one; a path without rules matches', () => {
    const rules = [
      { rule_type: 'alert_urgency', urgency_ids: ['high'] },
      { rule_type: 'source', operator: 'is', values: ['datadog'] },
    ];
    const highFromGrafana = facts({ urgencyId: 'high', source: 'grafana' });
    expect(takes(rules, highFromGrafana)).toBe(false);
    expect(takes(rules, facts({ urgencyId: 'high', source: 'datadog' }))).toBe(true);
    expect(takes(rules, highFromGrafana, MONDAY_NOON, { match_mode: 'match-any-rule' })).toBe(true);
    expect(takes(rules, facts(), MONDAY_NOON, { match_mode: 'match-any-rule' })).toBe(false);
    expect(takes([])).toBe(true);
    expect(takes([], facts(), MONDAY_NOON, { match_mode: 'match-any-rule' })).toBe(true);
  });
});

describe('choosePath: time restrictions', () => {
  const weekend = { start_day: 'saturday', start_time: '18:00', end_day: 'monday', end_time: '08:00' } as const;
  const restricted = (at: string, restrictions: PlanPath['time_restrictions'], zone: string | null = null) =>
    takes([], facts(), new Date(at), { time_restrictions: restrictions, time_restriction_time_zone: zone });

  test('a range over Sunday to Monday, in UTC by default; none means always', () => {
    expect(restricted('2026-12-05T18:00:00Z', [weekend])).toBe(true);
    expect(restricted('2026-12-06T23:59:00Z', [weekend])).toBe(true);
    expect(restricted('2026-12-07T07:59:00Z', [weekend])).toBe(true);
    expect(restricted('2026-12-07T08:00:00Z', [weekend])).toBe(false);
    expect(restricted('2026-12-05T17:59:00Z', [weekend])).toBe(false);
    expect(restricted('2026-12-02T12:00:00Z', [])).toBe(true);
  });

  test('a range ending before it starts runs over the week end (Sunday night to Monday morning)', () => {
    const overnight = [{ start_day: 'sunday', start_time: '22:00', end_day: 'monday', end_time: '02:00' }] as PlanPath['time_restrictions'];
    expect(restricted('2026-12-06T23:00:00Z', overnight)).toBe(true);
    expect(restricted('2026-12-07T01:59:00Z', overnight)).toBe(true);
    expect(restricted('2026-12-07T02:00:00Z', overnight)).toBe(false);
    expect(restricted('2026-12-06T21:59:00Z', overnight)).toBe(false);
  });

  test('ranges are read in the path zone', () => {
    const mondayMorning = [{ start_day: 'monday', start_time: '00:00', end_day: 'monday', end_time: '01:00' }] as PlanPath['time_restrictions'];
    // Monday 00:30 in Tokyo is Sunday 15:30 UTC.
    expect(restricted('2026-12-06T15:30:00Z', mondayMorning, 'Asia/Tokyo')).toBe(true);
    expect(restricted('2026-12-07T00:30:00Z', mondayMorning, 'Asia/Tokyo')).toBe(false);
    expect(restricted('2026-12-07T00:30:00Z', mondayMorning)).toBe(true);
    const businessDays = [{ start_day: 'monday', start_time: '09:00', end_day: 'friday', end_time: '17:00' }] as PlanPath['time_restrictions'];
    expect(restricted('2026-11-30T13:30:00Z', businessDays, 'America/New_York')).toBe(false);
    expect(restricted('2026-11-30T14:00:00Z', businessDays, 'America/New_York')).toBe(true);
    expect(restricted('2026-12-04T21:59:00Z', businessDays, 'America/New_York')).toBe(true);
    expect(restricted('2026-12-04T22:00:00Z', businessDays, 'America/New_York')).toBe(false);
  });

  test("ranges in a Rails-named zone (the reference's enum, the Terraform provider's default) are read in the IANA zone it denotes", () => {
    const businessDays = [{ start_day: 'monday', start_time: '09:00', end_day: 'friday', end_time: '17:00' }] as PlanPath['time_restrictions'];
    // America/New_York: Monday 09:00 EST is 14:00 UTC.
    expect(restricted('2026-11-30T13:59:00Z', businessDays, 'Eastern Time (US & Canada)')).toBe(false);
    expect(restricted('2026-11-30T14:00:00Z', businessDays, 'Eastern Time (US & Canada)')).toBe(true);
    // Etc/GMT+12 (UTC-12): Monday 00:00 to 01:00 there is Monday 12:00 to 13:00 UTC.
    const mondayMorning = [{ start_day: 'monday', start_time: '00:00', end_day: 'monday', end_time: '01:00' }] as PlanPath['time_restrictions'];
    expect(restricted('2026-11-30T12:30:00Z', mondayMorning, 'International Date Line West')).toBe(true);
    expect(restricted('2026-11-30T00:30:00Z', mondayMorning, 'International Date Line West')).toBe(false);
    const working = (at: string) => takes([{ rule_type: 'working_hour', within_working_hour: true }], facts(), new Date(at), { time_restriction_time_zone: 'Eastern Time (US & Canada)' });
    expect([working('2026-11-30T14:30:00Z'), working('2026-11-30T10:30:00Z')]).toEqual([true, false]);
  });

  test('a path matching its rules outside its ranges is passed over', () => {
    const chosen = choosePath(
      plan(path('fallback', { default: true, position: 0 }), path('weekend', { position: 1, rules: [{ rule_type: 'alert_urgency', urgency_ids: ['high'] }], time_restrictions: [weekend] })),
      facts({ urgencyId: 'high' }),
      MONDAY_NOON,
    );
    expect(chosen?.id).toBe('fallback');
  });
});

describe('choosePath: order and fallbacks', () => {
  const high = facts({ urgencyId: 'high' });
  const urgent = [{ rule_type: 'alert_urgency', urgency_ids: ['high'] }];

  test('the first matching non-default escalation path by position; a deferral path only inside a deferral window (this one has none)', () => {
    const chosen = choosePath(
      plan(
        path('later', { position: 3 }),
        path('deferral', { position: 0, path_type: 'deferral' }),
        path('default', { position: 1, default: true }),
        path('first', { position: 2, rules: urgent }),
      ),
      high,
      MONDAY_NOON,
    );
    expect(chosen?.id).toBe('first');
  });

  test('none matching: the default path, else the first escalation path with levels, else null', () => {
    const lowFacts = facts({ urgencyId: 'low' });
    expect(choosePath(plan(path('a', { position: 0, rules: urgent }), path('d', { position: 5, default: true })), lowFacts, MONDAY_NOON)?.id).toBe('d');
    expect(choosePath(plan(path('empty', { position: 0, rules: urgent, levels: [] }), path('b', { position: 1, rules: urgent })), lowFacts, MONDAY_NOON)?.id).toBe('b');
    expect(choosePath(plan(path('x', { rules: urgent, levels: [] }), path('deferral', { path_type: 'deferral' })), lowFacts, MONDAY_NOON)).toBeNull();
    expect(choosePath(plan(), lowFacts, MONDAY_NOON)).toBeNull();
  });
});

describe('deferral paths', () => {
  const weekdays = { monday: true, tuesday: true, wednesday: true, thursday: true, friday: true };
  const window = (time_blocks: Record<string, unknown>[], time_zone = 'Etc/UTC'): PathRule => ({ rule_type: 'deferral_window', time_zone, time_blocks });
  const deferral = (rules: PathRule[], extra: Partial<PlanPath> = {}) => path('nights', { path_type: 'deferral', position: 0, levels: [], rules, after_deferral_behavior: 're_evaluate', ...extra });
  const until = (rules: PathRule[], at: string) => deferredUntil(deferral(rules), new Date(at))?.toISOString() ?? null;

  test('a block holds an alert from its start (inclusive) to its end (exclusive); the deferral lasts until the end', () => {
    const evenings = [window([{ ...weekdays, start_time: '18:00', end_time: '22:00' }])];
    expect(until(evenings, '2026-11-30T18:00:00.000Z')).toBe('2026-11-30T22:00:00.000Z');
    expect(until(evenings, '2026-11-30T21:59:00.000Z')).toBe('2026-11-30T22:00:00.000Z');
    expect(until(evenings, '2026-11-30T22:00:00.000Z')).toBeNull();
    expect(until(evenings, '2026-11-30T17:59:00.000Z')).toBeNull();
    expect(until(evenings, '2026-12-05T19:00:00.000Z')).toBeNull(); // a Saturday
  });

  test('a block ending before it starts runs past midnight, Friday night into Saturday too', () => {
    const nights = [window([{ ...weekdays, start_time: '22:00', end_time: '07:00' }])];
    expect(until(nights, '2026-11-30T23:30:00.000Z')).toBe('2026-12-01T07:00:00.000Z');
    expect(until(nights, '2026-12-05T03:00:00.000Z')).toBe('2026-12-05T07:00:00.000Z'); // Friday's night, on Saturday
    expect(until(nights, '2026-12-06T03:00:00.000Z')).toBeNull(); // Saturday's: not a weekday block
  });

  test("blocks that meet run on as one; a Sunday night block holds Monday's early hours across the week's end", () => {
    const weekend = [window([{ saturday: true, sunday: true, all_day: true }, { monday: true, start_time: '00:00', end_time: '08:00' }])];
    expect(until(weekend, '2026-12-05T10:00:00.000Z')).toBe('2026-12-07T08:00:00.000Z');
    const sundayNight = [window([{ sunday: true, start_time: '20:00', end_time: '06:00' }])];
    expect(until(sundayNight, '2026-11-30T02:00:00.000Z')).toBe('2026-11-30T06:00:00.000Z'); // Monday 02:00
  });

  test("the window is read in its zone (DST included), and a window holding the whole week holds an alert a week", () => {
    const parisEvenings = [window([{ ...weekdays, start_time: '18:00', end_time: '22:00' }], 'Europe/Paris')];
    expect(until(parisEvenings, '2026-11-30T17:30:00.000Z')).toBe('2026-11-30T21:00:00.000Z'); // 18:30 in Paris (UTC+1)
    expect(until(parisEvenings, '2026-06-01T16:30:00.000Z')).toBe('2026-06-01T20:00:00.000Z'); // 18:30 in Paris (UTC+2)
    const always = [window([{ ...weekdays, saturday: true, sunday: true, all_day: true }])];
    expect(until(always, '2026-11-30T12:00:00.000Z')).toBe('2026-12-07T12:00:00.000Z');
  });

  test('a window in a Rails-named zone is read in the IANA zone it denotes (DST included)', () => {
    const newYorkEvenings = [window([{ ...weekdays, start_time: '18:00', end_time: '22:00' }], 'Eastern Time (US & Canada)')];
    expect(until(newYorkEvenings, '2026-11-30T23:30:00.000Z')).toBe('2026-12-01T03:00:00.000Z'); // 18:30 in New York (UTC-5)
    expect(until(newYorkEvenings, '2026-06-01T22:30:00.000Z')).toBe('2026-06-02T02:00:00.000Z'); // 18:30 in New York (UTC-4)
    expect(until(newYorkEvenings, '2026-11-30T18:30:00.000Z')).toBeNull(); // 13:30 there
  });

  test('choosePath takes a deferral path when its rules match and a window holds the alert, else goes on down the paths', () => {
    const urgent = [{ rule_type: 'alert_urgency', urgency_ids: ['high'] }];
    const evenings = window([{ ...weekdays, start_time: '18:00', end_time: '22:00' }]);
    const paths = plan(path('fallback', { default: true, position: 5 }), deferral([evenings, ...urgent]));
    const evening = new Date('2026-11-30T19:00:00.000Z');
    expect(choosePath(paths, facts({ urgencyId: 'high' }), evening)?.id).toBe('nights');
    expect(choosePath(paths, facts({ urgencyId: 'low' }), evening)?.id).toBe('fallback');
    expect(choosePath(paths, facts({ urgencyId: 'high' }), MONDAY_NOON)?.id).toBe('fallback');
    expect(choosePath(plan(path('fallback', { default: true, position: 5 }), deferral([...urgent])), facts({ urgencyId: 'high' }), evening)?.id).toBe('fallback');
  });

  test('pathAfterDeferral: execute_path names an escalation path of the plan; re_evaluate, or a path gone, chooses again', () => {
    const target = path('after', { position: 3 });
    const executes = deferral([], { after_deferral_behavior: 'execute_path', after_deferral_path_id: 'AFTER' });
    expect(pathAfterDeferral(plan(target, executes), executes)?.id).toBe('after');
    expect(pathAfterDeferral(plan(executes), executes)).toBeNull();
    const reEvaluates = deferral([]);
    expect(pathAfterDeferral(plan(target, reEvaluates), reEvaluates)).toBeNull();
  });
});

describe('firstStep and nextStep', () => {
  const three = path('p', { initial_delay: 2, levels: [level(1, 5), level(2, 10), level(3, 15)] });

  test('the first level after the initial delay; none without levels', () => {
    expect(firstStep(three)).toEqual({ level: 1, repeat: 0, afterMinutes: 2 });
    expect(firstStep(path('empty', { levels: [] }))).toBeNull();
  });

  test("each next level after the fired level's delay; after the last, done without repeat", () => {
    expect(nextStep(three, 1, 0)).toEqual({ level: 2, repeat: 0, afterMinutes: 5 });
    expect(nextStep(three, 2, 0)).toEqual({ level: 3, repeat: 0, afterMinutes: 10 });
    expect(nextStep(three, 3, 0)).toBeNull();
    expect(nextStep({ ...three, repeat: false, repeat_count: 3 }, 3, 0)).toBeNull();
    expect(nextStep(three, 0, 0)).toBeNull();
    expect(nextStep(three, 4, 0)).toBeNull();
  });

  test('with repeat, the path starts over repeat_count times after the last level delay', () => {
    const repeating = { ...three, repeat: true, repeat_count: 2 };
    expect(nextStep(repeating, 3, 0)).toEqual({ level: 1, repeat: 1, afterMinutes: 15 });
    expect(nextStep(repeating, 2, 1)).toEqual({ level: 3, repeat: 1, afterMinutes: 10 });
    expect(nextStep(repeating, 3, 1)).toEqual({ level: 1, repeat: 2, afterMinutes: 15 });
    expect(nextStep(repeating, 3, 2)).toBeNull();
    // No count: no repeat.
    expect(nextStep({ ...three, repeat: true, repeat_count: null }, 3, 0)).toBeNull();
  });
});

describe('pickRecipients', () => {
  const people = [11, 12, 13];
  const key = (alertId: string, sequence = 0) => ({ alertId, sequence });

  test('default: everyone; nobody in, nobody out', () => {
    expect(pickRecipients(people, 'default', key('a'))).toEqual(people);
    for (const strategy of ['default', 'random', 'cycle', 'alert'] as const) expect(pickRecipients([], strategy, key('a'))).toEqual([]);
  });

  test('random: one of them', () => {
    expect(pickRecipients(people, 'random', key('a'), () => 0)).toEqual([11]);
    expect(pickRecipients(people, 'random', key('a'), () => 0.999)).toEqual([13]);
    expect(people).toContain(pickRecipients(people, 'random', key('a'))[0]);
  });

  test('cycle: one in turn by how many times the level paged, wrapping round', () => {
    expect([0, 1, 2, 3, 4].map((sequence) => pickRecipients(people, 'cycle', key('a', sequence))[0])).toEqual([11, 12, 13, 11, 12]);
  });

  test('alert: one person per alert, the same on every repeat, spread over alerts', () => {
    const first = pickRecipients(people, 'alert', key('alert-1'));
    expect(first).toHaveLength(1);
    for (let sequence = 0; sequence < 5; sequence++) expect(pickRecipients(people, 'alert', key('alert-1', sequence))).toEqual(first);
    const chosen = new Set(Array.from({ length: 30 }, (_, i) => pickRecipients(people, 'alert', key(`alert-${i}`))[0]));
    expect(chosen.size).toBe(3);
  });
});
