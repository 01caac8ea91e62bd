/**
 * The whole event pipeline against a REAL Kafka broker: HTTP command → its own read model (inline,
 * same transaction) and outbox → relay → Kafka → bus consumers (the audit log) applying batches.
 * See docs/architecture.md ("Write path", "Read path").
 *
 * Suites 1 and 2 use the runner's shared broker (TEST_KAFKA_BROKERS). They run one after the
 * other, each with its own Kafka-backed API: consumer groups are named after the consumer, so two
 * Kafka APIs alive at once on one broker would split the topic's partitions between their
 * (different) databases. Suite 3 starts and stops a broker of its own.
 */
import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel, type Producer } from 'kafkajs';
import type { DomainEvent } from '@taproot/messaging';
import type { DataSource } from 'typeorm';
// eslint-disable-next-line @nx/enforce-module-boundaries -- a test-only tool, not a workspace project
import { type KafkaBroker, startKafkaBroker } from '../../../tools/kafka/broker';
import { startTestApi, type TestApi, type TestOrganization } from '../src/testing';

const TOPIC = 'taproot.catalog';
/** The bus consumer under test: the audit log, fed from every context's topic. */
const AUDIT_CONSUMER = 'audits.projection';

type Json = Record<string, unknown>;
const service = (attributes: Json) => ({ data: { type: 'services', attributes } });
const severity = (attributes: Json) => ({ data: { type: 'severities', attributes } });

function sharedBrokers(): string {
  const brokers = process.env.TEST_KAFKA_BROKERS;
  if (!brokers) throw new Error('TEST_KAFKA_BROKERS is not set: run this file through `npm test`');
  return brokers;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` until it answers null (done) or the deadline passes; fails with the probe's last answer. */
async function eventually(what: string, probe: () => Promise<string | null>, timeoutMs: number, everyMs = 250): Promise<number> {
  const started = Date.now();
  let last: string | null = 'not probed yet';
  for (;;) {
    try {
      last = await probe();
    } catch (error) {
      last = `probe threw: ${String(error)}`;
    }
    if (last === null) return Date.now() - started;
    if (Date.now() - started > timeoutMs) {
      throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}; last check: ${last}`);
    }
    await sleep(everyMs);
  }
}

async function count(ds: DataSource, sql: string, params: unknown[] = []): Promise<number> {
  const [row] = await ds.query(sql, params);
  return Number(row.n);
}

// ------------------------------------------------------------------ raw Kafka helpers

interface TopicMessage {
  partition: number;
  offset: string;
  key: string;
  value: string;
  headers: Record<string, string>;
  event: DomainEvent;
}

/**
 * Every message of a topic, read with a fresh consumer group from the beginning up to the end
 * offsets the topic had when the call started.
 */
async function readTopic(brokers: string[], topic: string, timeoutMs = 45_000): Promise<TopicMessage[]> {
  const kafka = new Kafka({ clientId: 'kafka-pipeline-reader', brokers, logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  let ends: { partition: number; high: string; low: string }[];
  try {
    ends = await admin.fetchTopicOffsets(topic);
  } finally {
    await admin.disconnect();
  }
  const remaining = new Map(ends.filter((p) => BigInt(p.high) > BigInt(p.low)).map((p) => [p.partition, BigInt(p.high)]));
  const messages: TopicMessage[] = [];
  if (remaining.size === 0) return messages;
  const consumer = kafka.consumer({ groupId: `kafka-pipeline-reader-${randomUUID()}` });
  try {
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`read ${messages.length} messages of ${topic} in ${timeoutMs} ms; partitions not finished: ${[...remaining.keys()]}`)),
        timeoutMs,
      );
      consumer
        .run({
          eachMessage: async ({ partition, message }) => {
            const value = message.value?.toString('utf8') ?? '';
            messages.push({
              partition,
              offset: message.offset,
              key: message.key?.toString('utf8') ?? '',
              value,
              headers: Object.fromEntries(Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(v)])),
              event: JSON.parse(value) as DomainEvent,
            });
            const end = remaining.get(partition);
            if (end !== undefined && BigInt(message.offset) + 1n >= end) {
              remaining.delete(partition);
              if (remaining.size === 0) {
                clearTimeout(timer);
                resolve();
              }
            }
          },
        })
        .catch(reject);
    });
  } finally {
    await consumer.disconnect().catch(() => undefined);
  }
  return messages;
}

