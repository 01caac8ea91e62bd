import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@taproot/persistence';
import { eventually } from '../../src/testing';

/**
 * A real Prometheus Alertmanager for client tests (Debian's prometheus-alertmanager, installed by
 * tools/test/run.ts and passed as ALERTMANAGER_BIN): its own payloads, timings and resolution,
 * not recorded fixtures.
 */
export const ALERTMANAGER_BIN = process.env.ALERTMANAGER_BIN;
export const NO_ALERTMANAGER = "ALERTMANAGER_BIN is not set: run through `npm test`, which installs Debian's prometheus-alertmanager (or set ALERTMANAGER_BIN to an Alertmanager binary)";
// Alertmanager waits group_wait then group_interval before it notifies: seconds, plus slow machines.
export const DELIVERY_TIMEOUT_MS = 30_000;

/** Alertmanager's configuration with one receiver (`receiver`: its YAML lines) and 1 s group timings. */
export function alertmanagerConfig(receiver: string[], repeatInterval = '1h'): string {
  // resolve_timeout is long so a resolution a test checks is the one posted, not a timeout.
  return ['global:', '  resolve_timeout: 1h', 'route:', '  receiver: taproot', '  group_by: [alertname]', '  group_wait: 1s', '  group_interval: 1s', `  repeat_interval: ${repeatInterval}`, 'receivers:', '  - name: taproot', ...receiver.map((line) => `    ${line}`), ''].join('\n');
}

export class Alertmanager {
  private readonly log: string[] = [];
  private constructor(
    readonly url: string,
    private readonly child: ChildProcess,
    private readonly dir: string,
  ) {
    const keep = (chunk: Buffer) => {
      this.log.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      this.log.splice(0, Math.max(0, this.log.length - 40));
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
  }

  /** Starts the binary on a free loopback port with `config` (YAML), clustering off. */
  static async start(bin: string, config: string): Promise<Alertmanager> {
    const dir = mkdtempSync(join(tmpdir(), 'taproot-alertmanager-'));
    writeFileSync(join(dir, 'alertmanager.yml'), config);
    const url = `http://127.0.0.1:${await freePort()}`;
    const child = spawn(bin, [`--config.file=${join(dir, 'alertmanager.yml')}`, `--storage.path=${join(dir, 'data')}`, `--web.listen-address=${new URL(url).host}`, '--cluster.listen-address='], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const am = new Alertmanager(url, child, dir);
    let failure: string | undefined;
    child.once('error', (e) => (failure = `cannot run Alertmanager ${bin}: ${e.message}`));
    child.once('exit', (code) => (failure ??= `Alertmanager exited (${code}) before it was ready`));
    // A process that died stops the wait at once instead of after the timeout.
    await eventually(() => (failure ? Promise.resolve(true) : fetch(`${url}/-/ready`).then((r) => r.ok, () => false)), Boolean, 20_000);
    if (failure) {
      await am.stop();
      throw new Error(`${failure}\n${am.logTail()}`);
    }
    return am;
  }

  /** Posts alerts through Alertmanager's own API, as Prometheus does. */
  async post(alerts: unknown[]): Promise<void> {
    const res = await fetch(`${this.url}/api/v2/alerts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(alerts) });
    assert.equal(res.status, 200, await res.text());
  }

  async alerts(): Promise<{ fingerprint: string }[]> {
    return (await (await fetch(`${this.url}/api/v2/alerts`)).json()) as { fingerprint: string }[];
  }

  logTail(): string {
    return this.log.join('\n');
  }

  async stop(): Promise<void> {
    // No pid: the binary never ran, there is nothing to stop.
    if (this.child.pid !== undefined && this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise((r) => this.child.once('exit', r));
      this.child.kill('SIGTERM');
      const killer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(killer);
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A wait whose failure carries Alertmanager's log, which says why a notification did not arrive (a refused request, a bad URL). */
export const withLog = async <T>(am: Alertmanager | undefined, wait: Promise<T>): Promise<T> =>
  wait.catch((e: Error) => {
    throw new Error(`${e.message}\nAlertmanager log:\n${am?.logTail()}`);
  });
