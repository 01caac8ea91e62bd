import { describe, expect, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { IngestionError } from './alert-draft';
import {
  DEFAULT_GENERIC_SUMMARY,
  mapGenericWebhook,
  validateGenericWebhookConfig,
  type GenericWebhookConfig,
} from './generic-webhook';

/** This test's folder (Jest runs it as an ES module, without `__dirname`). */
const here = dirname(expect.getState().testPath!);

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(here, 'fixtures', name), 'utf8'));
const grafana = fixture('grafana-webhook.json');
const datadog = fixture('datadog-webhook-recovered.json');

const grafanaSource: GenericWebhookConfig = {
  sourceable_attributes: {
    auto_resolve: true,
    resolve_state: 'resolved',
    field_mappings_attributes: [
      { field: 'alert_title', json_path: '$.alerts[0].annotations.summary' },
      { field: 'alert_description', json_path: '$.alerts[0].annotations.description' },
      { field: 'alert_external_url', json_path: '$.alerts[0].generatorURL' },
      { field: 'external_id', json_path: '$.alerts[0].fingerprint' },
      { field: 'state', json_path: '$.status' },
    ],
  },
  deduplicate_alerts_by_key: true,
  deduplication_key_path: '$.groupKey',
  deduplication_key_regexp: 'alertname="([^"]+)"',
};

const datadogSource: GenericWebhookConfig = {
  alert_template_attributes: {
    title: '$.title',
    description: '{{ $.alert_status }} (scope {{$.alert_scope}}, priority {{ $.alert_priority }})',
    external_url: '$.link',
  },
  sourceable_attributes: {
    resolve_state: 'Recovered',
    field_mappings_attributes: [
      { field: 'state', json_path: '$.alert_transition' },
      { field: 'external_id', json_path: '$.alert_id' },
      { field: 'notification_target_type', json_path: '$.routing.target_type' },
      { field: 'notification_target_id', json_path: '$.routing.escalation_policy' },
    ],
  },
  deduplicate_alerts_by_key: true,
  deduplication_key_path: "$['aggreg_key']",
};

