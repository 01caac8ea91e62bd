import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { domainEvent, type DomainEvent } from '@taproot/messaging';
import { openTestDataSource } from '@taproot/persistence';
import type { DataSource, EntityManager } from 'typeorm';
import { claimDue, fanOut, recordDeliveries, type DeliveryRecord, type LeasedDelivery } from './delivery-store';

const T0 = new Date('2026-11-25T12:00:00Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

/**
 * The delivery store against PostgreSQL: the fan-out's one statement, claims that never hand a
 * leased row to a second owner, and outcomes written only under the lease they were made under.
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

  test('fan-out: one statement for a batch, a leased row per subscribed enabled endpoint of the event\'s organization, once', async () => {
    const [a, b] = [await organization(), await organization()];
    const all = await endpoint(a, []);
    const incidents = await endpoint(a, ['incident.created']);
    await endpoint(a, ['alert.created']);
    await endpoint(a, [], false);
    const others = await endpoint(b, []);
    const batch = [event(a, 'incident.created'), event(a, 'incident.started'), event(b, 'incident.resolved'), event(a, 'incident.updated')];
    const { value: leased, statements } = await counted((m) => fanOut(m, batch, T0, at(30)));
    assert.equal(statements, 1);
    const made = leased.map((d) => `${d.endpoint_id} ${d.event_type}`).sort();
    assert.deepEqual(made, [`${all} incident.created`, `${all} incident.updated`, `${incidents} incident.created`, `${others} incident.resolved`].sort());
    for (const d of leased) {
      assert.deepEqual([d.status, d.attempts, d.leased_until.toISOString(), d.enabled, d.url], ['pending', 0, at(30).toISOString(), true, 'http://127.0.0.1:9/hook']);
      assert.equal(JSON.parse(d.payload).event.id, d.event_id);
    }
    const [{ next }] = await ds.query('SELECT min(next_attempt_at) AS next FROM webhooks_deliveries WHERE id = ANY($1::uuid[])', [leased.map((d) => d.id)]);
    assert.equal(next.toISOString(), at(30).toISOString(), 'due when the lease ends, in case this process cannot send them');
    assert.deepEqual(await ds.transaction((m) => fanOut(m, batch, T0, at(30))), [], 'an event fanned out again makes nothing');
    assert.deepEqual(await counted((m) => fanOut(m, [event(a, 'service.created')], T0, at(30))), { value: [], statements: 0 }, 'an event not delivered costs no statement');
  });

  test('a leased delivery is claimed by nobody until its lease ends; concurrent claims take different rows', async () => {
    const org = await organization();
    await endpoint(org, []);
    const leased = await ds.transaction((m) => fanOut(m, Array.from({ length: 40 }, () => event(org, 'incident.created')), T0, at(30)));
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
    const [delivery] = await ds.transaction((m) => fanOut(m, [event(org, 'incident.created')], T0, at(30)));
    const [reclaimed] = await claimDue(ds, at(31), at(61), 1000).then((rows) => rows.filter((r) => r.id === delivery.id));
    assert.ok(reclaimed, 'the lease ran out: claimed again');
    const record = (d: LeasedDelivery, status: DeliveryRecord['status']): DeliveryRecord => ({
      delivery: d,
      status,
      attempted: true,
      at: at(31),
      firstAttemptAt: at(31),
      nextAttemptAt: null,
      responseStatus: status === 'delivered' ? 200 : 500,
      responseBody: 'ok',
      error: null,
    });
    await ds.transaction((m) => recordDeliveries(m, [record(delivery, 'failed')], at(32)));
    const [untouched] = await ds.query('SELECT status, attempts, leased_until FROM webhooks_deliveries WHERE id = $1', [delivery.id]);
    assert.deepEqual([untouched.status, untouched.attempts, untouched.leased_until.toISOString()], ['pending', 0, at(61).toISOString()], 'the first owner\'s late outcome is dropped');
    await ds.transaction((m) => recordDeliveries(m, [record(reclaimed, 'delivered')], at(32)));
    const [written] = await ds.query('SELECT status, attempts, leased_until, delivered_at, first_attempt_at FROM webhooks_deliveries WHERE id = $1', [delivery.id]);
    assert.deepEqual([written.status, written.attempts, written.leased_until, written.delivered_at.toISOString(), written.first_attempt_at.toISOString()], ['delivered', 1, null, at(31).toISOString(), at(31).toISOString()]);
  });

  test('an answer or an error that is not well-formed text (a lone surrogate, NUL) is recorded with U+FFFD in its place, not refused', async () => {
    const org = await organization();
    await endpoint(org, []);
    const [delivery] = await ds.transaction((m) => fanOut(m, [event(org, 'incident.created')], T0, at(30)));
    const outcome: DeliveryRecord = {
      delivery,
      status: 'retrying',
      attempted: true,
      at: at(1),
      firstAttemptAt: at(1),
      nextAttemptAt: at(60),
      responseStatus: 500,
      responseBody: 'half \ud83d of a pair, \u0000',
      error: 'the answer said \udc00',
    };
    await ds.transaction((m) => recordDeliveries(m, [outcome], at(2)));
    const [row] = await ds.query('SELECT status, response_body, error FROM webhooks_deliveries WHERE id = $1', [delivery.id]);
    assert.deepEqual([row.status, row.response_body, row.error], ['retrying', 'half \ufffd of a pair, \ufffd', 'the answer said \ufffd']);
  });
});
