import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestApi, type TestApi, type TestOrganization } from '../src/testing';
import { newAlertSource, postInbound, signedBy, type InboundSource } from './support/alert-sources';

// Jest runs from the workspace root (jest.config.mjs).
const FIXTURES = join(process.cwd(), 'libs/alerting/src/ingestion/fixtures');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const RULES = '/data/attributes/alert_source_urgency_rules_attributes';

/** A Datadog-style generic webhook: the monitor's alert_id is the deduplication key. */
const DATADOG = {
  source_type: 'generic_webhook',
  deduplicate_alerts_by_key: true,
  deduplication_key_path: '$.alert_id',
};

describe('alert source rules applied at ingestion', () => {
  let api: TestApi;
  let org: TestOrganization;
  let other: TestOrganization;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
    other = await api.newOrganization();
  });
  after(() => api?.close());

  const urgency = async (token = org.token) => {
    const res = await api.request('POST', '/v1/alert_urgencies', { token, body: { data: { type: 'alert_urgencies', attributes: { name: `U ${randomUUID().slice(0, 6)}`, description: 'u' } } } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data.id as string;
  };
  const create = (attributes: Record<string, unknown>) => api.request('POST', '/v1/alert_sources', { token: org.token, body: { data: { type: 'alert_sources', attributes: { name: `Rules ${Math.random()}`, ...attributes } } } });
  const newSource = (attributes: Record<string, unknown>) => newAlertSource(api, org.token, attributes);
  const post = (source: InboundSource, payload: unknown) => {
    const raw = typeof payload === 'string' ? payload : JSON.stringify(payload);
    return postInbound(api, source.path, raw, signedBy(source.secret, raw));
  };

  test('urgency rules: the first that holds sets the urgency, else the source default', async () => {
    const [high, medium, low] = [await urgency(), await urgency(), await urgency()];
    const source = await newSource({
      ...DATADOG,
      alert_urgency_id: low,
      alert_source_urgency_rules_attributes: [
        { kind: 'payload', json_path: '$.alert_priority', operator: 'is', value: 'P1', alert_urgency_id: high },
        { kind: 'payload', json_path: '$.tags', operator: 'contains', value: 'env:production', alert_urgency_id: medium },
      ],
    });
    const datadog = JSON.parse(fixture('datadog-webhook-recovered.json'));
    const urgencyOf = async (payload: Record<string, unknown>) => {
      const res = await post(source, { ...datadog, ...payload, alert_id: randomUUID() });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      return res.body.data[0].attributes.alert_urgency_id;
    };
    assert.equal(await urgencyOf({ alert_priority: 'P1' }), high, 'both hold: the first wins');
    assert.equal(await urgencyOf({}), medium, 'P2 in production');
    assert.equal(await urgencyOf({ tags: 'env:staging' }), low, 'none holds: the source default');
  });

  test('urgency rules work on Alertmanager entries', async () => {
    const [warning, fallback] = [await urgency(), await urgency()];
    const source = await newSource({ source_type: 'alertmanager', alert_urgency_id: fallback, alert_source_urgency_rules_attributes: [{ json_path: '$.labels.severity', operator: 'is', value: 'warning', alert_urgency_id: warning }] });
    const res = await postInbound(api, `${source.path}?secret=${source.secret}`, fixture('alertmanager-firing.json'));
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.deepEqual(res.body.data.map((a: { attributes: { alert_urgency_id: string } }) => a.attributes.alert_urgency_id), [warning, warning]);
  });

  test('bad rules answer 422 naming the pointer and store nothing', async () => {
    const known = await urgency();
    const foreign = await urgency(other.token);
    const refused = async (attributes: Record<string, unknown>, pointer: string, code: string) => {
      const res = await create({ name: `refused-rules-${randomUUID()}`, ...attributes });
      assert.equal(res.status, 422, JSON.stringify(res.body));
      assert.ok(res.body.errors.some((e: { source: { pointer: string }; code: string }) => e.source.pointer === pointer && e.code === code), JSON.stringify(res.body.errors));
    };
    const rule = { json_path: '$.a', operator: 'is', value: 'x', alert_urgency_id: known };
    await refused({ alert_source_urgency_rules_attributes: [rule, { ...rule, json_path: '$..a' }] }, `${RULES}/1/json_path`, 'INVALID_ALERT_SOURCE_CONFIG');
    await refused({ alert_source_urgency_rules_attributes: [{ ...rule, alert_urgency_id: foreign }] }, `${RULES}/0/alert_urgency_id`, 'UNKNOWN_ALERT_URGENCY');
    await refused({ alert_source_urgency_rules_attributes: [{ ...rule, alert_urgency_id: 'nope' }] }, `${RULES}/0/alert_urgency_id`, 'UNKNOWN_ALERT_URGENCY');
    // Alert field conditions name a field of the organization (alert-fields.e2e-spec.ts applies them).
    await refused({ alert_source_urgency_rules_attributes: [{ ...rule, kind: 'alert_field', conditionable_type: 'AlertField', conditionable_id: randomUUID() }] }, `${RULES}/0/conditionable_id`, 'UNKNOWN_REFERENCE');
    await refused({ alert_source_urgency_rules_attributes: [{ ...rule, kind: 'alert_field' }] }, `${RULES}/0/conditionable_id`, 'INVALID_ALERT_SOURCE_CONFIG');
    await refused(
      { resolution_rule_attributes: { enabled: true, identifier_json_path: 'alert_id', conditions_attributes: [{ field: '$.s', operator: 'is', value: 'ok' }] } },
      '/data/attributes/resolution_rule_attributes/identifier_json_path',
      'INVALID_ALERT_SOURCE_CONFIG',
    );
    await refused({ resolution_rule_attributes: { enabled: true, identifier_json_path: '$.id', conditions_attributes: [] } }, '/data/attributes/resolution_rule_attributes/conditions_attributes', 'INVALID_ALERT_SOURCE_CONFIG');
    const list = await api.request('GET', '/v1/alert_sources?filter[search]=refused-rules', { token: org.token });
    assert.deepEqual(list.body.data, []);

    // An update is checked against the source after the change.
    const source = await newSource({ source_type: 'generic_webhook', alert_source_urgency_rules_attributes: [rule] });
    const update = await api.request('PUT', `/v1/alert_sources/${source.id}`, { token: org.token, body: { data: { type: 'alert_sources', attributes: { alert_source_urgency_rules_attributes: [{ ...rule, operator: 'matches' }] } } } });
    assert.equal(update.status, 422, JSON.stringify(update.body));
    assert.equal(update.body.errors[0].source.pointer, `${RULES}/0/operator`);
    const read = await api.request('GET', `/v1/alert_sources/${source.id}`, { token: org.token });
    assert.equal(read.body.data.attributes.alert_source_urgency_rules_attributes[0].operator, 'is');
  });

  test('resolution rule: a recovery resolves the alert whose deduplication key is the identifier instead of opening one', async () => {
    const source = await newSource({
      ...DATADOG,
      resolution_rule_attributes: {
        enabled: true,
        condition_type: 'all',
        identifier_json_path: '$.aggreg_key',
        identifier_value_regex: '^(\\w{8})',
        conditions_attributes: [
          { kind: 'payload', field: '$.alert_transition', operator: 'is', value: 'Recovered' },
          { kind: 'payload', field: '$.tags', operator: 'contains', value: 'service:postgres' },
        ],
      },
    });
    const recovered = JSON.parse(fixture('datadog-webhook-recovered.json'));
    // The triggered event's alert_id is the first 8 characters of the recovery's aggreg_key.
    const triggered = { ...recovered, title: 'Disk usage above 90% on db-primary-1', alert_transition: 'Triggered', alert_id: recovered.aggreg_key.slice(0, 8) };
    const opened = await post(source, triggered);
    assert.equal(opened.status, 202, JSON.stringify(opened.body));
    const [alert] = opened.body.data;
    assert.equal(alert.attributes.status, 'open');

    const resolved = await post(source, recovered);
    assert.equal(resolved.status, 202, JSON.stringify(resolved.body));
    assert.deepEqual(resolved.body.data.map((a: { id: string }) => a.id), [alert.id]);
    assert.equal(resolved.body.data[0].attributes.status, 'resolved');
    assert.deepEqual({ ...resolved.body.meta.receipts[0], id: undefined }, { id: undefined, state: 'done', resource_type: 'Alert', resource_id: alert.id });

    // Nothing left to resolve: no alert is opened either.
    const again = await post(source, recovered);
    assert.equal(again.status, 202);
    assert.deepEqual(again.body.data, []);
    assert.deepEqual({ ...again.body.meta.receipts[0], id: undefined }, { id: undefined, state: 'failed', reason: 'no_route_matched' });
    const alerts = await api.request('GET', `/v1/alerts?filter[alert_source_id]=${source.id}`, { token: org.token });
    assert.deepEqual(alerts.body.data.map((a: { id: string }) => a.id), [alert.id]);

    // Conditions not all holding: the item opens an alert as usual.
    const otherService = await post(source, { ...recovered, tags: 'service:redis' });
    assert.equal(otherService.body.data.length, 1);
    assert.notEqual(otherService.body.data[0].id, alert.id);
    assert.equal(otherService.body.meta.receipts[0].state, 'done');
  });
});
