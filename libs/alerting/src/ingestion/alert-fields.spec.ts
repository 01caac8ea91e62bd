import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { emptyDraft, MAX_SUMMARY_LENGTH } from './alert-draft';
import { applyAlertFields, draftFieldValue, validateAlertSourceFields, type AlertFieldsConfig } from './alert-fields';
import { compileTemplate, renderTemplate, unsupportedLiquid } from './template';

const TITLE = '00000000-0000-4000-8000-00000000000a';
const DESCRIPTION = '00000000-0000-4000-8000-00000000000b';
const URL = '00000000-0000-4000-8000-00000000000c';
const STATE = '00000000-0000-4000-8000-00000000000d';
const REGION = '00000000-0000-4000-8000-00000000000e';
const builtIns = { [TITLE]: 'title', [DESCRIPTION]: 'description', [URL]: 'external_url', [STATE]: 'state' };

const payload = { check: { name: 'db1 down', url: 'https://mon.example/db1' }, region: 'eu-west-1', status: 'ok', count: 3 };
const draft = () => emptyDraft('from the mapper', payload);

describe('templates', () => {
  test('a bare JSON Path gives the value there; text fills its {{ $.path }} placeholders; plain text is constant', () => {
    assert.equal(renderTemplate(compileTemplate('t', '$.check.name'), payload), 'db1 down');
    assert.equal(renderTemplate(compileTemplate('t', '$.missing'), payload), null);
    assert.equal(renderTemplate(compileTemplate('t', '{{ $.count }} checks in {{$.region}}{{ $.none }}'), payload), '3 checks in eu-west-1');
    assert.equal(renderTemplate(compileTemplate('t', 'Server exploded'), payload), 'Server exploded');
  });

  test("Liquid's alert.data is the payload: {{ alert.data.path }} is {{ $.path }}", () => {
    assert.equal(renderTemplate(compileTemplate('t', '{{ alert.data.check.name }} in {{alert.data["region"]}}'), payload), 'db1 down in eu-west-1');
    assert.equal(renderTemplate(compileTemplate('t', '{{ alert.data }}'), { a: 1 }), '{"a":1}');
    assert.equal(renderTemplate(compileTemplate('t', '{{ alert.database }}'), payload), '{{ alert.database }}', 'another variable is no placeholder');
    assert.equal(unsupportedLiquid('{{ alert.data.a }} {{ $.b }}'), null);
    assert.equal(unsupportedLiquid('{{ alert.summary }}'), '{{ alert.summary }}');
    assert.equal(unsupportedLiquid('{% if alert.data.a %}x{% endif %}'), '{% if alert.data.a %}');
  });

  test("an alert field's template reads the alert being built: {{ alert.<name> }}, an unknown name empty (as Liquid)", () => {
    const alert = { title: 'db1 down', status: 'triggered' };
    assert.equal(renderTemplate(compileTemplate('t', '[{{ alert.status }}] {{alert.title}}: {{ alert.severity }}/{{ alert.data.region }}', true), payload, alert), '[triggered] db1 down: /eu-west-1');
    assert.equal(renderTemplate(compileTemplate('t', '{{ alert.title }}'), payload, alert), '{{ alert.title }}', 'other templates keep it as text');
    assert.equal(unsupportedLiquid('{{ alert.title }} {{ alert.severity }}', true), null);
    assert.equal(unsupportedLiquid('{{ alert.title | upcase }}', true), '{{ alert.title | upcase }}');
    assert.equal(unsupportedLiquid('{{ alert.labels.team }}', true), '{{ alert.labels.team }}');
  });

  test('a bad path throws IngestionError naming the field', () => {
    assert.throws(() => compileTemplate('alert_source_fields_attributes[0].template_body', 'x {{ $..a }}'), { name: 'IngestionError', field: 'alert_source_fields_attributes[0].template_body' });
  });
});

