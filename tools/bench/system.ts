/**
 * The whole system as `npm start` runs it, for the bench's sections that measure that process
 * (soak, startup): a child process on a throwaway DATA_DIR with fresh ports, embedded PostgreSQL,
 * LOG_LEVEL warn, and an API key. See docs/benchmarks.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { freePort } from '@taproot/persistence';
import { round, sleep } from './harness';

const ROOT = resolve(__dirname, '..', '..');

/** Resident memory of a process, in MiB (Linux: /proc/<pid>/status). */
export function rssMiB(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (!kb) throw new Error(`no VmRSS for process ${pid}`);
  return round(Number(kb) / 1024, 1);
}

/**
 * An npm script's own command (package.json), run directly rather than through npm so that the
 * child is the process whose memory is measured, not npm's.
 */
export function scriptCommand(name: string): string[] {
  const script: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts[name];
  const [program, ...args] = script.split(/\s+/);
  if (program !== 'node') throw new Error(`npm run ${name} runs "${script}"; the bench expects a node command`);
  return [process.execPath, ...args];
}

export const startCommand = () => scriptCommand('start');

export interface Started {
  child: ChildProcess;
  url: string;
  token: string;
  /** From spawn to the three apps' /readyz answering 200. */
  readyMs: number;
  stop(): Promise<void>;
}

/** `command`: program and arguments; `dataDir`: reuse a data directory (a second start), else a throwaway one. */
export async function startSystem(command: string[], dataDir?: string): Promise<Started> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'taproot-system-'));
  const token = `tk_bench_${randomBytes(16).toString('hex')}`;
  const port = await freePort();
  const [program, ...args] = command;
  const ports = { api: port, auth: await freePort(), dispatcher: await freePort() };
  const spawnedAt = performance.now();
  let output = '';
  const child = spawn(program, args, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      DATA_DIR: join(dir, 'data'),
      HOST: '127.0.0.1',
      PORT: String(port),
      AUTH_PORT: String(ports.auth),
      DISPATCHER_PORT: String(ports.dispatcher),
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
    if (!dataDir) rmSync(dir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (const probe of [url, `http://127.0.0.1:${ports.auth}`, `http://127.0.0.1:${ports.dispatcher}`]) {
    while (!(await fetch(`${probe}/readyz`).then((r) => r.ok, () => false))) {
      if (child.exitCode !== null || Date.now() > deadline) {
        await stop();
        throw new Error(`${command.join(' ')} did not become ready (exit ${child.exitCode}):\n${output}`);
      }
      await sleep(50);
    }
  }
  return { child, url, token, readyMs: round(performance.now() - spawnedAt, 0), stop };
}
