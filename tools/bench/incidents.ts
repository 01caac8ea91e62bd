/**
 * Section 6 of `npm run bench`: incidents at scale (issue 4). BENCH_INCIDENTS incidents (default
 * 1,000,000) in one organization, then:
 *   - the dashboard's list, `filter[status]` + `filter[severity_id]`: page 1 vs a cursor page deep
 *     in the filtered set (target: deep p50 <= 1.3 x page 1), under CONNECTIONS connections and
 *     from one connection (target: p99 of a filtered page < 50 ms, a page's own latency);
 *   - creates: POST /v1/incidents vs the same writes in one transaction (sequential-id counter,
 *     row, read-model row, outbox row) on the same pool.
 * See docs/benchmarks.md.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { appendToOutbox, domainEvent } from '@taproot/messaging';
import type { DataSource } from 'typeorm';
import {
  createResource,
  DEEP_PAGE,
  explain,
  getJson,
  intEnv,
  load,
  MEDIA_TYPE,
  PAGE_SIZE,
  progress,
  qs,
  RAW_TOPIC,
  rawLoad,
  readModelOf,
  round,
  type LoadResult,
  type LoopResult,
} from './harness';

export const INCIDENTS = intEnv('BENCH_INCIDENTS', 1_000_000, 50_000);
const CHUNK = 100_000;
/** The normal kind's statuses; seeded round-robin, so each (status, severity) pair holds 1/32 of the rows. */
const STATUSES = ['in_triage', 'started', 'detected', 'acknowledged', 'mitigated', 'resolved', 'closed', 'cancelled'];
const SEVERITIES = 4;
const FILTER_STATUS = 'resolved';

export interface IncidentBench {
  seeding: { seconds: number; rows: number };
  filteredRows: number;
  deepPage: number;
  page1: LoadResult;
  cursorDeep: LoadResult;
  /** The same two lists from one connection: a page's latency without queueing behind others. */
  page1Single: LoadResult;
  cursorDeepSingle: LoadResult;
  http: LoadResult;
  raw: LoopResult;
  plans: { label: string; plan: string[] }[];
}

/** Severities of the organization, created over HTTP like any client would. */
async function createSeverities(url: string, token: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < SEVERITIES; i++) ids.push((await createResource(url, token, '/v1/severities', 'severities', { name: `SEV${i}` })).id);
  return ids;
}

/**
 * The write table and its read model (same columns, same ids), one minute apart in created_at,
 * sequential ids 1..N; the organization's counter continues after N.
 */
async function seed(ds: DataSource, organizationId: string, severityIds: string[]): Promise<{ seconds: number; rows: number }> {
  const t0 = performance.now();
  const base = new Date(Date.now() - (INCIDENTS + 1) * 60_000).toISOString();
  const readModel = await readModelOf(ds, 'incidents');
  for (let from = 1; from <= INCIDENTS; from += CHUNK) {
    const to = Math.min(INCIDENTS, from + CHUNK - 1);
    await ds.transaction(async (m) => {
      await m.query(
        `INSERT INTO incidents (id, organization_id, sequential_id, title, slug, kind, status, private, severity_id,
                                started_at, created_at, updated_at)
         SELECT gen_random_uuid(), $1, g, 'Incident #' || g, 'incident-' || g, 'normal', ($5::text[])[1 + g % 8], false,
                ($6::text[])[1 + (g / 8) % 4], $2::timestamptz + g * interval '1 minute',
                $2::timestamptz + g * interval '1 minute', $2::timestamptz + g * interval '1 minute'
           FROM generate_series($3::int, $4::int) AS g`,
        [organizationId, base, from, to, STATUSES, severityIds],
      );
      await readModel.copy(m, 'organization_id = $1 AND sequential_id BETWEEN $2 AND $3', [organizationId, from, to]);
    });
    progress(`incidents seeding: ${to.toLocaleString('en-US')} / ${INCIDENTS.toLocaleString('en-US')} (both tables)`);
  }
  await ds.query(
    `INSERT INTO incident_counters (organization_id, last_sequential_id) VALUES ($1, $2)
     ON CONFLICT (organization_id) DO UPDATE SET last_sequential_id = EXCLUDED.last_sequential_id`,
    [organizationId, INCIDENTS],
  );
  await ds.query('VACUUM (ANALYZE) incidents');
  await ds.query('VACUUM (ANALYZE) incidents_read');
  const seconds = round((performance.now() - t0) / 1000, 2);
  progress(`incidents seeding: done in ${seconds}s (including VACUUM ANALYZE)`);
  return { seconds, rows: INCIDENTS };
}

/**
 * What a create writes, in one transaction: the organization's counter row (the lock that keeps
 * sequential ids gapless), the incident row, the same row in `incidents_read` (the inline
 * projection) and its outbox row.
 */
