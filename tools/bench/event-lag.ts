/**
 * Event lag (issue 11): for every outbox row committed during a load, the time from its commit to
 * its event applied by every bus consumer, and how many events were still pending 2 s after the
 * load stopped. See docs/benchmarks.md.
 *
 * Where the two instants come from:
 * - applied by every consumer: the in-process bus resolves `publish` only after every consumer
 *   group subscribed to the topic has applied the batch (each in its own inbox transaction,
 *   committed), so the probe wraps the runtime's `bus.publish` and stamps each event when it
 *   resolves. Neither `outbox.published_at` nor `inbox.processed_at` can serve: both are `now()`,
 *   the start of their transaction, so the relay's stamp precedes the delivery and a consumer's
 *   stamp precedes its batch's work.
 * - committed: `outbox.created_at`, `now()` of the command's transaction, i.e. its start. The
 *   lag is measured from a little before the commit: an upper bound by the command transaction's
 *   own length (a few ms).
 */
import type { EventBus } from '@taproot/messaging';
import type { DataSource } from 'typeorm';
import { drain, pendingEvents, percentile, progress, round, sleep } from './harness';

/** How long after the load the probe counts what is still pending (the target: nothing). */
const SETTLE_MS = 2000;

export interface EventLag {
  /** Outbox rows committed during the load (the writes' events and what consumers emitted in turn). */
  events: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Events not yet applied by every consumer SETTLE_MS after the load stopped. */
  pendingAfterSettle: number;
  settleSeconds: number;
}

export interface EventLagProbe {
  /** Call when the measured load starts. */
  start(): Promise<void>;
  /** Call when it has stopped: waits SETTLE_MS, counts what is pending, drains, and measures. */
  finish(label: string): Promise<EventLag>;
}

/** Database clock minus this process's clock, in ms (the same host: about 0; a remote BENCH_DATABASE_URL: whatever it is). */
async function clockOffsetMs(ds: DataSource): Promise<number> {
  const before = Date.now();
  const [{ ms }] = await ds.query('SELECT extract(epoch FROM clock_timestamp()) * 1000 AS ms');
  return Number(ms) - (before + Date.now()) / 2;
}

/** A probe on the in-process bus of `ds`'s runtime; only that bus resolves publish after its consumers. */
export function eventLagProbe(ds: DataSource, bus: EventBus): EventLagProbe {
  if (bus.kind !== 'in-process') throw new Error(`event lag needs the in-process bus (this runtime has ${bus.kind})`);
  const appliedAt = new Map<string, number>();
  const publish = bus.publish;
  let window: { from: Date; offsetMs: number } | null = null;
  return {
    async start() {
      appliedAt.clear();
      bus.publish = async (messages) => {
        await publish.call(bus, messages);
        const now = Date.now();
        for (const { event } of messages) appliedAt.set(event.id, now);
      };
      const [{ now }] = await ds.query('SELECT clock_timestamp() AS now');
      window = { from: now, offsetMs: await clockOffsetMs(ds) };
    },
    async finish(label) {
      if (!window) throw new Error('event lag: finish() before start()');
      const [{ now: to }] = await ds.query('SELECT clock_timestamp() AS now');
      await sleep(SETTLE_MS);
      const pendingAfterSettle = await pendingEvents(ds);
      await drain(ds, label);
      bus.publish = publish;
      const rows: { event_id: string; created_ms: string }[] = await ds.query(
        'SELECT event_id, extract(epoch FROM created_at) * 1000 AS created_ms FROM outbox WHERE created_at >= $1 AND created_at <= $2',
        [window.from, to],
      );
      const { offsetMs } = window;
      const lags = rows.map((r) => {
        const applied = appliedAt.get(r.event_id);
        // Drained, so published: an event the probe did not see went out on another path (none expected).
        if (applied === undefined) throw new Error(`event lag: event ${r.event_id} was published without the probe seeing it`);
        return applied + offsetMs - Number(r.created_ms);
      });
      lags.sort((a, b) => a - b);
      const lag: EventLag = {
        events: lags.length,
        p50Ms: round(percentile(lags, 50), 1),
        p99Ms: round(percentile(lags, 99), 1),
        maxMs: round(lags[lags.length - 1] ?? 0, 1),
        pendingAfterSettle,
        settleSeconds: SETTLE_MS / 1000,
      };
      progress(`${label}: event lag of ${lag.events} events p50 ${lag.p50Ms} ms, p99 ${lag.p99Ms} ms, max ${lag.maxMs} ms; ${pendingAfterSettle} pending ${lag.settleSeconds}s after the load`);
      return lag;
    },
  };
}
