/**
 * Section `reads` of `npm run bench` (issue 11): one record read through the whole stack against
 * the query that fetches it. `GET /v1/severities/{id}` with the run's API key (autocannon) vs
 * `SELECT * FROM severities_read WHERE id = $1 AND organization_id = $2` on the runtime's pool,
 * both from CONNECTIONS concurrent callers. The HTTP side adds authentication (cached for
 * AUTH_CACHE_TTL_MS), the rate limiter (its leased counts), permissions, serialization and HTTP.
 * See docs/benchmarks.md.
 */
import type { DataSource } from 'typeorm';
import { createResource, load, rawLoad, ratio, ratioRow, type LoadResult, type LoopResult, type SummaryRow } from './harness';

export const READS_MEASURE = 'authenticated GET /v1/severities/{id} / raw SELECT, same pool and concurrency';
export const MIN_READ_RATIO = 0.5;

export interface ReadBench {
  severityId: string;
  http: LoadResult;
  raw: LoopResult;
}

export async function benchReads(ds: DataSource, url: string, organizationId: string, token: string): Promise<ReadBench> {
  const { id: severityId } = await createResource(url, token, '/v1/severities', 'severities', { name: 'SEV-read' });
  const path = `/v1/severities/${severityId}`;
  const check = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  if (check.status !== 200) throw new Error(`GET ${path} answered ${check.status}: ${await check.text()}`);
  const http = await load({ label: 'GET /v1/severities/{id}', url, path, headers: { authorization: `Bearer ${token}` } });
  const raw = await rawLoad('raw SELECT of the severity', async () => {
    const rows = await ds.query('SELECT * FROM severities_read WHERE id = $1 AND organization_id = $2', [severityId, organizationId]);
    if (rows.length !== 1) throw new Error(`the raw SELECT found ${rows.length} rows`);
  });
  return { severityId, http, raw };
}

export function readsRow(b: ReadBench): SummaryRow {
  return ratioRow(READS_MEASURE, `${b.http.okPerSec} req/s`, `${b.raw.opsPerSec} /s`, ratio(b.http.okPerSec, b.raw.opsPerSec), '>=', MIN_READ_RATIO);
}