describe('generic webhook mapper', () => {
  test('maps a Grafana webhook with field mappings and a regexp-narrowed dedup key', () => {
    const [draft, ...rest] = mapGenericWebhook(grafanaSource, grafana);
    assert.equal(rest.length, 0);
    assert.equal(draft.summary, 'payments-api 5xx ratio above 5%');
    assert.match(draft.description ?? '', /^5xx ratio on payments-api is 7.3%/);
    assert.equal(draft.external_url, 'https://grafana.example.com/alerting/grafana/cdf3k2m9x1gxsb/view?orgId=1');
    assert.equal(draft.external_id, '8c1f0a4b3e2d9f71');
    assert.equal(draft.deduplication_key, 'PaymentsHighErrorRate');
    assert.equal(draft.resolve, false);
    assert.equal(draft.data, grafana);
    assert.equal(draft.notification_target_type, null);
  });

  test('auto-resolves when the mapped state equals resolve_state, and only then', () => {
    const resolved = { ...grafana, status: 'resolved' };
    assert.equal(mapGenericWebhook(grafanaSource, resolved)[0].resolve, true);
    assert.equal(mapGenericWebhook(grafanaSource, { ...grafana, status: 'Resolved' })[0].resolve, false);
    const off = { ...grafanaSource, sourceable_attributes: { ...grafanaSource.sourceable_attributes, auto_resolve: false } };
    assert.equal(mapGenericWebhook(off, resolved)[0].resolve, false);
    const noState = { sourceable_attributes: { resolve_state: 'resolved' } };
    assert.equal(mapGenericWebhook(noState, resolved)[0].resolve, false);
  });

  test('maps a Datadog recovery with templates, a notification target and resolution', () => {
    const payload = { ...datadog, routing: { ...(datadog.routing as object), target_type: 'EscalationPolicy' } };
    const [draft] = mapGenericWebhook(datadogSource, payload);
    assert.equal(draft.summary, '[Recovered] Disk usage above 90% on db-primary-1');
    assert.equal(
      draft.description,
      'system.disk.in_use over host:db-primary-1 was <= 0.9 on average during the last 5m. (scope host:db-primary-1, priority P2)',
    );
    assert.equal(draft.external_url, 'https://app.datadoghq.com/event/event?id=7795125386401718032');
    assert.equal(draft.external_id, '148230917');
    assert.equal(draft.deduplication_key, 'b1e8a4d1c6f0a2e3d4c5b6a7f8e9d0c1');
    assert.equal(draft.notification_target_type, 'EscalationPolicy');
    assert.equal(draft.notification_target_id, '8e9f0a1b-2c3d-4e5f-8a7b-6c5d4e3f2a1b');
    assert.equal(draft.resolve, true);
  });

  test('without mappings falls back to title/summary/message, then a default summary', () => {
    assert.equal(mapGenericWebhook({}, grafana)[0].summary, grafana.title);
    assert.equal(mapGenericWebhook({}, { message: 'disk full' })[0].summary, 'disk full');
    const [draft] = mapGenericWebhook({}, { value: 3 });
    assert.equal(draft.summary, DEFAULT_GENERIC_SUMMARY);
    assert.equal(draft.deduplication_key, null);
    assert.equal(draft.resolve, false);
  });

  test('an array body gives one draft per item; a dedup regexp without a match gives no key', () => {
    const drafts = mapGenericWebhook(grafanaSource, [grafana, { ...grafana, groupKey: 'no match', status: 'resolved' }]);
    assert.equal(drafts.length, 2);
    assert.equal(drafts[0].deduplication_key, 'PaymentsHighErrorRate');
    assert.equal(drafts[1].deduplication_key, null);
    assert.equal(drafts[1].resolve, true);
  });

  test('bad configuration or payloads throw IngestionError naming the attribute', () => {
    const cases: [GenericWebhookConfig, string][] = [
      [{ sourceable_attributes: { field_mappings_attributes: [{ field: 'state', json_path: 'status' }] } }, 'sourceable_attributes.field_mappings_attributes[0].json_path'],
      [{ sourceable_attributes: { field_mappings_attributes: [{ field: 'colour', json_path: '$.c' }] } }, 'sourceable_attributes.field_mappings_attributes[0].field'],
      [{ alert_template_attributes: { title: 'CPU {{ $..x }}' } }, 'alert_template_attributes.title'],
      [{ deduplicate_alerts_by_key: true }, 'deduplication_key_path'],
      [{ deduplicate_alerts_by_key: true, deduplication_key_path: '$.a[*]' }, 'deduplication_key_path'],
      [{ deduplicate_alerts_by_key: true, deduplication_key_path: '$.a', deduplication_key_regexp: '(' }, 'deduplication_key_regexp'],
    ];
    for (const [config, field] of cases) {
      const [error] = validateGenericWebhookConfig(config);
      assert.ok(error instanceof IngestionError, field);
      assert.equal(error.field, field);
      assert.equal(error.status, 422);
      assert.throws(() => mapGenericWebhook(config, grafana), IngestionError);
    }
    assert.deepEqual(validateGenericWebhookConfig(grafanaSource), []);
    assert.throws(() => mapGenericWebhook({}, 'text'), { field: 'body' });
    assert.throws(() => mapGenericWebhook({}, [{}, 3]), { field: 'body[1]' });
    const wrongTarget = { ...datadog, routing: { target_type: 'Team', escalation_policy: 'x' } };
    assert.throws(() => mapGenericWebhook(datadogSource, wrongTarget), { field: 'notification_target_type' });
    assert.throws(() => mapGenericWebhook(datadogSource, datadog), { field: 'notification_target_type' });
  });
});
