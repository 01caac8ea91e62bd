import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { domainEvent, type DomainEvent } from '@taproot/messaging';
import { openTestDataSource } from '@taproot/persistence';
import type { DataSource, EntityManager } from 'typeorm';
import { claimDue, insertDeliveries, newDeliveries, recordDeliveries, type DeliveryRecord, type LeasedDelivery } from './delivery-store';

const T0 = new Date('2026-11-25T12:00:00Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

/**
 * The delivery store against PostgreSQL: the fan-out's one read and one insert (settled rows with
 * their outcome), claims that never hand a leased row to a second owner, and outcomes written
 * only under the lease they were made under.
 */
describe('delivery store', () => {
  let ds: DataSource;
  before(async () => {
    ds = await openTestDataSource();
  });
  after(() => ds.destroy());

  const organization = async () => {
    const id = randomUUID();
    await ds.query('INSERT INTO organizations (id, name) VALUES ($1, $2)', [id, `Org ${id.slice(0, 8)}`]);
    return id;
  };
  const endpoint = async (organizationId: string, eventTypes: string[], enabled = true) => {
    const id = randomUUID();
    await ds.query(
      `INSERT INTO webhooks_endpoints (id, organization_id, name, slug, url, event_types, secret, enabled, created_at, updated_at)
       VALUES ($1, $2, $3, $3, 'http://127.0.0.1:9/hook', $4, 'whsec_c2VjcmV0', $5, now(), now())`,
      [id, organizationId, `e-${id.slice(0, 8)}`, eventTypes, enabled],
    );
    return id;
  };
  const event = (organizationId: string, type: string): DomainEvent =>
    domainEvent({ type, organizationId, aggregateType: 'incidents', aggregateId: randomUUID(), actor: { kind: 'system', id: null }, payload: { kind: 'normal' }, occurredAt: T0 });
  /** Runs `work` counting the statements it sends. */
  const counted = async <T>(work: (m: EntityManager) => Promise<T>): Promise<{ value: T; statements: number }> => {
    let statements = 0;
    const value = await ds.transaction((m) =>
      work(new Proxy(m, { get: (target, key) => (key === 'query' ? (...args: Parameters<EntityManager['query']>) => (statements++, target.query(...args)) : Reflect.get(target, key)) })),
    );
    return { value, statements };
  };

  /** The fan-out of `events` written pending and leased until `leasedUntil` (no attempt settled). */
  const fanOut = (events: DomainEvent[], leasedUntil: Date) =>
    ds.transaction(async (m) => {
      const made = await newDeliveries(m, events, leasedUntil);
      await insertDeliveries(m, made, new Map(), T0);
      return made;
    });
  const record = (d: LeasedDelivery, status: DeliveryRecord['status'], when: Date, nextAttemptAt: Date | null = null): DeliveryRecord => ({
    delivery: d,
    status,
    attempted: true,
    at: when,
    firstAttemptAt: when,
    nextAttemptAt,
    responseStatus: status === 'delivered' ? 200 : 500,
    responseBody: 'ok',
    error: status === 'delivered' ? null : 'the endpoint answered 500',
  });

  test('fan-out: one read for a batch, a delivery per subscribed enabled endpoint of the event\'s organization, nothing written before the insert', async () => {
    const [a, b] = [await organization(), await organization()];
    const all = await endpoint(a, []);
    const incidents = await endpoint(a, ['incident.created']);
    await endpoint(a, ['alert.created']);
    await endpoint(a, [], false);
    const others = await endpoint(b, []);
    const batch = [event(a, 'incident.created'), event(a, 'incident.started'), event(b, 'incident.resolved'), event(a, 'incident.updated')];
    const { value: made, statements } = await counted((m) => newDeliveries(m, batch, at(30)));
    assert.equal(statements, 1);
    assert.deepEqual(made.map((d) => `${d.endpoint_id} ${d.event_type}`).sort(), [`${all} incident.created`, `${all} incident.updated`, `${incidents} incident.created`, `${others} incident.resolved`].sort());
    for (const d of made) {
      assert.deepEqual([d.status, d.attempts, d.leased_until.toISOString(), d.enabled, d.url], ['pending', 0, at(30).toISOString(), true, 'http://127.0.0.1:9/hook']);
      assert.equal(JSON.parse(d.payload).event.id, d.event_id);
    }
    const [{ count }] = await ds.query('SELECT count(*)::int AS count FROM webhooks_deliveries WHERE event_id = ANY($1::uuid[])', [batch.map((e) => e.id)]);
    assert.equal(count, 0);
    assert.deepEqual(await counted((m) => newDeliveries(m, [event(a, 'service.created')], at(30))), { value: [], statements: 0 }, 'an event not delivered costs no statement');
  });

  test('insert: one statement; a settled first attempt written with its outcome, the others pending and leased; a delivery that exists is left alone', async () => {
    const org = await organization();
    await endpoint(org, []);
    const batch = [event(org, 'incident.created'), event(org, 'incident.updated'), event(org, 'incident.resolved')];
    const made = await ds.transaction((m) => newDeliveries(m, batch, at(30)));
    const [delivered, retrying, unsettled] = made;
    const settled = new Map([
      [delivered.id, record(delivered, 'delivered', at(1))],
      [retrying.id, record(retrying, 'retrying', at(2), at(40))],
    ]);
    const { statements } = await counted((m) => insertDeliveries(m, made, settled, at(3)));
    assert.equal(statements, 1);
    const row = async (id: string) => (await ds.query('SELECT * FROM webhooks_deliveries WHERE id = $1', [id]))[0];
    const d = await row(delivered.id);
    assert.deepEqual(
      [d.status, d.attempts, d.next_attempt_at, d.leased_until, d.first_attempt_at, d.last_attempt_at, d.delivered_at, d.response_status, d.response_body, d.error, d.payload],
      ['delivered', 1, null, null, at(1), at(1), at(1), 200, 'ok', null, delivered.payload],
    );
    const r = await row(retrying.id);
    assert.deepEqual([r.status, r.attempts, r.next_attempt_at, r.leased_until, r.first_attempt_at, r.delivered_at, r.response_status, r.error], ['retrying', 1, at(40), null, at(2), null, 500, 'the endpoint answered 500']);
    const u = await row(unsettled.id);
    assert.deepEqual([u.status, u.attempts, u.next_attempt_at, u.leased_until, u.first_attempt_at, u.last_attempt_at], ['pending', 0, at(30), at(30), null, null], 'due when the lease ends, in case this process cannot record it');
    assert.deepEqual([d.created_at, d.updated_at], [at(3), at(3)]);
    // The same event and endpoint again (an event consumed twice): the row stays as it was.
    const again = await ds.transaction((m) => newDeliveries(m, [batch[0]], at(60)));
    await ds.transaction((m) => insertDeliveries(m, again, new Map([[again[0].id, record(again[0], 'retrying', at(50), at(90))]]), at(50)));
    assert.equal(await row(again[0].id), undefined);
    assert.equal((await row(delivered.id)).status, 'delivered');
  });

  test('a settled delivery is never claimed; a retrying one is claimed when due', async () => {
    const org = await organization();
    await endpoint(org, []);
    const made = await ds.transaction((m) => newDeliveries(m, [event(org, 'incident.created'), event(org, 'incident.updated')], at(30)));
    const [delivered, retrying] = made;
    await ds.transaction((m) => insertDeliveries(m, made, new Map([[delivered.id, record(delivered, 'delivered', at(1))], [retrying.id, record(retrying, 'retrying', at(1), at(40))]]), at(1)));
    const ours = (rows: LeasedDelivery[]) => rows.filter((r) => made.some((l) => l.id === r.id)).map((r) => r.id);
    assert.deepEqual(ours(await claimDue(ds, at(39), at(69), 1000)), []);
    assert.deepEqual(ours(await claimDue(ds, at(40), at(70), 1000)), [retrying.id]);
  });

  test('a leased delivery is claimed by nobody until its lease ends; concurrent claims take different rows', async () => {
    const org = await organization();
    await endpoint(org, []);
    const leased = await fanOut(Array.from({ length: 40 }, () => event(org, 'incident.created')), at(30));
    assert.equal(leased.length, 40);
    const ours = (rows: LeasedDelivery[]) => rows.filter((r) => leased.some((l) => l.id === r.id));
    assert.deepEqual(ours(await claimDue(ds, at(29), at(59), 1000)), [], 'still leased');
    const [first, second] = await Promise.all([claimDue(ds, at(30), at(60), 50), claimDue(ds, at(30), at(60), 50)]);
    const claimed = [...ours(first), ...ours(second)].map((r) => r.id);
    assert.equal(new Set(claimed).size, claimed.length, 'no row claimed twice');
    assert.equal(claimed.length, 40);
    assert.ok([...first, ...second].every((r) => r.leased_until.toISOString() === at(60).toISOString()));
  });

  test("an outcome is written only while the row carries the lease it was made under: a reclaimed row is the new owner's", async () => {
    const org = await organization();
    await endpoint(org, []);
    const [delivery] = await fanOut([event(org, 'incident.created')], at(30));
    const [reclaimed] = await claimDue(ds, at(31), at(61), 1000).then((rows) => rows.filter((r) => r.id === delivery.id));
    assert.ok(reclaimed, 'the lease ran out: claimed again');
    await ds.transaction((m) => recordDeliveries(m, [record(delivery, 'failed', at(31))], at(32)));
    const [untouched] = await ds.query('SELECT status, attempts, leased_until FROM webhooks_deliveries WHERE id = $1', [delivery.id]);
    assert.deepEqual([untouched.status, untouched.attempts, untouched.leased_until.toISOString()], ['pending', 0, at(61).toISOString()], 'the first owner\'s late outcome is dropped');
    await ds.transaction((m) => recordDeliveries(m, [record(reclaimed, 'delivered', at(31))], at(32)));
    const [written] = await ds.query('SELECT status, attempts, leased_until, delivered_at, first_attempt_at FROM webhooks_deliveries WHERE id = $1', [delivery.id]);
    assert.deepEqual([written.status, written.attempts, written.leased_until, written.delivered_at.toISOString(), written.first_attempt_at.toISOString()], ['delivered', 1, null, at(31).toISOString(), at(31).toISOString()]);
  });
});
