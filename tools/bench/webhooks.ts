/**
 * The webhooks section of `npm run bench` (issue 17): outgoing webhook deliveries from the
 * dispatcher of this process (as `npm start` runs it: in-process bus) to a local receiver in a
 * worker thread (webhook-receiver-worker.ts), an endpoint subscribed to `audit_log.created`.
 * Events are committed as a command commits them (UnitOfWork: outbox row in a transaction, then
 * the relay woken), so the path measured is the product's: relay, bus, fan-out insert, signing,
 * the SSRF-guarded sender, recording.
 *   - latency: BENCH_WEBHOOK_RATE (200) events a second, open loop, each in its own transaction,
 *     for BENCH_WEBHOOK_SECONDS (20): from the commit returning to the start of the event's first
 *     attempt (the engine's onAttempt), p50/p99;
 *   - throughput: BENCH_WEBHOOK_EVENTS (10,000) events committed 200 a transaction, from the first
 *     commit to the last receipt, against the same number of raw POSTs of a body of the same size
 *     through the same client (createGuardedSender with the dispatcher's settings) at the same
 *     concurrency (WEBHOOK_CONCURRENCY), in alternation, twice each; the ratio of the better of each.
 *     Then the same deliveries due again at once (the worker's claims alone). Once against a
 *     receiver answering at once (what the machine's two cores allow: the target's row), once
 *     against one answering after BENCH_WEBHOOK_RECEIVER_MS (20) with BENCH_WEBHOOK_SLOW_EVENTS
 *     (6,000), as receivers doing some work do (reported).
 * See docs/benchmarks.md.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { domainEvent, topicOf, type DomainEvent } from '@taproot/messaging';
import type { RunningApp, Runtime } from '@taproot/runtime';
import { createGuardedSender, WebhookDeliveryEngine, type WebhookSender } from '@taproot/webhooks';
import { intEnv, MEDIA_TYPE, limitRow, notRunRow, out, percentile, progress, ratio, ratioRow, round, sleep, statementStats, table, type StatementCost, type SummaryRow } from './harness';
import type { Receipt, ReceiverReply, ReceiverRequest } from './webhook-receiver-worker';

const RATE = intEnv('BENCH_WEBHOOK_RATE', 200, 1);
const LATENCY_SECONDS = intEnv('BENCH_WEBHOOK_SECONDS', 20, 1);
const EVENTS = intEnv('BENCH_WEBHOOK_EVENTS', 10000, 100);
/** The second receiver's work per request, and the events of its rounds. */
const SLOW_RECEIVER_MS = intEnv('BENCH_WEBHOOK_RECEIVER_MS', 20, 1);
const SLOW_EVENTS = intEnv('BENCH_WEBHOOK_SLOW_EVENTS', 6000, 100);
const PER_TRANSACTION = 200;
const MIN_THROUGHPUT_RATIO = 0.5;
const MAX_P99_MS = 250;
const THROUGHPUT = 'webhook deliveries/s to a local receiver / raw POSTs, same client and concurrency';
const LATENCY = `webhook event committed -> first delivery attempt, p99 at ${RATE} events/s`;

interface Receiver {
  url: string;
  collect(): Promise<Receipt[]>;
  close(): Promise<void>;
}

export interface ThroughputRound {
  deliveries: { events: number; seconds: number; perSec: number };
  /** The same deliveries due again at once (a mass redelivery, an outage's retries): the worker's claims alone. */
  backlog: { deliveries: number; seconds: number; perSec: number };
  raw: { posts: number; seconds: number; perSec: number };
  /** BENCH_PG_STATEMENTS: what the events' delivery cost PostgreSQL, per delivery, most first. */
  statements?: StatementCost[];
}

export interface WebhooksBench {
  concurrency: number;
  slowReceiverMs: number;
  latency: { offeredPerSec: number; seconds: number; events: number; attempted: number; p50: number; p90: number; p99: number; max: number };
  /** Against a receiver answering at once: what the machine's CPU allows. */
  rounds: ThroughputRound[];
  /** Against a receiver answering after slowReceiverMs, as receivers doing work do. */
  slowRounds: ThroughputRound[];
}

const now = () => performance.timeOrigin + performance.now();

