/**
 * Section `status-pages` of `npm run bench` (issue 18), two targets in one run:
 *   1. GET /status/{slug} (the public page as HTML) vs a bare Fastify on another port answering
 *      the exact bytes and headers the api answered, CONNECTIONS connections each, in
 *      BENCH_STATUS_PAGE_ROUNDS alternating pairs, ratio of the medians (>= 0.6). Plain GETs without
 *      If-None-Match: every request is served the whole page, none a 304. "Cache warm": each load
 *      follows its warm-up (connections, pool, JIT), which also leaves the page's answer in the
 *      api's memory (docs/status-pages.md, Served from memory). Beside them, to show where the
 *      time goes: the api's /healthz (its Fastify, no Nest, no reads) and the page's JSON (kept in
 *      memory the same way, with the same limiter).
 *   2. BENCH_STATUS_PAGE_UPDATES times, one after another: POST a status page event through the
 *      API and poll GET /status/{slug} every POLL_MS (If-None-Match: unchanged pages answer 304)
 *      from the moment the POST is sent until the update's text is on the page; p50/p99/max (< 1 s).
 * The page is set up over HTTP: a public page, a group of four components, an incident with three
 * status page events, an announcement. See docs/benchmarks.md.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import Fastify from 'fastify';
import { freePort } from '@taproot/persistence';
import { createResource, intEnv, limitRow, load, median, notRunRow, out, percentile, progress, ratio, ratioRow, round, sleep, table, type LoadResult, type SummaryRow } from './harness';

const ROUNDS = intEnv('BENCH_STATUS_PAGE_ROUNDS', 3, 1);
const UPDATES = intEnv('BENCH_STATUS_PAGE_UPDATES', 50, 1);
const POLL_MS = 10;
const MIN_PAGE_RATIO = 0.6;
const MAX_PUBLISH_P99_MS = 1000;
const PAGE_MEASURE = 'public status page GET /status/{slug} HTML req/s / bare Fastify, same bytes and headers';
const PUBLISH_MEASURE = 'status page update: POST through the API -> seen on GET /status/{slug}, p99';
/** Headers of the connection and the moment, not of the page: the bare server sets its own. */
const OWN_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

export interface StatusPagesBench {
  bytes: number;
  /** The headers the bare server answers with (the api's, less OWN_HEADERS). */
  headers: Record<string, string>;
  rounds: { page: LoadResult; bare: LoadResult; ratio: number | null }[];
  /** Medians of the rounds' req/s. */
  pagePerSec: number;
  barePerSec: number;
  /** Where the page's time goes: the same stack answering less. */
  healthz: LoadResult;
  json: LoadResult;
  publish: { updates: number; pollMs: number; polls: number; visibleMs: Stats; postMs: Stats };
}

type Stats = { p50: number; p90: number; p99: number; max: number };

function stats(values: number[]): Stats {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: round(percentile(sorted, 50), 1), p90: round(percentile(sorted, 90), 1), p99: round(percentile(sorted, 99), 1), max: round(sorted[sorted.length - 1], 1) };
}


/** The page of the set-up: a group of four components, an incident with three updates, an announcement. */
async function setUp(url: string, token: string): Promise<{ slug: string; incidentId: string; pageId: string }> {
  const post = async (path: string, type: string, attributes: Record<string, unknown>) => (await createResource(url, token, path, type, attributes)).id;
  const pageId = await post('/v1/status-pages', 'status_pages', { title: 'Bench Cloud', public: true, public_description: 'How Bench Cloud is doing', website_url: 'https://bench.example/' });
  const groupId = await post(`/v1/status-pages/${pageId}/component-groups`, 'status_page_component_groups', { name: 'Platform' });
  for (const [name, status] of [['API', 'operational'], ['Dashboard', 'operational'], ['Webhooks', 'degraded_performance'], ['Database', 'operational']]) {
    await post(`/v1/status-pages/${pageId}/components`, 'status_page_components', { name, status, status_page_component_group_id: groupId });
  }
  await post(`/v1/status-pages/${pageId}/announcements`, 'status_page_announcements', { title: 'New region', body: 'Frankfurt is open.' });
  const incidentId = await post('/v1/incidents', 'incidents', { title: 'Webhook delays', public_title: 'Delayed webhooks' });
  for (const [event, status] of [['We are looking into delayed webhooks', 'investigating'], ['A queue consumer is stuck', 'identified'], ['Restarted; deliveries are catching up', 'monitoring']]) {
    await post(`/v1/incidents/${incidentId}/status-page-events`, 'incident_status_page_events', { status_page_id: pageId, event, status });
  }
  const page = await fetch(`${url}/v1/status-pages/${pageId}`, { headers: { authorization: `Bearer ${token}` } });
  const { data } = (await page.json()) as { data: { attributes: { slug: string } } };
  return { slug: data.attributes.slug, incidentId, pageId };
}

