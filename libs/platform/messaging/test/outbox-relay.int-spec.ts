import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { openTestDataSource } from '@taproot/persistence';
import type { DataSource } from 'typeorm';
import {
  applyOnce,
  domainEvent,
  InProcessEventBus,
  OutboxRelay,
  ProjectionRunner,
  topicOf,
  UnitOfWork,
  type DomainEvent,
} from '../src';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

function event(organizationId: string, aggregateId: string, n: number): DomainEvent {
  return domainEvent({
    type: 'probe.happened',
    organizationId,
    aggregateType: 'probes',
    aggregateId,
    actor: { kind: 'system', id: null },
    payload: { n },
  });
}

describe('outbox, relay and inbox', () => {
  let ds: DataSource;
  before(async () => {
    ds = await openTestDataSource();
  });
  after(() => ds.destroy());
  /** The organization's outbox rows not yet published. */
  const pendingOf = async (organizationId: string): Promise<number> =>
    (await ds.query('SELECT count(*)::int AS n FROM outbox WHERE organization_id = $1 AND published_at IS NULL', [organizationId]))[0].n;

  test('UnitOfWork writes the outbox rows in the command transaction, and a rollback writes none', async () => {
    const org = randomUUID();
    const bus = new InProcessEventBus();
    const uow = new UnitOfWork(ds, null, new ProjectionRunner(ds, bus));
    const aggregate = randomUUID();
    await uow.run(async (_m, emitter) => emitter.emit(topicOf('probe'), [event(org, aggregate, 1), event(org, aggregate, 2)]));
    await assert.rejects(
      uow.run(async (_m, emitter) => {
        emitter.emit(topicOf('probe'), [event(org, aggregate, 3)]);
        throw new Error('business rule refused');
      }),
    );
    const rows = await ds.query('SELECT topic, aggregate_id, event FROM outbox WHERE organization_id = $1 ORDER BY seq', [org]);
    assert.deepEqual(
      rows.map((r: { topic: string; aggregate_id: string; event: DomainEvent }) => [r.topic, r.aggregate_id, r.event.type, r.event.payload]),
      [
        ['taproot.probe', aggregate, 'probe.happened', { n: 1 }],
        ['taproot.probe', aggregate, 'probe.happened', { n: 2 }],
      ],
    );
  });

  test('the relay publishes pending events in outbox order and marks them published', async () => {
    const org = randomUUID();
    const bus = new InProcessEventBus();
    const received: number[] = [];
    await bus.subscribe({
      groupId: 'order-probe',
      topics: [topicOf('probe')],
      handler: async (events) => {
        for (const e of events) if (e.organization_id === org) received.push((e.payload as { n: number }).n);
      },
    });
    const uow = new UnitOfWork(ds, null, new ProjectionRunner(ds, bus));
    const a = randomUUID();
    for (let n = 1; n <= 5; n++) await uow.run(async (_m, em) => em.emit(topicOf('probe'), [event(org, a, n)]));
    const relay = new OutboxRelay(ds, bus, { pollMs: 50, logger: silent });
    await relay.drain();
    assert.deepEqual(received, [1, 2, 3, 4, 5]);
    const pending = await pendingOf(org);
    assert.equal(pending, 0);
  });

  test('two relays at once (two replicas): each event is published once, in order', async () => {
    const org = randomUUID();
    const bus = new InProcessEventBus();
    const received: number[] = [];
    await bus.subscribe({
      groupId: 'replicas-probe',
      topics: [topicOf('probe')],
      handler: async (events) => {
        const mine = events.filter((e) => e.organization_id === org);
        // A publish that takes a while, as Kafka's does: the other relay tries meanwhile.
        await new Promise((resolve) => setTimeout(resolve, 20));
        received.push(...mine.map((e) => (e.payload as { n: number }).n));
      },
    });
    const uow = new UnitOfWork(ds, null, new ProjectionRunner(ds, bus));
    const a = randomUUID();
    await uow.run(async (_m, em) => em.emit(topicOf('probe'), Array.from({ length: 30 }, (_, i) => event(org, a, i + 1))));
    const relays = [1, 2].map(() => new OutboxRelay(ds, bus, { pollMs: 50, batchSize: 10, logger: silent }));
    // Each relay keeps trying until nothing is pending, as a replica's loop does.
    await Promise.all(relays.map(async (relay) => {
      while ((await pendingOf(org)) > 0) await relay.drain();
    }));
    assert.deepEqual(received, Array.from({ length: 30 }, (_, i) => i + 1));
  });

  test('a publish failure leaves the events pending; the next run delivers them', async () => {
    const org = randomUUID();
    let fail = true;
    const bus = new InProcessEventBus({ retries: 0 });
    const received: number[] = [];
    await bus.subscribe({
      groupId: 'flaky-probe',
      topics: [topicOf('probe')],
      handler: async (events) => {
        const mine = events.filter((e) => e.organization_id === org);
        if (mine.length === 0) return;
        if (fail) throw new Error('consumer down');
        received.push(...mine.map((e) => (e.payload as { n: number }).n));
      },
    });
    const uow = new UnitOfWork(ds, null, new ProjectionRunner(ds, bus));
    await uow.run(async (_m, em) => em.emit(topicOf('probe'), [event(org, randomUUID(), 7)]));
    const relay = new OutboxRelay(ds, bus, { pollMs: 50, logger: silent });
    await assert.rejects(relay.drain());
    const pending = await pendingOf(org);
    assert.equal(pending, 1);
    fail = false;
    await relay.drain();
    assert.deepEqual(received, [7]);
  });

  test('applyOnce applies a redelivered event once', async () => {
    const e = event(randomUUID(), randomUUID(), 1);
    let effects = 0;
    const first = await applyOnce(ds, 'dedupe-probe', e, async () => void effects++);
    const second = await applyOnce(ds, 'dedupe-probe', e, async () => void effects++);
    assert.deepEqual([first, second, effects], [true, false, 1]);
  });

  test('an effect that fails leaves no inbox row, so the event is applied on redelivery', async () => {
    const e = event(randomUUID(), randomUUID(), 1);
    await assert.rejects(applyOnce(ds, 'rollback-probe', e, async () => { throw new Error('boom'); }));
    let applied = false;
    assert.equal(await applyOnce(ds, 'rollback-probe', e, async () => void (applied = true)), true);
    assert.equal(applied, true);
  });

  test('an inline projection commits with the write, and rolls back with it', async () => {
    const runner = new ProjectionRunner(ds, new InProcessEventBus());
    const table = `inline_probe_${randomUUID().replace(/-/g, '')}`;
    await ds.query(`CREATE TABLE ${table} (event_id uuid PRIMARY KEY)`);
    runner.inline({
      name: 'inline-probe',
      topics: [topicOf('probe')],
      handles: (t) => t === 'probe.happened',
      apply: async (e, m) => void (await m.query(`INSERT INTO ${table} VALUES ($1)`, [e.id])),
    });
    const uow = new UnitOfWork(ds, null, runner);
    const kept = event(randomUUID(), randomUUID(), 1);
    const dropped = event(randomUUID(), randomUUID(), 2);
    await uow.run(async (_m, em) => em.emit(topicOf('probe'), [kept]));
    await assert.rejects(
      uow.run(async (_m, em) => {
        em.emit(topicOf('probe'), [dropped]);
        throw new Error('refused');
      }),
    );
    // The write's answer returns after commit: its read-model row is already there, nothing waited.
    const rows: { event_id: string }[] = await ds.query(`SELECT event_id FROM ${table}`);
    assert.deepEqual(rows.map((r) => r.event_id), [kept.id]);
    await ds.query(`DROP TABLE ${table}`);
  });

  test('an asynchronous projection applies a delivered batch in one transaction, once per event', async () => {
    const bus = new InProcessEventBus({ retries: 0 });
    const runner = new ProjectionRunner(ds, bus);
    const name = `batch-probe-${randomUUID()}`;
    const seen: string[][] = [];
    let failOn: string | null = null;
    let batch: string[] = [];
    await runner.subscribe({
      name,
      topics: [topicOf('probe')],
      handles: (t) => t === 'probe.happened',
      apply: async (e, m) => {
        const [{ txid }] = await m.query('SELECT txid_current()::text AS txid');
        batch.push(txid);
        if (e.id === failOn) throw new Error('projection failed');
        seen.push([e.id, txid]);
      },
    });
    const org = randomUUID();
    const events = [1, 2, 3].map((n) => event(org, randomUUID(), n));
    const publish = () => bus.publish(events.map((e) => ({ topic: topicOf('probe'), key: e.aggregate_id, event: e })));
    // A failure in the batch applies none of it: no inbox row, no effect kept.
    failOn = events[2].id;
    await assert.rejects(publish(), /projection failed/);
    const [{ count }] = await ds.query('SELECT count(*)::int AS count FROM inbox WHERE consumer = $1', [name]);
    assert.equal(count, 0);
    failOn = null;
    seen.length = 0;
    batch = [];
    await publish();
    assert.deepEqual(seen.map(([id]) => id), events.map((e) => e.id));
    assert.equal(new Set(batch).size, 1, 'the batch shares one transaction');
    // Redelivered: already in the inbox, nothing applied again.
    await publish();
    assert.equal(seen.length, 3);
  });
});
