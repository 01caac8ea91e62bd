import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import type { Logger, TaprootConfig } from '@taproot/config';
import type { UnitOfWork } from '@taproot/messaging';
import type { DataSource, EntityManager } from 'typeorm';
import { WebhookDeliveryEngine } from './delivery-engine';
import type { LeasedDelivery } from './delivery-store';
import type { WebhookEndpointDisabler } from './endpoint-disabler';
import type { WebhookAttemptOutcome, WebhookSender } from './webhook-sender';

const NOW = new Date('2026-11-25T12:00:00Z');
const TIMEOUT_MS = 1000;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as Logger;

const delivery = (n: number, leaseMs = 3 * TIMEOUT_MS): LeasedDelivery => ({
  id: `d${n}`,
  organization_id: 'o1',
  endpoint_id: 'e1',
  event_id: `ev${n}`,
  event_type: 'incident.created',
  payload: '{}',
  status: 'pending',
  attempts: 0,
  first_attempt_at: null,
  leased_until: new Date(NOW.getTime() + leaseMs),
  url: 'http://127.0.0.1:9/hook',
  secret: 'whsec_c2VjcmV0',
  custom_headers: [],
  enabled: true,
});

/** A sender whose answers the test releases; it counts what is in flight. */
function heldSender() {
  const held: (() => void)[] = [];
  const stats = { inFlight: 0, most: 0, sent: 0 };
  const sender: WebhookSender = {
    send: () =>
      new Promise<WebhookAttemptOutcome>((resolve) => {
        stats.sent++;
        stats.most = Math.max(stats.most, ++stats.inFlight);
        held.push(() => {
          stats.inFlight--;
          resolve({ status: 200, body: 'ok', error: null, blocked: false });
        });
      }),
    close: async () => undefined,
  };
  return { sender, held, stats };
}

/** The engine over stubs: `transaction` runs the flush's statements against `query` (or fails). */
function engineWith(sender: WebhookSender, database: { failing?: boolean; statements?: string[] } = {}, concurrency = 2) {
  const manager = { query: async (sql: string) => (database.statements?.push(sql.trim().split(/\s+/).slice(0, 2).join(' ')), []) } as unknown as EntityManager;
  const dataSource = {
    transaction: async (work: (m: EntityManager) => Promise<unknown>) => {
      if (database.failing) throw new Error('connection refused');
      return work(manager);
    },
  } as unknown as DataSource;
  const config = { webhookTimeoutMs: TIMEOUT_MS, webhookConcurrency: concurrency, webhookPollMs: 0, webhookDisableAfterHours: 120 } as TaprootConfig;
  const unitOfWork = { onCommit: () => undefined } as unknown as UnitOfWork;
  return new WebhookDeliveryEngine(dataSource, { now: () => NOW }, config, quiet, sender, {} as WebhookEndpointDisabler, unitOfWork);
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('WebhookDeliveryEngine', () => {
  test('at most WEBHOOK_CONCURRENCY attempts in flight, the others waiting in order', async () => {
    const { sender, held, stats } = heldSender();
    const engine = engineWith(sender);
    const started: string[] = [];
    engine.onAttempt((start) => started.push(start.deliveryId));
    engine.send([1, 2, 3, 4, 5].map((n) => delivery(n)));
    await settle();
    assert.deepEqual([stats.inFlight, started], [2, ['d1', 'd2']]);
    while (stats.sent < 5 || held.length > 0) {
      held.splice(0).forEach((release) => release());
      await settle();
    }
    await engine.idle();
    assert.deepEqual([stats.most, started], [2, ['d1', 'd2', 'd3', 'd4', 'd5']]);
  });

  test('outcomes that come while a flush is written go in the next one, one statement for them all', async () => {
    const { sender, held } = heldSender();
    const statements: string[] = [];
    const engine = engineWith(sender, { statements }, 5);
    engine.send([1, 2, 3, 4, 5].map((n) => delivery(n)));
    await settle();
    held.splice(0).forEach((release) => release());
    await engine.idle();
    assert.equal(statements.filter((s) => s === 'UPDATE webhooks_deliveries').length, 2, 'the first outcome, then the four that came meanwhile');
  });

  test('an attempt with less than the timeout left of its lease is not made: the row comes back when the lease ends', async () => {
    const { sender, stats } = heldSender();
    const engine = engineWith(sender);
    engine.send([delivery(1, TIMEOUT_MS - 1)]);
    await engine.idle();
    assert.equal(stats.sent, 0);
  });

  test('a shutdown does not wait for a database that refuses the outcomes: the leases bring the rows back', async () => {
    const { sender, held } = heldSender();
    const engine = engineWith(sender, { failing: true });
    engine.send([delivery(1)]);
    await settle();
    held.splice(0).forEach((release) => release());
    await settle();
    await engine.onApplicationShutdown();
    await engine.idle();
  }, 15_000);
});
