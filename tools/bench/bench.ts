/**
 * `npm run bench`: measures the api side by side with its floor, in one run, on a throwaway
 * database. Not a test: a missed target is reported, never a failure (exit 0); only a broken
 * bench exits non-zero. See docs/benchmarks.md.
 *
 * The bench process runs the api and the webhook dispatcher on one runtime with the in-process
 * bus, as `npm start` does (the bus feeds the audit log and the dispatcher; a command writes its
 * row, its read-model row and its outbox row in one transaction and waits for nothing). Every raw
 * baseline does the same writes as the command it faces, in one transaction on the same pool.
 *
 *   1. seeding      100,000 services of one organization into `services` and `services_read`
 *   2. lists        page 1 vs a keyset page 1,000 pages deep vs `page[number]=1000` (autocannon)
 *   3. creates      POST /v1/services vs the raw transaction (row + `services_read` row + outbox
 *                   row) on the same pool; the POST load also runs against an organization that
 *                   starts empty (100k org / empty org: what the organization's size costs)
 *   4. health       GET /healthz of the api vs a bare Fastify hello-world in the same process
 *   5. limiter      RateLimiter.hit vs SELECT 1 on the same pool
 *      reads        authenticated GET /v1/severities/{id} vs SELECT of that `severities_read` row,
 *                   same pool, same concurrency (reads.ts)
 *   6. incidents    1,000,000 incidents: a status+severity list, page 1 vs a deep cursor page;
 *                   POST /v1/incidents vs counter + row + read row + outbox row (incidents.ts)
 *   7. alerts       signed generic webhooks and POST /v1/alerts at a fixed offered rate, open loop
 *                   (accepted/s, p99), then back to back, vs the alert create transaction (alert +
 *                   alert event, their read rows, 2 outbox rows) on the same pool; while the
 *                   webhook runs back to back, the event lag from commit to applied by every bus
 *                   consumer, and what is left 2 s after (alerts.ts, event-lag.ts)
 *      shifts       50 schedules made over HTTP (3 rotations of 8 members, an override a week):
 *                   GET /v1/shifts for 30 days vs a plain list of as many rows, and the engine's
 *                   time per shift for 365 days vs 7 days (shifts.ts)
 *      paging       POST /v1/alerts paging a policy at 100/s, open loop: POST to the level-1 e-mail at a
 *                   real SMTP server, p99; level-2 lateness with 10,000 paging alerts vs 100 (paging.ts)
 *      webhooks     outgoing webhooks to a local receiver: events committed at 200/s, commit to first
 *                   attempt p99; deliveries/s vs raw POSTs of the same client and concurrency (webhooks.ts)
 *      status-pages the public page GET /status/{slug} (HTML, no If-None-Match) vs a bare Fastify answering
 *                   its bytes and headers, alternating; an update POSTed through the API until it is on
 *                   the page, p99 (status-pages.ts)
 *      startup      the whole system as `npm start` runs it (built JavaScript) and as `npm run
 *                   start:dev` does (the register): time to the three apps' /readyz and RSS after
 *                   20 s idle, medians of BENCH_STARTUP_ROUNDS (default 3) starts each (startup.ts)
 *      soak         only when named in BENCH_ONLY or BENCH_SOAK_SECONDS is set: `npm start` as a
 *                   child process under BENCH_ALERT_RATE signed webhook alerts a second for
 *                   BENCH_SOAK_SECONDS, its RSS at the end vs at minute 2 (soak.ts)
 *
 * The summary lists every target of issue 11 (a section left out shows its rows as 'not run').
 * Progress goes to stderr; the results (tables, diagnostics, the summary and its JSON) to stdout.
 *
 * Environment (all optional):
 *   BENCH_DATABASE_URL   use this database instead of a throwaway embedded PostgreSQL
 *   BENCH_SERVICES       services to seed (default 100000, at least 25000: page 1,000 must exist)
 *   BENCH_INCIDENTS      incidents to seed (default 1000000, at least 50000)
 *   BENCH_ALERT_RATE     alerts offered per second to each ingestion route and in the soak (default 25)
 *   BENCH_ONLY           comma-separated sections to run: services (1-3), health, limiter, reads,
 *                        incidents, alerts, shifts, paging, webhooks, status-pages, startup, soak (default: all but soak)
 *   BENCH_PAGING_RATE, BENCH_PAGING_SECONDS, BENCH_PAGING_ALERTS, BENCH_PAGING_WINDOW_SECONDS
 *                        the paging section's offered rate (100), its seconds (30), the large
 *                        population (10000) and the window its level-2 steps come due in (20)
 *   BENCH_WEBHOOK_RATE, BENCH_WEBHOOK_SECONDS, BENCH_WEBHOOK_EVENTS, BENCH_WEBHOOK_RECEIVER_MS,
 *   BENCH_WEBHOOK_SLOW_EVENTS
 *                        the webhooks section's offered rate (200), its seconds (20), the events of
 *                        each throughput round (10000), the slow receiver's delay (20) and its events (6000)
 *   BENCH_STATUS_PAGE_ROUNDS, BENCH_STATUS_PAGE_UPDATES
 *                        the status-pages section's alternating page / bare Fastify pairs (3) and the
 *                        updates published and watched for on the page (50)
 *   BENCH_PAGING_CHANNEL smtp (the shipped e-mail channel, default) or none (send answers at once)
 *   BENCH_SECONDS        seconds per measured load (default 10)
 *   BENCH_WARMUP_SECONDS seconds of warm-up before each load (default 2)
 *   BENCH_CONNECTIONS    concurrent connections / loop workers (default 10)
 *   BENCH_HEALTH_ROUNDS  alternating api / hello-world pairs for the health measure (default 3)
 *   BENCH_PG_STATEMENTS  1: the embedded PostgreSQL loads pg_stat_statements and the webhooks
 *                        section prints each statement's executor time and WAL per delivery
 *   BENCH_SOAK_SECONDS   length of the soak (default 600; at least 20; under 240 the end is
 *                        compared with the half-way point instead of minute 2)
 */
