/**
 * What every section of `npm run bench` shares: settings from the environment, progress and
 * report output, the HTTP load generators (autocannon; open-loop-worker.ts for loads of distinct
 * requests, open or closed loop), the closed-loop driver for in-process calls, and the summary
 * row. See docs/benchmarks.md.
 */
import type { DataSource, EntityManager } from 'typeorm';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import autocannon from 'autocannon';
import type { OpenLoopInput, OpenLoopOutput, OpenLoopRequest } from './open-loop-worker';

export function intEnv(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  return n;
}

export const SECONDS = intEnv('BENCH_SECONDS', 10, 1);
export const WARMUP_SECONDS = intEnv('BENCH_WARMUP_SECONDS', 2, 0);
export const CONNECTIONS = intEnv('BENCH_CONNECTIONS', 10, 1);
export const PAGE_SIZE = 20;
export const DEEP_PAGE = 1000;
/** Topic of the raw loop's outbox rows: the relay moves them, no projection consumes them. */
export const RAW_TOPIC = 'bench.raw';
export const MEDIA_TYPE = 'application/vnd.api+json';

const started = performance.now();
export function progress(message: string): void {
  process.stderr.write(`[bench +${((performance.now() - started) / 1000).toFixed(1).padStart(5)}s] ${message}\n`);
}
export function out(line = ''): void {
  process.stdout.write(`${line}\n`);
}

// ---------------------------------------------------------------------------------------------
// Load generation

export interface LoadResult {
  label: string;
  method: string;
  path: string;
  connections: number;
  seconds: number;
  requests: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** 2xx responses per second over the measured window. */
  okPerSec: number;
  latencyMs: { p50: number; p90: number; p99: number; mean: number; max: number };
}

export interface LoadSpec {
  label: string;
  url: string;
  path: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Replace every `[<id>]` in the body with a unique id per request. */
  idReplacement?: boolean;
  /** Concurrent connections; CONNECTIONS unless a measure needs latency without queueing. */
  connections?: number;
}

/**
 * One autocannon run. The load generator runs in a worker thread (`workers: 1`) so it does not
 * share the event loop of the server it measures (both live in this process).
 */
async function cannon(spec: LoadSpec, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: `${spec.url}${spec.path}`,
    method: spec.method ?? 'GET',
    headers: spec.headers,
    body: spec.body,
    idReplacement: spec.idReplacement ?? false,
    connections: spec.connections ?? CONNECTIONS,
    pipelining: 1,
    duration: seconds,
    timeout: 10,
    workers: 1,
  } as autocannon.Options);
}

export async function load(spec: LoadSpec): Promise<LoadResult> {
  if (WARMUP_SECONDS > 0) {
    progress(`${spec.label}: warm-up ${WARMUP_SECONDS}s`);
    await cannon(spec, WARMUP_SECONDS);
  }
  progress(`${spec.label}: ${spec.method ?? 'GET'} ${spec.path.length > 90 ? `${spec.path.slice(0, 87)}...` : spec.path}, ${spec.connections ?? CONNECTIONS} connections, ${SECONDS}s`);
  const r = await cannon(spec, SECONDS);
  const ok = r['2xx'];
  const result: LoadResult = {
    label: spec.label,
    method: spec.method ?? 'GET',
    path: spec.path,
    connections: spec.connections ?? CONNECTIONS,
    seconds: r.duration,
    requests: r.requests.total,
    ok,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    okPerSec: round(ok / r.duration, 1),
    latencyMs: {
      p50: r.latency.p50,
      p90: r.latency.p90,
      p99: r.latency.p99,
      mean: round(r.latency.average, 2),
      max: r.latency.max,
    },
  };
  progress(
    `${spec.label}: ${result.okPerSec} ok/s, p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms` +
      (result.non2xx || result.errors ? ` (non-2xx ${result.non2xx}, errors ${result.errors})` : ''),
  );
  if (ok === 0) throw new Error(`${spec.label}: no 2xx response at all (non-2xx ${r.non2xx}, errors ${r.errors})`);
  return result;
}

/** A load of distinct requests (each built by `request(n)`) through open-loop-worker.ts. */
export interface OpenLoadSpec {
  label: string;
  url: string;
  /** For the report; each request carries its own path. */
  path: string;
  method?: OpenLoopInput['method'];
  /** The n-th request of the run (warm-up included): distinct bodies, each with its own headers. */
  request: (n: number) => OpenLoopRequest;
  /** Runs between the warm-up and the measured load (a count to compare with afterwards). */
  beforeMeasured?: () => Promise<void>;
  /** Measured seconds and warm-up seconds; SECONDS and WARMUP_SECONDS unless a measure runs longer (the soak). */
  seconds?: number;
  warmupSeconds?: number;
}

