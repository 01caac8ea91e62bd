/**
 * Section 7 of `npm run bench`: sustained alert ingestion (issue 5), on two routes:
 *   - signed Grafana webhooks to a generic_webhook alert source, `POST /v1/alert_sources/{id}/alerts`;
 *   - JSON:API alerts to `POST /v1/alerts` with the run's API key;
 * both with the alert-creation limit raised (ALERT_CREATION_LIMIT_PER_MINUTE). Each route is
 * loaded twice: at a fixed offered rate (BENCH_ALERT_RATE alerts a second), open loop
 * (open-loop-worker.ts: requests go out on schedule whatever the answers, so latency includes
 * queueing), then back to back on CONNECTIONS connections (the rate it sustains). Nine requests in
 * ten carry a new deduplication key and create an alert; the tenth repeats the previous key and
 * is deduplicated into it, as a monitoring tool re-sending a firing alert is. Beside them, on the
 * same pool, the transaction a create writes (dedup lock and lookup, alert row, alert event row,
 * their read-model rows, outbox rows) in a closed loop: the database's floor. While the webhook
 * runs back to back, the event lag (event-lag.ts). Right after the webhook's back-to-back load, PagerDuty
 * Events v2 triggers to `POST /v2/enqueue` back to back (same keys pattern, a source's secret as
 * routing key): issue 16's ratio against the webhook's. See docs/benchmarks.md.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { signBody, SIGNATURE_HEADER } from '@taproot/alerting';
import { appendToOutbox, domainEvent, type EventBus } from '@taproot/messaging';
import type { DataSource } from 'typeorm';
import { eventLagProbe, type EventLag, type EventLagProbe } from './event-lag';
import {
  closedLoad,
  CONNECTIONS,
  createResource,
  drain,
  intEnv,
  limitRow,
  MEDIA_TYPE,
  openLoad,
  out,
  progress,
  ratio,
  RAW_TOPIC,
  rawLoad,
  ratioRow,
  readModelOf,
  SECONDS,
  table,
  WARMUP_SECONDS,
  type LoopResult,
  type OpenLoadResult,
  type OpenLoadSpec,
  notRunRow,
  type SummaryRow,
} from './harness';

/**
 * Offered alerts a second per route. 25/s is 1,500 alerts a minute: thirty alert sources each at
 * the spec's limit of 50 a minute, an alert storm, and below the 35-48/s either route sustained
 * back to back on the 2-core machine (docs/benchmarks.md).
 */
export const ALERT_RATE = intEnv('BENCH_ALERT_RATE', 25, 1);
/** Every DUPLICATE_EVERY-th request repeats the previous request's deduplication key. */
const DUPLICATE_EVERY = 10;
/** Targets (docs/benchmarks.md, "What each measure means"): issue 5's, and issue 11's tighter ones for the webhook. */
const MIN_ACCEPTED_RATIO = 0.99;
const TARGETS = {
  webhook: { maxP99Ms: 50, minRawRatio: 1.0 },
  api: { maxP99Ms: 250, minRawRatio: 0.5 },
};
const MAX_EVENT_LAG_P99_MS = 1000;
/** Issue 16: `POST /v2/enqueue` back to back / the signed generic webhook back to back. */
const MIN_ENQUEUE_RATIO = 0.9;
const ENQUEUE_MEASURE = 'alerts POST /v2/enqueue back to back / signed generic webhook back to back';
/** Issue 16: ingestion through a source with 5 routes of 20 rules each / through a source with none. */
const MIN_ROUTED_RATIO = 0.8;
const ROUTED_MEASURE = 'alerts generic webhook back to back: source with 5 routes of 20 rules / source with none';
const BENCH_ROUTES = 5;
const RULES_PER_ROUTE = 20;

/** A recorded Grafana notification (the ingestion unit tests' fixture): the body every webhook varies. */
const GRAFANA_FIXTURE = join(__dirname, '..', '..', 'libs', 'alerting', 'src', 'ingestion', 'fixtures', 'grafana-webhook.json');

