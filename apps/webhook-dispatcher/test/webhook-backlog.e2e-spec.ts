import { afterAll, beforeAll, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import type { RunningApp } from '@taproot/runtime';
import { eventually, startTestApi, type TestApi, type TestOrganization } from '../../api/src/testing';
import { startDispatcher } from '../src';
import { WebhookReceiver } from './support/webhook-world';

const DELIVERIES = 10;

/**
 * A backlog of due deliveries (an outage's retries, a mass redelivery) is claimed as attempts
 * finish, not a concurrency's worth per poll: with WEBHOOK_CONCURRENCY=2 and a poll of a minute,
 * ten due deliveries are all sent within seconds of one wake-up.
 */
describe('webhook delivery backlog', () => {
  let api: TestApi;
  let dispatcher: RunningApp;
  let org: TestOrganization;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await receiver.start();
    api = await startTestApi({ env: { WEBHOOK_POLL_MS: '60000', WEBHOOK_CONCURRENCY: '2', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' } });
    dispatcher = await startDispatcher(api.runtime, 0);
    org = await api.newOrganization();
  });
  afterAll(async () => {
    await dispatcher?.close();
    await api?.close();
    await receiver.close();
  });

  test('ten due deliveries are sent two at a time after a single wake-up, without waiting for the poll', async () => {
    const url = receiver.path('backlog');
    const endpoint = await api.request('POST', '/v1/webhooks/endpoints', {
      token: org.token,
      body: { data: { type: 'webhooks_endpoints', attributes: { name: 'Backlog', url, event_types: ['incident.created'] } } },
    });
    assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));
    for (let i = 0; i < DELIVERIES; i++) {
      const incident = await api.request('POST', '/v1/incidents', { token: org.token, body: { data: { type: 'incidents', attributes: { title: `Backlog ${i}` } } } });
      assert.equal(incident.status, 201);
    }
    const settled = () => api.runtime.dataSource.query(`SELECT id, status FROM webhooks_deliveries WHERE endpoint_id = $1 ORDER BY id`, [endpoint.body.data.id]);
    await eventually(settled, (rows: { status: string }[]) => rows.length === DELIVERIES && rows.every((r) => r.status === 'delivered'));
    const sent = receiver.at(url).length;

    // All but one due again without a wake-up; the redelivery of the last wakes the engine once.
    const rows: { id: string }[] = await settled();
    await api.runtime.dataSource.query(`UPDATE webhooks_deliveries SET status = 'pending', next_attempt_at = now() WHERE id = ANY($1::uuid[])`, [rows.slice(1).map((r) => r.id)]);
    const redelivered = await api.request('POST', `/v1/webhooks/deliveries/${rows[0].id}/deliver`, { token: org.token });
    assert.equal(redelivered.status, 200, JSON.stringify(redelivered.body));
    await eventually(
      async () => receiver.at(url).length - sent,
      (again) => again === DELIVERIES,
      10_000,
    );
  });
});