async function startReceiver(answerAfterMs: number): Promise<Receiver> {
  const worker = new Worker(join(__dirname, 'webhook-receiver-worker.ts'), { workerData: { answerAfterMs } });
  const waiting: ((reply: ReceiverReply) => void)[] = [];
  worker.on('message', (reply: ReceiverReply) => waiting.shift()?.(reply));
  const ask = (request?: ReceiverRequest) =>
    new Promise<ReceiverReply>((resolve) => {
      waiting.push(resolve);
      if (request) worker.postMessage(request);
    });
  const started = await ask();
  if (!('url' in started)) throw new Error('the webhook receiver did not start');
  return {
    url: started.url,
    collect: async () => {
      const reply = await ask({ ask: 'collect' });
      return 'receipts' in reply ? reply.receipts : [];
    },
    close: async () => {
      await ask({ ask: 'close' });
      await worker.terminate();
    },
  };
}

/** An audit row's announcement, as the audit log emits it (about 600 bytes of payload). */
function auditEvent(organizationId: string, n: number): DomainEvent {
  const id = String(1_000_000 + n);
  return domainEvent({
    type: 'audit_log.created',
    organizationId,
    aggregateType: 'audits',
    aggregateId: id,
    actor: { kind: 'system', id: null },
    payload: {
      id,
      event: 'update',
      item_type: 'Incident',
      item_type_display: 'Incident',
      item_id: randomUUID(),
      object: { title: `Bench incident ${n}`, status: 'mitigated', summary: 'Checkout latency above the SLO in eu-west-1' },
      object_changes: { status: ['started', 'mitigated'] },
      user_email: 'bench@example.test',
      source: 'api',
      ip_address: '203.0.113.7',
      user_agent: 'taproot-bench',
      request_id: randomUUID(),
      created_at: new Date().toISOString(),
    },
  });
}

/** Commits events as a command does (outbox row, relay woken); resolves after the commit. */
const commit = (runtime: Runtime, events: DomainEvent[]) => runtime.unitOfWork.run(async (_m, emitter) => emitter.emit(topicOf('identity'), events));

/** Waits until `count` receipts (of ids in `ids` when given) have arrived; answers the last arrival. */
async function received(receiver: Receiver, count: number, label: string, timeoutMs = 120_000): Promise<{ receipts: Receipt[]; last: number }> {
  const receipts: Receipt[] = [];
  const deadline = Date.now() + timeoutMs;
  while (receipts.length < count) {
    if (Date.now() > deadline) throw new Error(`${label}: ${receipts.length} of ${count} arrived in ${timeoutMs} ms`);
    await sleep(20);
    receipts.push(...(await receiver.collect()));
  }
  return { receipts, last: Math.max(...receipts.map((r) => r.receivedAt)) };
}

type Org = { organizationId: string; token: string };

async function subscribe(apiUrl: string, org: Org, url: string): Promise<void> {
  const created = await fetch(`${apiUrl}/v1/webhooks/endpoints`, {
    method: 'POST',
    headers: { authorization: `Bearer ${org.token}`, 'content-type': MEDIA_TYPE },
    body: JSON.stringify({ data: { type: 'webhooks_endpoints', attributes: { name: 'Bench receiver', url, event_types: ['audit_log.created'] } } }),
  });
  if (created.status !== 201) throw new Error(`creating the endpoint answered ${created.status}: ${await created.text()}`);
}

/**
 * Rounds of: `events` raw POSTs through `sender` at the dispatcher's concurrency, then as many
 * events committed (PER_TRANSACTION a transaction) and delivered, then the same deliveries due again.
 */