async function rawCreates(ds: DataSource, organizationId: string): Promise<LoopResult> {
  const actor = { kind: 'system' as const, id: null };
  const readModel = await readModelOf(ds, 'incidents');
  const tag = randomUUID().slice(0, 8);
  return rawLoad('incidents raw create (counter + row + read row + outbox row)', (n) =>
    ds.transaction(async (m) => {
      const [{ last_sequential_id: sequentialId }] = await m.query(
        `INSERT INTO incident_counters (organization_id, last_sequential_id) VALUES ($1, 1)
         ON CONFLICT (organization_id) DO UPDATE SET last_sequential_id = incident_counters.last_sequential_id + 1
         RETURNING last_sequential_id`,
        [organizationId],
      );
      const id = randomUUID();
      const now = new Date();
      const [row] = await m.query(
        `INSERT INTO incidents (id, organization_id, sequential_id, title, slug, kind, status, private, started_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $4, 'normal', 'started', false, $5, $5, $5) RETURNING *`,
        [id, organizationId, sequentialId, `raw-${tag}-${n}`, now],
      );
      await readModel.copy(m, 'id = $1', [id]);
      await appendToOutbox(m, RAW_TOPIC, [
        domainEvent({ type: 'incident.created', organizationId, aggregateType: 'incidents', aggregateId: id, actor, payload: row as Record<string, unknown>, occurredAt: now }),
      ]);
    }),
  );
}

export async function benchIncidents(ds: DataSource, url: string, organizationId: string, token: string): Promise<IncidentBench> {
  const severityIds = await createSeverities(url, token);
  const seeding = await seed(ds, organizationId, severityIds);

  // The dashboard's list: one status and one severity, newest first (the default sort).
  const filter = { 'filter[status]': FILTER_STATUS, 'filter[severity_id]': severityIds[0], 'page[size]': PAGE_SIZE };
  const path = (extra: Record<string, string | number>) => `/v1/incidents?${qs({ ...filter, ...extra })}`;
  const first = await getJson(`${url}${path({})}`, token);
  if (first.status !== 200) throw new Error(`GET ${path({})} answered ${first.status}: ${JSON.stringify(first.body)}`);
  const filteredRows: number = first.body.meta.total_count;
  // The cursor after page deepPage - 1 (handed out by the server), checked against page[number]=deepPage.
  const deepPage = Math.min(DEEP_PAGE, Math.floor(filteredRows / PAGE_SIZE) - 1);
  const before = await getJson(`${url}${path({ 'page[number]': deepPage - 1 })}`, token);
  const cursor: string | undefined = before.body?.meta?.next_cursor;
  if (before.status !== 200 || !cursor) throw new Error(`page ${deepPage - 1} answered ${before.status} without a next_cursor`);
  const byCursor = await getJson(`${url}${path({ 'page[after]': cursor })}`, token);
  const byNumber = await getJson(`${url}${path({ 'page[number]': deepPage })}`, token);
  const ids = (doc: { body: { data: { id: string }[] } }) => doc.body.data.map((d) => d.id).join(',');
  if (byCursor.status !== 200 || byCursor.body.data.length !== PAGE_SIZE || ids(byCursor) !== ids(byNumber)) {
    throw new Error(`the cursor page and page[number]=${deepPage} differ (${byCursor.status} / ${byNumber.status})`);
  }
  progress(`incidents lists: ${filteredRows.toLocaleString('en-US')} rows match; cursor page ${deepPage} checked against page[number]=${deepPage}`);

  const headers = { authorization: `Bearer ${token}` };
  const page1 = await load({ label: 'incidents filtered list page 1', url, path: path({}), headers });
  const cursorDeep = await load({ label: `incidents filtered list cursor page ${deepPage}`, url, path: path({ 'page[after]': cursor }), headers });
  const page1Single = await load({ label: 'incidents filtered list page 1, 1 connection', url, path: path({}), headers, connections: 1 });
  const cursorDeepSingle = await load({ label: `incidents filtered list cursor page ${deepPage}, 1 connection`, url, path: path({ 'page[after]': cursor }), headers, connections: 1 });

  // Equivalent SQL of the list's two queries, for the plans (the reader adds the same conditions).
  const where = `organization_id = $1 AND status = '${FILTER_STATUS}' AND severity_id = $2`;
  const plans = [
    { label: 'filtered page 1 (data)', plan: await explain(ds, `SELECT * FROM incidents_read WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ${PAGE_SIZE + 1}`, [organizationId, severityIds[0]]) },
    { label: 'filtered count (meta.total_count)', plan: await explain(ds, `SELECT count(*) FROM incidents_read WHERE ${where}`, [organizationId, severityIds[0]]) },
  ];

  const http = await load({
    label: `create incident over HTTP (${INCIDENTS.toLocaleString('en-US')} in the org)`,
    url,
    path: '/v1/incidents',
    method: 'POST',
    headers: { ...headers, 'content-type': MEDIA_TYPE },
    body: JSON.stringify({ data: { type: 'incidents', attributes: { title: 'bench-http-[<id>]' } } }),
    idReplacement: true,
  });
  const raw = await rawCreates(ds, organizationId);
  return { seeding, filteredRows, deepPage, page1, cursorDeep, page1Single, cursorDeepSingle, http, raw, plans };
}
