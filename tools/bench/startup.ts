/**
 * Section `startup` of `npm run bench` (issue 12): start time and idle memory of the whole system,
 * side by side in one run, as `npm start` runs it (the built JavaScript, tools/dist/start.js)
 * and as it ran before (TypeScript through the SWC register, `npm run start:dev`). Each command
 * starts ROUNDS times on a data directory it initialised once beforehand (so the figure is the
 * apps' start, not PostgreSQL's initdb): the time from spawn to the three apps' /readyz, and the
 * process's RSS after IDLE_SECONDS with no request. Medians. See docs/benchmarks.md.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { intEnv, median, progress, ratioRow, round, sleep, type SummaryRow } from './harness';
import { rssMiB, scriptCommand, startSystem } from './system';

const ROOT = resolve(__dirname, '..', '..');
const ROUNDS = intEnv('BENCH_STARTUP_ROUNDS', 3, 1);
const IDLE_SECONDS = 20;
/** Issue 12's aim for the idle `npm start` process. */
const MAX_IDLE_MIB = 150;

export interface StartupRun {
  readyMs: number;
  idleRssMiB: number;
}

export interface StartupBench {
  built: { command: string[]; runs: StartupRun[]; readyMs: number; idleRssMiB: number };
  register: { command: string[]; runs: StartupRun[]; readyMs: number; idleRssMiB: number };
}

async function measure(label: string, command: string[]): Promise<StartupBench['built']> {
  const dir = mkdtempSync(join(tmpdir(), 'taproot-startup-'));
  try {
    progress(`startup: ${label}: first start initialises the data directory`);
    await (await startSystem(command, dir)).stop();
    const runs: StartupRun[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const system = await startSystem(command, dir);
      try {
        await sleep(IDLE_SECONDS * 1000);
        runs.push({ readyMs: system.readyMs, idleRssMiB: rssMiB(system.child.pid!) });
      } finally {
        await system.stop();
      }
      progress(`startup: ${label} #${i + 1}: ready in ${runs[i].readyMs} ms, ${runs[i].idleRssMiB} MiB after ${IDLE_SECONDS}s idle`);
    }
    return { command, runs, readyMs: median(runs.map((r) => r.readyMs)), idleRssMiB: median(runs.map((r) => r.idleRssMiB)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchStartup(): Promise<StartupBench> {
  // Built once here, so the built runs time the start, not the build (npm start builds only what changed).
  const build = spawnSync(process.execPath, [join(ROOT, 'node_modules/.bin/nx'), 'run', '@taproot/tools:build', '--output-style=static'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NX_DAEMON: 'false' } });
  if (build.status !== 0) throw new Error(`nx run @taproot/tools:build failed:\n${build.stdout}\n${build.stderr}`);
  const [node, ...flags] = scriptCommand('start');
  const built = await measure('built JavaScript (npm start)', [node, ...flags.filter((a) => a.startsWith('--')), join(ROOT, 'tools/dist/start.js')]);
  const register = await measure('TypeScript through the register (npm run start:dev)', scriptCommand('start:dev'));
  return { built, register };
}

export function startupRows(b: StartupBench): SummaryRow[] {
  return [
    ratioRow('startup: ready (3 apps) built / register', `${b.built.readyMs} ms`, `${b.register.readyMs} ms`, round(b.built.readyMs / b.register.readyMs, 2), '<=', 1),
    ratioRow('startup: idle RSS built / register', `${b.built.idleRssMiB} MiB`, `${b.register.idleRssMiB} MiB`, round(b.built.idleRssMiB / b.register.idleRssMiB, 2), '<=', 1),
    ratioRow(`startup: idle RSS of npm start (MiB) / ${MAX_IDLE_MIB}`, `${b.built.idleRssMiB} MiB`, `${MAX_IDLE_MIB} MiB`, round(b.built.idleRssMiB / MAX_IDLE_MIB, 2), '<=', 1),
  ];
}