/** A bare Fastify answering `body` with `headers` to every GET of `path`. */
async function bareServer(path: string, headers: Record<string, string>, body: Buffer): Promise<{ url: string; close: () => Promise<void> }> {
  const bare = Fastify({ logger: false });
  bare.get(path, (_request, reply) => void reply.headers(headers).send(body));
  const port = await freePort();
  await bare.listen({ host: '127.0.0.1', port });
  return { url: `http://127.0.0.1:${port}`, close: () => bare.close() };
}

/** The api's answer less the headers of the moment: what the bare server repeats. */
function pageHeaders(res: Response): Record<string, string> {
  return Object.fromEntries([...res.headers].filter(([name]) => !OWN_HEADERS.has(name)));
}

async function publishToVisible(url: string, token: string, slug: string, incidentId: string, pageId: string): Promise<StatusPagesBench['publish']> {
  const pagePath = `${url}/status/${slug}`;
  let etag = (await fetch(pagePath)).headers.get('etag') ?? '';
  const visible: number[] = [];
  const posts: number[] = [];
  let polls = 0;
  for (let i = 1; i <= UPDATES; i++) {
    const text = `Bench update ${i} ${randomUUID()}`;
    const t0 = performance.now();
    const posted = createResource(url, token, `/v1/incidents/${incidentId}/status-page-events`, 'incident_status_page_events', { status_page_id: pageId, event: text, status: 'monitoring' }).then(() => posts.push(performance.now() - t0));
    for (;;) {
      const res = await fetch(pagePath, { headers: { 'if-none-match': etag } });
      polls++;
      if (res.status === 200) {
        etag = res.headers.get('etag') ?? '';
        if ((await res.text()).includes(text)) break;
      } else if (res.status !== 304) {
        throw new Error(`GET /status/${slug} answered ${res.status}: ${await res.text()}`);
      } else {
        await res.arrayBuffer();
      }
      if (performance.now() - t0 > 30_000) throw new Error(`update ${i} not on the page after 30 s`);
      await sleep(POLL_MS);
    }
    visible.push(performance.now() - t0);
    await posted;
  }
  return { updates: UPDATES, pollMs: POLL_MS, polls, visibleMs: stats(visible), postMs: stats(posts) };
}