async function throughputRounds(
  label: string,
  runtime: Runtime,
  apiUrl: string,
  org: Org,
  receiver: Receiver,
  sender: WebhookSender,
  engine: WebhookDeliveryEngine,
  events: number,
): Promise<ThroughputRound[]> {
  const concurrency = runtime.config.webhookConcurrency;
  const body = JSON.stringify({ event: { id: randomUUID(), type: 'audit_log.created', issued_at: new Date().toISOString() }, data: auditEvent(org.organizationId, 0).payload });
  // The sender's connections and code paths warm before the first measured round.
  await Promise.all(Array.from({ length: concurrency }, () => sender.send({ url: receiver.url, headers: { 'content-type': 'application/json' }, body })));
  await received(receiver, concurrency, `${label}: warm-up`);
  const rounds: ThroughputRound[] = [];
  const stats = await statementStats(runtime.dataSource);
  for (let round_ = 1; round_ <= 2; round_++) {
    progress(`webhooks (${label}): round ${round_}: ${events} raw POSTs at concurrency ${concurrency}`);
    let next = 0;
    const rawStart = now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < events) {
          next++;
          const outcome = await sender.send({ url: receiver.url, headers: { 'content-type': 'application/json' }, body });
          if (outcome.status !== 200) throw new Error(`raw POST answered ${outcome.status ?? outcome.error}`);
        }
      }),
    );
    const rawSeconds = (now() - rawStart) / 1000;
    await received(receiver, events, `${label}: raw POSTs`);

    progress(`webhooks (${label}): round ${round_}: ${events} events, ${PER_TRANSACTION} a transaction`);
    await stats?.reset();
    const deliveriesStart = now();
    const eventIds: string[] = [];
    for (let i = 0; i < events; i += PER_TRANSACTION) {
      const batch = Array.from({ length: Math.min(PER_TRANSACTION, events - i) }, () => auditEvent(org.organizationId, sequence++));
      eventIds.push(...batch.map((e) => e.id));
      await commit(runtime, batch);
    }
    const { last } = await received(receiver, events, `${label}: deliveries`);
    const deliveriesSeconds = (last - deliveriesStart) / 1000;
    await engine.idle();
    const statements = await stats?.costs(events);

    // The same deliveries due again: all but one by SQL, the last redelivered through the api,
    // whose commit wakes the worker (as a redelivery does).
    progress(`webhooks (${label}): round ${round_}: the ${events} deliveries due again`);
    // TypeORM answers an UPDATE as [rows, count].
    const [, due]: [unknown, number] = await runtime.dataSource.query(
      `UPDATE webhooks_deliveries SET status = 'pending', next_attempt_at = now() WHERE organization_id = $1 AND event_id = ANY($2::uuid[]) AND event_id <> $3`,
      [org.organizationId, eventIds, eventIds[0]],
    );
    if (due !== events - 1) throw new Error(`${due} deliveries made due again, expected ${events - 1}`);
    const [{ id: lastId }] = await runtime.dataSource.query('SELECT id FROM webhooks_deliveries WHERE organization_id = $1 AND event_id = $2', [org.organizationId, eventIds[0]]);
    const backlogStart = now();
    const redelivered = await fetch(`${apiUrl}/v1/webhooks/deliveries/${lastId}/deliver`, { method: 'POST', headers: { authorization: `Bearer ${org.token}` } });
    if (redelivered.status !== 200) throw new Error(`redelivery answered ${redelivered.status}`);
    const backlog = await received(receiver, events, `${label}: backlog`);
    const backlogSeconds = (backlog.last - backlogStart) / 1000;
    await engine.idle();
    const r: ThroughputRound = {
      raw: { posts: events, seconds: round(rawSeconds, 2), perSec: round(events / rawSeconds, 0) },
      deliveries: { events, seconds: round(deliveriesSeconds, 2), perSec: round(events / deliveriesSeconds, 0) },
      backlog: { deliveries: events, seconds: round(backlogSeconds, 2), perSec: round(events / backlogSeconds, 0) },
      statements,
    };
    rounds.push(r);
    progress(`webhooks (${label}): round ${round_}: raw ${r.raw.perSec}/s, events to deliveries ${r.deliveries.perSec}/s, backlog ${r.backlog.perSec}/s`);
  }
  return rounds;
}

/** Events made so far (their aggregate ids). */
let sequence = 0;

