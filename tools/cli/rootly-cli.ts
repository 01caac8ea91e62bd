/**
 * The hosted API's own CLI (`rootly`, Go module github.com/rootlyhq/cli, pinned below) built from
 * source into tools/cli/.cache/bin, and a run of it as a user would run it. tools/cli/README.md.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mustRun, run, workspacePath, type Log } from '../python/venv';

const HERE = workspacePath('tools', 'cli');
const BIN = join(HERE, '.cache', 'bin');

export const CLI_MODULE = 'github.com/rootlyhq/cli';
/** The newest release (2024-07-22, "Upgrade dependencies"). */
export const CLI_VERSION = 'v1.2.4';
/** The commit CLI_VERSION tags: a clone is checked out at it, so both routes build the same source. */
export const CLI_COMMIT = 'd3ba292fd77aa267f421f08f8fa9df0d78f90cf4';
/** Where the source is cloned from when the module proxy will not serve it (ROOTLY_CLI_GIT names another clone). */
const CLI_GIT = 'https://github.com/rootlyhq/cli.git';

const STAMP = `${CLI_MODULE}@${CLI_VERSION} ${CLI_COMMIT}`;

const defaultLog: Log = (line) => process.stderr.write(`[cli] ${line}\n`);

/**
 * The built `rootly` binary; builds it the first time, and again when the pinned version changes
 * (a stamp beside it), so later runs need no network. `go install <module>/cmd/rootly@<version>`
 * through the module proxy, else a clone of the source at the pinned commit and `go build`.
 * Built in a private folder then renamed, so a concurrent run never sees half a binary.
 */
export async function installRootlyCli(opts: { log?: Log } = {}): Promise<string> {
  const log = opts.log ?? defaultLog;
  const binary = join(BIN, 'rootly');
  const stamp = join(BIN, '.installed');
  const installed = async () => existsSync(binary) && existsSync(stamp) && (await readFile(stamp, 'utf8')).trim() === STAMP;
  if (await installed()) return binary;

  const go = await findGo(log);
  // One line per module downloaded on a fresh machine: dropped.
  const goLog: Log = (line) => {
    if (!line.startsWith('go: downloading')) log(line);
  };
  log(`building rootly ${CLI_VERSION} with ${go} (first run only)...`);
  const started = Date.now();
  await mkdir(BIN, { recursive: true });
  const staging = await mkdtemp(join(BIN, 'staging-'));
  try {
    // GOBIN for go install; GOWORK off: the build must not see a go.work of the caller's.
    const env = { ...process.env, GOBIN: staging, GOWORK: 'off' };
    const viaProxy = await run(go, ['install', `${CLI_MODULE}/cmd/rootly@${CLI_VERSION}`], goLog, { cwd: staging, env });
    if (viaProxy.code !== 0) {
      const source = process.env.ROOTLY_CLI_GIT ?? CLI_GIT;
      log(`go install failed (exit ${viaProxy.code}); building a clone of ${source} at ${CLI_COMMIT.slice(0, 7)} instead`);
      const src = join(staging, 'src');
      await mustRun('git', ['clone', '--quiet', '--no-checkout', source, src], log);
      await mustRun('git', ['-C', src, 'checkout', '--quiet', '--detach', CLI_COMMIT], log);
      const built = await run(go, ['build', '-o', join(staging, 'rootly'), './cmd/rootly'], goLog, { cwd: src, env });
      if (built.code !== 0) throw new Error(`go build of ${CLI_MODULE} at ${CLI_COMMIT} failed (exit ${built.code}):\n${built.tail.join('\n')}`);
    }
    await mustRun(join(staging, 'rootly'), ['pulse', '--help'], () => {});
    await rename(join(staging, 'rootly'), binary);
    await writeFile(stamp, `${STAMP}\n`);
    log(`built rootly ${CLI_VERSION} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return binary;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** `go` on the PATH, else Go's own install location; none fails the test (it does not skip). */
async function findGo(log: Log): Promise<string> {
  const candidates = ['go', '/usr/local/go/bin/go'];
  for (const go of candidates) {
    const result = await run(go, ['version']).catch(() => null);
    if (result?.code === 0) {
      log(result.tail.join(' ').trim());
      return go;
    }
  }
  throw new Error(`no Go found (tried ${candidates.join(', ')}): the rootly CLI test builds rootlyhq/cli from source; install Go 1.22 or later`);
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the binary with `args` and only `env` besides PATH and HOME, so no ROOTLY_* variable of the
 * caller's reaches it (the CLI reads one before its flag).
 */
export function runRootly(binary: string, args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const base = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' };
    execFile(binary, args, { env: { ...base, ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') return reject(error);
      resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr });
    });
  });
}
