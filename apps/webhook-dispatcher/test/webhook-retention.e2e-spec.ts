import { afterAll, beforeAll, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import type { RunningApp } from '@taproot/runtime';
import { eventually, startTestApi, type TestApi } from '../../api/src/testing';
import { seedDelivery } from '../../api/test/support/webhook-deliveries';
import { startDispatcher } from '../src';

const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString();

/**
 * The dispatcher keeps settled deliveries WEBHOOK_DELIVERY_RETENTION_DAYS: started, it deletes the
 * older ones at once (and once a minute after), and leaves younger and unsettled ones.
 */
describe('webhook delivery retention in the dispatcher', () => {
  let api: TestApi;
  let dispatcher: RunningApp | undefined;
  beforeAll(async () => {
    api = await startTestApi({ env: { WEBHOOK_POLL_MS: '0', WEBHOOK_DELIVERY_RETENTION_DAYS: '10' } });
  });
  afterAll(async () => {
    await dispatcher?.close();
    await api?.close();
  });

  test('settled deliveries older than the retention are gone once the dispatcher runs; the others stay', async () => {
    const org = await api.newOrganization();
    const endpoint = await api.request('POST', '/v1/webhooks/endpoints', {
      token: org.token,
      body: { data: { type: 'webhooks_endpoints', attributes: { name: 'Kept ten days', url: 'https://hooks.example.com/in', event_types: [] } } },
    });
    assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));
    const seed = (days: number, status: 'delivered' | 'failed' | 'pending') => seedDelivery(api, org.organizationId, endpoint.body.data.id, { status, created_at: daysAgo(days) });
    const old = [await seed(11, 'delivered'), await seed(20, 'failed')];
    const kept = [await seed(9, 'delivered'), await seed(30, 'pending')];

    dispatcher = await startDispatcher(api.runtime, 0);
    const left = async () =>
      ((await api.runtime.dataSource.query('SELECT id FROM webhooks_deliveries WHERE organization_id = $1', [org.organizationId])) as { id: string }[]).map((r) => r.id).sort();
    assert.deepEqual(await eventually(left, (ids) => ids.length === kept.length, 10_000), [...kept].sort());
  });
});