export async function benchWebhooks(runtime: Runtime, dispatcher: RunningApp, apiUrl: string, org: Org, slowOrg: Org): Promise<WebhooksBench> {
  const receiver = await startReceiver(0);
  const slowReceiver = await startReceiver(SLOW_RECEIVER_MS);
  const sender = createGuardedSender({ allowedNetworks: runtime.config.webhookAllowedNetworks, timeoutMs: runtime.config.webhookTimeoutMs, connections: runtime.config.webhookConcurrency });
  try {
    await subscribe(apiUrl, org, receiver.url);
    await subscribe(apiUrl, slowOrg, slowReceiver.url);
    const engine = dispatcher.app.get(WebhookDeliveryEngine);
    const firstAttempt = new Map<string, number>();
    engine.onAttempt((start) => {
      if (!firstAttempt.has(start.eventId)) firstAttempt.set(start.eventId, now());
    });

    // Latency: open loop, one event a transaction, on schedule whatever the previous commits do.
    progress(`webhooks: ${RATE} events/s for ${LATENCY_SECONDS}s, open loop`);
    await commit(runtime, [auditEvent(org.organizationId, sequence++)]);
    await received(receiver, 1, 'warm-up');
    const committedAt = new Map<string, number>();
    const total = RATE * LATENCY_SECONDS;
    const start = now();
    const commits: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      const due = start + (i * 1000) / RATE;
      const wait = due - now();
      if (wait > 1) await sleep(wait);
      const event = auditEvent(org.organizationId, sequence++);
      commits.push(commit(runtime, [event]).then(() => void committedAt.set(event.id, now())));
    }
    await Promise.all(commits);
    await received(receiver, total, 'latency load');
    const latencies = [...committedAt].map(([id, at]) => Math.max(0, (firstAttempt.get(id) ?? Number.POSITIVE_INFINITY) - at)).sort((a, b) => a - b);
    const attempted = latencies.filter(Number.isFinite).length;
    const latency = {
      offeredPerSec: RATE,
      seconds: round((now() - start) / 1000, 1),
      events: total,
      attempted,
      p50: round(percentile(latencies, 50), 1),
      p90: round(percentile(latencies, 90), 1),
      p99: round(percentile(latencies, 99), 1),
      max: round(latencies[latencies.length - 1], 1),
    };
    progress(`webhooks: latency p50 ${latency.p50} ms, p99 ${latency.p99} ms (${attempted} of ${total} attempted)`);

    const rounds = await throughputRounds('instant receiver', runtime, apiUrl, org, receiver, sender, engine, EVENTS);
    const slowRounds = await throughputRounds(`receiver answering after ${SLOW_RECEIVER_MS} ms`, runtime, apiUrl, slowOrg, slowReceiver, sender, engine, SLOW_EVENTS);
    return { concurrency: runtime.config.webhookConcurrency, slowReceiverMs: SLOW_RECEIVER_MS, latency, rounds, slowRounds };
  } finally {
    await sender.close();
    await receiver.close();
    await slowReceiver.close();
  }
}

export function reportWebhooks(w: WebhooksBench): SummaryRow[] {
  out(`## Webhooks: deliveries to local receivers (worker threads), concurrency ${w.concurrency}, audit_log.created bodies of about 700 bytes`);
  const l = w.latency;
  out(`latency: ${l.events} events at ${l.offeredPerSec}/s over ${l.seconds}s, one a transaction; commit -> first attempt p50 ${l.p50} ms, p90 ${l.p90} ms, p99 ${l.p99} ms, max ${l.max} ms (${l.attempted} attempted)`);
  const best = (rounds: ThroughputRound[]) => ({
    raw: Math.max(...rounds.map((r) => r.raw.perSec)),
    deliveries: Math.max(...rounds.map((r) => r.deliveries.perSec)),
    backlog: Math.max(...rounds.map((r) => r.backlog.perSec)),
  });
  for (const [label, rounds] of [['receiver answering at once', w.rounds], [`receiver answering after ${w.slowReceiverMs} ms`, w.slowRounds]] as const) {
    out(`${label}:`);
    for (const line of table(
      ['round', 'raw POSTs/s', 'events -> deliveries/s', 'ratio', 'backlog deliveries/s', 'ratio'],
      rounds.map((r, i) => [i + 1, r.raw.perSec, r.deliveries.perSec, String(ratio(r.deliveries.perSec, r.raw.perSec)), r.backlog.perSec, String(ratio(r.backlog.perSec, r.raw.perSec))]),
    )) {
      out(line);
    }
    for (const [i, r] of rounds.entries()) {
      if (!r.statements) continue;
      out(`round ${i + 1}, events -> deliveries: PostgreSQL per delivery (pg_stat_statements), executor time and WAL:`);
      for (const line of table(['statement', 'calls', 'exec µs', 'WAL bytes'], r.statements.map((s) => [s.statement, s.calls, s.execUs, s.walBytes]))) out(line);
    }
  }
  const fast = best(w.rounds);
  const slow = best(w.slowRounds);
  return [
    ratioRow(THROUGHPUT, `${fast.deliveries}/s`, `${fast.raw}/s`, ratio(fast.deliveries, fast.raw), '>=', MIN_THROUGHPUT_RATIO),
    ratioRow(`${THROUGHPUT}; receiver answering after ${w.slowReceiverMs} ms`, `${slow.deliveries}/s`, `${slow.raw}/s`, ratio(slow.deliveries, slow.raw)),
    limitRow(LATENCY, l.p99, 'ms', '<', MAX_P99_MS),
  ];
}

export function webhooksNotRunRows(): SummaryRow[] {
  return [notRunRow(THROUGHPUT, `>= ${MIN_THROUGHPUT_RATIO}`), notRunRow(LATENCY, `< ${MAX_P99_MS} ms`)];
}
