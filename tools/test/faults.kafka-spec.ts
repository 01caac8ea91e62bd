/**
 * Faults lose nothing (issue 13): in Kafka mode, under a steady create load, PostgreSQL is
 * SIGKILLed (and restarted), then the broker, then the process running the apps. Afterwards every
 * create the api acknowledged is in its read model, every event of the organization is in the
 * audit log's inbox once (the inbox's key) and made one webhook delivery (the deliveries' key,
 * the dispatcher's record of what it consumed); nothing was dead-lettered. While the database is away, requests answer 503 with Retry-After (never 500) and
 * /readyz says not ready.
 *
 * This file owns its servers: a PostgreSQL and a broker it can kill without touching the run's.
 */
import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { ALL_MIGRATIONS } from '@taproot/api';
import { KafkaDeadLetters } from '@taproot/messaging';
import { createDataSource, freePort, runMigrations, startEmbeddedPostgres, type EmbeddedPostgresHandle } from '@taproot/persistence';
import { startDispatcher } from '@taproot/webhook-dispatcher';
import { startTestApi, type TestApi } from '../../apps/api/src/testing';
import { startKafkaBroker, type KafkaBroker } from '../kafka/broker';
import { root, script } from '../scripts/cli-testing';

const AUDIT_CONSUMER = 'audits.projection';
const OUTAGE_MS = 8000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const phase = (() => {
  let last = Date.now();
  return (what: string) => {
    console.info(`${what}: ${((Date.now() - last) / 1000).toFixed(1)} s`);
    last = Date.now();
  };
})();

