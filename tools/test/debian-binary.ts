/**
 * A tool a test needs from a Debian package: found on the PATH, where Debian puts it, or at the
 * path an env variable names; installed with apt-get when missing and we may (developers'
 * machines and CI are Debian, as root). tools/test/run.ts calls it once per run and hands the
 * path to the test through that env variable; null means the test fails saying why.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export interface DebianBinary {
  /** The Debian package to install. */
  package: string;
  /** Names looked up on the PATH, then absolute paths where the package puts the binary. */
  names: string[];
  paths: string[];
  /** The env variable that overrides the lookup (and carries the path to the test). */
  envVar: string;
  versionArgs: string[];
}

type Log = (line: string) => void;

/** A binary one test file needs: run.ts installs it only when that file is selected. */
export interface TestBinary extends DebianBinary {
  /** The test file (its name's ending) that needs the binary. */
  test: string;
  /** The prefix of its log lines. */
  label: string;
}

const APT_TIMEOUT_MS = 10 * 60_000;

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

function find(tool: DebianBinary): string | null {
  const override = process.env[tool.envVar];
  if (override) return isExecutable(override) ? override : null;
  for (const name of tool.names) {
    const found = onPath(name);
    if (found) return found;
  }
  return tool.paths.find(isExecutable) ?? null;
}

function version(bin: string, args: string[]): string {
  const out = spawnSync(bin, args, { encoding: 'utf8', timeout: 30_000 });
  return `${out.stdout ?? ''}${out.stderr ?? ''}`.split('\n')[0].trim();
}

function apt(args: string[], log: Log): boolean {
  log(`apt-get ${args.join(' ')}`);
  // apt's output goes straight to stderr (no pipe a maintainer script's daemon could hold open),
  // noninteractive so no debconf prompt waits for an answer.
  const out = spawnSync('apt-get', args, {
    stdio: ['ignore', 2, 2],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    timeout: APT_TIMEOUT_MS,
  });
  if (out.error) log(`apt-get failed to run: ${out.error.message}`);
  return out.status === 0;
}

/** The binary's path, installing the package first when it is missing and we may. */
function ensureDebianBinary(tool: DebianBinary, log: Log): string | null {
  const override = process.env[tool.envVar];
  if (override && !isExecutable(override)) {
    log(`${tool.envVar}=${override} is not an executable file`);
    return null;
  }
  let bin = find(tool);
  if (!bin) {
    if (!onPath('apt-get') || process.getuid?.() !== 0) {
      log(`${tool.package} is not installed and cannot be installed here (needs apt-get as root): install it or set ${tool.envVar}`);
      return null;
    }
    log(`installing Debian's ${tool.package}...`);
    const install = ['install', '-y', '--no-install-recommends', '-o', 'DPkg::Lock::Timeout=120', tool.package];
    // A failed install is most often missing or stale package lists (a fresh machine has none).
    if (!apt(install, log) && !find(tool)) {
      apt(['update'], log);
      apt(install, log);
    }
    bin = find(tool);
    if (!bin) {
      log(`installing ${tool.package} failed (see apt-get's output above)`);
      return null;
    }
  }
  log(`using ${bin} (${version(bin, tool.versionArgs)})`);
  return bin;
}

/**
 * For each tool whose test is among `files`: its path in `env[envVar]`, or that variable unset
 * when it is missing, so the test fails saying why (never a silent skip).
 */
export function ensureTestBinaries(tools: readonly TestBinary[], files: readonly string[], env: NodeJS.ProcessEnv): void {
  for (const tool of tools) {
    if (!files.some((f) => f.endsWith(tool.test))) continue;
    const bin = ensureDebianBinary(tool, (line) => process.stderr.write(`[${tool.label}] ${line}\n`));
    if (bin) env[tool.envVar] = bin;
    else delete env[tool.envVar];
  }
}
