import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { routeOfRoutingRules } from './alert-routing-rule.schema';
import { conditionHolds, routeAlert, routeDestinations, type AlertRoute, type RouteCondition, type RoutedAlert, type RouteRule } from './route-alert';

const SOURCE = '0d3f6a4e-1111-4a1b-8c2d-000000000001';
const OTHER_SOURCE = '0d3f6a4e-1111-4a1b-8c2d-000000000002';
const HIGH = 'urgency-high';

const alert = (extra: Partial<RoutedAlert> = {}, fields: Record<string, unknown[]> = {}): RoutedAlert => ({
  alertSourceId: SOURCE,
  attributes: { summary: 'Checkout p99 above 2s', description: null, source: 'datadog', labels: [{ key: 'env', value: 'prod' }] },
  urgencyId: HIGH,
  payload: { service: 'checkout', tags: ['team:payments', 'tier:1'], region: 'eu-west-1' },
  fieldValues: (id) => fields[id] ?? [],
  ...extra,
});

const condition = (c: Partial<RouteCondition>): RouteCondition => ({ property_field_type: 'payload', property_field_condition_type: 'is_one_of', ...c });
const holds = (c: Partial<RouteCondition>, a = alert()) => conditionHolds(condition(c), a);

describe('conditionHolds', () => {
  test('is_one_of / is_not_one_of over a payload path, with value and values', () => {
    expect(holds({ property_field_name: '$.service', property_field_value: 'checkout' })).toBe(true);
    expect(holds({ property_field_name: '$.service', property_field_values: ['search', 'checkout'] })).toBe(true);
    expect(holds({ property_field_name: '$.service', property_field_values: ['search'] })).toBe(false);
    expect(holds({ property_field_name: '$.service', property_field_condition_type: 'is_not_one_of', property_field_values: ['search'] })).toBe(true);
    expect(holds({ property_field_name: '$.missing', property_field_condition_type: 'is_not_one_of', property_field_values: ['x'] })).toBe(true);
  });

  test('contains, does_not_contain, starts_with, ends_with, matches_regex on text and on each element of an array', () => {
    expect(holds({ property_field_name: '$.tags', property_field_condition_type: 'contains', property_field_value: 'payments' })).toBe(true);
    expect(holds({ property_field_name: '$.tags', property_field_condition_type: 'does_not_contain', property_field_value: 'search' })).toBe(true);
    expect(holds({ property_field_name: '$.region', property_field_condition_type: 'starts_with', property_field_value: 'eu-' })).toBe(true);
    expect(holds({ property_field_name: '$.region', property_field_condition_type: 'ends_with', property_field_value: '-1' })).toBe(true);
    expect(holds({ property_field_name: '$.region', property_field_condition_type: 'matches_regex', property_field_value: '^eu-(west|north)-\\d$' })).toBe(true);
    expect(holds({ property_field_name: '$.region', property_field_condition_type: 'matches_regex', property_field_value: '([' })).toBe(false);
  });

  test('is_empty: no value, or only empty ones', () => {
    expect(holds({ property_field_name: '$.missing', property_field_condition_type: 'is_empty' })).toBe(true);
    expect(holds({ property_field_name: '$.service', property_field_condition_type: 'is_empty' })).toBe(false);
    expect(holds({ property_field_type: 'attribute', property_field_name: 'description', property_field_condition_type: 'is_empty' })).toBe(true);
  });

  test('attributes by name (labels as key:value), alert fields by conditionable_id', () => {
    expect(holds({ property_field_type: 'attribute', property_field_name: 'source', property_field_value: 'datadog' })).toBe(true);
    expect(holds({ property_field_type: 'attribute', property_field_name: 'summary', property_field_condition_type: 'contains', property_field_value: 'p99' })).toBe(true);
    expect(holds({ property_field_type: 'attribute', property_field_name: 'labels', property_field_value: 'env:prod' })).toBe(true);
    const field = condition({ property_field_type: 'alert_field', conditionable_type: 'AlertField', conditionable_id: 'f-1', property_field_value: 'payments' });
    expect(conditionHolds(field, alert({}, { 'f-1': ['payments'] }))).toBe(true);
    expect(conditionHolds(field, alert({}, { 'f-1': ['search'] }))).toBe(false);
  });

  test("on the alert_urgency attribute, alert_urgency_ids are the operands: is_one_of holds for one of them, is_not_one_of for none", () => {
    const onUrgency = (type: RouteCondition['property_field_condition_type'], ids: string[], extra: Partial<RouteCondition> = {}) =>
      holds({ property_field_type: 'attribute', property_field_name: 'alert_urgency', property_field_condition_type: type, alert_urgency_ids: ids, ...extra });
    expect(onUrgency('is_one_of', [HIGH])).toBe(true);
    expect(onUrgency('is_one_of', ['low'])).toBe(false);
    expect(onUrgency('is_not_one_of', ['low'])).toBe(true);
    expect(onUrgency('is_not_one_of', [HIGH])).toBe(false);
    expect(onUrgency('is_one_of', ['low'], { property_field_values: [HIGH] })).toBe(true);
    expect(holds({ property_field_type: 'attribute', property_field_name: 'alert_urgency', property_field_condition_type: 'is_not_one_of', alert_urgency_ids: ['low'] }, alert({ urgencyId: null }))).toBe(true);
  });

  test('alert_urgency_ids: the urgency must be one of them, alone or with a field comparison', () => {
    expect(holds({ alert_urgency_ids: [HIGH] })).toBe(true);
    expect(holds({ alert_urgency_ids: ['low'] })).toBe(false);
    expect(holds({ alert_urgency_ids: [HIGH] }, alert({ urgencyId: null }))).toBe(false);
    expect(holds({ alert_urgency_ids: [HIGH], property_field_name: '$.service', property_field_value: 'search' })).toBe(false);
  });
});

