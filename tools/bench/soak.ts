/**
 * Section `soak` of `npm run bench` (issue 11): does the process of `npm start` keep its memory
 * under a steady alert load? It starts the whole system as `npm start` does (its script from
 * package.json, a child process on a throwaway DATA_DIR, embedded PostgreSQL, fresh ports), sends
 * signed generic-webhook alerts at BENCH_ALERT_RATE a second for BENCH_SOAK_SECONDS (open loop),
 * samples the resident memory (RSS) of that process every SAMPLE_SECONDS, and compares the end
 * with minute 2 (with a soak shorter than 4 minutes: with the half-way point). Only the soak
 * loads the child: it runs after every other section. See docs/benchmarks.md.
 */
import { performance } from 'node:perf_hooks';
import { ALERT_RATE, alertName, createSource, grafanaFixture, grafanaRequest } from './alerts';
import { intEnv, notRunRow, openLoad, progress, ratioRow, round, type OpenLoadResult, type SummaryRow } from './harness';
import { rssMiB, startCommand, startSystem } from './system';

export const SOAK_SECONDS = intEnv('BENCH_SOAK_SECONDS', 600, 20);
const SAMPLE_SECONDS = 10;
/** The reference point: memory at minute 2, once start-up and the first load have settled. */
const REFERENCE_SECONDS = 120;
export const MAX_RSS_RATIO = 1.2;
const RSS_MEASURE = 'npm start RSS after the alert soak / at minute 2';

export interface SoakBench {
  seconds: number;
  ratePerSec: number;
  /** RSS in MiB of the `npm start` process, from the start of the load. */
  samples: { atSeconds: number; rssMiB: number }[];
  reference: { atSeconds: number; rssMiB: number; halfWay: boolean };
  end: { atSeconds: number; rssMiB: number };
  load: OpenLoadResult;
}

/** `onStop`: the bench's cleanup list, so an interrupted soak does not leave the system running (stopping twice is harmless). */
export async function benchSoak(onStop: (stop: () => Promise<void>) => void): Promise<SoakBench> {
  progress(`soak: starting npm start's process (${startCommand().slice(1).join(' ')}) on a throwaway DATA_DIR`);
  const system = await startSystem(startCommand());
  onStop(system.stop);
  try {
    const pid = system.child.pid!;
    const source = await createSource(system.url, system.token);
    const fixture = grafanaFixture();
    const samples: SoakBench['samples'] = [];
    let t0 = 0;
    const sample = () => samples.push({ atSeconds: round((performance.now() - t0) / 1000, 1), rssMiB: rssMiB(pid) });
    let timer: NodeJS.Timeout | undefined;
    progress(`soak: ${ALERT_RATE} signed webhook alerts/s for ${SOAK_SECONDS}s, RSS of process ${pid} every ${SAMPLE_SECONDS}s`);
    const load = await openLoad({
      label: 'soak: generic webhook',
      url: system.url,
      path: source.path,
      rate: ALERT_RATE,
      seconds: SOAK_SECONDS,
      warmupSeconds: 0,
      request: (n) => grafanaRequest(fixture, source.path, source.secret, alertName('Soak', n), n),
      beforeMeasured: async () => {
        t0 = performance.now();
        sample();
        timer = setInterval(() => {
          sample();
          const last = samples[samples.length - 1];
          progress(`soak: ${last.atSeconds}s, RSS ${last.rssMiB} MiB`);
        }, SAMPLE_SECONDS * 1000);
      },
    }).finally(() => clearInterval(timer));
    sample();
    const halfWay = SOAK_SECONDS < 2 * REFERENCE_SECONDS;
    const referenceAt = halfWay ? SOAK_SECONDS / 2 : REFERENCE_SECONDS;
    const nearest = samples.reduce((best, s) => (Math.abs(s.atSeconds - referenceAt) < Math.abs(best.atSeconds - referenceAt) ? s : best));
    return { seconds: SOAK_SECONDS, ratePerSec: ALERT_RATE, samples, reference: { ...nearest, halfWay }, end: samples[samples.length - 1], load };
  } finally {
    progress('soak: stopping npm start');
    await system.stop();
  }
}

/** The RSS row of the summary; without a soak, a row saying it did not run. */
export function soakRow(b: SoakBench | null): SummaryRow {
  if (!b) return notRunRow(RSS_MEASURE, `<= ${MAX_RSS_RATIO}`);
  const measure = b.reference.halfWay ? `npm start RSS after a ${b.seconds}s alert soak / at the half-way point (soak < 4 min)` : RSS_MEASURE;
  return ratioRow(measure, `${b.end.rssMiB} MiB`, `${b.reference.rssMiB} MiB`, round(b.end.rssMiB / b.reference.rssMiB, 2), '<=', MAX_RSS_RATIO);
}