/** The mapping a Grafana user sets on a generic webhook source (reference alerts_source attributes). */
const GRAFANA_SOURCE = {
  source_type: 'generic_webhook',
  sourceable_attributes: {
    auto_resolve: true,
    resolve_state: 'resolved',
    field_mappings_attributes: [
      { field: 'alert_title', json_path: '$.alerts[0].annotations.summary' },
      { field: 'alert_description', json_path: '$.alerts[0].annotations.description' },
      { field: 'alert_external_url', json_path: '$.alerts[0].generatorURL' },
      { field: 'external_id', json_path: '$.alerts[0].fingerprint' },
      { field: 'state', json_path: '$.status' },
    ],
  },
  deduplicate_alerts_by_key: true,
  deduplication_key_path: '$.groupKey',
  deduplication_key_regexp: 'alertname="([^"]+)"',
};

export interface AlertRouteBench {
  /** At the offered rate, open loop. */
  offered: OpenLoadResult;
  /** Alerts the offered load created (rows), and how many of its requests carried a new key. */
  created: number;
  expectedCreates: number;
  /** How long the event backlog took to drain after the offered load (projections catching up). */
  drainSeconds: number;
  /** CONNECTIONS connections back to back: the rate the route sustains. */
  capacity: OpenLoadResult;
}

export interface AlertBench {
  offeredPerSec: number;
  raw: LoopResult;
  webhook: AlertRouteBench;
  api: AlertRouteBench;
  /** While the webhook ran back to back. */
  eventLag: EventLag;
  /** PagerDuty Events v2 triggers to `/v2/enqueue`, back to back, right after the webhook's. */
  enqueue: OpenLoadResult;
  /** The webhook back to back to a source without routes, then to one with 5 routes of 20 rules. */
  routing: { none: OpenLoadResult; routed: OpenLoadResult };
}

/** The alert name (and so the deduplication key) of request n: a repeat of n - 1 every DUPLICATE_EVERY-th. */
export const alertName = (tag: string, n: number) => `Bench${tag}-${n % DUPLICATE_EVERY === DUPLICATE_EVERY - 1 ? n - 1 : n}`;
const creates = (n: number) => n % DUPLICATE_EVERY !== DUPLICATE_EVERY - 1;

export function grafanaFixture(): Record<string, unknown> {
  return JSON.parse(readFileSync(GRAFANA_FIXTURE, 'utf8')) as Record<string, unknown>;
}

/** Grafana's notification for one firing alert named `name`, signed with the source's secret. */
export function grafanaRequest(fixture: Record<string, unknown>, path: string, secret: string, name: string, n: number) {
  const [alert] = fixture.alerts as Record<string, Record<string, unknown>>[];
  const labels = { ...alert.labels, alertname: name };
  const body = JSON.stringify({
    ...fixture,
    alerts: [{ ...alert, labels, fingerprint: n.toString(16).padStart(16, '0'), annotations: { ...alert.annotations, summary: `${name}: payments-api 5xx ratio above 5%` } }],
    groupLabels: { ...(fixture.groupLabels as object), alertname: name },
    commonLabels: labels,
    groupKey: `{}/{}:{alertname="${name}", grafana_folder="Payments"}`,
    title: `[FIRING:1] ${name} Payments (payments-api critical)`,
  });
  return { path, headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signBody(body, secret) }, body };
}

/** What a Datadog-style integration posts to `/v1/alerts`. */
function apiRequest(token: string, name: string, n: number) {
  const host = `web-${n % 20}`;
  const body = JSON.stringify({
    data: {
      type: 'alerts',
      attributes: {
        summary: `[Triggered on {host:${host}}] ${name}: CPU above 90%`,
        description: `avg(last_5m):avg:system.cpu.user{host:${host}} > 90 (value 93.4)`,
        deduplication_key: name,
        external_id: `dd-event-${n}`,
        external_url: `https://app.datadoghq.com/monitors/4242?from_ts=${n}`,
        labels: [
          { key: 'host', value: host },
          { key: 'env', value: 'production' },
          { key: 'monitor', value: 'cpu-high' },
        ],
        data: { monitor_id: 4242, priority: 'P2', tags: ['team:payments', `host:${host}`] },
      },
    },
  });
  return { path: '/v1/alerts', headers: { authorization: `Bearer ${token}`, 'content-type': MEDIA_TYPE }, body };
}