async function eventually(what: string, probe: () => Promise<string | null>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: string | null = 'not probed';
  for (;;) {
    last = await probe().catch((error: unknown) => `probe threw ${String(error)}`);
    if (last === null) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}: ${last}`);
    await sleep(300);
  }
}

interface Answer {
  status: number;
  retryAfter: string | null;
  code: string | null;
}

/**
 * Two clients creating incidents one after another until stopped. Acknowledged ids are the 201s;
 * any other answer (or a connection torn down with the process) is kept to be checked. With
 * `idempotent`, each create carries an Idempotency-Key and a create whose connection was torn down
 * is sent again with the same key until it is answered, as a careful client would.
 */
function createLoad(base: () => string, token: string, opts: { idempotent?: boolean } = {}) {
  const acknowledged: string[] = [];
  const answers: Answer[] = [];
  /** The creates answered only on a retry after a torn connection: status and error code. */
  const retried: Answer[] = [];
  let failedConnections = 0;
  let running = true;
  let n = 0;
  const send = async (title: string) => {
    const res = await fetch(`${base()}/v1/incidents`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/vnd.api+json',
        ...(opts.idempotent ? { 'idempotency-key': title } : {}),
      },
      body: JSON.stringify({ data: { type: 'incidents', attributes: { title } } }),
      signal: AbortSignal.timeout(15_000),
    });
    type Body = { data?: { id: string }; errors?: { code: string; meta?: { resource?: { id: string } } }[] };
    const body = (await res.json()) as Body;
    const answer = { status: res.status, retryAfter: res.headers.get('retry-after'), code: body.errors?.[0]?.code ?? null };
    answers.push(answer);
    if (res.status === 201) acknowledged.push(body.data!.id);
    // Committed before the process died, its answer lost: the retry names what it created.
    if (answer.code === 'IDEMPOTENCY_KEY_ANSWER_LOST') acknowledged.push(body.errors![0].meta!.resource!.id);
    return answer;
  };
  const client = async () => {
    while (running) {
      const title = `load ${++n}`;
      for (let attempt = 0; ; attempt++) {
        try {
          const answer = await send(title);
          if (attempt > 0) retried.push(answer);
          break;
        } catch {
          failedConnections++;
          await sleep(200);
          if (!opts.idempotent) break;
        }
      }
      await sleep(25);
    }
  };
  const clients = [client(), client()];
  return {
    acknowledged,
    answers,
    retried,
    failedConnections: () => failedConnections,
    /** Resolves once `count` more creates were acknowledged. */
    async more(count: number, timeoutMs = 60_000) {
      const target = acknowledged.length + count;
      await eventually(`${count} more acknowledged creates`, async () => (acknowledged.length >= target ? null : `${acknowledged.length}/${target}`), timeoutMs);
    },
    async stop() {
      running = false;
      await Promise.all(clients);
    },
  };
}

/**
 * An endpoint of the organization subscribed to every event type, so that each event the load
 * writes leaves a trace of the dispatcher: its delivery (whether its attempts succeed or not).
 */
async function subscribeEverything(base: string, token: string): Promise<string> {
  const res = await fetch(`${base}/v1/webhooks/endpoints`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/vnd.api+json' },
    body: JSON.stringify({ data: { type: 'webhooks_endpoints', attributes: { name: 'Faults receiver', url: 'https://receiver.invalid/faults', event_types: [] } } }),
  });
  assert.equal(res.status, 201, await res.clone().text());
  return ((await res.json()) as { data: { id: string } }).data.id;
}

/** Null once every acknowledged incident is stored and every event of the organization reached the audit log and the dispatcher. */
async function settled(db: Client, organizationId: string, acknowledged: string[], endpointId: string): Promise<string | null> {
  const { rows: stored } = await db.query('SELECT count(*)::int AS n FROM incidents_read WHERE organization_id = $1 AND id = ANY($2::uuid[])', [organizationId, acknowledged]);
  if (stored[0].n !== acknowledged.length) return `${stored[0].n} of ${acknowledged.length} acknowledged incidents in the read model`;
  const { rows: pending } = await db.query('SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL');
  // The audit log consumes what it audits (not its own announcements); the dispatcher delivers
  // each acknowledged create's incident.created and its audit_log.created to the endpoint.
  const { rows } = await db.query(
    `SELECT count(*) FILTER (WHERE o.event->>'type' <> 'audit_log.created' AND NOT EXISTS (SELECT 1 FROM inbox i WHERE i.consumer = $2 AND i.event_id = o.event_id))::int AS audit,
            count(*) FILTER (WHERE ((o.event->>'type' = 'incident.created' AND o.aggregate_id = ANY($4::text[])) OR (o.event->>'type' = 'audit_log.created' AND o.event->'payload'->>'item_id' = ANY($4::text[])))
                               AND NOT EXISTS (SELECT 1 FROM webhooks_deliveries d WHERE d.endpoint_id = $3 AND d.event_id = o.event_id))::int AS dispatcher
       FROM outbox o WHERE o.organization_id = $1`,
    [organizationId, AUDIT_CONSUMER, endpointId, acknowledged],
  );
  const missing = [rows[0].audit > 0 && `${AUDIT_CONSUMER} misses ${rows[0].audit}`, rows[0].dispatcher > 0 && `the dispatcher misses ${rows[0].dispatcher}`].filter(Boolean);
  return missing.length ? `${missing.join(', ')} (outbox pending ${pending[0].n})` : null;
}

/** Every acknowledged incident has exactly one incident.created event and one audit row for it. */
async function assertExactlyOnce(db: Client, organizationId: string, acknowledged: string[]): Promise<void> {
  const { rows } = await db.query(
    `SELECT i.id, count(DISTINCT o.event_id)::int AS events, count(a.id)::int AS audits
       FROM unnest($2::uuid[]) AS i(id)
       LEFT JOIN outbox o ON o.organization_id = $1 AND o.aggregate_id::text = i.id::text AND o.event->>'type' = 'incident.created'
       LEFT JOIN audits a ON a.event_id = o.event_id
      GROUP BY i.id`,
    [organizationId, acknowledged],
  );
  const wrong = rows.filter((r: { events: number; audits: number }) => r.events !== 1 || r.audits !== 1);
  assert.deepEqual(wrong, [], 'each acknowledged create: one incident.created event, one audit row');
  const { rows: dup } = await db.query(`SELECT count(*)::int AS n FROM (SELECT event_id FROM inbox WHERE consumer = $1 GROUP BY event_id HAVING count(*) > 1) d`, [AUDIT_CONSUMER]);
  assert.equal(dup[0].n, 0, `${AUDIT_CONSUMER}: an event applied twice`);
}

describe('faults in Kafka mode lose nothing', () => {
  let dir: string;
  let pg: EmbeddedPostgresHandle;
  let broker: KafkaBroker | null = null;
  let api: TestApi | null = null;
  let child: ChildProcess | null = null;
  const log = (line: string) => process.env.FAULTS_SPEC_LOGS && process.stderr.write(`${line}\n`);

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'taproot-faults-'));
    pg = await startEmbeddedPostgres({ dir: join(dir, 'pg'), port: await freePort(), persistent: true, log });
    const ds = createDataSource({ url: pg.url, entities: [], migrations: ALL_MIGRATIONS, poolSize: 2 });
    await ds.initialize();
    await runMigrations(ds);
    await ds.destroy();
    broker = await startKafkaBroker({ dataDir: join(dir, 'kafka'), log });
  });
  after(async () => {
    child?.kill('SIGKILL');
    await api?.close().catch(() => undefined);
    await broker?.stop().catch(() => undefined);
    await pg?.stop().catch(() => undefined);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const open = async (url = pg.url) => {
    const db = new Client({ connectionString: url });
    await db.connect();
    return db;
  };

  test('PostgreSQL killed for 8 s, then the broker killed, under load: 503s with Retry-After meanwhile, nothing lost, nothing twice', async () => {
    api = await startTestApi({ databaseUrl: pg.url, kafkaBrokers: broker!.brokers.join(',') });
    const dispatcher = await startDispatcher(api.runtime, 0);
    const org = await api.newOrganization();
    const endpointId = await subscribeEverything(api.url, org.token);
    const load = createLoad(() => api!.url, org.token);
    try {
      await load.more(20);
      phase('load running');

      await pg.kill();
      phase('PostgreSQL killed');
      await eventually(
        '/readyz to report the database down',
        async () => {
          const res = await fetch(`${api!.url}/readyz`);
          const body = (await res.json()) as { checks: { database: string } };
          return res.status === 503 && body.checks.database === 'down' ? null : `${res.status} ${JSON.stringify(body)}`;
        },
        10_000,
      );
      await sleep(OUTAGE_MS);
      const duringOutage = load.answers.filter((a) => a.status !== 201).length;
      pg = await startEmbeddedPostgres({ dir: join(dir, 'pg'), port: pg.port, persistent: true, log });
      phase('PostgreSQL restarted');
      await load.more(20);
      phase('creates acknowledged again');
      await eventually('/readyz ready again', async () => ((await fetch(`${api!.url}/readyz`)).status === 200 ? null : 'not ready'), 30_000);

      // The broker next, SIGKILLed: the database alone answers, the outbox keeps the events.
      const port = broker!.port;
      await broker!.kill();
      phase('broker killed');
      console.info(`refused before the broker kill: ${load.answers.filter((a) => a.status !== 201).length} of ${load.answers.length}`);
      await sleep(3000);
      broker = await startKafkaBroker({ dataDir: join(dir, 'kafka'), port, log });
      phase('broker restarted');
      console.info(`refused: ${load.answers.filter((a) => a.status !== 201).length} of ${load.answers.length}, ${duringOutage} before the restart of PostgreSQL`);
      await load.more(20);
      await load.stop();

      const refused = load.answers.filter((a) => a.status !== 201);
      console.info(`${load.acknowledged.length} creates acknowledged; ${refused.length} refused (${duringOutage} during the database outage)`);
      assert.ok(duringOutage > 0, 'the outage was seen by the clients');
      assert.deepEqual(
        [...new Set(refused.map((a) => `${a.status} ${a.code} retry-after=${a.retryAfter}`))],
        ['503 SERVICE_UNAVAILABLE retry-after=5'],
        'every refusal is a 503 with Retry-After',
      );
      assert.equal(load.failedConnections(), 0);

      const db = await open();
      try {
        await eventually('every acknowledged create in the read model and both consumers', () => settled(db, org.organizationId, load.acknowledged, endpointId), 120_000);
        phase('consumers caught up');
        await assertExactlyOnce(db, org.organizationId, load.acknowledged);
      } finally {
        await db.end();
      }
      const parked = await new KafkaDeadLetters({ brokers: broker.brokers, clientId: 'faults-spec' }).list();
      assert.deepEqual(parked.map((l) => `${l.eventType} ${l.error}`), [], 'nothing was dead-lettered');
    } finally {
      await load.stop();
      await dispatcher.close();
      await api.close();
      api = null;
    }
  });

  test('the process running the apps killed under load: nothing acknowledged is lost or applied twice, and retries with their Idempotency-Key make no duplicate', async () => {
    // A database of its own, so the bootstrap key makes the first organization there.
    const admin = await open(pg.url.replace(/\/[^/]+$/, '/postgres'));
    await admin.query('CREATE DATABASE killed_process');
    await admin.end();
    const url = pg.url.replace(/\/[^/]+$/, '/killed_process');
    const token = `tk_faults_${randomBytes(12).toString('hex')}`;
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    let output = '';
    const startSystem = async () => {
      const [cmd, args] = script('start.ts');
      child = spawn(cmd, [...args], {
        cwd: root,
        env: {
          PATH: process.env.PATH ?? '',
          DATABASE_URL: url,
          KAFKA_BROKERS: broker!.brokers.join(','),
          BOOTSTRAP_API_KEY: token,
          PORT: String(port),
          AUTH_PORT: String(await freePort()),
          DISPATCHER_PORT: String(await freePort()),
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout!.on('data', (d) => (output += d));
      child.stderr!.on('data', (d) => (output += d));
      await eventually('the system to be ready', async () => ((await fetch(`${base}/readyz`).catch(() => null))?.status === 200 ? null : output.slice(-500)), 90_000);
    };
    await startSystem();
    const db = await open(url);
    try {
      const [{ id: organizationId }] = (await db.query('SELECT id FROM organizations')).rows;
      const endpointId = await subscribeEverything(base, token);
      const load = createLoad(() => base, token, { idempotent: true });
      try {
        await load.more(30);
        child!.kill('SIGKILL');
        await new Promise((r) => child!.once('exit', r));
        phase('process killed');
        await sleep(1000);
        await startSystem();
        phase('process restarted');
        await load.more(30);
      } finally {
        await load.stop();
      }
      // Requests in flight at the kill lost their connection and were sent again with their key:
      // those that had committed answer 409 naming what they created, the others run now.
      const retriedCodes = load.retried.map((a) => `${a.status} ${a.code ?? ''}`.trim());
      console.info(`${load.acknowledged.length} creates acknowledged; ${load.failedConnections()} connection attempts failed while the process was down; retries answered ${JSON.stringify(retriedCodes)}`);
      assert.ok(load.retried.length > 0, 'the kill tore down requests in flight');
      assert.deepEqual(
        [...new Set(load.answers.map((a) => `${a.status} ${a.code ?? ''}`.trim()))].filter((a) => a !== '201' && a !== '409 IDEMPOTENCY_KEY_ANSWER_LOST'),
        [],
      );
      // One incident per logical create, whatever the retries: no title twice.
      const { rows: twice } = await db.query('SELECT title, count(*)::int AS n FROM incidents_read WHERE organization_id = $1 GROUP BY title HAVING count(*) > 1', [organizationId]);
      assert.deepEqual(twice, [], 'a retried create made a duplicate');
      await eventually('every acknowledged create in the read model and both consumers', () => settled(db, organizationId, load.acknowledged, endpointId), 120_000);
      await assertExactlyOnce(db, organizationId, load.acknowledged);
    } finally {
      await db.end();
      child!.kill('SIGTERM');
      await new Promise((r) => child!.once('exit', r));
      child = null;
    }
  });
});