export interface OpenLoadResult {
  label: string;
  method: string;
  path: string;
  /** Requests a second sent on schedule (open loop); null for a closed loop. */
  offeredPerSec: number | null;
  /** Concurrent connections of a closed loop; null for an open loop. */
  connections: number | null;
  requests: number;
  /** From the first send to the last response (an open loop: at least its schedule, longer when the server falls behind). */
  seconds: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statuses: Record<string, number>;
  /** 2xx responses per second over `seconds`: the rate the server sustained. */
  okPerSec: number;
  /** Worst delay of a send behind its schedule (the generator's own lag; should stay a few ms). */
  maxLagMs: number;
  latencyMs: { p50: number; p90: number; p99: number; mean: number; max: number };
}

function runWorker(input: OpenLoopInput): Promise<OpenLoopOutput> {
  return new Promise((resolve, reject) => {
    // The worker inherits this process's `-r tools/register.js`, so it runs the TypeScript source.
    const worker = new Worker(join(__dirname, 'open-loop-worker.ts'), { workerData: input });
    worker.once('message', (output: OpenLoopOutput) => void worker.terminate().then(() => resolve(output)));
    worker.once('error', reject);
  });
}

/** Warm-up, `beforeMeasured`, then the measured run; `count` requests are built for each part. */
async function distinctLoad(spec: OpenLoadSpec, mode: (seconds: number) => OpenLoopInput['mode'], count: (seconds: number) => number, what: string): Promise<OpenLoadResult> {
  const method = spec.method ?? 'POST';
  let n = 0;
  const input = (seconds: number): OpenLoopInput => ({
    url: spec.url,
    method,
    timeoutMs: 10_000,
    mode: mode(seconds),
    requests: Array.from({ length: count(seconds) }, () => spec.request(n++)),
  });
  const warmupSeconds = spec.warmupSeconds ?? WARMUP_SECONDS;
  const measuredSeconds = spec.seconds ?? SECONDS;
  if (warmupSeconds > 0) {
    progress(`${spec.label}: warm-up ${warmupSeconds}s`);
    await runWorker(input(warmupSeconds));
  }
  await spec.beforeMeasured?.();
  const measured = input(measuredSeconds);
  progress(`${spec.label}: ${method} ${spec.path}, ${what}, ${measuredSeconds}s`);
  const r = await runWorker(measured);
  const latencies = [...r.latencies].sort((a, b) => a - b);
  const ok = Object.entries(r.statuses).reduce((sum, [status, n]) => (status.startsWith('2') ? sum + n : sum), 0);
  const open = 'rate' in measured.mode;
  // An open loop's last request goes out 1/rate before the schedule ends: count the whole schedule.
  const seconds = open ? Math.max(measuredSeconds, r.elapsedMs / 1000) : r.elapsedMs / 1000;
  const result: OpenLoadResult = {
    label: spec.label,
    method,
    path: spec.path,
    offeredPerSec: 'rate' in measured.mode ? measured.mode.rate : null,
    connections: 'concurrency' in measured.mode ? measured.mode.concurrency : null,
    requests: latencies.length + r.errors + r.timeouts,
    seconds: round(seconds, 2),
    ok,
    non2xx: latencies.length - ok,
    errors: r.errors,
    timeouts: r.timeouts,
    statuses: r.statuses,
    okPerSec: round(ok / seconds, 1),
    maxLagMs: round(open ? r.maxLagMs : 0, 1),
    latencyMs: latencySummary(latencies, 1),
  };
  progress(
    `${spec.label}: ${result.okPerSec} ok/s, p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms` +
      (result.non2xx || result.errors || result.timeouts ? ` (non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts})` : ''),
  );
  if (ok === 0) throw new Error(`${spec.label}: no 2xx response at all (statuses ${JSON.stringify(r.statuses)}, errors ${r.errors})`);
  return result;
}

/**
 * Open loop: `rate` requests a second for SECONDS (after WARMUP_SECONDS of the same; or the spec's own), sent on
 * schedule whatever the answers, so latency includes any queueing (autocannon's connections wait
 * for their answers: its latencies would hide a backlog).
 */
export function openLoad(spec: OpenLoadSpec & { rate: number }): Promise<OpenLoadResult> {
  return distinctLoad(spec, () => ({ rate: spec.rate }), (seconds) => Math.round(spec.rate * seconds), `open loop at ${spec.rate} requests/s`);
}

/**
 * Closed loop: CONNECTIONS connections back to back for SECONDS, like `load` but with a distinct
 * request each time; at most `maxPerSec` x seconds requests are built (the run ends early if they
 * run out, and its rate stays right).
 */
export function closedLoad(spec: OpenLoadSpec & { maxPerSec: number }): Promise<OpenLoadResult> {
  return distinctLoad(spec, (seconds) => ({ concurrency: CONNECTIONS, seconds }), (seconds) => Math.ceil(spec.maxPerSec * seconds), `${CONNECTIONS} connections, closed loop`);
}