/** A PagerDuty Events v2 trigger for `name`, as a monitoring tool sends it: the routing key is the source's secret. */
function enqueueRequest(routingKey: string, name: string, n: number) {
  const body = JSON.stringify({
    routing_key: routingKey,
    event_action: 'trigger',
    dedup_key: name,
    payload: {
      summary: `${name}: payments-api 5xx ratio above 5%`,
      source: 'payments-api',
      severity: 'critical',
      component: 'api',
      group: 'payments',
      class: 'http_5xx',
      custom_details: { ratio: 0.07, threshold: 0.05 },
    },
    client: 'Grafana',
    client_url: `https://grafana.example.com/alerting/list?n=${n}`,
  });
  return { path: '/v2/enqueue', headers: { 'content-type': 'application/json' }, body };
}

/** `/v2/enqueue` back to back to a source of its own, on the webhook's connections and bound; then its events drain. */
async function enqueueBackToBack(ds: DataSource, url: string, token: string, tag: string, rawPerSec: number): Promise<OpenLoadResult> {
  const source = await createResource(url, token, '/v1/alert_sources', 'alert_sources', { name: 'Bench PagerDuty', source_type: 'generic_webhook' });
  const routingKey = String(source.attributes.secret);
  const label = 'alerts: POST /v2/enqueue (PagerDuty trigger), back to back';
  const capacity = await closedLoad({ label, url, path: '/v2/enqueue', maxPerSec: rawPerSec * 2, request: (n) => enqueueRequest(routingKey, alertName(`P${tag}`, n), n) });
  await drain(ds, label);
  return capacity;
}

/**
 * 5 routes of 20 rules for a source, each rule a group of two payload conditions the bench's alerts
 * never meet, and no fallback: every alert is evaluated against all 100 rules (the most work a
 * route set of this size costs) and routed nowhere, so after routing both sources' alerts do the
 * same work (no paging).
 */
function benchRoutes(sourceId: string, serviceId: string): Record<string, unknown>[] {
  return Array.from({ length: BENCH_ROUTES }, (_, r) => ({
    name: `Bench route ${r}`,
    alerts_source_ids: [sourceId],
    rules: Array.from({ length: RULES_PER_ROUTE }, (_, i) => ({
      name: `Rule ${r}.${i}`,
      position: i,
      destinations: [{ target_id: serviceId }],
      condition_groups: [
        {
          conditions: [
            { property_field_type: 'payload', property_field_name: '$.alerts[0].labels.team', property_field_condition_type: 'is_one_of', property_field_values: [`team-${r}-${i}`, `squad-${r}-${i}`] },
            { property_field_type: 'attribute', property_field_name: 'summary', property_field_condition_type: 'contains', property_field_value: `route-${r}-rule-${i}` },
          ],
        },
      ],
    })),
  }));
}

/** The signed webhook back to back to a source without routes, then to one with 5 routes of 20 rules (issue 16). */
async function routedBackToBack(ds: DataSource, url: string, token: string, tag: string, rawPerSec: number): Promise<AlertBench['routing']> {
  const fixture = grafanaFixture();
  const [plain, routed] = [await createSource(url, token), await createSource(url, token)];
  const service = await createResource(url, token, '/v1/services', 'services', { name: `Bench routed ${tag}` });
  for (const route of benchRoutes(routed.id, service.id)) await createResource(url, token, '/v1/alert_routes', 'alert_routes', route);
  progress(`alerts: ${BENCH_ROUTES} routes of ${RULES_PER_ROUTE} rules on source ${routed.id}`);
  const load = async (label: string, source: { path: string; secret: string }, prefix: string) => {
    const result = await closedLoad({ label, url, path: source.path, maxPerSec: rawPerSec * 2, request: (n) => grafanaRequest(fixture, source.path, source.secret, alertName(prefix, n), n) });
    await drain(ds, label);
    return result;
  };
  const none = await load('alerts: generic webhook to a source with no routes, back to back', plain, `N${tag}`);
  return { none, routed: await load(`alerts: generic webhook to a source with ${BENCH_ROUTES} routes of ${RULES_PER_ROUTE} rules, back to back`, routed, `R${tag}`) };
}

/** The Grafana generic webhook source, created over HTTP: its id, signing secret and webhook path. */
export async function createSource(url: string, token: string): Promise<{ id: string; secret: string; path: string }> {
  const source = await createResource(url, token, '/v1/alert_sources', 'alert_sources', { name: 'Bench Grafana', ...GRAFANA_SOURCE });
  return { id: source.id, secret: String(source.attributes.secret), path: new URL(String(source.attributes.webhook_endpoint)).pathname };
}

