import { describe, expect, test } from '@jest/globals';
import type { RoutedAlert } from '../alert-routes/route-alert';
import { findRetriggerRule, retriggerRuleMatches, type RetriggerCondition, type RetriggerRule } from './retrigger-rules';

const SOURCE = '0d3f6a4e-1111-4a1b-8c2d-000000000001';
const SERVICE = '0d3f6a4e-2222-4a1b-8c2d-000000000001';
const FIELD = '0d3f6a4e-3333-4a1b-8c2d-000000000001';
const HIGH = 'urgency-high';

const alert: RoutedAlert = {
  alertSourceId: SOURCE,
  attributes: { summary: 'Disk full', source: 'datadog', alert_source_id: SOURCE, service_ids: [SERVICE] },
  urgencyId: HIGH,
  payload: { host: 'db-1' },
  fieldValues: (id) => (id === FIELD ? ['prod'] : []),
};

const rule = (conditions: RetriggerCondition[], extra: Partial<RetriggerRule> = {}): RetriggerRule => ({ id: 'r', match_mode: 'match-all-rules', timeout_minutes: 60, position: 1, conditions, ...extra });
const c = (kind: RetriggerCondition['kind'], extra: Partial<RetriggerCondition> = {}): RetriggerCondition => ({ kind, operator: 'is_one_of', ...extra });

describe('retriggerRuleMatches', () => {
  test('each condition kind reads its part of the alert', () => {
    expect(retriggerRuleMatches(rule([c('urgency', { record_ids: [HIGH] })]), alert)).toBe(true);
    expect(retriggerRuleMatches(rule([c('urgency', { record_ids: ['low'] })]), alert)).toBe(false);
    expect(retriggerRuleMatches(rule([c('urgency', { operator: 'is_not_one_of', record_ids: ['low'] })]), alert)).toBe(true);
    expect(retriggerRuleMatches(rule([c('source', { record_ids: [SOURCE] })]), alert)).toBe(true);
    expect(retriggerRuleMatches(rule([c('source', { values: ['datadog'] })]), alert)).toBe(true);
    expect(retriggerRuleMatches(rule([c('source', { values: ['grafana'] })]), alert)).toBe(false);
    expect(retriggerRuleMatches(rule([c('service', { record_ids: [SERVICE] })]), alert)).toBe(true);
    expect(retriggerRuleMatches(rule([c('payload', { property_field_name: '$.host', operator: 'starts_with', values: ['db-'] })]), alert)).toBe(true);
    expect(retriggerRuleMatches(rule([c('alert_field', { record_ids: [FIELD], values: ['prod'] })]), alert)).toBe(true);
    expect(retriggerRuleMatches(rule([c('alert_field', { record_ids: [FIELD], values: ['dev'] })]), alert)).toBe(false);
  });

  test('match-all-rules needs every condition, match-any-rule one; no conditions match every alert', () => {
    const conditions = [c('urgency', { record_ids: [HIGH] }), c('source', { values: ['grafana'] })];
    expect(retriggerRuleMatches(rule(conditions), alert)).toBe(false);
    expect(retriggerRuleMatches(rule(conditions, { match_mode: 'match-any-rule' }), alert)).toBe(true);
    expect(retriggerRuleMatches(rule([]), alert)).toBe(true);
  });
});

describe('findRetriggerRule', () => {
  const settled = new Date('2026-01-01T00:00:00Z');
  const at = (minutes: number) => new Date(settled.getTime() + minutes * 60_000);

  test('the first matching rule by position, not by array order', () => {
    const rules = [rule([], { id: 'second', position: 2 }), rule([c('source', { values: ['grafana'] })], { id: 'first-no-match', position: 0 }), rule([], { id: 'first', position: 1 })];
    expect(findRetriggerRule(rules, alert, settled, at(5))?.id).toBe('first');
  });

  test('timeout_minutes counts from the acknowledgement or resolution; null has no limit', () => {
    expect(findRetriggerRule([rule([], { timeout_minutes: 30 })], alert, settled, at(30))?.id).toBe('r');
    expect(findRetriggerRule([rule([], { timeout_minutes: 30 })], alert, settled, at(31))).toBeNull();
    expect(findRetriggerRule([rule([], { timeout_minutes: null })], alert, settled, at(100_000))?.id).toBe('r');
    expect(findRetriggerRule([], alert, settled, at(1))).toBeNull();
  });
});
