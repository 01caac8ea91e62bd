/**
 * Section `paging` of `npm run bench` (issue 15): the paging engine under load, over HTTP, with
 * the engine as the api runs it (PAGING_POLL_MS 100, kicked when an alert change commits) and
 * e-mail through the real SMTP channel (nodemailer's pool) to an SMTP server in a worker thread
 * (smtp-sink-worker.ts). Every alert targets an escalation policy whose level 1 is a user with an
 * e-mail address (no notification rules: one e-mail at once) and level 2 another such user.
 *
 *   1. ingest to first notification: POST /v1/alerts at BENCH_PAGING_RATE a second (100) for
 *      BENCH_PAGING_SECONDS (30), open loop (open-loop-worker.ts, after the usual warm-up); for
 *      each alert, the instant the SMTP server had its level-1 e-mail minus the instant its POST
 *      was scheduled. p99 < 500 ms. With a breakdown by stage, and where the engine's time went.
 *   2. escalation lateness: N alerts (100, then BENCH_PAGING_ALERTS, 10,000) created back to back
 *      on CONNECTIONS connections, their level 1 fired and mailed; level 1's delay is an hour, so
 *      no level-2 step comes due while they are created. Then the N level-2 steps' due_at are
 *      rewritten in one UPDATE to come due at a steady rate over BENCH_PAGING_WINDOW_SECONDS (20)
 *      starting 3 s later, and the engine fires them as it would have, had the alerts come in
 *      that way an hour earlier. Lateness of a step: the instant the transaction that fired it
 *      committed minus its due_at (the judged figure), and `fired_at - due_at` as the table holds
 *      it (fired_at is ctx.now, the start of the engine's batch transaction, so it can understate).
 *      p99 with 10,000 / p99 with 100 <= 2.0; p99 with 10,000 < 1 s.
 *
 * Instants are ms since the epoch with sub-ms precision (`performance.timeOrigin + now()`) in every
 * thread; database timestamps are the process's clock (ctx.now), the same host.
 * See docs/benchmarks.md.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { NOTIFICATION_CHANNELS, PagingEngine, type NotificationChannels } from '@taproot/alerting';
import { OperatorUsers } from '@taproot/identity';
import { UnitOfWork, type DomainEvent } from '@taproot/messaging';
import type { RunningApp } from '@taproot/runtime';
import { DataSource as DataSourceToken, type DataSource } from 'typeorm';
import type { OpenLoopInput, OpenLoopOutput, OpenLoopRequest } from './open-loop-worker';
import type { SinkMail, SinkReply, SinkRequest } from './smtp-sink-worker';
import {
  CONNECTIONS,
  createResource,
  drain,
  intEnv,
  limitRow,
  MEDIA_TYPE,
  notRunRow,
  out,
  percentile,
  progress,
  ratio,
  ratioRow,
  round,
  sleep,
  table,
  WARMUP_SECONDS,
  type SummaryRow,
} from './harness';

export const PAGING_RATE = intEnv('BENCH_PAGING_RATE', 100, 1);
export const PAGING_SECONDS = intEnv('BENCH_PAGING_SECONDS', 30, 1);
export const PAGING_ALERTS = intEnv('BENCH_PAGING_ALERTS', 10_000, 200);
export const PAGING_WINDOW_SECONDS = intEnv('BENCH_PAGING_WINDOW_SECONDS', 20, 1);
/**
 * The e-mail channel: `smtp`, as the api ships it (the judged figures); `none`, a send that answers
 * at once without SMTP (the engine alone; an e-mail's instant is then when channel.send returned).
 */
const CHANNELS = ['smtp', 'none'] as const;
export const PAGING_CHANNEL = (() => {
  const raw = process.env.BENCH_PAGING_CHANNEL?.trim() || 'smtp';
  if (!(CHANNELS as readonly string[]).includes(raw)) throw new Error(`BENCH_PAGING_CHANNEL must be one of ${CHANNELS.join(', ')}, got "${raw}"`);
  return raw as (typeof CHANNELS)[number];
})();
/** The small population the large one is compared with. */
const SMALL = 100;
/** Level 1's delay: long enough that no level-2 step comes due before the bench rewrites it. */
const LEVEL_ONE_DELAY_MINUTES = 60;
/** From the UPDATE to the first rewritten due_at: the UPDATE itself is not in the measure. */
const LEAD_MS = 3000;
/** How long the bench waits for the engine before it calls it stuck (the bench is broken, not slow). */
const STUCK_MS = 900_000;

const MAX_FIRST_NOTIFICATION_P99_MS = 500;
const MAX_LATENESS_RATIO = 2.0;
const MAX_LATENESS_P99_MS = 1000;

