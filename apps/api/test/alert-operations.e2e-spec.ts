import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import type { DomainEvent } from '@taproot/messaging';
import { startTestApi, type TestApi, type TestOrganization } from '../src/testing';

type Attributes = Record<string, unknown>;
const doc = (attributes: Attributes) => ({ data: { type: 'alerts', attributes } });

/** Each operation from a status reached the way a client would, with what it must write and announce. */
const CASES: { name: string; setup: string[]; operation: string; body?: Attributes; status: string; action: string; events: string[] }[] = [
  { name: 'acknowledge a triggered alert', setup: ['escalate'], operation: 'acknowledge', status: 'acknowledged', action: 'acknowledged', events: ['alert.updated', 'alert.acknowledged', 'alert.paging_cancelled'] },
  { name: 'resolve an open (non-paging) alert', setup: [], operation: 'resolve', status: 'resolved', action: 'resolved', events: ['alert.updated', 'alert.resolved'] },
  { name: 'resolve a triggered alert', setup: ['escalate'], operation: 'resolve', status: 'resolved', action: 'resolved', events: ['alert.updated', 'alert.resolved', 'alert.paging_cancelled'] },
  { name: 'snooze a triggered alert', setup: ['escalate'], operation: 'snooze', body: { delay_minutes: 15 }, status: 'deferred', action: 'snoozed', events: ['alert.updated', 'alert.snoozed', 'alert.paging_cancelled'] },
  { name: 'escalate an open alert', setup: [], operation: 'escalate', status: 'triggered', action: 'escalated', events: ['alert.updated', 'alert.escalated'] },
  { name: 'escalate a triggered alert (next level)', setup: ['escalate'], operation: 'escalate', status: 'triggered', action: 'escalated', events: ['alert.updated', 'alert.escalated'] },
  { name: 'escalate a resolved alert (reopen)', setup: ['resolve'], operation: 'escalate', status: 'triggered', action: 'escalated', events: ['alert.updated', 'alert.escalated'] },
];