describe('alert source fields applied to a draft', () => {
  test('built-in fields fill their alert attributes, custom fields go into alert_field_values', () => {
    const config: AlertFieldsConfig = {
      alert_source_fields_attributes: [
        { alert_field_id: TITLE, template_body: '$.check.name' },
        { alert_field_id: DESCRIPTION, template_body: 'In {{ $.region }}' },
        { alert_field_id: URL, template_body: '$.check.url' },
        { alert_field_id: REGION.toUpperCase(), template_body: '$.region' },
      ],
    };
    const before = draft();
    const out = applyAlertFields(config, builtIns, before);
    assert.equal(out.summary, 'db1 down');
    assert.equal(out.description, 'In eu-west-1');
    assert.equal(out.external_url, 'https://mon.example/db1');
    assert.deepEqual(out.alert_field_values, [{ alert_field_id: REGION, value: 'eu-west-1' }]);
    assert.equal(before.summary, 'from the mapper', "the mapper's draft is left as it was");
  });

  test("a field without a template, or whose template renders nothing, keeps the mapper's value", () => {
    const config: AlertFieldsConfig = { alert_source_fields_attributes: [{ alert_field_id: TITLE }, { alert_field_id: DESCRIPTION, template_body: '$.nothing' }, { alert_field_id: REGION, template_body: '$.nothing' }] };
    const out = applyAlertFields(config, builtIns, { ...draft(), description: 'mapped' });
    assert.equal(out.summary, 'from the mapper');
    assert.equal(out.description, 'mapped');
    assert.deepEqual(out.alert_field_values, []);
  });

  test('the title is clipped as summaries are', () => {
    const out = applyAlertFields({ alert_source_fields_attributes: [{ alert_field_id: TITLE, template_body: 'x'.repeat(400) }] }, builtIns, draft());
    assert.equal(out.summary.length, MAX_SUMMARY_LENGTH);
  });

  test("the state field resolves the draft when it equals resolve_state (auto_resolve not false)", () => {
    const fields = [{ alert_field_id: STATE, template_body: '$.status' }];
    assert.equal(applyAlertFields({ alert_source_fields_attributes: fields, sourceable_attributes: { resolve_state: 'ok' } }, builtIns, draft()).resolve, true);
    assert.equal(applyAlertFields({ alert_source_fields_attributes: fields, sourceable_attributes: { resolve_state: 'down' } }, builtIns, draft()).resolve, false);
    assert.equal(applyAlertFields({ alert_source_fields_attributes: fields, sourceable_attributes: { resolve_state: 'ok', auto_resolve: false } }, builtIns, draft()).resolve, false);
  });

  test('draftFieldValue: what rules on alert fields compare', () => {
    const out = applyAlertFields({ alert_source_fields_attributes: [{ alert_field_id: REGION, template_body: '$.region' }, { alert_field_id: STATE, template_body: '$.status' }] }, builtIns, draft());
    assert.equal(draftFieldValue(out, builtIns, REGION.toUpperCase()), 'eu-west-1');
    assert.equal(draftFieldValue(out, builtIns, TITLE), 'from the mapper');
    assert.equal(draftFieldValue(out, builtIns, STATE), 'ok');
    assert.equal(draftFieldValue(out, builtIns, URL), undefined);
    assert.equal(draftFieldValue(out, builtIns, '00000000-0000-4000-8000-0000000000ff'), undefined);
  });

  test('validation names each problem by its attribute path', () => {
    const problems = validateAlertSourceFields({
      alert_source_fields_attributes: [{ alert_field_id: TITLE, template_body: '$.ok' }, { template_body: '$.a' }, { alert_field_id: REGION, template_body: '$[' }, { alert_field_id: REGION, template_body: '{{ alert.data.a | upcase }}' }, { alert_field_id: REGION, template_body: '{{ alert.labels.team }}' }],
    });
    assert.deepEqual(problems.map((p) => p.field), [1, 2, 3, 4].map((i) => `alert_source_fields_attributes[${i}].${i === 1 ? 'alert_field_id' : 'template_body'}`));
  });
});