/** Null once `groupId` has committed every message the topic holds, else what is missing. */
async function groupLag(brokers: string[], groupId: string, topic: string): Promise<string | null> {
  const admin = new Kafka({ clientId: 'kafka-pipeline-admin', brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const ends = await admin.fetchTopicOffsets(topic);
    const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
    const behind = ends
      .map((e) => {
        const c = committed.partitions.find((p) => p.partition === e.partition);
        const at = c && Number(c.offset) >= 0 ? BigInt(c.offset) : BigInt(e.low);
        return { partition: e.partition, at, high: BigInt(e.high) };
      })
      .filter((p) => p.at < p.high);
    return behind.length === 0 ? null : behind.map((p) => `partition ${p.partition} committed ${p.at} of ${p.high}`).join(', ');
  } finally {
    await admin.disconnect();
  }
}

// ------------------------------------------------------------------ 1. events on the topic

describe('a command over Kafka: its event is on the topic and the read model shows it', () => {
  let api: TestApi;
  let org: TestOrganization;
  before(async () => {
    api = await startTestApi({ kafkaBrokers: sharedBrokers() });
    org = await api.newOrganization();
  });
  after(() => api?.close());

  test('service.created is on taproot.catalog with the envelope, and GET right after POST answers 200', async () => {
    assert.equal(api.runtime.bus.kind, 'kafka');
    const started = Date.now();
    const created = await api.request('POST', '/v1/services', {
      token: org.token,
      body: service({ name: 'Kafka Checkout', description: 'through the broker', owner_user_ids: [7] }),
    });
    const postMs = Date.now() - started;
    assert.equal(created.status, 201);
    const id: string = created.body.data.id;

    // Read-your-writes over Kafka: the read model committed with the write, so the very next GET and list see it.
    const one = await api.request('GET', `/v1/services/${id}`, { token: org.token });
    assert.equal(one.status, 200, `GET right after POST answered ${one.status}`);
    assert.equal(one.body.data.attributes.name, 'Kafka Checkout');
    assert.equal(one.body.data.attributes.slug, 'kafka-checkout');
    assert.equal(one.body.data.attributes.description, 'through the broker');
    assert.deepEqual(one.body.data.attributes.owner_user_ids, [7]);
    const list = await api.request('GET', '/v1/services', { token: org.token });
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.data.map((d: { id: string; attributes: Json }) => [d.id, d.attributes.name]),
      [[id, 'Kafka Checkout']],
    );
    console.info(`POST (commit with its read model; nothing waits for Kafka) took ${postMs} ms`);

    // The message itself, read by an independent consumer once the relay has sent it (the POST does not wait for that).
    await eventually(
      'the relay to publish the event',
      async () => {
        const n = await count(api.runtime.dataSource, 'SELECT count(*) AS n FROM outbox WHERE aggregate_id = $1 AND published_at IS NOT NULL', [id]);
        return n === 1 ? null : 'not published yet';
      },
      30_000,
    );
    const messages = await readTopic(api.runtime.config.kafkaBrokers!, TOPIC);
    const mine = messages.filter((m) => m.key === id);
    assert.equal(mine.length, 1, `messages keyed ${id}: ${mine.length}`);
    const [message] = mine;
    const event = JSON.parse(message.value);
    assert.equal(event.type, 'service.created');
    assert.match(event.id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.equal(event.version, 1);
    assert.ok(!Number.isNaN(Date.parse(event.occurred_at)) && new Date(event.occurred_at).toISOString() === event.occurred_at);
    assert.equal(event.organization_id, org.organizationId);
    assert.equal(event.aggregate_type, 'services');
    assert.equal(event.aggregate_id, id);
    assert.equal(event.actor.kind, 'api_key');
    assert.equal(typeof event.actor.id, 'string');
    assert.deepEqual(Object.keys(event).sort(), [
      'actor', 'aggregate_id', 'aggregate_type', 'id', 'metadata', 'occurred_at', 'organization_id', 'payload', 'type', 'version',
    ]);
    // Where the change came from travels with it (the audit log reads it).
    assert.match(event.metadata.request_id, /^[0-9a-f-]{36}$/);
    assert.match(event.metadata.ip_address, /127\.0\.0\.1/);
    assert.equal(event.payload.id, id);
    assert.equal(event.payload.name, 'Kafka Checkout');
    assert.equal(event.payload.slug, 'kafka-checkout');
    assert.equal(event.payload.managed_by, 'api');
    // The payload is the full snapshot: exactly what the POST answered.
    const { id: _id, ...snapshot } = event.payload;
    assert.deepEqual(snapshot, created.body.data.attributes);
    assert.equal(message.headers['event-type'], 'service.created');
    assert.equal(message.headers['event-id'], event.id);
    // What travelled is what the command's transaction wrote to the outbox.
    const [row] = await api.runtime.dataSource.query('SELECT event, published_at FROM outbox WHERE event_id = $1', [event.id]);
    assert.ok(row, 'the event is in the outbox');
    assert.deepEqual(row.event, event);
    assert.ok(row.published_at, 'the outbox row is marked published');
    // And the audit log, a consumer fed from Kafka, recorded it exactly once.
    await eventually(
      'the audit row of the event',
      async () => {
        const n = await count(api.runtime.dataSource, 'SELECT count(*) AS n FROM audits WHERE event_id = $1', [event.id]);
        return n === 1 ? null : `${n} audit rows`;
      },
      45_000,
    );
    assert.equal(await count(api.runtime.dataSource, 'SELECT count(*) AS n FROM inbox WHERE consumer = $1 AND event_id = $2', [AUDIT_CONSUMER, event.id]), 1);
  });
});

// ------------------------------------------------------------------ 2. Kafka consumers = in-process consumers

type Step =
  | { op: 'create'; kind: 'services' | 'severities'; name: string; attributes: Json }
  | { op: 'update'; kind: 'services' | 'severities'; name: string; attributes: Json | ((ids: Map<string, string>) => Json) }
  | { op: 'delete'; kind: 'services' | 'severities'; name: string };

/** The scripted commands, by logical name; ~20 creates, updates (renames too) and deletes. */
const SCRIPT: Step[] = [
  { op: 'create', kind: 'services', name: 'api', attributes: { name: 'Checkout API', description: 'Payments', owner_user_ids: [1, 2], slack_channels: [{ id: 'C1', name: 'pay' }] } },
  { op: 'create', kind: 'services', name: 'web', attributes: { name: 'Storefront', color: '#00ff00' } },
  { op: 'create', kind: 'services', name: 'db', attributes: { name: 'Orders DB', external_id: 'ext-db', properties: [{ catalog_property_id: 'p1', value: 'v1' }] } },
  { op: 'create', kind: 'severities', name: 'sev1', attributes: { name: 'SEV1', severity: 'critical', color: '#ff0000' } },
  { op: 'create', kind: 'severities', name: 'sev2', attributes: { name: 'SEV2', severity: 'high' } },
  { op: 'create', kind: 'severities', name: 'sev3', attributes: { name: 'SEV3' } },
  { op: 'update', kind: 'services', name: 'api', attributes: { name: 'Checkout Service' } },
  { op: 'update', kind: 'services', name: 'web', attributes: (ids) => ({ service_ids: [ids.get('api'), ids.get('db')] }) },
  { op: 'create', kind: 'services', name: 'tmp', attributes: { name: 'Temporary' } },
  { op: 'update', kind: 'severities', name: 'sev2', attributes: { description: 'major', notify_emails: ['oncall@example.test'] } },
  { op: 'delete', kind: 'services', name: 'tmp' },
  { op: 'update', kind: 'services', name: 'db', attributes: { position: 10, alert_broadcast_enabled: true, alert_broadcast_channel: { id: 'C9', name: 'alerts' } } },
  { op: 'delete', kind: 'severities', name: 'sev3' },
  { op: 'create', kind: 'services', name: 'queue', attributes: { name: 'Queue' } },
  { op: 'update', kind: 'severities', name: 'sev1', attributes: { name: 'SEV-1 Critical', severity: 'critical' } },
  { op: 'update', kind: 'services', name: 'api', attributes: { description: null } },
  { op: 'create', kind: 'severities', name: 'sev4', attributes: { name: 'SEV4', severity: 'low', position: 0 } },
  { op: 'update', kind: 'services', name: 'queue', attributes: { name: 'Checkout Queue' } },
  { op: 'delete', kind: 'services', name: 'web' },
  { op: 'update', kind: 'services', name: 'db', attributes: { owner_group_ids: ['g1'] } },
  { op: 'create', kind: 'services', name: 'web2', attributes: { name: 'Storefront' } },
  { op: 'update', kind: 'severities', name: 'sev2', attributes: { position: 5 } },
];

/** Runs the script against one API; answers the logical name → id map. */
async function runScript(api: TestApi, org: TestOrganization, label: string): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const [i, step] of SCRIPT.entries()) {
    const body = (attributes: Json) => (step.kind === 'services' ? service(attributes) : severity(attributes));
    const where = `${label} step ${i + 1} (${step.op} ${step.kind} ${step.name})`;
    if (step.op === 'create') {
      const res = await api.request('POST', `/v1/${step.kind}`, { token: org.token, body: body(step.attributes) });
      assert.equal(res.status, 201, `${where}: ${JSON.stringify(res.body)}`);
      ids.set(step.name, res.body.data.id);
    } else if (step.op === 'update') {
      const attributes = typeof step.attributes === 'function' ? step.attributes(ids) : step.attributes;
      const res = await api.request('PUT', `/v1/${step.kind}/${ids.get(step.name)}`, { token: org.token, body: body(attributes) });
      assert.equal(res.status, 200, `${where}: ${JSON.stringify(res.body)}`);
    } else {
      const res = await api.request('DELETE', `/v1/${step.kind}/${ids.get(step.name)}`, { token: org.token });
      assert.equal(res.status, 200, `${where}: ${JSON.stringify(res.body)}`);
    }
  }
  return ids;
}