// ---------------------------------------------------------------------------------------------
// Helpers

export function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** p50/p90/p99/mean/max of latencies sorted ascending, rounded to `digits`. */
function latencySummary(sorted: number[], digits: number): { p50: number; p90: number; p99: number; mean: number; max: number } {
  return {
    p50: round(percentile(sorted, 50), digits),
    p90: round(percentile(sorted, 90), digits),
    p99: round(percentile(sorted, 99), digits),
    mean: round(sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length), digits),
    max: round(sorted[sorted.length - 1] ?? 0, digits),
  };
}

export function qs(params: Record<string, string | number>): string {
  return Object.entries(params)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');
}

// Response documents are checked field by field below.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function getJson(url: string, token: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

export function table(headers: string[], rows: (string | number)[][]): string[] {
  const cells = [headers, ...rows.map((r) => r.map(String))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(cells[0]), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.slice(1).map(line)];
}

export interface LoopResult {
  workers: number;
  seconds: number;
  ops: number;
  opsPerSec: number;
  latencyMs: { p50: number; p90: number; p99: number; mean: number; max: number };
}

/** `op` from CONNECTIONS concurrent loops for `seconds`: throughput and per-call latency. */
export async function closedLoop(seconds: number, op: (n: number, worker: number) => Promise<unknown>): Promise<LoopResult> {
  const latencies: number[] = [];
  let seq = 0;
  const t0 = performance.now();
  const deadline = t0 + seconds * 1000;
  const worker = async (_: unknown, index: number) => {
    while (performance.now() < deadline) {
      const t = performance.now();
      await op(++seq, index);
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const elapsed = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    workers: CONNECTIONS,
    seconds: round(elapsed, 2),
    ops: latencies.length,
    opsPerSec: round(latencies.length / elapsed, 1),
    latencyMs: latencySummary(latencies, 2),
  };
}

/**
 * A raw baseline: `op` in a closed loop for WARMUP_SECONDS, then measured for SECONDS. `op` gets
 * a number unique across both runs (for unique names and keys).
 */
export async function rawLoad(label: string, op: (n: number) => Promise<unknown>): Promise<LoopResult> {
  let n = 0;
  const next = () => op(++n);
  if (WARMUP_SECONDS > 0) {
    progress(`${label}: warm-up ${WARMUP_SECONDS}s`);
    await closedLoop(WARMUP_SECONDS, next);
  }
  progress(`${label}: ${CONNECTIONS} concurrent callers, ${SECONDS}s`);
  const r = await closedLoop(SECONDS, next);
  progress(`${label}: ${r.opsPerSec}/s, p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms`);
  return r;
}

/** Copies rows of a write table into its read model (`<table>_read`), column by column. */
export interface ReadModelCopy {
  /** `INSERT INTO <table>_read (...) SELECT ... FROM <table> WHERE <where>`, in the caller's transaction. */
  copy(m: EntityManager | DataSource, where: string, params: unknown[]): Promise<void>;
}

/**
 * What a raw baseline writes for the inline projection: the same row in `<table>_read`. The read
 * models are `LIKE` their write tables, but later migrations add columns to both in another order
 * and some read models add generated columns, so the copy names the columns both tables share
 * that neither generates.
 */
export async function readModelOf(ds: DataSource, table: string): Promise<ReadModelCopy> {
  const [{ columns }]: { columns: string | null }[] = await ds.query(
    `SELECT string_agg(quote_ident(w.column_name), ', ' ORDER BY w.ordinal_position) AS columns
       FROM information_schema.columns w
       JOIN information_schema.columns r ON r.table_schema = w.table_schema AND r.table_name = $1 || '_read' AND r.column_name = w.column_name
      WHERE w.table_schema = current_schema() AND w.table_name = $1 AND w.is_generated = 'NEVER' AND r.is_generated = 'NEVER'`,
    [table],
  );
  if (!columns) throw new Error(`no columns shared by ${table} and ${table}_read`);
  const sql = `INSERT INTO ${table}_read (${columns}) SELECT ${columns} FROM ${table}`;
  return { copy: async (m, where, params) => void (await m.query(`${sql} WHERE ${where}`, params)) };
}

/** A resource created over HTTP at its collection `path` (nested or not), as any client would: its id and attributes. */
export async function createResource(url: string, token: string, path: string, type: string, attributes: Record<string, unknown>): Promise<{ id: string; attributes: Record<string, unknown> }> {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': MEDIA_TYPE },
    body: JSON.stringify({ data: { type, attributes } }),
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`POST ${path} answered ${res.status}: ${text}`);
  return (JSON.parse(text) as { data: { id: string; attributes: Record<string, unknown> } }).data;
}