const rule = (name: string, groups: Partial<RouteCondition>[][], target: string, extra: Partial<RouteRule> = {}): RouteRule => ({
  name,
  condition_groups: groups.map((conditions, position) => ({ position, conditions: conditions.map(condition) })),
  destinations: [{ target_type: 'Service', target_id: target }],
  ...extra,
});
const route = (rules: RouteRule[], extra: Partial<AlertRoute> = {}): AlertRoute => ({ id: 'r', enabled: true, alerts_source_ids: [SOURCE], rules, ...extra });
const payments = { property_field_name: '$.tags', property_field_condition_type: 'contains' as const, property_field_value: 'payments' };
const search = { property_field_name: '$.service', property_field_value: 'search' };

describe('routeDestinations', () => {
  test('the first matching rule by position; groups are alternatives, conditions within a group all hold', () => {
    const r = route([rule('search', [[search]], 'svc-search', { position: 1 }), rule('payments', [[search], [payments, { property_field_name: '$.region', property_field_condition_type: 'starts_with', property_field_value: 'eu' }]], 'svc-payments', { position: 2 }), rule('later', [[payments]], 'svc-later', { position: 3 })]);
    expect(routeDestinations(r, alert())).toEqual([{ target_type: 'Service', target_id: 'svc-payments' }]);
  });

  test('the fallback rule when nothing else matches, wherever it is listed', () => {
    const r = route([rule('fallback', [], 'svc-fallback', { fallback_rule: true, position: 0 }), rule('search', [[search]], 'svc-search', { position: 1 })]);
    expect(routeDestinations(r, alert())).toEqual([{ target_type: 'Service', target_id: 'svc-fallback' }]);
    expect(routeDestinations(route([rule('search', [[search]], 'svc-search')]), alert())).toEqual([]);
  });

  test('a disabled route, or one another source feeds, routes nothing', () => {
    expect(routeDestinations(route([rule('all', [], 'svc')], { enabled: false }), alert())).toEqual([]);
    expect(routeDestinations(route([rule('all', [], 'svc')], { alerts_source_ids: [OTHER_SOURCE] }), alert())).toEqual([]);
    expect(routeDestinations(route([rule('all', [], 'svc')], { alerts_source_ids: [SOURCE.toUpperCase()] }), alert())).toHaveLength(1);
  });
});