import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Fastify, { type FastifyInstance } from 'fastify';
import { ALL_MIGRATIONS, startApi } from '@taproot/api';
import { serviceSchema } from '@taproot/catalog';
import { createLogger, loadConfig, systemClock } from '@taproot/config';
import { RateLimiter } from '@taproot/auth';
import { createOrganization } from '@taproot/identity';
import { buildListSql, cursorForRow, parseListQuery, type FlatQuery } from '@taproot/json-api';
import { appendToOutbox, domainEvent } from '@taproot/messaging';
import { freePort, startEmbeddedPostgres } from '@taproot/persistence';
import { openRuntime, type RunningApp, type Runtime } from '@taproot/runtime';
import { startDispatcher } from '@taproot/webhook-dispatcher';
import type { DataSource } from 'typeorm';
import {
  median,
  CONNECTIONS,
  closedLoop,
  DEEP_PAGE,
  explain,
  getJson,
  intEnv,
  load,
  MEDIA_TYPE,
  out,
  PAGE_SIZE,
  progress,
  qs,
  RAW_TOPIC,
  round,
  SECONDS,
  STATEMENT_STATS,
  STATEMENT_STATS_SETTINGS,
  table,
  WARMUP_SECONDS,
  type LoadResult,
  type LoadSpec,
  type LoopResult,
  type OpenLoadResult,
  notRunRow,
  ratio,
  ratioRow,
  rawLoad,
  readModelOf,
  type SummaryRow,
} from './harness';
import { ALERT_RATE, alertsNotRunRows, benchAlerts, reportAlerts } from './alerts';
import { benchIncidents, INCIDENTS } from './incidents';
import { benchReads, MIN_READ_RATIO, READS_MEASURE, readsRow } from './reads';
import { benchPaging, pagingNotRunRows, reportPaging, startPagingSink } from './paging';
import { benchWebhooks, reportWebhooks, webhooksNotRunRows } from './webhooks';
import { benchStatusPages, reportStatusPages, statusPagesLoads, statusPagesNotRunRows } from './status-pages';
import { benchShifts, MAX_SHIFTS_RATIO, MAX_SPAN_RATIO, SHIFT_SPAN_MEASURE, SHIFTS_MEASURE, shiftsRows } from './shifts';
import { benchSoak, SOAK_SECONDS, soakRow } from './soak';
import { benchStartup, startupRows, type StartupBench } from './startup';

// ---------------------------------------------------------------------------------------------
// Settings

const SERVICES = intEnv('BENCH_SERVICES', 100_000, 25_000);
const HEALTH_ROUNDS = intEnv('BENCH_HEALTH_ROUNDS', 3, 1);
/** Summary rows of issue 11's targets, named once: a section left out still lists its rows ('not run'). */
const SERVICE_CREATES = 'service creates: HTTP POST / raw row + read row + outbox row';
const CREATES_BY_ORG_SIZE = `service creates over HTTP: org with ${SERVICES.toLocaleString('en-US')} services / org empty at start`;
const INCIDENT_CREATES = 'incident creates: HTTP POST / raw counter + row + read row + outbox row';
const HEALTH = 'GET /healthz: api / bare Fastify';
/** Rows of one seeding INSERT ... SELECT generate_series (progress between chunks). */
const SEED_CHUNK = 10_000;
/** The sections BENCH_ONLY may name; unset, every section runs. */
const SECTIONS = ['services', 'health', 'limiter', 'reads', 'incidents', 'alerts', 'shifts', 'paging', 'webhooks', 'status-pages', 'startup', 'soak'] as const;
const ONLY = onlySections(process.env.BENCH_ONLY);
/** Every section unless BENCH_ONLY names some; the soak (10 minutes) only when named or BENCH_SOAK_SECONDS is set. */
const runs = (section: (typeof SECTIONS)[number]) =>
  ONLY ? ONLY.has(section) : section !== 'soak' || Boolean(process.env.BENCH_SOAK_SECONDS);

