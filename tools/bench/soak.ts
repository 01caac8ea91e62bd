/**
 * Section `soak` of `npm run bench` (issue 11): does the process of `npm start` keep its memory
 * under a steady alert load? It starts the whole system as `npm start` does (its script from
 * package.json, a child process on a throwaway DATA_DIR, embedded PostgreSQL, fresh ports), sends
 * signed generic-webhook alerts at BENCH_ALERT_RATE a second for BENCH_SOAK_SECONDS (open loop),
 * samples the resident memory (RSS) of that process every SAMPLE_SECONDS, and compares the end
 * with minute 2 (with a soak shorter than 4 minutes: with the half-way point). Only the soak
 * loads the child: it runs after every other section. See docs/benchmarks.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { freePort } from '@taproot/persistence';
import { ALERT_RATE, alertName, createSource, grafanaFixture, grafanaRequest } from './alerts';
import { intEnv, notRunRow, openLoad, progress, ratioRow, round, sleep, type OpenLoadResult, type SummaryRow } from './harness';

const ROOT = resolve(__dirname, '..', '..');
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

/** Resident memory of a process, in MiB (Linux: /proc/<pid>/status). */
function rssMiB(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (!kb) throw new Error(`no VmRSS for process ${pid}`);
  return round(Number(kb) / 1024, 1);
}

/**
 * `npm start`'s own command (package.json), run directly rather than through npm so that the
 * child is the process whose memory is measured, not npm's.
 */
function startCommand(): string[] {
  const script: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.start;
  const [program, ...args] = script.split(/\s+/);
  if (program !== 'node') throw new Error(`npm start runs "${script}"; the soak expects a node command`);
  return [process.execPath, ...args];
}

interface Started {
  child: ChildProcess;
  url: string;
  token: string;
  stop(): Promise<void>;
}

async function startSystem(): Promise<Started> {
  const dir = mkdtempSync(join(tmpdir(), 'taproot-soak-'));
  const token = `tk_bench_${randomBytes(16).toString('hex')}`;
  const port = await freePort();
  const [program, ...args] = startCommand();
  let output = '';
  const child = spawn(program, args, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      DATA_DIR: join(dir, 'data'),
      HOST: '127.0.0.1',
      PORT: String(port),
      AUTH_PORT: String(await freePort()),
      DISPATCHER_PORT: String(await freePort()),
      EMBEDDED_POSTGRES_PORT: String(await freePort()),
      LOG_LEVEL: 'warn',
      BOOTSTRAP_API_KEY: token,
      // The spec's 50 alerts a minute per alert source would refuse most of the soak (as in section 7).
      ALERT_CREATION_LIMIT_PER_MINUTE: '10000000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      // Its clean stop closes the apps and the embedded PostgreSQL; past a minute it is stuck.
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (!(await fetch(`${url}/readyz`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`npm start did not become ready (exit ${child.exitCode}):\n${output}`);
    }
    await sleep(250);
  }
  return { child, url, token, stop };
}

/** `onStop`: the bench's cleanup list, so an interrupted soak does not leave the system running (stopping twice is harmless). */
export async function benchSoak(onStop: (stop: () => Promise<void>) => void): Promise<SoakBench> {
  progress(`soak: starting npm start's process (${startCommand().slice(1).join(' ')}) on a throwaway DATA_DIR`);
  const system = await startSystem();
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