describe('routeAlert: properties', () => {
  // Small vocabularies, so generated rules often match and often collide.
  const services = ['checkout', 'search', 'billing'];
  const targets = ['svc-a', 'svc-b', 'svc-c', 'svc-d'];
  const arbCondition = fc.record({
    property_field_type: fc.constant('payload' as const),
    property_field_name: fc.constant('$.service'),
    property_field_condition_type: fc.constantFrom('is_one_of' as const, 'is_not_one_of' as const, 'contains' as const, 'is_empty' as const),
    property_field_values: fc.subarray(services),
  });
  const arbRule = fc.record({
    name: fc.string(),
    position: fc.integer({ min: 0, max: 5 }),
    fallback_rule: fc.boolean(),
    condition_groups: fc.array(fc.record({ conditions: fc.array(arbCondition, { maxLength: 3 }) }), { maxLength: 3 }),
    destinations: fc.array(fc.record({ target_type: fc.constantFrom('Service' as const, 'Group' as const), target_id: fc.constantFrom(...targets) }), { minLength: 1, maxLength: 2 }),
  });
  const arbRoute = fc.record({ id: fc.uuid(), enabled: fc.boolean(), alerts_source_ids: fc.subarray([SOURCE, OTHER_SOURCE]), rules: fc.array(arbRule, { maxLength: 5 }) });
  const arbAlert = fc.constantFrom(...services, 'unknown').map((service) => alert({ payload: { service } }));

  test('the answer does not depend on the order the routes are listed in', () => {
    fc.assert(
      fc.property(fc.array(arbRoute, { maxLength: 5 }), arbAlert, (routes, a) => {
        const reversed = [...routes].reverse();
        expect(routeAlert(reversed, a)).toEqual(routeAlert(routes, a));
      }),
    );
  });

  test('every destination comes from an enabled route the source feeds, once', () => {
    fc.assert(
      fc.property(fc.array(arbRoute, { maxLength: 5 }), arbAlert, (routes, a) => {
        const result = routeAlert(routes, a);
        const keys = result.map((d) => `${d.target_type}:${d.target_id}`);
        expect(new Set(keys).size).toBe(keys.length);
        const possible = new Set(routes.filter((r) => r.enabled && r.alerts_source_ids.includes(SOURCE)).flatMap((r) => r.rules.flatMap((x) => x.destinations.map((d) => `${d.target_type}:${d.target_id}`))));
        for (const key of keys) expect(possible.has(key)).toBe(true);
      }),
    );
  });

  test('routing the same alert twice, or a copy of it, answers the same (it reads nothing but the alert)', () => {
    fc.assert(
      fc.property(fc.array(arbRoute, { maxLength: 5 }), arbAlert, (routes, a) => {
        expect(routeAlert(routes, { ...a, payload: structuredClone(a.payload) })).toEqual(routeAlert(routes, a));
      }),
    );
  });
});

describe('routing rules beside routes (routeOfRoutingRules)', () => {
  const ruleRow = (name: string, position: number, conditions: Partial<RouteCondition>[], target: string, extra: Record<string, unknown> = {}) => ({
    name,
    position,
    enabled: true,
    condition_type: 'all',
    conditions: conditions.map(condition),
    destination: { target_type: 'Group', target_id: target },
    ...extra,
  });

  test("a source's first matching rule by position adds its destination to the routes'; disabled rules play no part", () => {
    const legacy = routeOfRoutingRules(SOURCE, [
      ruleRow('later', 5, [payments], 'team-later'),
      ruleRow('off', 0, [payments], 'team-off', { enabled: false }),
      ruleRow('first', 1, [payments], 'team-first'),
    ]);
    const routes = [route([rule('all', [], 'svc-route')]), legacy];
    expect(routeAlert(routes, alert())).toEqual([
      { target_type: 'Group', target_id: 'team-first' },
      { target_type: 'Service', target_id: 'svc-route' },
    ]);
    expect(routeAlert([legacy], alert({ alertSourceId: OTHER_SOURCE }))).toEqual([]);
  });

  test('a rule is evaluated by its conditions: all of them, or (condition_type any) one of them', () => {
    const conditions = [{ property_field_name: '$.service', property_field_values: ['billing'] }, { property_field_name: '$.region', property_field_values: ['eu-west-1'] }];
    const targets = (type: string) => routeAlert([routeOfRoutingRules(SOURCE, [ruleRow('r', 1, conditions, 'team', { condition_type: type })])], alert());
    expect(targets('any')).toEqual([{ target_type: 'Group', target_id: 'team' }]);
    expect(targets('all')).toEqual([]);
  });

  test('the alert_urgency attribute compares the alert urgency id', () => {
    expect(holds({ property_field_type: 'attribute', property_field_name: 'alert_urgency', property_field_values: [HIGH] })).toBe(true);
    expect(holds({ property_field_type: 'attribute', property_field_name: 'alert_urgency', property_field_values: ['low'] })).toBe(false);
  });
});