export async function benchStatusPages(url: string, { token }: { token: string }): Promise<StatusPagesBench> {
  progress('status pages: setting up a page over HTTP');
  const { slug, incidentId, pageId } = await setUp(url, token);
  const path = `/status/${slug}`;
  const first = await fetch(`${url}${path}`);
  if (first.status !== 200) throw new Error(`GET ${path} answered ${first.status}: ${await first.text()}`);
  const headers = pageHeaders(first);
  const body = Buffer.from(await first.arrayBuffer());
  const bare = await bareServer(path, headers, body);
  try {
    // Both servers must answer the same bytes: the comparison is of the serving, not the content.
    const check = await fetch(`${bare.url}${path}`);
    const same = Buffer.from(await check.arrayBuffer()).equals(body) && JSON.stringify(pageHeaders(check)) === JSON.stringify(headers);
    if (!same) throw new Error('the bare server does not answer the api’s bytes and headers');
    progress(`status pages: ${body.length} bytes of HTML at ${path}, the same at ${bare.url}`);

    const rounds: StatusPagesBench['rounds'] = [];
    for (let i = 1; i <= ROUNDS; i++) {
      const page = () => load({ label: `api GET /status/{slug} #${i}`, url, path });
      const plain = () => load({ label: `bare Fastify, same bytes #${i}`, url: bare.url, path });
      // Alternating which goes first, so neither always meets the machine warmer.
      let p: LoadResult;
      let b: LoadResult;
      if (i % 2) {
        p = await page();
        b = await plain();
      } else {
        b = await plain();
        p = await page();
      }
      rounds.push({ page: p, bare: b, ratio: ratio(p.okPerSec, b.okPerSec) });
    }
    const healthz = await load({ label: 'api GET /healthz', url, path: '/healthz' });
    const json = await load({ label: 'api GET /status/{slug}/index.json', url, path: `${path}/index.json` });

    progress(`status pages: ${UPDATES} updates published through the API, polling the page every ${POLL_MS} ms`);
    const publish = await publishToVisible(url, token, slug, incidentId, pageId);
    progress(`status pages: publish -> visible p50 ${publish.visibleMs.p50} ms, p99 ${publish.visibleMs.p99} ms`);
    return {
      bytes: body.length,
      headers,
      rounds,
      pagePerSec: median(rounds.map((r) => r.page.okPerSec)),
      barePerSec: median(rounds.map((r) => r.bare.okPerSec)),
      healthz,
      json,
      publish,
    };
  } finally {
    await bare.close();
  }
}

/** The loads of the section, for the bench's non-2xx warning. */
export const statusPagesLoads = (b: StatusPagesBench): LoadResult[] => [...b.rounds.flatMap((r) => [r.page, r.bare]), b.healthz, b.json];

export function reportStatusPages(b: StatusPagesBench, loadRow: (r: LoadResult) => (string | number)[], loadHeaders: string[]): SummaryRow[] {
  out(`## Status pages: the public page, ${b.bytes} bytes of HTML (a group of 4 components, an incident with 3 updates, an announcement)`);
  out(`plain GETs without If-None-Match (every answer the whole page, no 304), ${ROUNDS} alternating pairs; the bare Fastify answers the api's bytes with its headers (${Object.keys(b.headers).join(', ')})`);
  for (const l of table(loadHeaders, [...b.rounds.flatMap((r) => [r.page, r.bare]), b.healthz, b.json].map(loadRow))) out(l);
  out(`per-round page/bare: ${b.rounds.map((r) => r.ratio).join(', ')}; medians ${b.pagePerSec} / ${b.barePerSec} req/s`);
  const p = b.publish;
  out(
    `publish -> visible, ${p.updates} updates one after another, polled every ${p.pollMs} ms with If-None-Match (${p.polls} polls): ` +
      `p50 ${p.visibleMs.p50} ms, p90 ${p.visibleMs.p90} ms, p99 ${p.visibleMs.p99} ms, max ${p.visibleMs.max} ms; the POST alone p50 ${p.postMs.p50} ms, p99 ${p.postMs.p99} ms`,
  );
  return [
    ratioRow(`${PAGE_MEASURE} (medians of ${ROUNDS})`, `${b.pagePerSec} req/s`, `${b.barePerSec} req/s`, ratio(b.pagePerSec, b.barePerSec), '>=', MIN_PAGE_RATIO),
    limitRow(PUBLISH_MEASURE, p.visibleMs.p99, 'ms', '<', MAX_PUBLISH_P99_MS),
  ];
}

export function statusPagesNotRunRows(): SummaryRow[] {
  return [notRunRow(PAGE_MEASURE, `>= ${MIN_PAGE_RATIO}`), notRunRow(PUBLISH_MEASURE, `< ${MAX_PUBLISH_P99_MS} ms`)];
}
