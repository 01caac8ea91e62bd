/**
 * Prometheus Alertmanager for the real-client test (apps/api/test/alertmanager-client.e2e-spec.ts):
 * finds its binary, or installs Debian's `prometheus-alertmanager` package when apt-get is there
 * and we are root (developers' machines and CI are Debian, as root). tools/test/run.ts calls
 * `ensureAlertmanager` once and hands the path to the test as ALERTMANAGER_BIN.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The test file that needs the binary (run.ts installs only when it is selected). */
export const ALERTMANAGER_TEST = 'alertmanager-client.e2e-spec.ts';

const PACKAGE = 'prometheus-alertmanager';
const DEBIAN_BINARY = '/usr/bin/prometheus-alertmanager';
const APT_TIMEOUT_MS = 10 * 60_000;

type Log = (line: string) => void;
const defaultLog: Log = (line) => process.stderr.write(`[alertmanager] ${line}\n`);

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && isExecutable(join(dir, name))) return join(dir, name);
  }
  return null;
}

/** ALERTMANAGER_BIN when set, else `prometheus-alertmanager` on the PATH or where Debian puts it. */
function findAlertmanager(): string | null {
  const { ALERTMANAGER_BIN } = process.env;
  if (ALERTMANAGER_BIN) return isExecutable(ALERTMANAGER_BIN) ? ALERTMANAGER_BIN : null;
  return onPath(PACKAGE) ?? (isExecutable(DEBIAN_BINARY) ? DEBIAN_BINARY : null);
}

/** `alertmanager --version`'s first line (for the log and docs). */
function alertmanagerVersion(bin: string): string {
  const out = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  return `${out.stdout ?? ''}${out.stderr ?? ''}`.split('\n')[0].trim();
}

function apt(args: string[], log: Log): boolean {
  log(`apt-get ${args.join(' ')}`);
  // apt's own output goes straight to stderr: no pipe for a daemon a maintainer script might
  // start to hold open, and noninteractive so no debconf prompt waits for an answer.
  const out = spawnSync('apt-get', args, {
    stdio: ['ignore', 2, 2],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    timeout: APT_TIMEOUT_MS,
  });
  if (out.error) log(`apt-get failed to run: ${out.error.message}`);
  return out.status === 0;
}

/**
 * The binary's path, installing the package first when it is missing and we may; null (with the
 * reason logged) when it cannot be had, so the test fails saying why instead of the whole run.
 */
export function ensureAlertmanager(log: Log = defaultLog): string | null {
  const { ALERTMANAGER_BIN } = process.env;
  if (ALERTMANAGER_BIN && !isExecutable(ALERTMANAGER_BIN)) {
    log(`ALERTMANAGER_BIN=${ALERTMANAGER_BIN} is not an executable file`);
    return null;
  }
  let bin = findAlertmanager();
  if (!bin) {
    if (!onPath('apt-get') || process.getuid?.() !== 0) {
      log(`${PACKAGE} is not installed and cannot be installed here (needs apt-get as root): install it or set ALERTMANAGER_BIN`);
      return null;
    }
    log(`installing Debian's ${PACKAGE}...`);
    const install = ['install', '-y', '--no-install-recommends', '-o', 'DPkg::Lock::Timeout=120', PACKAGE];
    // A failed install is most often missing or stale package lists (a fresh machine has none).
    if (!apt(install, log) && !findAlertmanager()) {
      apt(['update'], log);
      apt(install, log);
    }
    // The package's postinst may fail to start its service where no init runs; the binary is
    // unpacked before that, and it is all the test needs.
    bin = findAlertmanager();
    if (!bin) {
      log(`installing ${PACKAGE} failed (see apt-get's output above)`);
      return null;
    }
  }
  log(`using ${bin} (${alertmanagerVersion(bin)})`);
  return bin;
}
