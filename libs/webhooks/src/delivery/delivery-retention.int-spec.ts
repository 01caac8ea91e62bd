import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { openTestDataSource } from '@taproot/persistence';
import type { DataSource } from 'typeorm';
import { deliveryPruner } from './delivery-retention';

const DAY = 86_400_000;
const NOW = new Date('2026-11-25T12:00:00Z');
const clock = { now: () => NOW };
const silent = { info: () => undefined, warn: () => undefined, debug: () => undefined };

describe('webhook delivery retention', () => {
  let ds: DataSource;
  before(async () => {
    ds = await openTestDataSource();
  });
  after(() => ds.destroy());

  /** An organization with an endpoint; answers the endpoint's id and its organization. */
  const endpoint = async () => {
    const organizationId = randomUUID();
    await ds.query('INSERT INTO organizations (id, name) VALUES ($1, $2)', [organizationId, `Org ${organizationId.slice(0, 8)}`]);
    const id = randomUUID();
    await ds.query(
      `INSERT INTO webhooks_endpoints (id, organization_id, name, slug, url, event_types, secret, enabled, created_at, updated_at)
       VALUES ($1, $2, $3, $3, 'http://127.0.0.1:9/hook', '{}', 'whsec_c2VjcmV0', true, now(), now())`,
      [id, organizationId, `e-${id.slice(0, 8)}`],
    );
    return { id, organizationId };
  };
  /** A delivery of the endpoint created `daysAgo` days before NOW, in `status`; answers its id. */
  const delivery = async (e: { id: string; organizationId: string }, daysAgo: number, status: string) => {
    const id = randomUUID();
    const createdAt = new Date(NOW.getTime() - daysAgo * DAY);
    await ds.query(
      `INSERT INTO webhooks_deliveries (id, organization_id, endpoint_id, event_id, event_type, payload, status, next_attempt_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, 'incident.created', '{}', $5, $6, $7, $7)`,
      [id, e.organizationId, e.id, randomUUID(), status, status === 'delivered' || status === 'failed' ? null : NOW, createdAt],
    );
    return id;
  };
  const left = async (ids: string[]) =>
    (await ds.query('SELECT id FROM webhooks_deliveries WHERE id = ANY($1::uuid[])', [ids])).map((r: { id: string }) => r.id).sort();

  test('deletes the settled deliveries created before the retention, of every organization, a chunk a statement; keeps the rest', async () => {
    const [a, b] = [await endpoint(), await endpoint()];
    const old = [await delivery(a, 40, 'delivered'), await delivery(a, 31, 'failed'), await delivery(b, 45, 'delivered')];
    const kept = [
      await delivery(a, 29, 'delivered'),
      // Redelivered, or still retrying: never deleted while unsettled, whatever their age.
      await delivery(a, 60, 'pending'),
      await delivery(b, 35, 'retrying'),
    ];
    const pruner = deliveryPruner(ds, clock, { retentionMs: 30 * DAY, logger: silent, chunk: 2 });
    const chunks: number[] = [];
    for (let n = await pruner.pruneChunk(); n > 0; n = await pruner.pruneChunk()) chunks.push(n);
    assert.deepEqual(chunks, [2, 1]);
    assert.deepEqual(await left([...old, ...kept]), [...kept].sort());
  });
});