const FIRST_NOTIFICATION = `paging: ingest to first notification (${PAGING_CHANNEL === 'none' ? 'channel.send returned, channel none' : `SMTP received, channel ${PAGING_CHANNEL}`}), p99 at ${PAGING_RATE} alerts/s offered`;
const LATENESS_RATIO = `paging: escalation lateness p99 (commit - due_at), ${PAGING_ALERTS.toLocaleString('en-US')} paging alerts / ${SMALL}`;
const LATENESS_ABSOLUTE = `paging: escalation lateness p99 (commit - due_at) with ${PAGING_ALERTS.toLocaleString('en-US')} paging alerts`;

/** ms since the epoch, sub-ms, comparable with the workers' stamps. */
const now = () => performance.timeOrigin + performance.now();

// ---------------------------------------------------------------------------------------------
// The SMTP server (a worker thread) and the load generator (open-loop-worker.ts)

export interface PagingSink {
  url: string;
  /** The messages received since the last call. */
  collect(): Promise<SinkMail[]>;
  close(): Promise<void>;
}

/** Starts the SMTP server the api's SMTP_URL points at (before the runtime opens). */
export async function startPagingSink(): Promise<PagingSink> {
  const worker = new Worker(join(__dirname, 'smtp-sink-worker.ts'));
  const waiting: { resolve: (r: SinkReply) => void; reject: (e: unknown) => void }[] = [];
  worker.on('message', (reply: SinkReply) => waiting.shift()?.resolve(reply));
  worker.on('error', (error) => {
    for (const w of waiting.splice(0)) w.reject(error);
  });
  const ask = (request?: SinkRequest) =>
    new Promise<SinkReply>((resolve, reject) => {
      waiting.push({ resolve, reject });
      if (request) worker.postMessage(request);
    });
  const started = await ask();
  if (!('url' in started)) throw new Error('the SMTP sink did not start');
  return {
    url: started.url,
    collect: async () => {
      const reply = await ask({ ask: 'collect' });
      return 'mails' in reply ? reply.mails : [];
    },
    close: async () => {
      await ask({ ask: 'close' });
      await worker.terminate();
    },
  };
}

function runLoad(input: OpenLoopInput): Promise<OpenLoopOutput> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(join(__dirname, 'open-loop-worker.ts'), { workerData: input });
    worker.once('message', (output: OpenLoopOutput) => void worker.terminate().then(() => resolve(output)));
    worker.once('error', reject);
  });
}

// ---------------------------------------------------------------------------------------------
// Set-up over HTTP

/** A policy whose default path pages one user at level 1 and, LEVEL_ONE_DELAY_MINUTES later, another at level 2. */
async function makePolicy(ds: DataSource, url: string, organizationId: string, token: string, name: string): Promise<{ id: string }> {
  const users = new OperatorUsers(ds);
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const first = await users.add(organizationId, { email: `${slug}-level1@bench.test`, name: `${name} first`, role: null });
  const second = await users.add(organizationId, { email: `${slug}-level2@bench.test`, name: `${name} second`, role: null });
  const id = (await createResource(url, token, '/v1/escalation_policies', 'escalation_policies', { name })).id;
  const path = (await createResource(url, token, `/v1/escalation_policies/${id}/escalation_paths`, 'escalation_paths', { name: 'Default', default: true })).id;
  for (const [user, delay] of [[first.user_id, LEVEL_ONE_DELAY_MINUTES], [second.user_id, 5]] as const) {
    await createResource(url, token, `/v1/escalation_policies/${id}/escalation_levels`, 'escalation_levels', { delay, notification_target_params: [{ type: 'user', id: String(user) }], escalation_policy_path_id: path });
  }
  return { id };
}

/** What a monitoring integration posts: an alert that pages the policy. The summary carries the alert's number. */
function pagingAlert(token: string, policyId: string, summary: string): OpenLoopRequest {
  return {
    path: '/v1/alerts',
    headers: { authorization: `Bearer ${token}`, 'content-type': MEDIA_TYPE },
    body: JSON.stringify({ data: { type: 'alerts', attributes: { summary, description: 'checkout p99 above 2 s', notification_target_type: 'EscalationPolicy', notification_target_id: policyId } } }),
  };
}

// ---------------------------------------------------------------------------------------------
// Probes in the api process: when the engine's transactions commit, when it calls the channel

interface Probes {
  /** `${alert_id}:${level}` -> when the transaction that paged that level committed. */
  pagedAt: Map<string, number>;
  /** Commits that paged some level: when, and how many pages they held. */
  commits: { at: number; level: number; pages: number }[];
  /** notification id -> when channel.send was called and when it returned. */
  sends: Map<string, { calledAt: number; returnedAt: number }>;
  /** The engine's work: each firing pass (fireDue) and each claimed batch's sending (sendClaimed: its sends, their record), with what it did. */
  phases: { kind: 'fire' | 'send'; start: number; end: number; count: number }[];
  /** Running counts, for waiting on the engine without querying the database it is measured on: pages committed by level, sends returned. */
  paged: Map<number, number>;
  sent: number;
  /** Passes or batches that threw (the loop logs and retries them; the bench's logger is silent): when, and why. */
  failures: { at: number; kind: 'fire' | 'send'; error: string }[];
}

