import { after, before, describe, test } from 'node:test';
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

  test('UnitOfWork writes the outbox rows in the command transaction, and a rollback writes none', async () => {
    const org = randomUUID();
    const bus = new InProcessEventBus();
    const uow = new UnitOfWork(ds, null, new ProjectionRunner(ds, bus), 0);
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
      handler: async (e) => {
        if (e.organization_id === org) received.push((e.payload as { n: number }).n);
      },
    });
    const uow = new UnitOfWork(ds, null, new ProjectionRunner(ds, bus), 0);
    const a = randomUUID();
    for (let n = 1; n <= 5; n++) await uow.run(async (_m, em) => em.emit(topicOf('probe'), [event(org, a, n)]));
    const relay = new OutboxRelay(ds, bus, { pollMs: 50, logger: silent });
    await relay.drain();
    assert.deepEqual(received, [1, 2, 3, 4, 5]);
    const [{ pending }] = await ds.query('SELECT count(*)::int AS pending FROM outbox WHERE organization_id = $1 AND published_at IS NULL', [org]);
    assert.equal(pending, 0);
  });

  test('a publish failure leaves the events pending; the next run delivers them', async () => {
    const org = randomUUID();
    let fail = true;
    const bus = new InProcessEventBus({ retries: 0 });
    const received: number[] = [];
    await bus.subscribe({
      groupId: 'flaky-probe',
      topics: [topicOf('probe')],
      handler: async (e) => {
        if (e.organization_id !== org) return;
        if (fail) throw new Error('consumer down');
        received.push((e.payload as { n: number }).n);
      },
    });
    const uow = new UnitOfWork(ds, null, new ProjectionRunner(ds, bus), 0);
    await uow.run(async (_m, em) => em.emit(topicOf('probe'), [event(org, randomUUID(), 7)]));
    const relay = new OutboxRelay(ds, bus, { pollMs: 50, logger: silent });
    await assert.rejects(relay.drain());
    const [{ pending }] = await ds.query('SELECT count(*)::int AS pending FROM outbox WHERE organization_id = $1 AND published_at IS NULL', [org]);
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

  test('ProjectionRunner.waitFor resolves once the projection applied the events', async () => {
    const bus = new InProcessEventBus();
    const runner = new ProjectionRunner(ds, bus);
    const seen: string[] = [];
    await runner.register({
      name: `wait-probe-${randomUUID()}`,
      topics: [topicOf('probe')],
      handles: (t) => t === 'probe.happened',
      apply: async (e) => void seen.push(e.id),
    });
    const org = randomUUID();
    const relay = new OutboxRelay(ds, bus, { pollMs: 20, logger: silent });
    const uow = new UnitOfWork(ds, relay, runner, 5000);
    relay.start();
    try {
      const e = event(org, randomUUID(), 1);
      await uow.run(async (_m, em) => em.emit(topicOf('probe'), [e]));
      assert.ok(seen.includes(e.id), 'the write returned before its projection applied the event');
    } finally {
      await relay.stop();
    }
  });

  test('a projection not awaited by writers does not hold the write back', async () => {
    const bus = new InProcessEventBus();
    const runner = new ProjectionRunner(ds, bus);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    await runner.register({
      name: `slow-log-${randomUUID()}`,
      topics: [topicOf('probe')],
      handles: (t) => t === 'probe.happened',
      awaitedByWriters: false,
      apply: () => gate,
    });
    const e = event(randomUUID(), randomUUID(), 1);
    assert.equal(await runner.waitFor([e], 5000), true, 'nothing to wait for');
    release();
  });
});
