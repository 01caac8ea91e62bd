import { describe, expect, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { IngestionError } from './alert-draft';
import { holds, resolutionOf, urgencyOf, validateIngestionRules, type IngestionRulesConfig, type ResolutionRule } from './rules';

/** This test's folder (Jest runs it as an ES module, without `__dirname`). */
const here = dirname(expect.getState().testPath!);

const grafana = JSON.parse(readFileSync(join(here, 'fixtures', 'grafana-webhook.json'), 'utf8'));
const HIGH = 'urgency-high';
const LOW = 'urgency-low';

const fieldsOf = (config: IngestionRulesConfig) => validateIngestionRules(config).map((e) => e.field);

describe('ingestion rules: urgency', () => {
  const rules: IngestionRulesConfig = {
    alert_source_urgency_rules_attributes: [
      { kind: 'payload', json_path: '$.commonLabels.severity', operator: 'is', value: 'critical', alert_urgency_id: HIGH },
      { json_path: '$.status', operator: 'is', value: 'firing', alert_urgency_id: LOW },
    ],
  };

  test('the first rule that holds gives the urgency', () => {
    assert.equal(urgencyOf(rules, { commonLabels: { severity: 'critical' }, status: 'firing' }), HIGH);
    assert.equal(urgencyOf(rules, { commonLabels: { severity: 'warning' }, status: 'firing' }), LOW);
  });

  test('no rule holding, or no rules, gives null (the source default applies)', () => {
    assert.equal(urgencyOf(rules, { status: 'resolved' }), null);
    assert.equal(urgencyOf({}, grafana), null);
    assert.equal(urgencyOf({ alert_source_urgency_rules_attributes: null }, grafana), null);
  });

  test('works on a recorded payload', () => {
    const onGrafana: IngestionRulesConfig = { alert_source_urgency_rules_attributes: [{ json_path: '$.alerts[0].labels.alertname', operator: 'contains', value: 'HighError', alert_urgency_id: HIGH }] };
    assert.equal(urgencyOf(onGrafana, grafana), HIGH);
  });

  test('a stored rule that cannot be compiled throws IngestionError naming it', () => {
    assert.throws(() => urgencyOf({ alert_source_urgency_rules_attributes: [{ json_path: '$..x', operator: 'is', value: 'a', alert_urgency_id: HIGH }] }, {}), (e: unknown) => e instanceof IngestionError && e.field === 'alert_source_urgency_rules_attributes[0].json_path');
  });
});

describe('ingestion rules: operators', () => {
  test('is / is_not compare the value text exactly; numbers and booleans as JSON', () => {
    assert.equal(holds('critical', 'is', 'critical'), true);
    assert.equal(holds('Critical', 'is', 'critical'), false);
    assert.equal(holds(3, 'is', '3'), true);
    assert.equal(holds(true, 'is', 'true'), true);
    assert.equal(holds('a', 'is_not', 'b'), true);
    assert.equal(holds('a', 'is_not', 'a'), false);
  });

  test('contains: a substring of text, an element of an array', () => {
    assert.equal(holds('disk full on db-1', 'contains', 'db-1'), true);
    assert.equal(holds(['db', 'prod'], 'contains', 'prod'), true);
    assert.equal(holds(['db', 'production'], 'contains', 'prod'), false);
    assert.equal(holds('disk', 'does_not_contain', 'cpu'), true);
    assert.equal(holds('disk', 'does_not_contain', 'di'), false);
  });

  test('starts_with and ends_with', () => {
    assert.equal(holds('PROBLEM: x', 'starts_with', 'PROBLEM'), true);
    assert.equal(holds('x is OK', 'ends_with', 'OK'), true);
    assert.equal(holds('x is OK', 'starts_with', 'OK'), false);
  });

  test('a missing value holds only the negative operators', () => {
    for (const op of ['is', 'contains', 'starts_with', 'ends_with'] as const) assert.equal(holds(undefined, op, ''), false, op);
    assert.equal(holds(undefined, 'is_not', 'x'), true);
    assert.equal(holds(null, 'does_not_contain', 'x'), true);
  });
});

describe('ingestion rules: resolution', () => {
  const rule = (more: Partial<ResolutionRule> = {}): IngestionRulesConfig => ({
    resolution_rule_attributes: {
      enabled: true,
      condition_type: 'all',
      identifier_json_path: '$.groupKey',
      identifier_value_regex: 'alertname="([^"]+)"',
      conditions_attributes: [
        { kind: 'payload', field: '$.status', operator: 'is', value: 'resolved' },
        { field: '$.receiver', operator: 'starts_with', value: 'taproot' },
      ],
      ...more,
    },
  });
  const resolved = { ...grafana, status: 'resolved' };

  test('all conditions holding gives the identifier narrowed by the regex group', () => {
    assert.equal(grafana.receiver.startsWith('taproot'), true, 'the fixture is what the rule expects');
    assert.deepEqual(resolutionOf(rule(), resolved), { identifier: 'PaymentsHighErrorRate' });
    assert.equal(resolutionOf(rule(), grafana), null, 'firing: not all hold');
  });

  test('any: one condition is enough', () => {
    const any = rule({ condition_type: 'any', conditions_attributes: [{ field: '$.status', operator: 'is', value: 'resolved' }, { field: '$.receiver', operator: 'is', value: 'nobody' }] });
    assert.deepEqual(resolutionOf(any, resolved), { identifier: 'PaymentsHighErrorRate' });
    assert.equal(resolutionOf(any, grafana), null);
  });

  test('without a regex the identifier is the value itself; a missing one is null', () => {
    assert.deepEqual(resolutionOf(rule({ identifier_value_regex: null }), resolved), { identifier: resolved.groupKey });
    assert.deepEqual(resolutionOf(rule({ identifier_json_path: '$.nothing' }), resolved), { identifier: null });
    assert.deepEqual(resolutionOf(rule({ identifier_value_regex: 'no (match) here' }), resolved), { identifier: null });
  });

  test('a disabled or absent rule never resolves', () => {
    assert.equal(resolutionOf(rule({ enabled: false }), resolved), null);
    assert.equal(resolutionOf({}, resolved), null);
  });
});

describe('ingestion rules: validation', () => {
  test('valid rules have no problems; a disabled resolution rule is not checked', () => {
    assert.deepEqual(fieldsOf({ alert_source_urgency_rules_attributes: [{ json_path: '$.a', operator: 'is', value: 'x', alert_urgency_id: HIGH }] }), []);
    assert.deepEqual(fieldsOf({ resolution_rule_attributes: { enabled: false, identifier_json_path: 'bad' } }), []);
  });

  test('every problem of the urgency rules is named by its attribute path', () => {
    const fields = fieldsOf({
      alert_source_urgency_rules_attributes: [
        { json_path: '$.a', operator: 'is', value: 'x', alert_urgency_id: HIGH },
        { json_path: 'no-dollar', operator: 'starts_with', alert_urgency_id: '' },
        { kind: 'alert_field', operator: 'is', value: 'x', alert_urgency_id: HIGH },
      ],
    });
    assert.deepEqual(fields, [
      'alert_source_urgency_rules_attributes[1].alert_urgency_id',
      'alert_source_urgency_rules_attributes[1].operator',
      'alert_source_urgency_rules_attributes[1].value',
      'alert_source_urgency_rules_attributes[1].json_path',
      'alert_source_urgency_rules_attributes[2].conditionable_id',
    ]);
  });

  test('an enabled resolution rule needs an identifier path, a valid regex and valid conditions', () => {
    assert.deepEqual(fieldsOf({ resolution_rule_attributes: { enabled: true, identifier_json_path: '$.k', conditions_attributes: [] } }), ['resolution_rule_attributes.conditions_attributes']);
    assert.deepEqual(
      fieldsOf({
        resolution_rule_attributes: {
          enabled: true,
          identifier_reference_kind: 'alert_field',
          identifier_value_regex: '(',
          conditions_attributes: [{ field: '$[', operator: 'matches', value: 'x' }],
        },
      }),
      [
        'resolution_rule_attributes.identifier_matchable_id',
        'resolution_rule_attributes.identifier_value_regex',
        'resolution_rule_attributes.conditions_attributes[0].operator',
        'resolution_rule_attributes.conditions_attributes[0].field',
      ],
    );
  });
});

describe('ingestion rules: alert field conditions', () => {
  const SEVERITY = '6f1c2a8e-0000-4000-8000-000000000001';
  const TICKET = '6f1c2a8e-0000-4000-8000-000000000002';
  const values: Record<string, string> = { [SEVERITY]: 'sev1', [TICKET]: 'Ticket OPS-42 closed' };
  const field = (id: string) => values[id];

  test('an alert_field condition compares the alert field value, not the payload', () => {
    const rules: IngestionRulesConfig = {
      alert_source_urgency_rules_attributes: [{ kind: 'alert_field', conditionable_id: SEVERITY.toUpperCase(), operator: 'is', value: 'sev1', alert_urgency_id: HIGH }],
    };
    assert.deepEqual(validateIngestionRules(rules), []);
    assert.equal(urgencyOf(rules, { severity: 'sev2' }, field), HIGH);
    assert.equal(urgencyOf(rules, { severity: 'sev1' }, () => 'sev2'), null);
    // A caller without field values (or a field without one): only is_not and does_not_contain hold.
    assert.equal(urgencyOf(rules, {}), null);
    const negated: IngestionRulesConfig = { alert_source_urgency_rules_attributes: [{ kind: 'alert_field', conditionable_id: SEVERITY, operator: 'is_not', value: 'sev1', alert_urgency_id: LOW }] };
    assert.equal(urgencyOf(negated, {}), LOW);
  });

  test('resolution: field conditions and a field identifier narrowed by the regex', () => {
    const rule: ResolutionRule = {
      enabled: true,
      condition_type: 'all',
      identifier_reference_kind: 'alert_field',
      identifier_matchable_id: TICKET,
      identifier_value_regex: '(OPS-\\d+)',
      conditions_attributes: [
        { kind: 'alert_field', conditionable_id: TICKET, operator: 'ends_with', value: 'closed' },
        { kind: 'payload', field: '$.status', operator: 'is', value: 'ok' },
      ],
    };
    assert.deepEqual(validateIngestionRules({ resolution_rule_attributes: rule }), []);
    assert.deepEqual(resolutionOf({ resolution_rule_attributes: rule }, { status: 'ok' }, field), { identifier: 'OPS-42' });
    assert.equal(resolutionOf({ resolution_rule_attributes: rule }, { status: 'ok' }, () => 'Ticket OPS-42 opened'), null);
    assert.equal(resolutionOf({ resolution_rule_attributes: rule }, { status: 'down' }, field), null);
  });
});