function installProbes(api: RunningApp): Probes {
  const probes: Probes = { pagedAt: new Map(), commits: [], sends: new Map(), phases: [], paged: new Map(), sent: 0, failures: [] };
  // The firing loop calls fireDue; the sending loop's passes start sendClaimed on each batch they claim (paging-engine.ts).
  const engine = api.app.get(PagingEngine) as unknown as Record<'fireDue' | 'sendClaimed', (...args: unknown[]) => Promise<number>>;
  for (const [method, kind] of [['fireDue', 'fire'], ['sendClaimed', 'send']] as const) {
    const original = engine[method].bind(engine);
    engine[method] = async (...args: unknown[]) => {
      const start = now();
      const count = await original(...args).catch((error: unknown) => {
        probes.failures.push({ at: now(), kind, error: error instanceof Error ? error.message : String(error) });
        throw error;
      });
      if (count > 0) probes.phases.push({ kind, start, end: now(), count });
      return count;
    };
  }
  const channels = api.app.get<NotificationChannels>(NOTIFICATION_CHANNELS);
  const email = channels.get('email');
  if (!email) throw new Error('paging: the api has no e-mail channel (SMTP_URL unset?)');
  const send = PAGING_CHANNEL === 'none' ? async () => ({ providerId: null }) : email.send.bind(email);
  email.send = async (notification) => {
    const calledAt = now();
    const sent = await send(notification);
    probes.sends.set(notification.id, { calledAt, returnedAt: now() });
    probes.sent += 1;
    return sent;
  };
  api.app.get(UnitOfWork).onCommit((events: readonly DomainEvent[]) => {
    const at = now();
    const byLevel = new Map<number, number>();
    for (const e of events) {
      const p = e.payload as { action?: string; alert_id?: string; escalation_level?: number };
      if (e.type !== 'alert_event.created' || p.action !== 'escalation_policy_paged' || !p.alert_id || p.escalation_level == null) continue;
      probes.pagedAt.set(`${p.alert_id}:${p.escalation_level}`, at);
      byLevel.set(p.escalation_level, (byLevel.get(p.escalation_level) ?? 0) + 1);
    }
    for (const [level, pages] of byLevel) {
      probes.commits.push({ at, level, pages });
      probes.paged.set(level, (probes.paged.get(level) ?? 0) + pages);
    }
  });
  return probes;
}

// ---------------------------------------------------------------------------------------------
// Figures