function onlySections(raw: string | undefined): Set<string> | null {
  const names = (raw ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  if (names.length === 0) return null;
  const unknown = names.filter((n) => !(SECTIONS as readonly string[]).includes(n));
  if (unknown.length) throw new Error(`BENCH_ONLY: unknown section(s) ${unknown.join(', ')}; known: ${SECTIONS.join(', ')}`);
  return new Set(names);
}

// ---------------------------------------------------------------------------------------------
// 1. Seeding

/** Columns the seed fills; the others stay NULL, like a service created with a name only. */
async function seed(ds: DataSource, organizationId: string): Promise<{ seconds: number; rows: number }> {
  const t0 = performance.now();
  // created_at spread over the last SERVICES minutes, strictly increasing with position.
  const base = new Date(Date.now() - (SERVICES + 1) * 60_000).toISOString();
  for (let from = 1; from <= SERVICES; from += SEED_CHUNK) {
    const to = Math.min(SERVICES, from + SEED_CHUNK - 1);
    await ds.transaction(async (m) => {
      await m.query(
        `INSERT INTO services (id, organization_id, name, slug, description, managed_by, position,
                               show_uptime_last_days, created_at, updated_at)
         SELECT gen_random_uuid(), $1, 'svc-' || lpad(g::text, 6, '0'), 'svc-' || lpad(g::text, 6, '0'),
                'Seeded service #' || g, 'api', g, 60,
                $2::timestamptz + g * interval '1 minute', $2::timestamptz + g * interval '1 minute'
           FROM generate_series($3::int, $4::int) AS g`,
        [organizationId, base, from, to],
      );
      // The read model holds the same columns (CREATE TABLE ... LIKE services), same ids.
      await m.query(
        `INSERT INTO services_read SELECT * FROM services WHERE organization_id = $1 AND position BETWEEN $2 AND $3`,
        [organizationId, from, to],
      );
    });
    progress(`seeding: ${to.toLocaleString('en-US')} / ${SERVICES.toLocaleString('en-US')} services (both tables)`);
  }
  // VACUUM as well as ANALYZE: it sets the visibility map (index-only scans, like a table that
  // autovacuum has visited) and keeps autovacuum from starting in the middle of the loads.
  await ds.query('VACUUM (ANALYZE) services');
  await ds.query('VACUUM (ANALYZE) services_read');
  const seconds = round((performance.now() - t0) / 1000, 2);
  progress(`seeding: done in ${seconds}s (including VACUUM ANALYZE)`);
  return { seconds, rows: SERVICES };
}

// ---------------------------------------------------------------------------------------------
// 2. Lists

interface SqlTiming {
  label: string;
  dataMeanMs: number;
  countMeanMs: number;
  plan: string[];
}

/**
 * Plain SQL timing of the data and count queries of list URLs (no HTTP, one connection, no
 * concurrency). The queries run in interleaved rounds so that no query gets the cold start.
 */
async function sqlTimings(
  ds: DataSource,
  organizationId: string,
  cursorSecret: string,
  queries: { label: string; query: FlatQuery }[],
): Promise<SqlTiming[]> {
  const rounds = 30;
  const built = queries.map(({ label, query }) => {
    const q = parseListQuery(serviceSchema, query, { cursorSecret });
    return { label, sql: buildListSql(serviceSchema, q, organizationId), data: 0, count: 0 };
  });
  const time = async (text: string, params: unknown[]) => {
    const t0 = performance.now();
    await ds.query(text, params);
    return performance.now() - t0;
  };
  for (const b of built) {
    await time(b.sql.dataSql, b.sql.dataParams);
    await time(b.sql.countSql, b.sql.countParams);
  }
  for (let i = 0; i < rounds; i++) {
    for (const b of built) {
      b.data += await time(b.sql.dataSql, b.sql.dataParams);
      b.count += await time(b.sql.countSql, b.sql.countParams);
    }
  }
  const out: SqlTiming[] = [];
  for (const b of built) {
    out.push({
      label: b.label,
      dataMeanMs: round(b.data / rounds, 2),
      countMeanMs: round(b.count / rounds, 2),
      plan: await explain(ds, b.sql.dataSql, b.sql.dataParams),
    });
  }
  return out;
}

interface ListBench {
  deepCursor: string;
  page1: LoadResult;
  cursorDeep: LoadResult;
  offsetDeep: LoadResult;
  sql: SqlTiming[];
  countPlan: string[];
}

async function benchLists(runtime: Runtime, url: string, organizationId: string, token: string): Promise<ListBench> {
  const ds = runtime.dataSource;
  const cursorSecret = runtime.config.cursorSecret;
  // The keyset boundary of page 1,000 is the last row of page 999 (offset 999 * 20 - 1): its
  // cursor is computed with the platform's own helpers (the fingerprint ignores page[size]).
  const boundaryOffset = (DEEP_PAGE - 1) * PAGE_SIZE - 1;
  const qBoundary = parseListQuery(serviceSchema, { 'page[number]': String(boundaryOffset + 1), 'page[size]': '1' }, { cursorSecret });
  const boundarySql = buildListSql(serviceSchema, qBoundary, organizationId);
  const [boundary] = await ds.query(boundarySql.dataSql, boundarySql.dataParams);
  if (!boundary) throw new Error(`no row at offset ${boundaryOffset}`);
  const deepCursor = cursorForRow(serviceSchema, qBoundary, boundary, { cursorSecret });

  const page1Query = { 'page[size]': PAGE_SIZE };
  const cursorQuery = { 'page[after]': deepCursor, 'page[size]': PAGE_SIZE };
  const offsetQuery = { 'page[number]': DEEP_PAGE, 'page[size]': PAGE_SIZE };
  const path = (q: Record<string, string | number>) => `/v1/services?${qs(q)}`;

  // Cross-checks over HTTP: the server hands out the same cursor after page 999, and the keyset
  // page equals page[number]=1000.
  const p999 = await getJson(`${url}${path({ 'page[number]': DEEP_PAGE - 1, 'page[size]': PAGE_SIZE })}`, token);
  if (p999.status !== 200) throw new Error(`GET page 999 answered ${p999.status}: ${JSON.stringify(p999.body)}`);
  if (p999.body.meta.next_cursor !== deepCursor) throw new Error('the computed cursor differs from meta.next_cursor of page 999');
  const byCursor = await getJson(`${url}${path(cursorQuery)}`, token);
  const byOffset = await getJson(`${url}${path(offsetQuery)}`, token);
  const ids = (doc: { body: { data: { id: string }[] } }) => doc.body.data.map((d) => d.id).join(',');
  if (byCursor.status !== 200 || byOffset.status !== 200) throw new Error(`deep pages answered ${byCursor.status} / ${byOffset.status}`);
  if (byCursor.body.data.length !== PAGE_SIZE || ids(byCursor) !== ids(byOffset)) {
    throw new Error('the keyset page 1,000 and page[number]=1000 hold different rows');
  }
  if (byOffset.body.data[0].attributes.position !== boundaryOffset + 2) {
    throw new Error(`page 1,000 starts at position ${byOffset.body.data[0].attributes.position}, expected ${boundaryOffset + 2}`);
  }
  progress(`lists: deep cursor checked (same rows as page[number]=${DEEP_PAGE}, positions ${boundaryOffset + 2}..${boundaryOffset + 1 + PAGE_SIZE})`);

  const headers = { authorization: `Bearer ${token}` };
  const page1 = await load({ label: 'list page 1', url, path: path(page1Query), headers });
  const cursorDeep = await load({ label: `list cursor page ${DEEP_PAGE}`, url, path: path(cursorQuery), headers });
  const offsetDeep = await load({ label: `list page[number]=${DEEP_PAGE}`, url, path: path(offsetQuery), headers });

  progress('lists: SQL timings and EXPLAIN ANALYZE');
  const flat = (q: Record<string, string | number>): FlatQuery => Object.fromEntries(Object.entries(q).map(([k, v]) => [k, String(v)]));
  const sql = await sqlTimings(ds, organizationId, cursorSecret, [
    { label: 'page 1', query: flat(page1Query) },
    { label: `cursor page ${DEEP_PAGE}`, query: flat(cursorQuery) },
    { label: `page[number]=${DEEP_PAGE}`, query: flat(offsetQuery) },
  ]);
  const qCount = parseListQuery(serviceSchema, flat(page1Query), { cursorSecret });
  const countSql = buildListSql(serviceSchema, qCount, organizationId);
  const countPlan = await explain(ds, countSql.countSql, countSql.countParams);
  return { deepCursor, page1, cursorDeep, offsetDeep, sql, countPlan };
}

// ---------------------------------------------------------------------------------------------
// 3. Creates

/**
 * What a create writes, without HTTP, Nest, validation, slugs or any query besides its writes:
 * one transaction with the services row (RETURNING *, as the writer does), the same row in
 * `services_read` (the inline projection of the command's transaction) and its outbox row,
 * through the runtime's own pool, from CONNECTIONS concurrent loops.
 */
async function rawCreates(ds: DataSource, organizationId: string): Promise<LoopResult> {
  const actor = { kind: 'system' as const, id: null };
  const readModel = await readModelOf(ds, 'services');
  const tag = randomUUID().slice(0, 8);
  return rawLoad('services raw create (row + read row + outbox row)', (n) =>
    ds.transaction(async (m) => {
      const id = randomUUID();
      const now = new Date();
      const name = `raw-${tag}-${n}`;
      // Positions past the seeded ones and the HTTP creates' (they take MAX + 1).
      const [row] = await m.query(
        `INSERT INTO services (id, organization_id, name, slug, managed_by, position, show_uptime_last_days, created_at, updated_at)
         VALUES ($1, $2, $3, $3, 'api', $4, 60, $5, $5) RETURNING *`,
        [id, organizationId, name, 10_000_000 + n, now],
      );
      await readModel.copy(m, 'id = $1', [id]);
      await appendToOutbox(m, RAW_TOPIC, [
        domainEvent({ type: 'service.created', organizationId, aggregateType: 'services', aggregateId: id, actor, payload: row as Record<string, unknown>, occurredAt: now }),
      ]);
    }),
  );
}

interface CreateBench {
  http: LoadResult;
  /** The same load into an organization that starts empty: what the organization's size costs. */
  httpEmptyOrg: LoadResult;
  raw: LoopResult;
  /** Single-create SQL of the write path that scan the organization's services. */
  plans: { label: string; plan: string[] }[];
}

async function benchCreates(
  runtime: Runtime,
  url: string,
  organizationId: string,
  token: string,
  emptyOrg: { token: string },
): Promise<CreateBench> {
  const ds = runtime.dataSource;
  // The queries ResourceWriter.create runs besides its INSERT (resource-writer.ts), on this data.
  const plans = [
    {
      label: 'slug uniqueness (deriveSlugs -> uniqueSlug)',
      plan: await explain(
        ds,
        `SELECT "slug" AS s FROM "services" WHERE organization_id = $1 AND ("slug" = $2 OR "slug" LIKE $3)`,
        [organizationId, 'bench-probe', 'bench-probe-%'],
      ),
    },
    {
      label: 'next position (nextPosition, when no position is given)',
      plan: await explain(ds, `SELECT COALESCE(MAX("position"), 0) + 1 AS next FROM "services" WHERE organization_id = $1`, [organizationId]),
    },
  ];

  const post = (label: string, bearer: string): LoadSpec => ({
    label,
    url,
    path: '/v1/services',
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': MEDIA_TYPE },
    // A name only, like most clients: slug and position are derived by the server.
    body: JSON.stringify({ data: { type: 'services', attributes: { name: 'bench-http-[<id>]' } } }),
    idReplacement: true,
  });
  const http = await load(post(`create over HTTP (${SERVICES.toLocaleString('en-US')} services in the org)`, token));
  const httpEmptyOrg = await load(post('create over HTTP (org empty at start)', emptyOrg.token));

  const raw = await rawCreates(ds, organizationId);
  return { http, httpEmptyOrg, raw, plans };
}

// ---------------------------------------------------------------------------------------------
// 4. Health

interface HealthBench {
  /** Run with the median ok/s of its rounds. */
  api: LoadResult;
  hello: LoadResult;
  rounds: { api: LoadResult; hello: LoadResult; ratio: number }[];
}

/**
 * Cheap requests are at the mercy of the machine's noise (single 10 s runs of one server varied
 * by 2x here), so the two servers are measured in alternating pairs and compared by medians.
 */
async function benchHealth(apiUrl: string, helloUrl: string): Promise<HealthBench> {
  const rounds: HealthBench['rounds'] = [];
  for (let i = 0; i < HEALTH_ROUNDS; i++) {
    const api = () => load({ label: `api GET /healthz #${i + 1}`, url: apiUrl, path: '/healthz' });
    const hello = () => load({ label: `bare Fastify GET /healthz #${i + 1}`, url: helloUrl, path: '/healthz' });
    let a: LoadResult;
    let h: LoadResult;
    if (i % 2 === 0) {
      a = await api();
      h = await hello();
    } else {
      h = await hello();
      a = await api();
    }
    rounds.push({ api: a, hello: h, ratio: round(a.okPerSec / h.okPerSec, 2) });
  }
  const pick = (runs: LoadResult[]) => {
    const m = median(runs.map((r) => r.okPerSec));
    return runs.reduce((best, r) => (Math.abs(r.okPerSec - m) < Math.abs(best.okPerSec - m) ? r : best));
  };
  return { api: pick(rounds.map((r) => r.api)), hello: pick(rounds.map((r) => r.hello)), rounds };
}

// ---------------------------------------------------------------------------------------------
// 5. Rate limiter

interface LimiterBench {
  select1: LoopResult;
  oneBucket: LoopResult;
  bucketPerWorker: LoopResult;
}

/**
 * The limiter's cost on its own: `RateLimiter.hit` (the one statement every authenticated
 * request runs) against the cheapest round trip on the same pool, `SELECT 1`. One shared
 * bucket is a single key hammered by every connection (row-lock contention); a bucket per
 * worker is many keys at once.
 */
async function benchLimiter(runtime: Runtime): Promise<LimiterBench> {
  const ds = runtime.dataSource;
  const limiter = new RateLimiter(ds, systemClock);
  const run = `bench-${randomUUID()}`;
  const select1 = await closedLoop(SECONDS, () => ds.query('SELECT 1'));
  progress(`SELECT 1: ${select1.opsPerSec}/s`);
  const oneBucket = await closedLoop(SECONDS, () => limiter.hit(`${run}:shared`, 1e9));
  progress(`limiter, one bucket: ${oneBucket.opsPerSec}/s`);
  const bucketPerWorker = await closedLoop(SECONDS, (_, worker) => limiter.hit(`${run}:${worker}`, 1e9));
  progress(`limiter, bucket per worker: ${bucketPerWorker.opsPerSec}/s`);
  return { select1, oneBucket, bucketPerWorker };
}

// ---------------------------------------------------------------------------------------------
// Summary

function machine(pgVersion: string) {
  let model = cpus()[0]?.model ?? 'unknown';
  try {
    const m = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (m) model = m[1].trim();
  } catch {
    // Not Linux: os.cpus() is enough.
  }
  return {
    nproc: availableParallelism(),
    memoryGiB: round(totalmem() / 1024 ** 3, 1),
    cpuModel: model,
    node: process.version,
    postgres: pgVersion,
  };
}

/** The commit measured, and whether the working tree had uncommitted changes (others' work too). */
function source(): { commit: string; uncommittedFiles: number } {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: join(__dirname, '..', '..'), encoding: 'utf8' });
    return { commit: git('rev-parse', '--short', 'HEAD').trim(), uncommittedFiles: git('status', '--porcelain').split('\n').filter(Boolean).length };
  } catch {
    return { commit: 'unknown', uncommittedFiles: -1 };
  }
}