/** Replaces every id (anywhere in a value) by its logical name. */
function logical(value: unknown, names: Map<string, string>): unknown {
  if (typeof value === 'string') return names.get(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => logical(v, names));
  if (value instanceof Date) return value.toISOString();
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, logical(v, names)]));
  return value;
}

function withoutTimes(value: unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  const { created_at: _c, updated_at: _u, ...rest } = value as Json;
  return rest;
}

async function readModel(api: TestApi, org: TestOrganization, ids: Map<string, string>) {
  const names = new Map([...ids].map(([name, id]) => [id, name]));
  const normalise = (rows: Json[]): (Json & { record: string })[] =>
    rows
      .map(({ id, organization_id: _o, created_at: _c, updated_at: _u, ...rest }) => ({ record: names.get(String(id)) ?? `unknown ${id}`, ...(logical(rest, names) as Json) }))
      .sort((a, b) => a.record.localeCompare(b.record));
  const ds = api.runtime.dataSource;
  // The audit log's rows as a consumer builds them; per record in event order (Kafka keeps order per key only).
  const audits: Json[] = await ds.query(
    `SELECT a.item_id AS id, a.item_type, a.event, a.object, a.object_changes FROM audits a JOIN outbox o ON o.event_id = a.event_id
      WHERE a.organization_id = $1 AND a.item_type IN ('Service', 'Severity') ORDER BY o.seq`,
    [org.organizationId],
  );
  return {
    services_read: normalise(await ds.query('SELECT * FROM services_read WHERE organization_id = $1', [org.organizationId])),
    severities_read: normalise(await ds.query('SELECT * FROM severities_read WHERE organization_id = $1', [org.organizationId])),
    // Timestamps differ between the two runs: the audit rows are compared without them.
    audits: audits.map(({ id, object, object_changes, ...rest }) => ({
      record: names.get(String(id)) ?? `unknown ${id}`,
      ...(logical({ ...rest, object: withoutTimes(object), object_changes: withoutTimes(object_changes) }, names) as Json),
    })),
  };
}

