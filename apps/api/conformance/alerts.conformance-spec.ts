import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApi, type TestApi, type TestOrganization, type TestResponse } from '../src/testing';
import { validateAgainstReference } from '../test/support/openapi-ajv';

/**
 * Alerts against the REFERENCE document: every response of `/v1/alerts` (create, deduplicated
 * create, get, list with and without include, PATCH, the operations) is validated against the
 * reference's `alert_response` / `alert_list`, and the errors against `errors_list`.
 */
describe('alerts conform to the reference', () => {
  let api: TestApi;
  let org: TestOrganization;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
  });
  after(() => api?.close());

  const send = (method: string, path: string, body?: unknown) => api.request(method, path, { token: org.token, body });
  const doc = (attributes: Record<string, unknown>) => ({ data: { type: 'alerts', attributes } });
  const check = (res: TestResponse, schema: string, what: string) => {
    assert.ok(res.status < 500, `${what}: ${res.status}`);
    validateAgainstReference(res.status >= 400 ? 'errors_list' : schema, res.body, what);
  };

  test('create, get, list, PATCH and the operations answer the reference documents', async () => {
    const urgency = await send('POST', '/v1/alert_urgencies', { data: { type: 'alert_urgencies', attributes: { name: 'High', description: 'now' } } });
    const full = {
      summary: 'Disk full',
      description: 'db1 at 97%',
      source: 'datadog',
      deduplication_key: 'disk-db1',
      labels: [{ key: 'host', value: 'db1' }, { key: 'pct', value: 97 }],
      data: { disk: 97 },
      alert_urgency_id: urgency.body.data.id,
      external_id: 'ext-1',
      external_url: 'https://example.test/alerts/1',
      notification_target_type: 'Group',
      notification_target_id: 'g1',
      started_at: '2026-11-01T10:00:00Z',
    };
    const created = await send('POST', '/v1/alerts', doc(full));
    assert.equal(created.status, 201);
    check(created, 'alert_response', 'POST /v1/alerts');
    check(await send('POST', '/v1/alerts', doc({ summary: 'minimal' })), 'alert_response', 'POST /v1/alerts (minimal)');
    const dedup = await send('POST', '/v1/alerts', doc(full));
    assert.equal(dedup.status, 200);
    check(dedup, 'alert_response', 'POST /v1/alerts (deduplicated)');
    const id = created.body.data.id;
    check(await send('GET', `/v1/alerts/${id}`), 'alert_response', 'GET /v1/alerts/{id}');
    check(await send('GET', `/v1/alerts/${id}?include=incidents,groups`), 'alert_response', 'GET /v1/alerts/{id}?include');
    check(await send('GET', '/v1/alerts'), 'alert_list', 'GET /v1/alerts');
    check(await send('GET', '/v1/alerts?page[size]=1&page[number]=2'), 'alert_list', 'GET /v1/alerts (page)');
    check(await send('GET', '/v1/alerts?include=incidents,notified_users,responders,groups&filter[status]=triggered'), 'alert_list', 'GET /v1/alerts?include');
    check(await send('PATCH', `/v1/alerts/${id}`, doc({ summary: 'Disk still full', status: 'acknowledged' })), 'alert_response', 'PATCH /v1/alerts/{id}');
    check(await send('POST', `/v1/alerts/${id}/snooze`, doc({ delay_minutes: 10 })), 'alert_response', 'snooze');
    check(await send('POST', `/v1/alerts/${id}/escalate`), 'alert_response', 'escalate');
    check(await send('POST', `/v1/alerts/${id}/acknowledge`), 'alert_response', 'acknowledge');
    check(await send('POST', `/v1/alerts/${id}/resolve`), 'alert_response', 'resolve');
    const refused = await send('POST', `/v1/alerts/${id}/acknowledge`);
    assert.equal(refused.status, 422);
    check(refused, 'alert_response', 'acknowledge a resolved alert');
  });
});
