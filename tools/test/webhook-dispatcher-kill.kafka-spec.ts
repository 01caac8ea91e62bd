/**
 * The webhook dispatcher loses nothing when killed mid-batch (issue 17): in Kafka mode, with the
 * dispatcher as its own process (apps/webhook-dispatcher/src/main.ts, as its Kubernetes
 * Deployment runs it), deliveries are in flight to a slow receiver when the process is
 * SIGKILLed; restarted, it delivers every event, and the only events the receiver sees twice are
 * ones the killed process had already attempted (the documented at-least-once window: an attempt
 * whose outcome was not recorded is made again when its lease ends, docs/webhook-delivery.md).
 */
import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { freePort } from '@taproot/persistence';
import { startTestApi, type TestApi, type TestOrganization } from '../../apps/api/src/testing';
import { root } from '../scripts/cli-testing';

const INCIDENTS = 150;
/** The receiver answers each delivery this late, so that deliveries are in flight at the kill. */
const ANSWER_AFTER_MS = 150;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function eventually(what: string, probe: () => Promise<string | null> | string | null, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: string | null = 'never probed';
  while (Date.now() < deadline) {
    last = await probe();
    if (last === null) return;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}: ${last}`);
}

/** A receiver that answers late and keeps, per delivery, the incident id and when it arrived. */
class SlowReceiver {
  readonly arrivals: { incidentId: string; webhookId: string; at: number }[] = [];
  inFlight = 0;
  private readonly server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { id: string } };
      this.arrivals.push({ incidentId: body.data.id, webhookId: String(req.headers['webhook-id']), at: Date.now() });
      this.inFlight++;
      setTimeout(() => {
        this.inFlight--;
        res.writeHead(200).end();
      }, ANSWER_AFTER_MS);
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as { port: number }).port}/hooks`;
  }

  distinct(): Set<string> {
    return new Set(this.arrivals.map((a) => a.incidentId));
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe('the webhook dispatcher SIGKILLed with deliveries in flight', () => {
  let api: TestApi;
  let org: TestOrganization;
  let receiver: SlowReceiver;
  let child: ChildProcess | null = null;
  let output = '';

  before(async () => {
    api = await startTestApi({ kafkaBrokers: process.env.TEST_KAFKA_BROKERS });
    org = await api.newOrganization();
    receiver = new SlowReceiver();
  });
  after(async () => {
    child?.kill('SIGKILL');
    await receiver?.close();
    await api?.close();
  });

  const startDispatcher = async () => {
    const port = await freePort();
    child = spawn(process.execPath, ['-r', join(root, 'tools/register.js'), join(root, 'apps/webhook-dispatcher/src/main.ts')], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        DATABASE_URL: api.runtime.config.databaseUrl!,
        KAFKA_BROKERS: process.env.TEST_KAFKA_BROKERS!,
        DISPATCHER_PORT: String(port),
        WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
        // A short attempt timeout makes a short lease: the killed process's attempts come back soon.
        WEBHOOK_TIMEOUT_MS: '1000',
        WEBHOOK_POLL_MS: '200',
        WEBHOOK_CONCURRENCY: '8',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    await eventually('the dispatcher to be ready', async () => ((await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null))?.status === 200 ? null : output.slice(-500)), 60_000);
  };

  test('every event is delivered after the restart; only attempts of the killed process come twice', async () => {
    const url = await receiver.start();
    const endpoint = await api.request('POST', '/v1/webhooks/endpoints', {
      token: org.token,
      body: { data: { type: 'webhooks_endpoints', attributes: { name: 'Kill test', url, event_types: ['incident.created'] } } },
    });
    assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));
    await startDispatcher();

    const created: string[] = [];
    for (let i = 0; i < INCIDENTS; i += 10) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, j) => api.request('POST', '/v1/incidents', { token: org.token, body: { data: { type: 'incidents', attributes: { title: `Kill test ${i + j}` } } } })),
      );
      for (const a of answers) {
        assert.equal(a.status, 201, JSON.stringify(a.body));
        created.push(a.body.data.id);
      }
    }

    // Kill while the receiver holds requests and part of the events are delivered.
    await eventually('deliveries in flight', () => (receiver.distinct().size >= 20 && receiver.inFlight > 0 ? null : `${receiver.distinct().size} delivered, ${receiver.inFlight} in flight`), 60_000);
    const killedAt = Date.now();
    const inFlightAtKill = receiver.inFlight;
    child!.kill('SIGKILL');
    await new Promise((r) => child!.once('exit', r));
    const deliveredBeforeKill = receiver.distinct().size;
    assert.ok(deliveredBeforeKill < INCIDENTS, 'the kill came before the last delivery');
    console.info(`killed with ${inFlightAtKill} deliveries in flight, ${deliveredBeforeKill} of ${INCIDENTS} incidents delivered`);

    // What the killed process sent has arrived by now; stamping by the receiver's clock can lag the kill.
    const restartedAt = Date.now();
    await startDispatcher();
    await eventually('every incident delivered', () => (receiver.distinct().size === INCIDENTS ? null : `${receiver.distinct().size} of ${INCIDENTS}`), 120_000);
    assert.deepEqual([...receiver.distinct()].sort(), [...created].sort(), 'the receiver got exactly the incidents created');

    // Twice only within the window: a repeated event was first attempted by the killed process.
    const first = new Map<string, number>();
    const repeated = new Set<string>();
    for (const a of receiver.arrivals) {
      if (first.has(a.incidentId)) repeated.add(a.incidentId);
      else first.set(a.incidentId, a.at);
    }
    for (const id of repeated) assert.ok(first.get(id)! < restartedAt, `incident ${id} was delivered twice though first attempted after the restart (kill at ${killedAt}, restart at ${restartedAt}, first arrival ${first.get(id)})`);
    console.info(`${receiver.arrivals.length} requests for ${INCIDENTS} events: ${repeated.size} repeated (attempted by the killed process)`);
    // Each repeat keeps its idempotency key: the same webhook-id as the first request.
    const ids = new Map<string, Set<string>>();
    for (const a of receiver.arrivals) (ids.get(a.incidentId) ?? ids.set(a.incidentId, new Set()).get(a.incidentId)!).add(a.webhookId);
    assert.ok([...ids.values()].every((s) => s.size === 1), 'a repeated delivery carries the same webhook-id');

    // The last answers' outcomes are recorded a moment after the receiver answered them.
    await eventually(
      'every delivery recorded as delivered',
      async () => {
        const rows: { status: string; n: number }[] = await api.runtime.dataSource.query(
          'SELECT status, count(*)::int AS n FROM webhooks_deliveries WHERE organization_id = $1 GROUP BY status',
          [org.organizationId],
        );
        return rows.length === 1 && rows[0].status === 'delivered' && rows[0].n === INCIDENTS ? null : JSON.stringify(rows);
      },
      30_000,
    );
  }, 240_000);
});