/** Null once the audit log applied every service and severity event of the organization's outbox. */
async function consumerLag(api: TestApi, org: TestOrganization): Promise<string | null> {
  const ds = api.runtime.dataSource;
  const events = await count(ds, "SELECT count(*) AS n FROM outbox WHERE organization_id = $1 AND event->>'type' ~ '^(service|severity)\\.'", [
    org.organizationId,
  ]);
  const applied = await count(
    ds,
    `SELECT count(*) AS n FROM inbox i JOIN outbox o ON o.event_id = i.event_id
      WHERE o.organization_id = $1 AND i.consumer = $2 AND o.event->>'type' ~ '^(service|severity)\\.'`,
    [org.organizationId, AUDIT_CONSUMER],
  );
  return applied === events ? null : `${applied} of ${events} events applied`;
}

describe('the Kafka-fed audit log equals the in-process one for the same commands, and so do the read models', () => {
  let local: TestApi;
  let remote: TestApi;
  before(async () => {
    // Each on its own scratch database (startTestApi creates one).
    [local, remote] = await Promise.all([startTestApi(), startTestApi({ kafkaBrokers: sharedBrokers() })]);
  });
  after(async () => {
    await Promise.all([local?.close(), remote?.close()]);
  });

  test(`${SCRIPT.length} commands give deep-equal services_read, severities_read and audit rows, and equal lists`, async () => {
    assert.equal(local.runtime.bus.kind, 'in-process');
    assert.equal(remote.runtime.bus.kind, 'kafka');
    const [localOrg, remoteOrg] = await Promise.all([local.newOrganization(), remote.newOrganization()]);
    const started = Date.now();
    const [localIds, remoteIds] = await Promise.all([runScript(local, localOrg, 'in-process'), runScript(remote, remoteOrg, 'kafka')]);
    console.info(`script ran on both APIs in ${Date.now() - started} ms`);
    // The audit log follows each write through the bus; nothing waited for it.
    await eventually('every Kafka event to be applied', () => consumerLag(remote, remoteOrg), 45_000);
    await eventually('every in-process event to be applied', () => consumerLag(local, localOrg), 10_000);

    const expected = await readModel(local, localOrg, localIds);
    const actual = await readModel(remote, remoteOrg, remoteIds);
    // Sanity: the script did what it says, so equality is not between two empty tables.
    assert.deepEqual(expected.services_read.map((r) => [r.record, r.name, r.slug]), [
      ['api', 'Checkout Service', 'checkout-api'],
      ['db', 'Orders DB', 'orders-db'],
      ['queue', 'Checkout Queue', 'queue'],
      ['web2', 'Storefront', 'storefront'],
    ]);
    assert.deepEqual(expected.severities_read.map((r) => [r.record, r.name, r.severity]), [
      ['sev1', 'SEV-1 Critical', 'critical'],
      ['sev2', 'SEV2', 'high'],
      ['sev4', 'SEV4', 'low'],
    ]);
    assert.equal(expected.audits.length, SCRIPT.length);
    assert.deepEqual(actual, expected);

    for (const path of ['/v1/services', '/v1/services?sort=name', '/v1/services?sort=-position', '/v1/severities', '/v1/severities?sort=-name']) {
      const [a, b] = await Promise.all([
        local.request('GET', path, { token: localOrg.token }),
        remote.request('GET', path, { token: remoteOrg.token }),
      ]);
      assert.equal(a.status, 200);
      assert.equal(b.status, 200);
      const view = (res: { body: { data: { attributes: Json }[]; meta?: unknown } }) =>
        res.body.data.map((d) => [d.attributes.name, d.attributes.slug, d.attributes.position]);
      assert.deepEqual(view(b), view(a), `GET ${path}`);
      assert.deepEqual(b.body.meta, a.body.meta, `GET ${path} meta`);
    }
    const services = await remote.request('GET', '/v1/services', { token: remoteOrg.token });
    assert.deepEqual(
      services.body.data.map((d: { attributes: Json }) => d.attributes.name),
      // By position: api 1, db 10 (set), queue 11 and web2 12 (appended after the highest).
      ['Checkout Service', 'Orders DB', 'Checkout Queue', 'Storefront'],
    );
  });
});