/**
 * One route, at the offered rate then back to back, each after the previous load's events have
 * drained. After the offered load, a cross-check on the write table: when every request
 * succeeded, each one with a new key created exactly one alert and each repeat was deduplicated.
 * With `lag`, the event lag of the back-to-back load (measured, it drains the events itself).
 */
async function measureRoute(
  ds: DataSource,
  spec: OpenLoadSpec,
  countAlerts: () => Promise<number>,
  rawPerSec: number,
  lag?: EventLagProbe,
): Promise<AlertRouteBench & { eventLag?: EventLag }> {
  let built = 0;
  let firstMeasured = 0;
  let before = 0;
  const offered = await openLoad({
    ...spec,
    rate: ALERT_RATE,
    request: (n) => {
      built = n + 1;
      return spec.request(n);
    },
    beforeMeasured: async () => {
      firstMeasured = built;
      before = await countAlerts();
    },
  });
  const created = (await countAlerts()) - before;
  const expectedCreates = Array.from({ length: offered.requests }, (_, i) => firstMeasured + i).filter(creates).length;
  if (offered.ok === offered.requests && created !== expectedCreates) {
    throw new Error(`${spec.label}: ${created} alerts created from ${offered.requests} accepted requests, expected ${expectedCreates} (one per new key)`);
  }
  const drainSeconds = await drain(ds, spec.label);
  // Distinct numbers for the second load's keys: it must create, not deduplicate into the first's alerts.
  const label = `${spec.label}, back to back`;
  const capacity = await closedLoad({ ...spec, label, maxPerSec: rawPerSec * 2, request: (n) => spec.request(1_000_000_000 + n), beforeMeasured: lag?.start });
  const eventLag = await lag?.finish(label);
  await drain(ds, spec.label);
  return { offered, created, expectedCreates, drainSeconds, capacity, eventLag };
}

/**
 * What an alert create writes for a new key, without HTTP, Nest, mapping or validation
 * (CreateAlertHandler, createAlert in alert-writes.ts), in one transaction: the per-key advisory lock and the
 * lookup of an unresolved alert with the key (index alerts_dedup), the alert row, its alert event
 * row (the timeline line), the same two rows in `alerts_read` and `alert_events_read` (the inline
 * projections) and the two outbox rows.
 */
async function rawCreates(ds: DataSource, organizationId: string, alertSourceId: string): Promise<LoopResult> {
  const actor = { kind: 'system' as const, id: `alert_source:${alertSourceId}` };
  const alerts = await readModelOf(ds, 'alerts');
  const alertEvents = await readModelOf(ds, 'alert_events');
  const tag = randomUUID().slice(0, 8);
  return rawLoad('alerts raw create (dedup lock + lookup, 2 rows, 2 read rows, 2 outbox rows)', (n) =>
    ds.transaction(async (m) => {
      const key = `raw-${tag}-${n}`;
      const now = new Date();
      await m.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', [`alerts:${organizationId}:generic_webhook:${alertSourceId}`, key]);
      await m.query(
        `SELECT id FROM alerts WHERE organization_id = $1 AND source = 'generic_webhook' AND deduplication_key = $2 AND alert_source_id = $3
            AND status <> 'resolved' ORDER BY created_at LIMIT 1`,
        [organizationId, key, alertSourceId],
      );
      const id = randomUUID();
      const [alert] = await m.query(
        `INSERT INTO alerts (id, organization_id, short_id, summary, description, source, status, external_id, external_url,
                             deduplication_key, labels, alert_source_id, started_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, 'generic_webhook', 'open', $6, $7, $8, '[]', $9, $10, $10, $10) RETURNING *`,
        [id, organizationId, randomBytes(5).toString('hex'), `${key}: payments-api 5xx ratio above 5%`, '5xx ratio above threshold', String(n), 'https://grafana.example.com/alerting', key, alertSourceId, now],
      );
      const eventId = randomUUID();
      const [event] = await m.query(
        `INSERT INTO alert_events (id, organization_id, alert_id, kind, action, details, user_id, created_at, updated_at)
         VALUES ($1, $2, $3, 'informational', 'created', 'Alert created (open)', NULL, $4, $4) RETURNING *`,
        [eventId, organizationId, id, now],
      );
      await alerts.copy(m, 'id = $1', [id]);
      await alertEvents.copy(m, 'id = $1', [eventId]);
      await appendToOutbox(m, RAW_TOPIC, [
        domainEvent({ type: 'alert.created', organizationId, aggregateType: 'alerts', aggregateId: id, actor, payload: alert as Record<string, unknown>, occurredAt: now }),
        domainEvent({ type: 'alert_event.created', organizationId, aggregateType: 'alert_events', aggregateId: eventId, actor, payload: event as Record<string, unknown>, occurredAt: now }),
      ]);
    }),
  );
}