/** A relay that has not caught up by then is stuck: the bench is broken, not slow. */
const DRAIN_LIMIT_MS = 300_000;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Unpublished outbox rows: with the in-process bus, events not yet applied by every consumer. */
export async function pendingEvents(ds: DataSource): Promise<number> {
  const [{ n }] = await ds.query('SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL');
  return n;
}

/** Waits until the relay has published (and so every consumer applied) every pending outbox row; resolves the seconds it took. */
export async function drain(ds: DataSource, label: string): Promise<number> {
  const t0 = performance.now();
  for (let last = 0; ; ) {
    const n = await pendingEvents(ds);
    if (n === 0) return round((performance.now() - t0) / 1000, 2);
    if (performance.now() - t0 > DRAIN_LIMIT_MS) throw new Error(`${label}: ${n} outbox rows still unpublished after ${DRAIN_LIMIT_MS / 1000}s`);
    if (performance.now() - last > 2000) {
      progress(`${label}: waiting for ${n} outbox rows to drain`);
      last = performance.now();
    }
    await sleep(100);
  }
}

/** BENCH_PG_STATEMENTS=1: the embedded PostgreSQL keeps statement statistics (pg_stat_statements). */
export const STATEMENT_STATS = process.env.BENCH_PG_STATEMENTS === '1';
export const STATEMENT_STATS_SETTINGS = { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all' };

/** A statement's cost over a measured stretch, per item of work (a delivery, an event). */
export interface StatementCost {
  statement: string;
  calls: number;
  /** Executor time per item, µs (CPU and any wait inside the statement). */
  execUs: number;
  /** WAL written per item, bytes. */
  walBytes: number;
}

/**
 * Statement statistics over a stretch of a section (BENCH_PG_STATEMENTS): `reset` at its start,
 * `costs` at its end answers the statements that cost most, per item. Null when not enabled.
 */
export async function statementStats(ds: DataSource): Promise<{ reset(): Promise<void>; costs(items: number, top?: number): Promise<StatementCost[]> } | null> {
  if (!STATEMENT_STATS) return null;
  await ds.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  return {
    reset: async () => void (await ds.query('SELECT pg_stat_statements_reset()')),
    costs: async (items, top = 10) => {
      const rows: { q: string; calls: string; exec: number; wal: string }[] = await ds.query(
        `SELECT left(regexp_replace(query, '\\s+', ' ', 'g'), 80) AS q, calls, total_exec_time AS exec, wal_bytes AS wal
           FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat_statements%' ORDER BY total_exec_time DESC LIMIT $1`,
        [top],
      );
      return rows.map((r) => ({ statement: r.q, calls: Number(r.calls), execUs: round((1000 * r.exec) / items, 1), walBytes: Math.round(Number(r.wal) / items) }));
    },
  };
}

export async function explain(ds: DataSource, sql: string, params: unknown[]): Promise<string[]> {
  const rows: { 'QUERY PLAN': string }[] = await ds.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`, params);
  return rows.map((r) => r['QUERY PLAN']);
}

export interface SummaryRow {
  measure: string;
  a: string;
  b: string;
  ratio: number | null;
  ratioText: string;
  target: string;
  /** 'not run': a target of a section this run left out (BENCH_ONLY), listed so every target shows. */
  verdict: 'PASS' | 'MISS' | 'info' | 'not run';
}

/** A summary row comparing A with B; with a target, PASS or MISS, otherwise reported only. */
export function ratioRow(measure: string, a: string, b: string, ratio: number | null, op?: '<=' | '>=', value?: number): SummaryRow {
  if (!op || value === undefined) return { measure, a, b, ratio, ratioText: String(ratio), target: '(reported)', verdict: 'info' };
  const met = ratio !== null && (op === '<=' ? ratio <= value : ratio >= value);
  return { measure, a, b, ratio, ratioText: String(ratio), target: `${op} ${value}`, verdict: met ? 'PASS' : 'MISS' };
}

/** A summary row of one figure against a limit (`< 50 ms`), PASS or MISS. */
export function limitRow(measure: string, value: number, unit: string, op: '<' | '<=', limit: number): SummaryRow {
  const met = op === '<' ? value < limit : value <= limit;
  return { measure, a: `${value} ${unit}`, b: '', ratio: null, ratioText: '', target: `${op} ${limit} ${unit}`, verdict: met ? 'PASS' : 'MISS' };
}

/** The row of a target whose section did not run. */
export function notRunRow(measure: string, target: string): SummaryRow {
  return { measure, a: '', b: '', ratio: null, ratioText: '', target, verdict: 'not run' };
}

/** a / b rounded to 2 digits; null when b is 0. */
export const ratio = (a: number, b: number) => (b > 0 ? round(a / b, 2) : null);