export interface Percentiles {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

function percentiles(values: number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => round(percentile(sorted, p), 1);
  return { n: sorted.length, p50: at(50), p95: at(95), p99: at(99), max: round(sorted[sorted.length - 1] ?? 0, 1) };
}

/**
 * Null once every alert paging the policy has had level 1 fired and its e-mail sent (its level-2
 * step written), else what is still pending.
 */
async function levelOneSettled(ds: DataSource, organizationId: string, policyId: string): Promise<string | null> {
  const [c] = await ds.query(
    `SELECT count(*) FILTER (WHERE s.level = 1 AND s.fired_at IS NULL)::int AS unfired, count(*) FILTER (WHERE s.level = 2)::int AS next,
            (SELECT count(*)::int FROM alert_paging_tracks t WHERE t.organization_id = $1 AND t.escalation_policy_id = $2) AS alerts,
            (SELECT count(*)::int FROM alert_notifications n JOIN alert_paging_tracks t ON t.alert_id = n.alert_id
              WHERE t.organization_id = $1 AND t.escalation_policy_id = $2 AND n.status = 'pending') AS unsent
       FROM alert_paging_steps s JOIN alert_paging_tracks t ON t.id = s.track_id
      WHERE t.organization_id = $1 AND t.escalation_policy_id = $2 AND s.kind = 'level'`,
    [organizationId, policyId],
  );
  return c.unfired || c.unsent || c.next < c.alerts ? `${c.unfired} level-1 steps unfired, ${c.unsent} e-mails unsent, ${c.next} of ${c.alerts} level-2 steps written` : null;
}

/**
 * Where the engine's time went between two instants: firing, sending (and within it the channel),
 * and the time neither of its two loops (paging-engine.ts) was in a pass: both waiting for a poll or kick.
 */
export interface EngineBreakdown {
  seconds: number;
  fire: { passes: number; steps: number; seconds: number; msPerStep: number; meanBatch: number };
  send: { passes: number; notifications: number; seconds: number; msPerNotification: number; channelSeconds: number };
  idleSeconds: number;
}

function engineBreakdown(probes: Probes, from: number, to: number): EngineBreakdown {
  const phases = probes.phases.filter((p) => p.start >= from && p.end <= to);
  const sum = (kind: 'fire' | 'send', f: (p: Probes['phases'][number]) => number) => phases.filter((p) => p.kind === kind).reduce((a, p) => a + f(p), 0);
  const fires = phases.filter((p) => p.kind === 'fire').length;
  const sends = phases.filter((p) => p.kind === 'send');
  const [fireMs, steps, sendMs, notifications] = [sum('fire', (p) => p.end - p.start), sum('fire', (p) => p.count), sum('send', (p) => p.end - p.start), sum('send', (p) => p.count)];
  // Within each sending: from the first channel.send called to the last one returned.
  const spans = [...probes.sends.values()];
  let channelMs = 0;
  for (const p of sends) {
    const inside = spans.filter((x) => x.calledAt >= p.start && x.returnedAt <= p.end);
    if (inside.length) channelMs += Math.max(...inside.map((x) => x.returnedAt)) - Math.min(...inside.map((x) => x.calledAt));
  }
  // The loops run side by side: the busy time is the union of their passes, not their sum.
  let busyMs = 0;
  let reached = -Infinity;
  for (const p of [...phases].sort((a, b) => a.start - b.start)) {
    busyMs += Math.max(0, p.end - Math.max(p.start, reached));
    reached = Math.max(reached, p.end);
  }
  return {
    seconds: round((to - from) / 1000, 2),
    fire: { passes: fires, steps, seconds: round(fireMs / 1000, 2), msPerStep: round(fireMs / Math.max(1, steps), 2), meanBatch: round(steps / Math.max(1, fires), 1) },
    send: { passes: sends.length, notifications, seconds: round(sendMs / 1000, 2), msPerNotification: round(sendMs / Math.max(1, notifications), 2), channelSeconds: round(channelMs / 1000, 2) },
    idleSeconds: round((to - from - busyMs) / 1000, 2),
  };
}

/**
 * Waits in this process, without a query (the engine is being measured on that database), until
 * `count` more pages of `level` have committed and as many more sends have returned than when
 * `since` was taken; then confirms on the database (`settled`).
 */
async function waitForEngine(label: string, probes: Probes, since: { paged: number; sent: number }, level: number, count: number, settled: () => Promise<string | null>): Promise<void> {
  await waitUntil(
    label,
    async () => {
      const paged = (probes.paged.get(level) ?? 0) - since.paged;
      const sent = probes.sent - since.sent;
      return paged < count || sent < count ? `${paged} of ${count} level-${level} pages committed, ${sent} e-mails sent` : null;
    },
    STUCK_MS,
    20,
  );
  await waitUntil(label, settled);
}

const countsOf = (probes: Probes, level: number) => ({ paged: probes.paged.get(level) ?? 0, sent: probes.sent });

/** Polls `check` every `everyMs` (1 s: between measures, a query on the database is no bother) until it answers null. */
async function waitUntil(label: string, check: () => Promise<string | null>, limitMs = STUCK_MS, everyMs = 1000): Promise<void> {
  const t0 = performance.now();
  let last = 0;
  for (;;) {
    const pending = await check();
    if (pending === null) return;
    if (performance.now() - t0 > limitMs) throw new Error(`${label}: still ${pending} after ${limitMs / 1000}s`);
    if (performance.now() - last > 5000) {
      progress(`${label}: ${pending}`);
      last = performance.now();
    }
    await sleep(everyMs);
  }
}

// ---------------------------------------------------------------------------------------------
// 1. Ingest to first notification

export interface FirstNotificationBench {
  offeredPerSec: number;
  seconds: number;
  requests: number;
  accepted: number;
  statuses: Record<string, number>;
  senderMaxLagMs: number;
  /** POST answered (from its scheduled send). */
  response: Percentiles;
  /** Measured alerts whose level-1 e-mail arrived / alerts created. */
  mailed: number;
  /** Scheduled POST to SMTP message received: the measure. */
  total: Percentiles;
  /** The same path cut at the instants in between (each from the previous one). */
  stages: { label: string; ms: Percentiles }[];
  /** Scheduled POST to channel.send called. */
  toChannel: Percentiles;
  /** From the first measured POST's schedule to the last e-mail. */
  engine: EngineBreakdown;
}

async function firstNotification(ds: DataSource, api: RunningApp, sink: PagingSink, probes: Probes, organizationId: string, token: string): Promise<FirstNotificationBench> {
  const policy = await makePolicy(ds, api.url, organizationId, token, 'Bench paging ingest');
  const tag = randomUUID().slice(0, 8);
  let n = 0;
  const requests = (count: number) => Array.from({ length: count }, () => pagingAlert(token, policy.id, `Paging bench ${tag}-${n++}`));
  const input = (count: number): OpenLoopInput => ({ url: api.url, method: 'POST', timeoutMs: 10_000, mode: { rate: PAGING_RATE }, requests: requests(count) });
  if (WARMUP_SECONDS > 0) {
    progress(`paging: warm-up, ${PAGING_RATE} paging alerts/s for ${WARMUP_SECONDS}s`);
    await runLoad(input(PAGING_RATE * WARMUP_SECONDS));
    await waitUntil('paging: warm-up', () => levelOneSettled(ds, organizationId, policy.id));
    await drain(ds, 'paging: warm-up');
    await sink.collect();
  }
  const first = n;
  const count = PAGING_RATE * PAGING_SECONDS;
  const since = countsOf(probes, 1);
  progress(`paging: POST /v1/alerts paging a policy, open loop at ${PAGING_RATE}/s for ${PAGING_SECONDS}s (channel ${PAGING_CHANNEL})`);
  const r = await runLoad(input(count));
  const accepted = r.statuses['201'] ?? 0;
  progress(`paging: ${accepted} of ${count} alerts created (statuses ${JSON.stringify(r.statuses)}, errors ${r.errors}, timeouts ${r.timeouts}, sender lag ${round(r.maxLagMs, 1)} ms); waiting for their e-mails`);
  await waitForEngine('paging: level 1', probes, since, 1, accepted, () => levelOneSettled(ds, organizationId, policy.id));
  const mails = await mailsFor(sink, accepted);
  await drain(ds, 'paging: ingest');

  // Each measured alert, its level-1 step and notification, and the instants in between.
  const rows = (await ds.query(
    `SELECT a.id, a.summary, a.created_at, s.fired_at, n.id AS notification_id
       FROM alerts a
       JOIN alert_paging_steps s ON s.alert_id = a.id AND s.kind = 'level' AND s.level = 1
       LEFT JOIN alert_notifications n ON n.alert_id = a.id AND n.level = 1 AND n.status = 'sent'
      WHERE a.organization_id = $1 AND a.summary LIKE $2`,
    [organizationId, `Paging bench ${tag}-%`],
  )) as { id: string; summary: string; created_at: Date; fired_at: Date | null; notification_id: string | null }[];
  const scheduledAt = (k: number) => r.startedAt + ((k - first) * 1000) / PAGING_RATE;
  const stageNames = [
    'POST scheduled -> alert transaction began (alerts.created_at)',
    'alert transaction began -> engine batch began (level-1 step fired_at)',
    'engine batch began -> its commit (level 1 paged)',
    'commit -> channel.send called (claim, render)',
    PAGING_CHANNEL === 'none' ? 'channel.send called -> returned (no SMTP)' : 'channel.send called -> SMTP server has the message',
  ];
  const stages: number[][] = stageNames.map(() => []);
  const total: number[] = [];
  const toChannel: number[] = [];
  let last = r.startedAt;
  for (const row of rows) {
    const k = Number(/-(\d+)$/.exec(row.summary)?.[1]);
    if (!(k >= first) || !row.notification_id || !row.fired_at) continue;
    const send = probes.sends.get(row.notification_id);
    const delivered = PAGING_CHANNEL === 'none' ? send?.returnedAt : mails.get(row.notification_id)?.receivedAt;
    const committed = probes.pagedAt.get(`${row.id}:1`);
    if (delivered === undefined || send === undefined || committed === undefined) continue;
    const scheduled = scheduledAt(k);
    const instants = [scheduled, row.created_at.getTime(), row.fired_at.getTime(), committed, send.calledAt, delivered];
    for (let i = 0; i < stageNames.length; i++) stages[i].push(instants[i + 1] - instants[i]);
    total.push(delivered - scheduled);
    toChannel.push(send.calledAt - scheduled);
    last = Math.max(last, delivered);
  }
  const result: FirstNotificationBench = {
    offeredPerSec: PAGING_RATE,
    seconds: PAGING_SECONDS,
    requests: count,
    accepted,
    statuses: r.statuses,
    senderMaxLagMs: round(r.maxLagMs, 1),
    response: percentiles(r.latencies),
    mailed: total.length,
    total: percentiles(total),
    stages: stageNames.map((label, i) => ({ label, ms: percentiles(stages[i]) })),
    toChannel: percentiles(toChannel),
    engine: engineBreakdown(probes, r.startedAt, last),
  };
  progress(`paging: first notification p50 ${result.total.p50} ms, p99 ${result.total.p99} ms, max ${result.total.max} ms (${total.length} of ${accepted} delivered)`);
  return result;
}

/** The e-mails the SMTP server received (after the sends were recorded), by notification id: `expected` of them, or what came within 60 s. */
async function mailsFor(sink: PagingSink, expected: number): Promise<Map<string, SinkMail>> {
  const mails = new Map<string, SinkMail>();
  if (PAGING_CHANNEL === 'none') return mails;
  const t0 = performance.now();
  for (;;) {
    for (const mail of await sink.collect()) if (mail.notificationId) mails.set(mail.notificationId, mail);
    if (mails.size >= expected || performance.now() - t0 > 60_000) return mails;
    await sleep(200);
  }
}

// ---------------------------------------------------------------------------------------------
// 2. Escalation lateness

export interface LatenessBench {
  alerts: number;
  windowSeconds: number;
  /** Creating the alerts over HTTP and their level 1 fired and mailed (not in the measure). */
  setupSeconds: number;
  createPerSec: number;
  /** Commit of the transaction that fired the level-2 step minus its due_at: the measure. */
  committed: Percentiles;
  /** fired_at - due_at, as alert_paging_steps holds it. */
  firedAt: Percentiles;
  /** due_at to the level-2 e-mail at the SMTP server (channel none: to channel.send returned). */
  mailed: Percentiles;
  /** Steps due per second, and fired per second from the first due_at to the last commit. */
  offeredPerSec: number;
  firedPerSec: number;
  /** Engine transactions that fired level-2 steps, and their sizes. */
  batches: { count: number; mean: number; max: number };
  /** The latest steps (commit - due_at), with when each was due (seconds into the window): a stall shows as a cluster. */
  latest: { dueSecond: number; lateMs: number }[];
  /** The bench process's event loop delay over the window, max (ms): the api and the engine run on it. */
  eventLoopDelayMaxMs: number;
  /** The api's connection pool over the window, sampled every 10 ms: the most requests waiting for a connection, and the most connections out. */
  pool: { maxWaiting: number; maxBusy: number; size: number };
  /** Firing passes and send batches that failed during the window. */
  failures: Probes['failures'];
  /** From the first due_at to the last level-2 e-mail. */
  engine: EngineBreakdown;
}

/** Samples the api's pg pool (TypeORM's PostgresDriver keeps it as `master`) until `stop`. */
function samplePool(api: RunningApp): { stop(): { maxWaiting: number; maxBusy: number; size: number } } {
  const driver = api.app.get(DataSourceToken).driver as unknown as { master: { waitingCount: number; totalCount: number; idleCount: number; options: { max: number } } };
  const seen = { maxWaiting: 0, maxBusy: 0, size: driver.master.options.max };
  const timer = setInterval(() => {
    seen.maxWaiting = Math.max(seen.maxWaiting, driver.master.waitingCount);
    seen.maxBusy = Math.max(seen.maxBusy, driver.master.totalCount - driver.master.idleCount);
  }, 10);
  return {
    stop: () => {
      clearInterval(timer);
      return seen;
    },
  };
}

async function lateness(ds: DataSource, api: RunningApp, sink: PagingSink, probes: Probes, organizationId: string, token: string, alerts: number): Promise<LatenessBench> {
  const label = `paging lateness (${alerts.toLocaleString('en-US')} alerts)`;
  const policy = await makePolicy(ds, api.url, organizationId, token, `Bench paging lateness ${alerts}`);
  const tag = randomUUID().slice(0, 8);
  const stepsOf = `FROM alert_paging_steps s JOIN alert_paging_tracks t ON t.id = s.track_id
                   WHERE t.organization_id = $1 AND t.escalation_policy_id = $2 AND s.kind = 'level'`;
  const t0 = performance.now();
  progress(`${label}: creating ${alerts} paging alerts on ${CONNECTIONS} connections`);
  const created = await runLoad({
    url: api.url,
    method: 'POST',
    timeoutMs: 30_000,
    mode: { concurrency: CONNECTIONS, seconds: STUCK_MS / 1000 },
    requests: Array.from({ length: alerts }, (_, i) => pagingAlert(token, policy.id, `Paging lateness ${tag}-${i}`)),
  });
  const ok = created.statuses['201'] ?? 0;
  if (ok !== alerts) throw new Error(`${label}: ${ok} of ${alerts} alerts created (statuses ${JSON.stringify(created.statuses)}, errors ${created.errors}, timeouts ${created.timeouts})`);
  const createPerSec = round(alerts / (created.elapsedMs / 1000), 1);
  progress(`${label}: created at ${createPerSec}/s; waiting for level 1 to be fired and mailed`);
  await waitUntil(`${label}: level 1`, () => levelOneSettled(ds, organizationId, policy.id));
  await drain(ds, label);
  await sink.collect();
  const setupSeconds = round((performance.now() - t0) / 1000, 1);
  await sleep(1000);

  // The N level-2 steps come due at a steady rate over the window, from LEAD_MS on.
  const since = countsOf(probes, 2);
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const pool = samplePool(api);
  const start = Date.now() + LEAD_MS;
  const spacingMs = (PAGING_WINDOW_SECONDS * 1000) / alerts;
  const [, rewritten] = (await ds.query(
    `WITH due AS (SELECT s.id, row_number() OVER (ORDER BY s.id) - 1 AS i ${stepsOf} AND s.level = 2 AND s.fired_at IS NULL)
     UPDATE alert_paging_steps p SET due_at = to_timestamp($3::float8 / 1000) + due.i * ($4::float8 * interval '1 millisecond') FROM due WHERE p.id = due.id`,
    [organizationId, policy.id, start, spacingMs],
  )) as [unknown, number];
  if (rewritten !== alerts) throw new Error(`${label}: ${rewritten} level-2 steps rewritten, expected ${alerts}`);
  progress(`${label}: ${alerts} level-2 steps due from +${LEAD_MS / 1000}s over ${PAGING_WINDOW_SECONDS}s (${round(alerts / PAGING_WINDOW_SECONDS, 1)}/s)`);
  await waitForEngine(`${label}: level 2`, probes, since, 2, alerts, async () => {
    const [c] = await ds.query(
      `SELECT count(*) FILTER (WHERE s.level = 2 AND s.fired_at IS NULL)::int AS unfired,
              (SELECT count(*)::int FROM alert_notifications n JOIN alert_paging_tracks t ON t.alert_id = n.alert_id
                WHERE t.organization_id = $1 AND t.escalation_policy_id = $2 AND n.level = 2 AND n.status = 'pending') AS unsent
         ${stepsOf}`,
      [organizationId, policy.id],
    );
    return c.unfired || c.unsent ? `${c.unfired} level-2 steps unfired, ${c.unsent} e-mails unsent` : null;
  });
  const steps = (await ds.query(
    `SELECT s.alert_id, s.due_at, s.fired_at, n.id AS notification_id
       FROM alert_paging_steps s JOIN alert_paging_tracks t ON t.id = s.track_id
       LEFT JOIN alert_notifications n ON n.alert_id = s.alert_id AND n.level = 2
      WHERE t.organization_id = $1 AND t.escalation_policy_id = $2 AND s.kind = 'level' AND s.level = 2`,
    [organizationId, policy.id],
  )) as { alert_id: string; due_at: Date; fired_at: Date; notification_id: string | null }[];
  loopDelay.disable();
  const poolSeen = pool.stop();
  const mails = await mailsFor(sink, steps.length);
  await drain(ds, label);

  const committed: number[] = [];
  const latest: { dueSecond: number; lateMs: number }[] = [];
  const firedAt: number[] = [];
  const mailed: number[] = [];
  let lastCommit = 0;
  let lastMail = 0;
  for (const s of steps) {
    const due = s.due_at.getTime();
    firedAt.push(s.fired_at.getTime() - due);
    const at = probes.pagedAt.get(`${s.alert_id}:2`);
    if (at === undefined) throw new Error(`${label}: no commit seen for the level-2 page of alert ${s.alert_id}`);
    committed.push(at - due);
    latest.push({ dueSecond: round((due - start) / 1000, 2), lateMs: round(at - due, 1) });
    lastCommit = Math.max(lastCommit, at);
    const send = s.notification_id ? probes.sends.get(s.notification_id) : undefined;
    const delivered = PAGING_CHANNEL === 'none' ? send?.returnedAt : s.notification_id ? mails.get(s.notification_id)?.receivedAt : undefined;
    if (delivered !== undefined) {
      mailed.push(delivered - due);
      lastMail = Math.max(lastMail, delivered);
    }
  }
  const batches = probes.commits.filter((c) => c.level === 2 && c.at >= start - LEAD_MS);
  const result: LatenessBench = {
    alerts,
    windowSeconds: PAGING_WINDOW_SECONDS,
    setupSeconds,
    createPerSec,
    committed: percentiles(committed),
    firedAt: percentiles(firedAt),
    mailed: percentiles(mailed),
    offeredPerSec: round(alerts / PAGING_WINDOW_SECONDS, 1),
    firedPerSec: round(alerts / ((lastCommit - start) / 1000), 1),
    batches: { count: batches.length, mean: round(batches.reduce((a, b) => a + b.pages, 0) / Math.max(1, batches.length), 1), max: Math.max(0, ...batches.map((b) => b.pages)) },
    engine: engineBreakdown(probes, start, Math.max(lastCommit, lastMail)),
    latest: latest.sort((a, b) => b.lateMs - a.lateMs).slice(0, 3),
    eventLoopDelayMaxMs: round(loopDelay.max / 1e6, 1),
    pool: poolSeen,
    failures: probes.failures.filter((f) => f.at >= start),
  };
  progress(`${label}: lateness p50 ${result.committed.p50} ms, p99 ${result.committed.p99} ms, max ${result.committed.max} ms (fired_at: p99 ${result.firedAt.p99} ms); ${result.firedPerSec} fired/s; ` +
      `latest ${result.latest.map((l) => `${l.lateMs} ms (due +${l.dueSecond}s)`).join(', ')}; event loop delay max ${result.eventLoopDelayMaxMs} ms; ` +
      `pool: at most ${result.pool.maxWaiting} waiting, ${result.pool.maxBusy} of ${result.pool.size} out; ` +
      `${result.failures.length} failed passes${result.failures.length ? `: ${[...new Set(result.failures.map((f) => `${f.kind}: ${f.error}`))].join('; ')}` : ''}`,
  );
  return result;
}

// ---------------------------------------------------------------------------------------------
// The section

export interface PagingBench {
  channel: typeof PAGING_CHANNEL;
  first: FirstNotificationBench;
  small: LatenessBench;
  large: LatenessBench;
}

export async function benchPaging(ds: DataSource, api: RunningApp, sink: PagingSink, { organizationId, token }: { organizationId: string; token: string }): Promise<PagingBench> {
  const probes = installProbes(api);
  const first = await firstNotification(ds, api, sink, probes, organizationId, token);
  const small = await lateness(ds, api, sink, probes, organizationId, token, SMALL);
  const large = await lateness(ds, api, sink, probes, organizationId, token, PAGING_ALERTS);
  return { channel: PAGING_CHANNEL, first, small, large };
}

const engineLine = (label: string, e: EngineBreakdown) =>
  `${label} (${e.seconds}s): firing ${e.fire.seconds}s (${e.fire.steps} steps in ${e.fire.passes} passes, mean ${e.fire.meanBatch}, ${e.fire.msPerStep} ms a step); ` +
  `sending ${e.send.seconds}s (${e.send.notifications} e-mails in ${e.send.passes} batches (up to 4 at once), ${e.send.msPerNotification} ms each; channel.send first call to last return ${e.send.channelSeconds}s); ` +
  `neither loop busy ${e.idleSeconds}s`;

const pRow = (label: string, p: Percentiles) => [label, p.n, p.p50, p.p95, p.p99, p.max];

/** Prints the section and returns its summary rows. */
export function reportPaging(b: PagingBench): SummaryRow[] {
  const f = b.first;
  const delivered = b.channel === 'none' ? 'channel.send returned (channel none: no SMTP)' : `SMTP server has the e-mail (channel ${b.channel})`;
  out(`## Paging: ingest to first notification (${f.offeredPerSec} alerts/s offered open loop for ${f.seconds}s, each paging a policy whose level 1 is one user's e-mail; channel ${b.channel})`);
  out(
    `${f.accepted} of ${f.requests} alerts created (statuses ${JSON.stringify(f.statuses)}), sender lag ${f.senderMaxLagMs} ms; ` +
      `${f.mailed} level-1 e-mails delivered; POST answered p50 ${f.response.p50} ms, p99 ${f.response.p99} ms`,
  );
  for (const l of table(['ms', 'n', 'p50', 'p95', 'p99', 'max'], [
    pRow(`POST scheduled -> ${delivered}`, f.total),
    pRow('POST scheduled -> channel.send called', f.toChannel),
    ...f.stages.map((s) => pRow(`  ${s.label}`, s.ms)),
  ])) {
    out(l);
  }
  out(engineLine('engine while it ran', f.engine));
  out();
  out(`## Paging: escalation lateness (level-2 steps of N alerts due at a steady rate over ${b.large.windowSeconds}s)`);
  const rows = [b.small, b.large].flatMap((l) => [
    pRow(`N=${l.alerts}: commit - due_at`, l.committed),
    pRow(`N=${l.alerts}: fired_at - due_at`, l.firedAt),
    pRow(`N=${l.alerts}: ${b.channel === 'none' ? 'channel.send returned' : 'e-mail at the SMTP server'} - due_at`, l.mailed),
  ]);
  for (const l of table(['ms', 'n', 'p50', 'p95', 'p99', 'max'], rows)) out(l);
  for (const l of [b.small, b.large]) {
    out(
      `N=${l.alerts}: due ${l.offeredPerSec}/s, fired ${l.firedPerSec}/s (first due_at to last commit), ${l.batches.count} engine transactions ` +
        `(mean ${l.batches.mean}, max ${l.batches.max} steps); set-up ${l.setupSeconds}s (alerts created at ${l.createPerSec}/s, level 1 fired and mailed)`,
    );
    out(engineLine(`N=${l.alerts}: engine from the first due_at to the last e-mail`, l.engine));
  }
  if (f.mailed < f.accepted) out(`WARNING: ${f.accepted - f.mailed} of the ${f.accepted} alerts created have no delivered level-1 e-mail; the ingest measure counts as missed`);
  const small = b.small.committed.p99;
  const large = b.large.committed.p99;
  return [
    { ...limitRow(FIRST_NOTIFICATION, f.total.p99, 'ms', '<', MAX_FIRST_NOTIFICATION_P99_MS), ...(f.mailed < f.accepted || f.mailed === 0 ? { verdict: 'MISS' as const } : {}) },
    ratioRow(LATENESS_RATIO, `${large} ms`, `${small} ms`, ratio(large, small), '<=', MAX_LATENESS_RATIO),
    limitRow(LATENESS_ABSOLUTE, large, 'ms', '<', MAX_LATENESS_P99_MS),
    ratioRow(`paging: fired_at - due_at p99, ${PAGING_ALERTS.toLocaleString('en-US')} / ${SMALL} (the table's own stamp)`, `${b.large.firedAt.p99} ms`, `${b.small.firedAt.p99} ms`, ratio(b.large.firedAt.p99, b.small.firedAt.p99)),
  ];
}

/** The paging targets, as rows saying the section did not run. */
export function pagingNotRunRows(): SummaryRow[] {
  return [notRunRow(FIRST_NOTIFICATION, `< ${MAX_FIRST_NOTIFICATION_P99_MS} ms`), notRunRow(LATENESS_RATIO, `<= ${MAX_LATENESS_RATIO}`), notRunRow(LATENESS_ABSOLUTE, `< ${MAX_LATENESS_P99_MS} ms`)];
}