// ---------------------------------------------------------------------------------------------
// Main

async function main(): Promise<void> {
  const cleanups: { name: string; fn: () => Promise<void> }[] = [];
  const cleanup = async () => {
    while (cleanups.length > 0) {
      const step = cleanups.pop()!;
      progress(`cleanup: ${step.name}`);
      await step.fn().catch((error) => progress(`cleanup of ${step.name} failed: ${String(error)}`));
    }
  };
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) return;
    interrupted = true;
    progress(`${signal}: cleaning up`);
    void cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    // Database: a throwaway embedded PostgreSQL unless BENCH_DATABASE_URL is given.
    let databaseUrl = process.env.BENCH_DATABASE_URL?.trim() || '';
    if (!databaseUrl) {
      const dir = mkdtempSync(join(tmpdir(), 'taproot-bench-'));
      cleanups.push({ name: `temp dir ${dir}`, fn: async () => rmSync(dir, { recursive: true, force: true }) });
      const port = await freePort();
      progress(`starting embedded PostgreSQL on 127.0.0.1:${port} (${dir})`);
      const pg = await startEmbeddedPostgres({ dir: join(dir, 'pg'), port, persistent: false, settings: STATEMENT_STATS ? STATEMENT_STATS_SETTINGS : undefined });
      cleanups.push({ name: 'embedded PostgreSQL', fn: () => pg.stop() });
      databaseUrl = pg.url;
    } else {
      progress('using BENCH_DATABASE_URL');
    }

    // The SMTP server the api pages through (paging.ts), before the runtime reads SMTP_URL.
    const pagingSink = runs('paging') ? await startPagingSink() : null;
    if (pagingSink) cleanups.push({ name: 'paging SMTP server', fn: () => pagingSink.close() });

    // Runtime: the in-process bus (no KAFKA_BROKERS), silent logs, migrations applied on open.
    // One API key drives every load: its per-key rate limits are raised out of the way (the
    // limiter's own round trip per request stays in the measured path). The read limit is also
    // what public routes (the status page) count per client address: raised as well.
    const config = loadConfig({
      DATABASE_URL: databaseUrl,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'silent',
      RATE_LIMIT_READS_PER_MINUTE: '10000000',
      RATE_LIMIT_WRITES_PER_MINUTE: '10000000',
      // The deployment setting behind the spec's 50 alerts a minute per key or source (section 7).
      ALERT_CREATION_LIMIT_PER_MINUTE: '10000000',
      ...(pagingSink ? { SMTP_URL: pagingSink.url } : {}),
      // The webhooks section's receiver listens on loopback, which the SSRF guard refuses by default.
      ...(runs('webhooks') ? { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' } : {}),
    });
    const runtime = await openRuntime(config, createLogger(config.logLevel), { migrations: ALL_MIGRATIONS });
    cleanups.push({ name: 'runtime', fn: () => runtime.close() });
    const ds = runtime.dataSource;
    const [{ version: pgVersionFull }] = await ds.query('SELECT version()');
    const [{ server_version: pgVersion }] = await ds.query('SHOW server_version');
    const [{ datcollate }] = await ds.query('SELECT datcollate FROM pg_database WHERE datname = current_database()');
    progress(`runtime open (${pgVersionFull.split(',')[0]}, collation ${datcollate}, bus ${runtime.bus.kind})`);

    // The dispatcher as well as the api, as `npm start` runs them: the bus then feeds the same
    // consumers as in a deployment (the audit log and the dispatcher), which the event lag is about.
    const dispatcher: RunningApp = await startDispatcher(runtime, 0);
    cleanups.push({ name: 'webhook dispatcher', fn: () => dispatcher.close() });
    const api: RunningApp = await startApi(runtime, 0);
    cleanups.push({ name: 'api', fn: () => api.close() });
    const hello: FastifyInstance = Fastify({ logger: false });
    hello.get('/healthz', async () => ({ status: 'ok' }));
    const helloPort = await freePort();
    await hello.listen({ host: '127.0.0.1', port: helloPort });
    cleanups.push({ name: 'hello-world Fastify', fn: () => hello.close() });
    const helloUrl = `http://127.0.0.1:${helloPort}`;
    progress(`api on ${api.url}, hello-world on ${helloUrl}`);

    const newOrg = (name: string) => ds.transaction((m) => createOrganization(m, { name: `${name} ${new Date().toISOString()}`, ownerEmail: 'bench@example.test' }));
    const org = await newOrg('Bench');
    const emptyOrg = await newOrg('Bench (empty)');
    const incidentsOrg = await newOrg('Bench incidents');
    const alertsOrg = await newOrg('Bench alerts');
    const readsOrg = await newOrg('Bench reads');
    const shiftsOrg = await newOrg('Bench shifts');
    if (process.env.BENCH_DATABASE_URL) {
      // A shared database keeps nothing of the run (services_read has no foreign key to cascade).
      cleanups.splice(cleanups.findIndex((c) => c.name === 'runtime') + 1, 0, {
        name: 'bench organizations',
        fn: async () => {
          const ids = [org.organizationId, emptyOrg.organizationId, incidentsOrg.organizationId, alertsOrg.organizationId, readsOrg.organizationId];
          const readModels = ['services_read', 'severities_read', 'incidents_read', 'incident_events_read', 'alerts_read', 'alert_events_read', 'alert_sources_read'];
          for (const readModel of readModels) {
            await ds.query(`DELETE FROM ${readModel} WHERE organization_id = ANY($1::uuid[])`, [ids]);
          }
          await ds.query('DELETE FROM outbox WHERE organization_id = ANY($1::uuid[])', [ids]);
          await ds.query('DELETE FROM organizations WHERE id = ANY($1::uuid[])', [ids]);
        },
      });
    }
    progress(`organization ${org.organizationId} created (and ${emptyOrg.organizationId}, empty, for one create load)`);

    const seeding = runs('services') ? await seed(ds, org.organizationId) : null;
    const lists = seeding ? await benchLists(runtime, api.url, org.organizationId, org.token) : null;
    const creates = seeding ? await benchCreates(runtime, api.url, org.organizationId, org.token, emptyOrg) : null;
    const health = runs('health') ? await benchHealth(api.url, helloUrl) : null;
    const limiter = runs('limiter') ? await benchLimiter(runtime) : null;
    const reads = runs('reads') ? await benchReads(ds, api.url, readsOrg.organizationId, readsOrg.token) : null;
    const incidents = runs('incidents') ? await benchIncidents(ds, api.url, incidentsOrg.organizationId, incidentsOrg.token) : null;
    const alerts = runs('alerts') ? await benchAlerts(ds, runtime.bus, api.url, alertsOrg.organizationId, alertsOrg.token) : null;
    const shifts = runs('shifts') ? await benchShifts(ds, api.url, shiftsOrg.organizationId, shiftsOrg.token, await newOrg('Bench shifts (plain list)')) : null;
    const paging = pagingSink ? await benchPaging(ds, api, pagingSink, await newOrg('Bench paging')) : null;
    const webhooks = runs('webhooks') ? await benchWebhooks(runtime, dispatcher, api.url, await newOrg('Bench webhooks'), await newOrg('Bench webhooks (slow receiver)')) : null;
    const statusPages = runs('status-pages') ? await benchStatusPages(api.url, await newOrg('Bench status pages')) : null;
    // Then the system's own process, started and stopped by the bench, with nothing else loading the machine.
    const startup: StartupBench | null = runs('startup') ? await benchStartup() : null;
    // Last: its own process under a steady load, with nothing else of the bench running beside it.
    const soak = runs('soak') ? await benchSoak((stop) => cleanups.push({ name: 'soak: npm start', fn: stop })) : null;

    // Report -----------------------------------------------------------------------------------
    const info = machine(pgVersion);
    out();
    out(`# Taproot bench, ${new Date().toISOString()}`);
    out(`machine: ${info.nproc} cpus (${info.cpuModel}), ${info.memoryGiB} GiB, node ${info.node}, PostgreSQL ${info.postgres}`);
    const src = source();
    out(`source: commit ${src.commit}, ${src.uncommittedFiles} uncommitted file(s) in the working tree`);
    out(`load: ${CONNECTIONS} connections, ${SECONDS}s measured after ${WARMUP_SECONDS}s warm-up; autocannon in a worker thread`);
    if (ONLY) out(`sections: ${[...ONLY].join(', ')} (BENCH_ONLY)`);
    const loadRow = (r: LoadResult) => [r.label, r.okPerSec, r.latencyMs.p50, r.latencyMs.p90, r.latencyMs.p99, r.latencyMs.mean, r.non2xx + r.errors];
    const loadHeaders = ['load', 'ok/s', 'p50 ms', 'p90 ms', 'p99 ms', 'mean ms', 'non-2xx+err'];
    const loopRow = (label: string, r: LoopResult) => [label, r.opsPerSec, r.latencyMs.p50, r.latencyMs.p90, r.latencyMs.p99, r.latencyMs.mean];
    const rows: SummaryRow[] = [];
    if (seeding && lists && creates) {
      out();
      out(`## 1. Seeding: ${seeding.rows.toLocaleString('en-US')} services into services + services_read: ${seeding.seconds}s`);
      out();
      out(`## 2. Lists (page size ${PAGE_SIZE}, default sort position, created_at, id)`);
      for (const l of table(loadHeaders, [lists.page1, lists.cursorDeep, lists.offsetDeep].map(loadRow))) out(l);
      out();
      out('SQL alone (one connection, no concurrency, mean of 30 interleaved rounds): the data query and the COUNT(*) every list runs beside it');
      for (const l of table(['query', 'data ms', 'count ms'], lists.sql.map((s) => [s.label, s.dataMeanMs, s.countMeanMs]))) out(l);
      for (const s of lists.sql) {
        out();
        out(`EXPLAIN ANALYZE, data query of ${s.label}:`);
        for (const line of s.plan) out(`  ${line}`);
      }
      out();
      out('EXPLAIN ANALYZE, count query (same for every page):');
      for (const line of lists.countPlan) out(`  ${line}`);
      out();
      out('## 3. Creates');
      for (const l of table(loadHeaders, [creates.http, creates.httpEmptyOrg].map(loadRow))) out(l);
      out(
        `raw loop: ${creates.raw.ops} rows in ${creates.raw.seconds}s = ${creates.raw.opsPerSec} rows/s, ` +
          `p50 ${creates.raw.latencyMs.p50} ms, p99 ${creates.raw.latencyMs.p99} ms (row + read row + outbox row, ${creates.raw.workers} concurrent transactions)`,
      );
      for (const p of creates.plans) {
        out();
        out(`EXPLAIN ANALYZE, ${p.label}, with ${SERVICES.toLocaleString('en-US')} services in the organization:`);
        for (const line of p.plan) out(`  ${line}`);
      }
      rows.push({
        measure: `seeding ${seeding.rows.toLocaleString('en-US')} services (2 tables + VACUUM ANALYZE)`,
        a: `${seeding.seconds} s`,
        b: '',
        ratio: null,
        ratioText: '',
        target: '',
        verdict: 'info',
      });
      const cursorRatio = ratio(lists.cursorDeep.latencyMs.p50, lists.page1.latencyMs.p50);
      rows.push(ratioRow(`list p50: cursor page ${DEEP_PAGE} / page 1`, `${lists.cursorDeep.latencyMs.p50} ms`, `${lists.page1.latencyMs.p50} ms`, cursorRatio, '<=', 1.3));
      const cursorP99 = ratio(lists.cursorDeep.latencyMs.p99, lists.page1.latencyMs.p99);
      rows.push(ratioRow(`list p99: cursor page ${DEEP_PAGE} / page 1`, `${lists.cursorDeep.latencyMs.p99} ms`, `${lists.page1.latencyMs.p99} ms`, cursorP99, '<=', 1.3));
      const offsetRatio = ratio(lists.offsetDeep.latencyMs.p50, lists.page1.latencyMs.p50);
      rows.push(ratioRow(`list p50: page[number]=${DEEP_PAGE} / page 1`, `${lists.offsetDeep.latencyMs.p50} ms`, `${lists.page1.latencyMs.p50} ms`, offsetRatio));
      const createRatio = ratio(creates.http.okPerSec, creates.raw.opsPerSec);
      rows.push(ratioRow(SERVICE_CREATES, `${creates.http.okPerSec} rows/s`, `${creates.raw.opsPerSec} rows/s`, createRatio, '>=', 0.5));
      const orgSizeRatio = ratio(creates.http.okPerSec, creates.httpEmptyOrg.okPerSec);
      rows.push(ratioRow(CREATES_BY_ORG_SIZE, `${creates.http.okPerSec} rows/s`, `${creates.httpEmptyOrg.okPerSec} rows/s`, orgSizeRatio, '>=', 0.9));
      const emptyRatio = ratio(creates.httpEmptyOrg.okPerSec, creates.raw.opsPerSec);
      rows.push(ratioRow('creates: HTTP POST into an org empty at start / raw', `${creates.httpEmptyOrg.okPerSec} rows/s`, `${creates.raw.opsPerSec} rows/s`, emptyRatio));
    } else {
      rows.push(notRunRow(SERVICE_CREATES, '>= 0.5'), notRunRow(CREATES_BY_ORG_SIZE, '>= 0.9'));
    }
    if (health) {
      out();
      out(`## 4. Health (${HEALTH_ROUNDS} alternating rounds; latencies below 1 ms show as 0: autocannon counts whole ms)`);
      for (const l of table(loadHeaders, health.rounds.flatMap((r) => [r.api, r.hello]).map(loadRow))) out(l);
      out(`per-round api/hello: ${health.rounds.map((r) => r.ratio).join(', ')}; medians ${health.api.okPerSec} / ${health.hello.okPerSec} req/s`);
      const healthRatio = ratio(health.api.okPerSec, health.hello.okPerSec);
      rows.push(ratioRow(`${HEALTH} (medians of ${HEALTH_ROUNDS})`, `${health.api.okPerSec} req/s`, `${health.hello.okPerSec} req/s`, healthRatio, '>=', 0.8));
    } else {
      rows.push(notRunRow(HEALTH, '>= 0.8'));
    }
    if (limiter) {
      out();
      out(`## 5. Rate limiter (${CONNECTIONS} concurrent callers on the runtime's pool, ${SECONDS}s each)`);
      for (const l of table(['call', 'ops/s', 'p50 ms', 'p90 ms', 'p99 ms', 'mean ms'], [
        loopRow('SELECT 1', limiter.select1),
        loopRow('RateLimiter.hit, one shared bucket', limiter.oneBucket),
        loopRow('RateLimiter.hit, a bucket per caller', limiter.bucketPerWorker),
      ])) {
        out(l);
      }
      for (const [label, r] of [['one shared bucket', limiter.oneBucket], ['a bucket per caller', limiter.bucketPerWorker]] as const) {
        const limiterRatio = ratio(r.opsPerSec, limiter.select1.opsPerSec);
        rows.push(ratioRow(`rate limiter hit (${label}) / SELECT 1, ops/s`, `${r.opsPerSec} /s`, `${limiter.select1.opsPerSec} /s`, limiterRatio));
      }
    }
    if (reads) {
      out();
      out(`## Reads: one severity by id (${CONNECTIONS} concurrent callers each side, ${SECONDS}s)`);
      for (const l of table(loadHeaders, [loadRow(reads.http)])) out(l);
      out(
        `raw SELECT * FROM severities_read WHERE id = $1 AND organization_id = $2: ${reads.raw.opsPerSec} /s, ` +
          `p50 ${reads.raw.latencyMs.p50} ms, p99 ${reads.raw.latencyMs.p99} ms (${reads.raw.workers} concurrent callers on the runtime's pool)`,
      );
      rows.push(readsRow(reads));
    } else {
      rows.push(notRunRow(READS_MEASURE, `>= ${MIN_READ_RATIO}`));
    }
    if (incidents) {
      out();
      out(`## 6. Incidents (${incidents.seeding.rows.toLocaleString('en-US')} in one organization, seeded in ${incidents.seeding.seconds}s)`);
      out(`filtered list: filter[status]=resolved&filter[severity_id]=<one of 4>, ${incidents.filteredRows.toLocaleString('en-US')} matching rows, newest first`);
      for (const l of table(loadHeaders, [incidents.page1, incidents.cursorDeep, incidents.page1Single, incidents.cursorDeepSingle, incidents.http].map(loadRow))) out(l);
      out(
        `raw loop: ${incidents.raw.ops} rows in ${incidents.raw.seconds}s = ${incidents.raw.opsPerSec} rows/s, ` +
          `p50 ${incidents.raw.latencyMs.p50} ms, p99 ${incidents.raw.latencyMs.p99} ms (counter + row + read row + outbox row, ${incidents.raw.workers} concurrent transactions)`,
      );
      for (const p of incidents.plans) {
        out();
        out(`EXPLAIN ANALYZE, ${p.label} (equivalent SQL):`);
        for (const line of p.plan) out(`  ${line}`);
      }
      const incidentCursor = ratio(incidents.cursorDeep.latencyMs.p50, incidents.page1.latencyMs.p50);
      rows.push(ratioRow(`incidents filtered list p50: cursor page ${incidents.deepPage} / page 1`, `${incidents.cursorDeep.latencyMs.p50} ms`, `${incidents.page1.latencyMs.p50} ms`, incidentCursor, '<=', 1.3));
      // The 50 ms target is a page's latency (one connection); under 10 connections on 2 cores the
      // p99 is mostly queueing behind the other nine and is reported beside it.
      for (const r of [incidents.page1Single, incidents.cursorDeepSingle, incidents.page1, incidents.cursorDeep]) {
        const single = r.connections === 1;
        rows.push({
          measure: `${r.label}: p99`,
          a: `${r.latencyMs.p99} ms`,
          b: '',
          ratio: null,
          ratioText: '',
          target: single ? '< 50 ms' : '(reported)',
          verdict: single ? (r.latencyMs.p99 < 50 ? 'PASS' : 'MISS') : 'info',
        });
      }
      const incidentCreates = ratio(incidents.http.okPerSec, incidents.raw.opsPerSec);
      rows.push(ratioRow(INCIDENT_CREATES, `${incidents.http.okPerSec} rows/s`, `${incidents.raw.opsPerSec} rows/s`, incidentCreates, '>=', 0.5));
    } else {
      rows.push(notRunRow(INCIDENT_CREATES, '>= 0.5'));
    }
    if (alerts) {
      out();
      rows.push(...reportAlerts(alerts));
    } else {
      rows.push(...alertsNotRunRows());
    }
    if (shifts) {
      out();
      out(`## Shifts: ${shifts.totalShifts} shifts in 30 days over 50 schedules (3 rotations of 8 members, an override a week), page of 100`);
      for (const l of table(loadHeaders, [shifts.shifts, shifts.plain].map(loadRow))) out(l);
      const e = shifts.engine;
      out(`engine alone, one schedule: 7 days ${e.shifts7} shifts at ${e.usPerShift7} µs each; 365 days ${e.shifts365} shifts at ${e.usPerShift365} µs each`);
      rows.push(...shiftsRows(shifts));
    } else {
      rows.push(notRunRow(SHIFTS_MEASURE, `<= ${MAX_SHIFTS_RATIO}`), notRunRow(SHIFT_SPAN_MEASURE, `<= ${MAX_SPAN_RATIO}`));
    }
    if (paging) {
      out();
      rows.push(...reportPaging(paging));
    } else {
      rows.push(...pagingNotRunRows());
    }
    if (webhooks) {
      out();
      rows.push(...reportWebhooks(webhooks));
    } else {
      rows.push(...webhooksNotRunRows());
    }
    if (statusPages) {
      out();
      rows.push(...reportStatusPages(statusPages, loadRow, loadHeaders));
    } else {
      rows.push(...statusPagesNotRunRows());
    }
    if (soak) {
      out();
      const at = soak.reference.halfWay ? `the half-way point (${soak.reference.atSeconds}s; a soak under 4 minutes has no minute 2 to settle by)` : `minute 2 (${soak.reference.atSeconds}s)`;
      out(`## Soak: the npm start process, ${soak.ratePerSec} signed webhook alerts/s for ${soak.seconds}s; RSS at ${at} vs at the end`);
      out(`RSS MiB every 10 s: ${soak.samples.map((x) => `${x.atSeconds}s ${x.rssMiB}`).join(', ')}`);
      const l = soak.load;
      out(
        `load: ${l.okPerSec} accepted/s of ${l.offeredPerSec}/s offered, p50 ${l.latencyMs.p50} ms, p99 ${l.latencyMs.p99} ms, max ${l.latencyMs.max} ms, ` +
          `${l.non2xx} non-2xx, ${l.errors + l.timeouts} errors+timeouts, sender lag ${l.maxLagMs} ms`,
      );
    }
    if (startup) {
      out();
      out(`## Startup: the whole system (api, auth, dispatcher), ready and idle, built vs register (medians of ${startup.built.runs.length})`);
      for (const [label, r] of [['built (npm start)', startup.built], ['register (npm run start:dev)', startup.register]] as const) {
        out(`${label}: ${r.command.slice(1).join(' ')}: ready ${r.runs.map((x) => `${x.readyMs} ms`).join(', ')}; idle RSS ${r.runs.map((x) => `${x.idleRssMiB} MiB`).join(', ')}`);
      }
      rows.push(...startupRows(startup));
    }
    rows.push(soakRow(soak));
    out();
    out('## Summary');
    for (const l of table(
      ['measure', 'figure A', 'figure B', 'A/B', 'target', 'result'],
      rows.map((r) => [r.measure, r.a, r.b, r.ratioText, r.target, r.verdict]),
    )) {
      out(l);
    }
    const json = {
      date: new Date().toISOString(),
      machine: info,
      source: src,
      settings: { services: SERVICES, incidents: INCIDENTS, alertRate: ALERT_RATE, soakSeconds: soak && SOAK_SECONDS, only: ONLY && [...ONLY], pageSize: PAGE_SIZE, deepPage: DEEP_PAGE, connections: CONNECTIONS, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS },
      seeding,
      lists: lists && { page1: lists.page1, cursorDeep: lists.cursorDeep, offsetDeep: lists.offsetDeep, sql: lists.sql.map(({ plan: _plan, ...s }) => s) },
      creates: creates && { http: creates.http, httpEmptyOrg: creates.httpEmptyOrg, raw: creates.raw },
      health,
      limiter,
      reads,
      incidents: incidents && { ...incidents, plans: undefined },
      alerts,
      shifts,
      paging,
      webhooks,
      statusPages,
      startup,
      soak,
      summary: rows.map(({ ratioText: _r, ...r }) => r),
    };
    const loads: (LoadResult | OpenLoadResult)[] = [
      ...(lists && creates ? [lists.page1, lists.cursorDeep, lists.offsetDeep, creates.http, creates.httpEmptyOrg] : []),
      ...(health ? health.rounds.flatMap((r) => [r.api, r.hello]) : []),
      ...(incidents ? [incidents.page1, incidents.cursorDeep, incidents.page1Single, incidents.cursorDeepSingle, incidents.http] : []),
      ...(reads ? [reads.http] : []),
      ...(alerts ? [alerts.webhook.offered, alerts.webhook.capacity, alerts.api.offered, alerts.api.capacity] : []),
      ...(soak ? [soak.load] : []),
      ...(statusPages ? statusPagesLoads(statusPages) : []),
    ];
    const failedLoads = loads.filter((r) => r.non2xx + r.errors + r.timeouts > 0);
    for (const r of failedLoads) {
      out(`WARNING: ${r.label}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts; its figures count 2xx only`);
    }
    out();
    out('## Summary (JSON)');
    out(JSON.stringify(json, null, 2));
    const missed = rows.filter((r) => r.verdict === 'MISS').length;
    progress(`done: ${missed === 0 ? 'every target met' : `${missed} target(s) missed (reported, not a failure)`}`);
  } finally {
    await cleanup();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
