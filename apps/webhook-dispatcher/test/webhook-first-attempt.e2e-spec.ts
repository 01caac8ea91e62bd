import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FIRST_ATTEMPT_GAP_MS } from '@taproot/webhooks';
import { eventually } from '../../api/src/testing';
import { useWebhookWorld } from './support/webhook-world';

/** Whether the delivery row was last written by its event's inbox transaction (never updated since). */
async function writtenOnceWithInbox(w: ReturnType<typeof useWebhookWorld>, deliveryId: string): Promise<boolean> {
  const [row] = await w.api.runtime.dataSource.query(
    `SELECT d.xmin::text = i.xmin::text AS once FROM webhooks_deliveries d JOIN inbox i ON i.event_id = d.event_id AND i.consumer = 'webhook-dispatcher' WHERE d.id = $1`,
    [deliveryId],
  );
  return row.once as boolean;
}

/** A receiver answering 200 after `ms`. */
async function lateReceiver(ms: number): Promise<{ url: string; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      hits.push(String(req.headers['webhook-id']));
      setTimeout(() => res.writeHead(200).end('late'), ms);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/late`, hits, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * The fan-out's first attempt (docs/webhook-delivery.md, "How it runs"): a delivery whose first
 * attempt settles while the batch waits is inserted with its outcome in the inbox transaction of
 * its event (one write, no update); one whose receiver is slow, or the last ones of a receiver
 * doing some work, are inserted pending and recorded after; and since the attempt comes before the commit, a batch whose insert fails is consumed
 * again and its deliveries sent again (at least once).
 */
describe('webhook first attempt', () => {
  const w = useWebhookWorld();

  test('an answer that comes at once is written with the delivery, in its event\'s inbox transaction, never updated', async () => {
    const endpoint = await w.endpoint({ url: w.receiver.path('at-once'), event_types: ['incident.created'] });
    await w.incident();
    await w.receivedAt(endpoint.url);
    const [delivery] = await w.settled(endpoint.id, 1);
    assert.deepEqual([delivery.status, delivery.attempts, delivery.response_status, delivery.leased_until, delivery.next_attempt_at], ['delivered', 1, 200, null, null]);
    assert.ok(await writtenOnceWithInbox(w, delivery.id), 'inserted settled by the inbox transaction');
  });

  test('a receiver slower than the wait: the delivery is inserted pending, the answer recorded after the commit', async () => {
    const late = await lateReceiver(FIRST_ATTEMPT_GAP_MS * 10);
    try {
      const endpoint = await w.endpoint({ url: late.url, event_types: ['incident.created'] });
      await w.incident();
      const [pending] = await eventually(() => w.deliveries(endpoint.id), (rows) => rows.length === 1);
      assert.equal(late.hits.length, 1, 'the attempt was under way when the row was written');
      assert.deepEqual([pending.status, pending.attempts], ['pending', 0], 'not held until the answer');
      const [delivery] = await w.settled(endpoint.id, 1);
      assert.deepEqual([delivery.status, delivery.attempts, delivery.response_body], ['delivered', 1, 'late']);
      assert.ok(!(await writtenOnceWithInbox(w, delivery.id)), 'the outcome is an update');
      assert.equal(late.hits.length, 1);
    } finally {
      await late.close();
    }
  });

  test('a receiver doing some work: once fewer attempts than WEBHOOK_CONCURRENCY are left, the batch does not wait for the last ones', async () => {
    // One event, two endpoints: 50 ms and 150 ms, both well within the gap without an answer.
    const [quicker, slower] = [await lateReceiver(50), await lateReceiver(150)];
    try {
      const a = await w.endpoint({ url: quicker.url, event_types: ['incident.created'] });
      const b = await w.endpoint({ url: slower.url, event_types: ['incident.created'] });
      await w.incident();
      const [[first], [second]] = [await w.settled(a.id, 1), await w.settled(b.id, 1)];
      assert.deepEqual([first.status, second.status], ['delivered', 'delivered']);
      assert.ok(await writtenOnceWithInbox(w, first.id), 'the first answer came within the wait');
      assert.ok(!(await writtenOnceWithInbox(w, second.id)), 'the second was not waited for: inserted pending, then updated');
    } finally {
      await quicker.close();
      await slower.close();
    }
  });

  test('a batch whose deliveries cannot be written is consumed again: its attempt is made again, with the same webhook-id, and written once', async () => {
    const endpoint = await w.endpoint({ url: w.receiver.path('insert-fails'), event_types: ['incident.created'] });
    const db = w.api.runtime.dataSource;
    // The first insert of a delivery to this endpoint fails, after its attempt was made (as a
    // crash before the commit would); a sequence counts across the rollback.
    await db.query('CREATE SEQUENCE first_insert_fails');
    await db.query(`CREATE FUNCTION first_insert_fails() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.endpoint_id = '${endpoint.id}' AND nextval('first_insert_fails') = 1 THEN RAISE EXCEPTION 'insert refused once'; END IF;
        RETURN NEW;
      END $$`);
    await db.query('CREATE TRIGGER first_insert_fails BEFORE INSERT ON webhooks_deliveries FOR EACH ROW EXECUTE FUNCTION first_insert_fails()');
    try {
      await w.incident();
      const received = await w.receivedAt(endpoint.url, 2);
      assert.equal(received[0].headers['webhook-id'], received[1].headers['webhook-id']);
      assert.equal(received[0].body, received[1].body);
      const [delivery] = await w.settled(endpoint.id, 1);
      assert.deepEqual([delivery.status, delivery.attempts], ['delivered', 1]);
    } finally {
      await db.query('DROP TRIGGER first_insert_fails ON webhooks_deliveries');
      await db.query('DROP FUNCTION first_insert_fails()');
      await db.query('DROP SEQUENCE first_insert_fails');
    }
  });
});