// ------------------------------------------------------------------ 3. broker outage

describe('the broker stops while commands keep coming; after its restart every event is applied exactly once', () => {
  const brokerLog: string[] = [];
  const log = (line: string) => {
    brokerLog.push(line);
    if (process.env.KAFKA_PIPELINE_SPEC_LOGS) process.stderr.write(`[outage broker] ${line}\n`);
  };
  let dataDir: string;
  let broker: KafkaBroker | null = null;
  let api: TestApi | null = null;
  let producer: Producer | null = null;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'kafka-pipeline-outage-'));
    broker = await startKafkaBroker({ dataDir, log });
    api = await startTestApi({ kafkaBrokers: broker.brokers.join(',') });
  });
  after(async () => {
    await producer?.disconnect().catch(() => undefined);
    await api?.close();
    await broker?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  test('30 commands during the outage succeed with their read model at once, then reach the audit log exactly once', async () => {
    const app = api!;
    const ds = app.runtime.dataSource;
    const org = await app.newOrganization();
    const brokers = broker!.brokers;
    const port = broker!.port;
    const phase = (() => {
      let last = Date.now();
      return (what: string) => {
        const now = Date.now();
        console.info(`${what}: ${((now - last) / 1000).toFixed(1)} s`);
        last = now;
      };
    })();

    /** What the read model must hold at the end: logical name → expected attributes. */
    const expected = new Map<string, Json>();
    const ids = new Map<string, string>();
    let serviceEvents = 0;
    const create = async (name: string, attributes: Json) => {
      const res = await app.request('POST', '/v1/services', { token: org.token, body: service({ name, ...attributes }) });
      assert.equal(res.status, 201, `create ${name}: ${res.status} ${JSON.stringify(res.body)}`);
      ids.set(name, res.body.data.id);
      expected.set(name, { name, ...attributes });
      serviceEvents++;
    };
    const update = async (name: string, attributes: Json) => {
      const res = await app.request('PUT', `/v1/services/${ids.get(name)}`, { token: org.token, body: service(attributes) });
      assert.equal(res.status, 200, `update ${name}: ${res.status} ${JSON.stringify(res.body)}`);
      expected.set(name, { ...expected.get(name), ...attributes });
      serviceEvents++;
    };
    const remove = async (name: string) => {
      const res = await app.request('DELETE', `/v1/services/${ids.get(name)}`, { token: org.token });
      assert.equal(res.status, 200, `delete ${name}: ${res.status} ${JSON.stringify(res.body)}`);
      expected.delete(name);
      serviceEvents++;
    };
    /** Null once services_read holds exactly the expected records with their final values. */
    const readModelMatches = async (): Promise<string | null> => {
      const rows: Json[] = await ds.query('SELECT * FROM services_read WHERE organization_id = $1', [org.organizationId]);
      const problems: string[] = [];
      const byId = new Map(rows.map((r) => [String(r.id), r]));
      for (const [name, attrs] of expected) {
        const row = byId.get(ids.get(name)!);
        if (!row) {
          problems.push(`${name} missing`);
          continue;
        }
        for (const [k, v] of Object.entries(attrs)) {
          if (JSON.stringify(row[k]) !== JSON.stringify(v)) problems.push(`${name}.${k} = ${JSON.stringify(row[k])}, want ${JSON.stringify(v)}`);
        }
      }
      const wanted = new Set([...expected.keys()].map((n) => ids.get(n)));
      for (const r of rows) if (!wanted.has(String(r.id))) problems.push(`unexpected row ${r.name}`);
      if (problems.length === 0) return null;
      return `${rows.length} rows, ${problems.length} differences (${problems.slice(0, 5).join('; ')}${problems.length > 5 ? '; ...' : ''})`;
    };
    /** The audit consumer's inbox rows for this organization's service events. */
    const auditInbox = () =>
      count(
        ds,
        `SELECT count(*) AS n FROM inbox i JOIN outbox o USING (event_id)
          WHERE i.consumer = $1 AND o.organization_id = $2 AND o.event->>'type' LIKE 'service.%'`,
        [AUDIT_CONSUMER, org.organizationId],
      );
    const serviceAudits = () => count(ds, "SELECT count(*) AS n FROM audits WHERE organization_id = $1 AND item_type = 'Service'", [org.organizationId]);
    /** Null once the audit log holds one row per service event, else what it holds. */
    const auditLag = async (): Promise<string | null> => {
      const [audits, applied] = [await serviceAudits(), await auditInbox()];
      if (audits === serviceEvents && applied === serviceEvents) return null;
      const pending = await count(ds, 'SELECT count(*) AS n FROM outbox WHERE published_at IS NULL');
      return `${audits} audit rows, inbox ${applied}/${serviceEvents}, outbox pending ${pending}`;
    };

    // Before the outage: a few services, through to the audit log.
    for (let i = 1; i <= 5; i++) await create(`before-${i}`, { description: `initial ${i}` });
    assert.equal(await readModelMatches(), null);
    await eventually('the pre-outage services in the audit log', auditLag, 45_000);
    phase('5 services created and audited');

    // The outage: 30 commands, paced. The broker is told to stop after the first 5 (a relay publish
    // may be in flight while it shuts down); from the 16th on it is certainly down.
    const commands: (() => Promise<void>)[] = [
      ...Array.from({ length: 12 }, (_, i) => () => create(`during-${i + 1}`, { description: `created while down ${i + 1}` })),
      ...Array.from({ length: 5 }, (_, i) => () => update(`before-${i + 1}`, { description: `updated while down ${i + 1}` })),
      ...Array.from({ length: 5 }, (_, i) => () => update(`during-${i + 1}`, { description: `updated while down ${i + 1}`, color: `#00000${i + 1}` })),
      () => update('before-1', { name: 'before-1 renamed', description: 'updated twice while down' }),
      () => update('during-1', { description: 'updated twice while down' }),
      () => update('during-1', { description: 'updated three times while down' }),
      () => update('before-2', { color: '#abcdef' }),
      () => remove('before-3'),
      () => remove('during-2'),
      () => remove('during-12'),
      () => remove('during-11'),
    ];
    assert.equal(commands.length, 30);
    let stopping: Promise<void> | null = null;
    const during = Date.now();
    for (const [i, command] of commands.entries()) {
      if (i === 5) stopping = broker!.stop();
      if (i === 15) {
        await stopping;
        broker = null;
        phase('broker stopped (10 commands issued while it shut down)');
      }
      await command(); // each asserts 201/200: the database alone answers
      await sleep(i < 15 ? 40 : 10);
    }
    phase(`${commands.length} commands during the outage (${Date.now() - during} ms in all, every one 200/201)`);

    const pending = await count(ds, 'SELECT count(*) AS n FROM outbox WHERE published_at IS NULL');
    console.info(`${pending} events pending in the outbox while the broker is down`);
    assert.ok(pending >= 15 && pending <= commands.length, `outbox pending ${pending}: the events issued after the stop must wait there`);

    // The read model needs no broker: it committed with each write.
    assert.equal(await readModelMatches(), null);

    broker = await startKafkaBroker({ dataDir, port, log });
    phase('broker restarted on the same port and data dir');

    await eventually('the audit log to hold every event', auditLag, 90_000, 500);
    phase('audit log caught up');
    await eventually(
      'the outbox to be fully published',
      async () => {
        const n = await count(ds, 'SELECT count(*) AS n FROM outbox WHERE published_at IS NULL');
        return n === 0 ? null : `${n} pending`;
      },
      15_000,
    );

    // Exactly once: one inbox row per event we caused, each one an event of the outbox.
    assert.equal(serviceEvents, 5 + 30);
    assert.equal(await count(ds, "SELECT count(*) AS n FROM outbox WHERE event->>'type' LIKE 'service.%'"), serviceEvents);
    assert.equal(await auditInbox(), serviceEvents);
    assert.equal(await serviceAudits(), serviceEvents);
    assert.equal(
      await count(ds, "SELECT count(DISTINCT a.event_id) AS n FROM audits a JOIN outbox o USING (event_id) WHERE a.organization_id = $1 AND a.item_type = 'Service'", [org.organizationId]),
      serviceEvents,
    );
    assert.equal(await count(ds, 'SELECT count(*) AS n FROM services_read WHERE organization_id = $1', [org.organizationId]), expected.size);
    assert.equal(expected.size, 5 + 12 - 4);

    // What the topic carried: every event, each distinct id once at least (a publish that failed
    // half-way is retried by the relay, so duplicates on the topic are allowed; applying is not).
    const messages = (await readTopic(brokers, TOPIC)).filter((m) => m.event.organization_id === org.organizationId);
    const distinct = new Set(messages.map((m) => m.event.id));
    assert.equal(distinct.size, serviceEvents);
    for (const m of messages) assert.equal(m.key, m.event.aggregate_id);
    console.info(`topic holds ${messages.length} messages for ${distinct.size} events (${messages.length - distinct.size} duplicates from relay retries)`);
    phase('topic read back');

    // Per aggregate, the topic keeps the outbox order (consumers rely on it).
    const outboxOrder: { event_id: string; aggregate_id: string }[] = await ds.query('SELECT event_id, aggregate_id FROM outbox ORDER BY seq');
    const byAggregate = new Map<string, string[]>();
    for (const m of [...messages].sort((a, b) => a.partition - b.partition || Number(BigInt(a.offset) - BigInt(b.offset)))) {
      const list = byAggregate.get(m.key) ?? [];
      if (!list.includes(m.event.id)) list.push(m.event.id);
      byAggregate.set(m.key, list);
    }
    for (const [aggregate, onTopic] of byAggregate) {
      assert.deepEqual(onTopic, outboxOrder.filter((r) => r.aggregate_id === aggregate).map((r) => r.event_id), `order of ${aggregate}`);
    }

    // Re-deliver already-applied messages: an older update after a newer one, the creation of a
    // service that was deleted since, and the creation of a service renamed since. Applying any of
    // them again would add audit rows.
    const byType = (name: string, type: string) => messages.filter((m) => m.key === ids.get(name) && m.event.type === type);
    const olderUpdate = byType('during-1', 'service.updated').find((m) => (m.event.payload as Json).description === 'updated twice while down');
    const deletedCreate = byType('before-3', 'service.created')[0];
    const renamedCreate = byType('before-1', 'service.created')[0];
    assert.ok(olderUpdate && deletedCreate && renamedCreate, 'the messages to re-deliver are on the topic');
    const replays = [olderUpdate, deletedCreate, renamedCreate, olderUpdate];
    const before = JSON.stringify(await ds.query('SELECT * FROM audits WHERE organization_id = $1 ORDER BY id', [org.organizationId]));
    const inboxBefore = await count(ds, 'SELECT count(*) AS n FROM inbox');

    const kafka = new Kafka({ clientId: 'kafka-pipeline-replayer', brokers, logLevel: logLevel.NOTHING });
    producer = kafka.producer();
    await producer.connect();
    await producer.send({
      topic: TOPIC,
      acks: -1,
      messages: replays.map((m) => ({ key: m.key, value: m.value, headers: m.headers, partition: m.partition })),
    });
    await producer.disconnect();
    producer = null;
    // The audit log's group has committed past the replayed messages: it has handled them.
    const replayMs = await eventually('the audit log to consume the replayed messages', () => groupLag(brokers, AUDIT_CONSUMER, TOPIC), 45_000);
    console.info(`audit log consumed ${replays.length} replayed messages in ${replayMs} ms`);

    const after = JSON.stringify(await ds.query('SELECT * FROM audits WHERE organization_id = $1 ORDER BY id', [org.organizationId]));
    assert.equal(after, before, 'a re-delivered event changed the audit log');
    assert.equal(await count(ds, 'SELECT count(*) AS n FROM inbox'), inboxBefore);
    assert.equal(await readModelMatches(), null);
    const [row] = await ds.query('SELECT description FROM services_read WHERE id = $1', [ids.get('during-1')]);
    assert.equal(row.description, 'updated three times while down');
    assert.equal(await count(ds, 'SELECT count(*) AS n FROM services_read WHERE id = $1', [ids.get('before-3')]), 0);
    phase('replays refused by the inbox');

    // Control: the same older snapshot under a NEW event id is applied, so what refused the
    // replays above was the inbox, not a consumer that had stopped listening.
    const control = { ...olderUpdate.event, id: randomUUID(), payload: { ...(olderUpdate.event.payload as Json), description: 'control event' } };
    producer = kafka.producer();
    await producer.connect();
    await producer.send({
      topic: TOPIC,
      acks: -1,
      messages: [{ key: olderUpdate.key, value: JSON.stringify(control), headers: { 'event-type': control.type, 'event-id': control.id }, partition: olderUpdate.partition }],
    });
    await producer.disconnect();
    producer = null;
    await eventually(
      'the control event to be applied',
      async () => {
        const [r] = await ds.query('SELECT object FROM audits WHERE event_id = $1', [control.id]);
        return r?.object?.description === 'control event' ? null : `audit row ${JSON.stringify(r ?? null)}`;
      },
      30_000,
    );
    assert.equal(await count(ds, 'SELECT count(*) AS n FROM inbox WHERE consumer = $1 AND event_id = $2', [AUDIT_CONSUMER, control.id]), 1);
    // The read model is the owning context's, written with the command: a bus message never touches it.
    assert.equal(await readModelMatches(), null);
  });
});
