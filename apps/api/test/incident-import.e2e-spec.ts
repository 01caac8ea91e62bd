import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { DomainEvent } from '@taproot/messaging';
import { eventually, startTestApi, type TestApi, type TestOrganization, type TestResponse } from '../src/testing';
import { pointers, unique } from './support/json-api';
import { OpenApiValidator, type OpenApiDocumentLike } from './support/openapi-ajv';

type Attributes = Record<string, unknown>;

/** A resolved historical incident: the times an import needs. */
const past = (attributes: Attributes = {}): Attributes => ({
  title: unique('Past outage'),
  started_at: '2023-03-01T10:00:00.000Z',
  mitigated_at: '2023-03-01T10:30:00.000Z',
  resolved_at: '2023-03-01T11:00:00.000Z',
  ...attributes,
});

describe('POST /v1/incidents/import', () => {
  let api: TestApi;
  let org: TestOrganization;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
  });
  after(() => api?.close());

  const send = (method: string, path: string, body?: unknown, token = org.token) => api.request(method, path, { token, body });
  const importing = (entities: unknown[], token = org.token) => send('POST', '/v1/incidents/import', { entities }, token);
  const create = async (token: string, attributes: Attributes = {}) => {
    const res = await send('POST', '/v1/incidents', { data: { type: 'incidents', attributes } }, token);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data as { id: string; attributes: Attributes };
  };
  const service = async (token: string) => {
    const res = await send('POST', '/v1/services', { data: { type: 'services', attributes: { name: unique('Checkout') } } }, token);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data.id as string;
  };
  const listed = async (query: string, token = org.token) => {
    const res = await send('GET', `/v1/incidents?${query}`, undefined, token);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data as { id: string; attributes: Attributes }[];
  };
  const importEvents = async (importId: string): Promise<DomainEvent[]> =>
    (await api.runtime.dataSource.query("SELECT event FROM outbox WHERE topic = 'taproot.incidents' AND event->'metadata'->>'import_id' = $1 ORDER BY seq", [importId])).map((r: { event: DomainEvent }) => r.event);
  const outboxCount = async (organizationId: string): Promise<number> =>
    Number((await api.runtime.dataSource.query("SELECT count(*) AS n FROM outbox WHERE organization_id = $1 AND topic = 'taproot.incidents'", [organizationId]))[0].n);

  test('a batch is imported as backfilled with consecutive sequential ids and its times as sent, then listed and found by the usual filters', async () => {
    const own = await api.newOrganization();
    const t = own.token;
    const checkout = await service(t);
    await create(t);
    const res = await importing(
      [
        past({ title: 'Card payments failed', summary: 'Gateway timeouts', service_ids: [checkout], external_id: 'PD-1' }),
        past({ status: 'closed', started_at: '2023-02-01T00:00:00.000Z', closed_at: '2023-03-02T09:00:00.000Z', external_id: 'PD-2' }),
        { title: 'Still open when we migrated', status: 'mitigated', started_at: '2024-01-05T08:00:00.000Z', mitigated_at: '2024-01-05T08:20:00.000Z' },
      ],
      t,
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const data = res.body.data as { id: string; attributes: Attributes }[];
    assert.deepEqual(data.map((d) => [d.attributes.sequential_id, d.attributes.kind, d.attributes.status, d.attributes.external_id]), [
      [2, 'backfilled', 'resolved', 'PD-1'],
      [3, 'backfilled', 'closed', 'PD-2'],
      [4, 'backfilled', 'mitigated', null],
    ]);
    assert.deepEqual(res.body.meta, { import_id: res.body.meta.import_id, imported: 3, already_imported: [] });
    const first = data[0].attributes;
    assert.deepEqual([first.started_at, first.mitigated_at, first.resolved_at], ['2023-03-01T10:00:00.000Z', '2023-03-01T10:30:00.000Z', '2023-03-01T11:00:00.000Z']);
    assert.deepEqual([first.in_triage_at, first.closed_at, first.started_by, first.resolved_by], [null, null, null, null], 'no time or *_by is invented for history');
    assert.deepEqual((first.services as { data: { id: string } }[]).map((s) => s.data.id), [checkout]);
    assert.equal(first.source, 'api');

    assert.equal((await create(t)).attributes.sequential_id, 5, 'single creates go on from the same counter');
    assert.deepEqual((await listed('filter[kind]=backfilled', t)).map((d) => d.id).sort(), data.map((d) => d.id).sort());
    assert.deepEqual((await listed('filter[search]=gateway', t)).map((d) => d.id), [data[0].id]);
    assert.deepEqual((await listed('filter[status]=closed', t)).map((d) => d.id), [data[1].id]);
    assert.deepEqual((await listed(`filter[service_ids]=${checkout}&filter[started_at][lt]=2023-12-31T00:00:00Z`, t)).map((d) => d.id), [data[0].id]);
    assert.deepEqual((await listed('filter[external_id]=PD-2', t)).map((d) => d.id), [data[1].id]);
    assert.deepEqual((await listed('sort=started_at&filter[kind]=backfilled', t)).map((d) => d.attributes.sequential_id), [3, 2, 4], 'historical order, not import order');

    const timeline = (await send('GET', `/v1/incidents/${data[0].id}/events`, undefined, t)).body.data as { attributes: Attributes }[];
    assert.deepEqual(
      timeline.map((e) => [e.attributes.kind, e.attributes.event]),
      [['import', 'Imported as a backfilled incident (external_id PD-1)']],
    );
  });

  test('events: each incident is announced for the read model and the audit log, marked with the import; one incident_import.completed', async () => {
    const own = await api.newOrganization();
    const res = await importing([past({ external_id: 'A' }), past()], own.token);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const importId = res.body.meta.import_id as string;
    const [a, b] = res.body.data as { id: string }[];
    const events = await importEvents(importId);
    assert.deepEqual(
      events.map((e) => [e.type, e.type === 'incident_event.created' ? e.payload.incident_id : e.aggregate_id]),
      [
        ['incident.created', a.id],
        ['incident_event.created', a.id],
        ['incident.created', b.id],
        ['incident_event.created', b.id],
        ['incident_import.completed', importId],
      ],
    );
    assert.ok(events.every((e) => e.metadata?.request_id), 'the request metadata is kept beside the import id');
    const completed = events[4];
    assert.equal(completed.aggregate_type, 'incident_imports');
    assert.deepEqual(completed.payload, {
      id: importId,
      incidents: [
        { id: a.id, sequential_id: 1, external_id: 'A' },
        { id: b.id, sequential_id: 2, external_id: null },
      ],
    });
    assert.equal(events[0].payload.title, res.body.data[0].attributes.title, 'incident.created carries the snapshot, as for a single create');

    // The audit log records every one of them; its announcements carry the import id too.
    const audited = await eventually(
      () => api.runtime.dataSource.query("SELECT event FROM outbox WHERE topic = 'taproot.identity' AND event->'metadata'->>'import_id' = $1", [importId]),
      (rows: unknown[]) => rows.length === events.length,
    );
    assert.equal(audited.length, 5);
    const items = await eventually(
      async () => (await send('GET', '/v1/audits?filter[item_type]=Incident', undefined, own.token)).body.data as { attributes: Attributes }[],
      (rows) => rows.length === 2,
    );
    assert.deepEqual(items.map((r) => r.attributes.item_id).sort(), [a.id, b.id].sort());

    // A single create is not marked.
    const single = await create(own.token);
    const [created] = (await api.runtime.dataSource.query('SELECT event FROM outbox WHERE aggregate_id = $1', [single.id])).map((r: { event: DomainEvent }) => r.event);
    assert.equal(created.metadata?.import_id, undefined);
  });

  test('bad items fail the whole batch: every one named by index, nothing written, the counter untouched', async () => {
    const own = await api.newOrganization();
    const t = own.token;
    await create(t);
    const before = await outboxCount(own.organizationId);
    const missing = randomUUID();
    const res = await importing(
      [
        past(),
        past({ service_ids: [missing] }),
        past(),
        past({ resolved_at: '2023-03-01T09:00:00.000Z' }),
        past({ status: 'started', mitigated_at: null, resolved_at: null, severity_id: 'nope' }),
        { title: 'no start', status: 'cancelled', cancelled_at: '2023-01-01T00:00:00Z' },
        past({ kind: 'normal' }),
      ],
      t,
    );
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.deepEqual(pointers(res), [
      '/entities/1/service_ids/0',
      '/entities/3/resolved_at',
      '/entities/4/severity_id',
      '/entities/5/started_at',
      '/entities/6/kind',
    ]);
    const details = res.body.errors.map((e: { detail: string }) => e.detail) as string[];
    assert.match(details[0], new RegExp(`^entities\\[1\\]: service_ids\\[0\\]: ${missing} is not a service of this organization`));
    assert.match(details[1], /^entities\[3\]: resolved_at \(2023-03-01T09:00:00.000Z\) is before mitigated_at/);
    assert.equal(res.body.errors[1].code, 'TIME_ORDER');

    assert.deepEqual(await listed('filter[kind]=backfilled', t), []);
    assert.equal(await outboxCount(own.organizationId), before, 'no event');
    assert.equal((await create(t)).attributes.sequential_id, 2, 'no sequential id was taken');
  });

  test('the times must tell the history: the status reached, no outcome it does not hold, nothing in the future', async () => {
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const res = await importing([
      past({ resolved_at: null }),
      past({ status: 'started', mitigated_at: null }),
      past({ status: 'mitigated', resolved_at: '2023-03-01T11:00:00.000Z' }),
      past({ resolved_at: future }),
      past({ status: 'cancelled', cancelled_at: '2023-03-01T09:00:00.000Z', mitigated_at: null, resolved_at: null }),
    ]);
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.deepEqual(
      res.body.errors.map((e: { source: { pointer: string }; code: string }) => [e.source.pointer, e.code]),
      [
        ['/entities/0/resolved_at', 'REQUIRED_ATTRIBUTE'],
        ['/entities/1/resolved_at', 'NOT_HELD'],
        ['/entities/2/resolved_at', 'NOT_HELD'],
        ['/entities/3/resolved_at', 'FUTURE_TIME'],
        ['/entities/4/cancelled_at', 'TIME_ORDER'],
      ],
    );
  });

  test('an external_id imported before answers that incident and imports nothing again', async () => {
    const own = await api.newOrganization();
    const t = own.token;
    const first = await importing([past({ external_id: 'X-1' }), past({ external_id: 'X-2' })], t);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const before = await outboxCount(own.organizationId);

    const again = await importing([past({ external_id: 'X-1' }), past({ external_id: 'X-2' })], t);
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.deepEqual(again.body.data, first.body.data);
    assert.deepEqual([again.body.meta.imported, again.body.meta.already_imported], [0, [0, 1]]);
    assert.equal(await outboxCount(own.organizationId), before, 'a repeated import announces nothing');

    const more = await importing([past({ external_id: 'X-3' }), past({ external_id: 'X-2' })], t);
    assert.deepEqual(more.body.data.map((d: { attributes: Attributes }) => [d.attributes.external_id, d.attributes.sequential_id]), [
      ['X-3', 3],
      ['X-2', 2],
    ]);
    assert.deepEqual([more.body.meta.imported, more.body.meta.already_imported], [1, [1]]);

    const repeated = await importing([past({ external_id: 'Y' }), past({ external_id: 'Y' })], t);
    assert.equal(repeated.status, 422);
    assert.deepEqual(pointers(repeated), ['/entities/1/external_id']);
  });

  test('another organization\'s records are unknown ids (422), and its incidents are not seen', async () => {
    const theirs = await api.newOrganization();
    const foreign = await service(theirs.token);
    const res = await importing([past(), past({ service_ids: [foreign] })]);
    assert.equal(res.status, 422);
    assert.deepEqual(pointers(res), ['/entities/1/service_ids/0']);
    assert.deepEqual(await listed('filter[kind]=backfilled', theirs.token), []);
  });

  test('concurrent imports and creates share the counter: no gaps, no duplicates, each external_id imported once', async () => {
    const own = await api.newOrganization();
    const t = own.token;
    const batch = (prefix: string) => Array.from({ length: 10 }, (_, i) => past({ external_id: `${prefix}-${i % 5}-${i < 5 ? 'a' : 'b'}` }));
    const results = await Promise.all([importing(batch('K'), t), importing(batch('K'), t), create(t), create(t), importing(Array.from({ length: 100 }, () => past()), t)]);
    const [one, two, , , hundred] = results as TestResponse[];
    for (const res of [one, two, hundred]) assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual([one.body.meta.imported + two.body.meta.imported, hundred.body.meta.imported], [10, 100]);
    assert.deepEqual(one.body.data.map((d: { id: string }) => d.id), two.body.data.map((d: { id: string }) => d.id), 'the later import answers what the earlier created');
    const rows = (await api.runtime.dataSource.query('SELECT sequential_id FROM incidents WHERE organization_id = $1 ORDER BY sequential_id', [own.organizationId])) as { sequential_id: number }[];
    assert.deepEqual(rows.map((r) => r.sequential_id), Array.from({ length: 112 }, (_, i) => i + 1));
  });

  test('at most 100 items; a body without entities is refused', async () => {
    const over = await importing(Array.from({ length: 101 }, () => past()));
    assert.equal(over.status, 422);
    assert.deepEqual(pointers(over), ['/entities']);
    for (const body of [{}, { data: [] }, { entities: 'x' }]) {
      const res = await send('POST', '/v1/incidents/import', body);
      assert.equal(res.status, 422, JSON.stringify(body));
    }
    const empty = await importing([]);
    assert.equal(empty.status, 200);
    assert.deepEqual([empty.body.data, empty.body.meta.imported], [[], 0]);
  });

  test('the served OpenAPI document describes the request and both answers', async () => {
    const served = new OpenApiValidator((await send('GET', '/v1/openapi.json')).body as OpenApiDocumentLike, 'taproot');
    const entities = [past({ external_id: unique('doc'), labels: { source: 'pagerduty' } }), past({ status: 'cancelled', cancelled_at: '2023-03-01T12:00:00.000Z', mitigated_at: null, resolved_at: null })];
    served.assertValid('import_incidents', { entities });
    const ok = await importing(entities);
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    served.assertValid('import_incidents_response', ok.body);
    const refused = await importing([past({ resolved_at: null })]);
    assert.equal(refused.status, 422);
    served.assertValid('errors_list', refused.body);
    assert.notDeepEqual(served.errors('import_incidents', { entities: Array.from({ length: 101 }, () => past()) }), [], 'the limit is declared');
  });

  test('permissions: create on incidents; private items also need create on private_incidents (403, nothing written)', async () => {
    const observer = await api.issueApiKey(org.organizationId, { kind: 'personal', userId: await api.addUser(org.organizationId, { roleKind: 'observer' }) });
    const denied = await importing([past()], observer);
    assert.equal(denied.status, 403, JSON.stringify(denied.body));

    const own = await api.newOrganization();
    const user = await api.issueApiKey(own.organizationId, { kind: 'personal', userId: await api.addUser(own.organizationId, { roleKind: 'user' }) });
    const refused = await importing([past(), past({ private: true }), past({ private: true, external_id: 'S' })], user);
    assert.equal(refused.status, 403, JSON.stringify(refused.body));
    assert.deepEqual(pointers(refused), ['/entities/1', '/entities/2']);
    assert.deepEqual(await listed('filter[kind]=backfilled', own.token), []);

    const allowed = await importing([past({ private: true, external_id: 'S' })], own.token);
    assert.equal(allowed.status, 200, JSON.stringify(allowed.body));
    assert.equal(allowed.body.data[0].attributes.private, true);
    // Whoever may not see it can neither get it back nor import it again (the seeded roles all read private incidents).
    const role = await send('POST', '/v1/roles', { data: { type: 'roles', attributes: { name: unique('Public only'), incidents_permissions: ['create', 'read'] } } }, own.token);
    assert.equal(role.status, 201, JSON.stringify(role.body));
    const publicOnly = await api.issueApiKey(own.organizationId, { kind: 'global', roleId: role.body.data.id });
    const again = await importing([past({ external_id: 'S' })], publicOnly);
    assert.equal(again.status, 422, JSON.stringify(again.body));
    assert.deepEqual(pointers(again), ['/entities/0/external_id']);
  });
});