describe('alert operations over HTTP', () => {
  let api: TestApi;
  let org: TestOrganization;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
  });
  after(() => api?.close());

  const send = (method: string, path: string, body?: unknown) => api.request(method, path, { token: org.token, body });
  const newAlert = async (setup: string[]) => {
    const res = await send('POST', '/v1/alerts', doc({ summary: 'ops' }));
    assert.equal(res.status, 201);
    const id = res.body.data.id as string;
    for (const op of setup) assert.equal((await send('POST', `/v1/alerts/${id}/${op}`)).status, 200);
    return id;
  };
  const outbox = async (id: string): Promise<DomainEvent[]> =>
    (await api.runtime.dataSource.query('SELECT event FROM outbox WHERE aggregate_id = $1 ORDER BY seq', [id])).map((r: { event: DomainEvent }) => r.event);
  const trail = async (id: string): Promise<string[]> => (await send('GET', `/v1/alerts/${id}/events?page[size]=50`)).body.data.map((e: { attributes: Attributes }) => e.attributes.action);

  for (const c of CASES) {
    test(`${c.name}: one alert event, alert.updated and the move's events`, async () => {
      const id = await newAlert(c.setup);
      const before = (await outbox(id)).length;
      const trailBefore = await trail(id);
      const res = await send('POST', `/v1/alerts/${id}/${c.operation}`, c.body ? doc(c.body) : undefined);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.data.attributes.status, c.status);
      const events = (await outbox(id)).slice(before);
      assert.deepEqual(events.map((e) => e.type), c.events);
      assert.equal(events[0].payload.status, c.status);
      if (c.operation === 'snooze') {
        assert.equal(events[1].payload.delay_minutes, 15);
        assert.ok(res.body.data.attributes.snoozed_until);
      }
      assert.deepEqual(await trail(id), [...trailBefore, c.action]);
      const read = await send('GET', `/v1/alerts/${id}`);
      assert.equal(read.body.data.attributes.status, c.status);
    });
  }

  test('resolve stamps ended_at, reopening clears it', async () => {
    const id = await newAlert(['escalate']);
    const resolved = await send('POST', `/v1/alerts/${id}/resolve`);
    assert.ok(resolved.body.data.attributes.ended_at);
    const reopened = await send('POST', `/v1/alerts/${id}/escalate`);
    assert.equal(reopened.body.data.attributes.ended_at, null);
    assert.ok(reopened.body.data.attributes.started_at);
  });

  test('no-ops answer 200 unchanged and write nothing', async () => {
    const acked = await newAlert(['escalate', 'acknowledge']);
    const resolved = await newAlert(['resolve']);
    for (const [id, op] of [
      [acked, 'acknowledge'],
      [resolved, 'resolve'],
    ]) {
      const before = await outbox(id);
      const trailBefore = await trail(id);
      const res = await send('POST', `/v1/alerts/${id}/${op}`);
      assert.equal(res.status, 200);
      assert.equal((await outbox(id)).length, before.length);
      assert.deepEqual(await trail(id), trailBefore);
    }
  });

  test('refusals answer the machine status and detail and change nothing', async () => {
    const open = await newAlert([]);
    const resolved = await newAlert(['resolve']);
    const paging = await newAlert(['escalate']);
    const refusals: [string, string, Attributes | undefined, number, RegExp][] = [
      [open, 'acknowledge', undefined, 400, /^An alert that is open cannot be acknowledged; it is not paging anyone/],
      [open, 'snooze', { delay_minutes: 5 }, 400, /^An alert that is open cannot be snoozed/],
      [resolved, 'acknowledge', undefined, 422, /^An alert that is resolved cannot be acknowledged; it is resolved/],
      [resolved, 'snooze', { delay_minutes: 5 }, 422, /^An alert that is resolved cannot be snoozed/],
      [paging, 'snooze', { delay_minutes: 0 }, 400, /delay_minutes must be an integer from 1 to 10080/],
      [paging, 'snooze', undefined, 400, /delay_minutes must be an integer/],
    ];
    for (const [id, op, body, status, detail] of refusals) {
      const before = await outbox(id);
      const current = (await send('GET', `/v1/alerts/${id}`)).body.data;
      const res = await send('POST', `/v1/alerts/${id}/${op}`, body ? doc(body) : undefined);
      assert.equal(res.status, status, `${op}: ${JSON.stringify(res.body)}`);
      assert.match(res.body.errors[0].detail, detail);
      assert.equal((await outbox(id)).length, before.length);
      assert.deepEqual((await send('GET', `/v1/alerts/${id}`)).body.data, current);
    }
  });

  test("escalate and resolve bodies are the reference's documents: another type, a non-object, an unknown or mistyped attribute are refused and change nothing", async () => {
    const paging = await newAlert(['escalate']);
    const refusals: [string, unknown, number, string][] = [
      ['escalate', { data: { type: 'incidents', attributes: {} } }, 422, '/data/type'],
      ['escalate', 42, 400, ''],
      ['escalate', doc({ escalation_policy_level: 0 }), 422, '/data/attributes/escalation_policy_level'],
      ['escalate', doc({ escalation_policy_id: '' }), 422, '/data/attributes/escalation_policy_id'],
      ['resolve', { data: null }, 400, ''],
      ['resolve', doc({ resolution_message: 'done', urgency: 'low' }), 422, '/data/attributes/urgency'],
      ['resolve', doc({ resolve_related_incidents: 'yes' }), 422, '/data/attributes/resolve_related_incidents'],
    ];
    for (const [op, body, status, pointer] of refusals) {
      const before = await outbox(paging);
      const res = await api.request('POST', `/v1/alerts/${paging}/${op}`, { token: org.token, body });
      assert.equal(res.status, status, `${op} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.errors[0].source?.pointer ?? '', pointer, JSON.stringify(res.body));
      assert.equal((await outbox(paging)).length, before.length);
    }
    // A document without attributes asks nothing, as before.
    assert.equal((await send('POST', `/v1/alerts/${paging}/resolve`, { data: { type: 'alerts' } })).status, 200);
  });

  test('a missing alert answers 404', async () => {
    assert.equal((await send('POST', '/v1/alerts/00000000-0000-4000-8000-000000000000/resolve')).status, 404);
    assert.equal((await send('POST', '/v1/alerts/not-a-uuid/escalate')).status, 404);
  });
});