export async function benchAlerts(ds: DataSource, bus: EventBus, url: string, organizationId: string, token: string): Promise<AlertBench> {
  const source = await createSource(url, token);
  const fixture = grafanaFixture();
  const tag = randomUUID().slice(0, 8);
  progress(`alerts: generic_webhook source ${source.id} created; offered rate ${ALERT_RATE} alerts/s, 1 request in ${DUPLICATE_EVERY} a duplicate`);

  const raw = await rawCreates(ds, organizationId, source.id);
  await drain(ds, 'alerts raw loop');

  const count = (where: string, params: unknown[]) => async () => {
    const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM alerts WHERE organization_id = $1 AND ${where}`, [organizationId, ...params]);
    return n as number;
  };
  const { eventLag, ...webhook } = await measureRoute(
    ds,
    { label: 'alerts: generic webhook (signed Grafana payload)', url, path: source.path, request: (n) => grafanaRequest(fixture, source.path, source.secret, alertName(`W${tag}`, n), n) },
    count('alert_source_id = $2', [source.id]),
    raw.opsPerSec,
    eventLagProbe(ds, bus),
  );
  const enqueue = await enqueueBackToBack(ds, url, token, tag, raw.opsPerSec);
  const routing = await routedBackToBack(ds, url, token, tag, raw.opsPerSec);
  const api = await measureRoute(
    ds,
    { label: 'alerts: POST /v1/alerts (API key)', url, path: '/v1/alerts', request: (n) => apiRequest(token, alertName(`A${tag}`, n), n) },
    count('alert_source_id IS NULL', []),
    raw.opsPerSec,
  );
  return { offeredPerSec: ALERT_RATE, raw, webhook, api, eventLag: eventLag!, enqueue, routing };
}

/** Prints section 7 and returns its summary rows. */
export function reportAlerts(b: AlertBench): SummaryRow[] {
  out(`## 7. Alert ingestion (${b.offeredPerSec} alerts/s offered open loop, and back to back on ${CONNECTIONS} connections; ${SECONDS}s after ${WARMUP_SECONDS}s warm-up; 1 request in ${DUPLICATE_EVERY} a duplicate)`);
  const routes = [b.webhook, b.api];
  const rows = routes.flatMap(({ offered, created, expectedCreates, drainSeconds, capacity }) => [
    [offered.label, `${offered.offeredPerSec}/s`, offered.okPerSec, offered.non2xx, offered.errors + offered.timeouts, offered.latencyMs.p50, offered.latencyMs.p90, offered.latencyMs.p99, offered.latencyMs.max, `${created} / ${expectedCreates}`, drainSeconds, offered.maxLagMs],
    [capacity.label, `${capacity.connections} conn.`, capacity.okPerSec, capacity.non2xx, capacity.errors + capacity.timeouts, capacity.latencyMs.p50, capacity.latencyMs.p90, capacity.latencyMs.p99, capacity.latencyMs.max, '', '', ''],
  ]);
  const e = b.enqueue;
  for (const c of [e, b.routing.none, b.routing.routed]) rows.push([c.label, `${c.connections} conn.`, c.okPerSec, c.non2xx, c.errors + c.timeouts, c.latencyMs.p50, c.latencyMs.p90, c.latencyMs.p99, c.latencyMs.max, '', '', '']);
  const headers = ['load', 'offered', 'accepted/s', 'non-2xx', 'err+timeout', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'created / new keys', 'drain s', 'sender lag ms'];
  for (const l of table(headers, rows)) out(l);
  out(
    `raw loop: ${b.raw.ops} alerts in ${b.raw.seconds}s = ${b.raw.opsPerSec} alerts/s, p50 ${b.raw.latencyMs.p50} ms, p99 ${b.raw.latencyMs.p99} ms ` +
      `(dedup lock + lookup, alert row, alert event row, their 2 read rows, 2 outbox rows; ${b.raw.workers} concurrent transactions)`,
  );
  const lag = b.eventLag;
  out(
    `event lag while the webhook ran back to back (commit to applied by every bus consumer): ${lag.events} events, ` +
      `p50 ${lag.p50Ms} ms, p99 ${lag.p99Ms} ms, max ${lag.maxMs} ms; ${lag.pendingAfterSettle} not applied ${lag.settleSeconds}s after the load`,
  );

  const summary: SummaryRow[] = [];
  for (const [route, r] of [['webhook', b.webhook], ['api', b.api]] as const) {
    const { offered, capacity } = r;
    const measure = routeMeasures(route);
    summary.push(ratioRow(measure.accepted, `${offered.okPerSec} /s`, `${b.offeredPerSec} /s`, ratio(offered.okPerSec, b.offeredPerSec), '>=', MIN_ACCEPTED_RATIO));
    summary.push(limitRow(measure.p99, offered.latencyMs.p99, 'ms', '<', TARGETS[route].maxP99Ms));
    summary.push(ratioRow(measure.raw, `${capacity.okPerSec} alerts/s`, `${b.raw.opsPerSec} alerts/s`, ratio(capacity.okPerSec, b.raw.opsPerSec), '>=', TARGETS[route].minRawRatio));
  }
  summary.push(ratioRow(ENQUEUE_MEASURE, `${e.okPerSec} alerts/s`, `${b.webhook.capacity.okPerSec} alerts/s`, ratio(e.okPerSec, b.webhook.capacity.okPerSec), '>=', MIN_ENQUEUE_RATIO));
  const { none, routed } = b.routing;
  summary.push(ratioRow(ROUTED_MEASURE, `${routed.okPerSec} alerts/s`, `${none.okPerSec} alerts/s`, ratio(routed.okPerSec, none.okPerSec), '>=', MIN_ROUTED_RATIO));
  summary.push(...eventLagRows(lag));
  return summary;
}

const ROUTE_NAMES = { webhook: 'generic webhook', api: 'POST /v1/alerts' };
const routeMeasures = (route: keyof typeof ROUTE_NAMES) => ({
  accepted: `alerts ${ROUTE_NAMES[route]}: accepted / offered (open loop)`,
  p99: `alerts ${ROUTE_NAMES[route]}: p99 at ${ALERT_RATE}/s offered`,
  raw: `alerts ${ROUTE_NAMES[route]}: HTTP back to back / raw alert transaction`,
});

/** Issue 11's alert targets, as rows saying the section did not run. */
export function alertsNotRunRows(): SummaryRow[] {
  return [
    notRunRow(routeMeasures('api').raw, `>= ${TARGETS.api.minRawRatio}`),
    notRunRow(routeMeasures('webhook').raw, `>= ${TARGETS.webhook.minRawRatio}`),
    notRunRow(routeMeasures('webhook').p99, `< ${TARGETS.webhook.maxP99Ms} ms`),
    notRunRow(ENQUEUE_MEASURE, `>= ${MIN_ENQUEUE_RATIO}`),
    notRunRow(ROUTED_MEASURE, `>= ${MIN_ROUTED_RATIO}`),
    ...eventLagRows(null),
  ];
}

const EVENT_LAG_MEASURE = 'event lag p99 (commit to applied by every bus consumer), webhook back to back';
const EVENT_LAG_PENDING = 'events not applied 2 s after the webhook load stopped';

/** The event-lag rows of the summary; without a measure, rows saying the section did not run. */
function eventLagRows(lag: EventLag | null): SummaryRow[] {
  if (!lag) return [notRunRow(EVENT_LAG_MEASURE, `< ${MAX_EVENT_LAG_P99_MS} ms`), notRunRow(EVENT_LAG_PENDING, '= 0')];
  const pending = lag.pendingAfterSettle;
  return [
    limitRow(EVENT_LAG_MEASURE, lag.p99Ms, 'ms', '<', MAX_EVENT_LAG_P99_MS),
    { measure: EVENT_LAG_PENDING, a: String(pending), b: '', ratio: null, ratioText: '', target: '= 0', verdict: pending === 0 ? 'PASS' : 'MISS' },
  ];
}
