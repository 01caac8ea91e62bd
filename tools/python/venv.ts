/**
 * Python tools the tests run (Schemathesis in tools/fuzz, the hosted API's SDK in tools/sdk, a SCIM
 * client in tools/scim, the hosted API's MCP server in tools/mcp): each installed once from its
 * pinned requirements file into its own virtualenv under the tool's `.cache` folder (Python >= 3.11
 * must be on the machine, >= 3.12 for tools/mcp), reinstalled when the file changes.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';

export type Log = (line: string) => void;

const INSTALL_TIMEOUT_MS = 10 * 60_000;

/**
 * A folder of the workspace, found from the working directory up to its nx.json: the tools'
 * modules are loaded both as CommonJS (the register) and as ES modules (Jest), which name their
 * own folder differently.
 */
export function workspacePath(...parts: string[]): string {
  return join(workspaceRoot(process.cwd()), ...parts);
}

function workspaceRoot(from: string): string {
  if (existsSync(join(from, 'nx.json'))) return from;
  const up = dirname(from);
  if (up === from) throw new Error('run from inside the Taproot workspace');
  return workspaceRoot(up);
}

export interface VenvSpec {
  /** What is installed, for messages ("Schemathesis 4.32.5"). */
  label: string;
  /** The pinned requirements file. */
  requirements: string;
  /** The tool's cache folder; the virtualenv is its `venv`. */
  cache: string;
  /** Arguments for the venv's Python that prove the install works (run before it is kept). */
  smokeTest: string[];
  /** The environment variable that may name the interpreter to build it with. */
  pythonVariable: string;
  /** The oldest Python the requirements install on, `[major, minor]` (default 3.11). */
  minimumPython?: readonly [number, number];
  log: Log;
}

/**
 * The virtualenv's Python with the requirements installed; installs them the first time (and
 * again when the requirements file changes). Built in a private folder then renamed, so a
 * concurrent run never sees half an install.
 */
export async function installVenv(spec: VenvSpec): Promise<string> {
  const { log } = spec;
  const venv = join(spec.cache, 'venv');
  const marker = join(venv, '.installed');
  const python = join(venv, 'bin', 'python');
  const hash = createHash('sha256').update(await readFile(spec.requirements)).digest('hex');
  const installed = async () => existsSync(marker) && (await readFile(marker, 'utf8')).trim() === hash;
  if (await installed()) return python;

  const base = await findPython(spec.pythonVariable, spec.minimumPython ?? [3, 11], log);
  log(`installing ${spec.label} into ${venv} with ${base} (first run only)...`);
  const started = Date.now();
  await mkdir(spec.cache, { recursive: true });
  const staging = await mkdtemp(join(spec.cache, 'venv-staging-'));
  try {
    await mustRun(base, ['-m', 'venv', staging], log);
    const pip = ['-m', 'pip', 'install', '--disable-pip-version-check', '--no-input', '--progress-bar', 'off', '-r', spec.requirements];
    await mustRun(join(staging, 'bin', 'python'), pip, (line) => {
      if (/^(Downloading|Successfully|ERROR)/.test(line)) log(`pip: ${line}`);
    });
    // Run as `python -m ...`: the venv's scripts name the staging path in their #!.
    await mustRun(join(staging, 'bin', 'python'), spec.smokeTest, log);
    await writeFile(join(staging, '.installed'), `${hash}\n`);
    if (await installed()) return python; // another run won
    await rm(venv, { recursive: true, force: true });
    await rename(staging, venv);
    log(`installed ${spec.label} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return python;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/**
 * Runs a Python driver (`script` with `args`, plus `--report <file>`) that writes its JSON report
 * to that file, and answers the report; the driver's output goes to `log`. A non-zero exit fails
 * with its last lines, but `failuresExit`: the status with which a driver says its report lists
 * failures (the report is read, for the test to name them).
 */
export async function runPythonReport<T>(opts: { python: string; script: string; args: string[]; log: Log; timeoutMs?: number; failuresExit?: number }): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'taproot-python-'));
  try {
    const report = join(dir, 'report.json');
    const result = await run(opts.python, [opts.script, ...opts.args, '--report', report], opts.log, { timeoutMs: opts.timeoutMs ?? 120_000 });
    if (result.code !== 0 && result.code !== opts.failuresExit) throw new Error(`${basename(opts.script)} failed (exit ${result.code}):\n${result.tail.join('\n')}`);
    return JSON.parse(await readFile(report, 'utf8')) as T;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The interpreter to build a venv with: the one `variable` names, else the first of the versioned
 * names on PATH, `python3`, and pyenv's installed versions (newest first: a pyenv shim of a
 * version that is not selected fails, as python3.12 does where the global version is 3.11) that is
 * `minimum` or later.
 */
async function findPython(variable: string, minimum: readonly [number, number], log: Log): Promise<string> {
  const named = process.env[variable];
  const [major, minor] = minimum;
  const versioned = [14, 13, 12, 11].filter((m) => m >= minor).map((m) => `python${major}.${m}`);
  const candidates = named ? [named] : [...versioned, 'python3', ...pyenvPythons()];
  const wanted = `${major}.${minor}`;
  const check = `import sys; print("%d.%d" % sys.version_info[:2]); sys.exit(0 if sys.version_info >= (${major}, ${minor}) else 3)`;
  for (const candidate of candidates) {
    const result = await run(candidate, ['-c', check]).catch(() => null);
    if (result?.code === 0) return candidate;
    if (result?.code === 3) log(`${candidate} is Python ${result.tail.join('').trim()}; ${wanted} or later is needed`);
  }
  throw new Error(`no Python ${wanted} or later found (tried ${candidates.join(', ')}); install one or set ${variable}`);
}

/** The interpreters of pyenv's installed versions (`$PYENV_ROOT/versions/<v>/bin/python3`), newest first. */
function pyenvPythons(): string[] {
  const versions = join(process.env.PYENV_ROOT ?? join(homedir(), '.pyenv'), 'versions');
  if (!existsSync(versions)) return [];
  const numeric = (v: string) => v.split('.').map((n) => Number.parseInt(n, 10) || 0);
  return readdirSync(versions)
    .filter((v) => /^\d+\.\d+(\.\d+)?$/.test(v))
    .sort((a, b) => {
      const [x, y] = [numeric(a), numeric(b)];
      return y[0] - x[0] || y[1] - x[1] || (y[2] ?? 0) - (x[2] ?? 0);
    })
    .map((v) => join(versions, v, 'bin', 'python3'))
    .filter((python) => existsSync(python));
}

export async function mustRun(cmd: string, args: string[], onLine: Log): Promise<void> {
  const result = await run(cmd, args, onLine);
  if (result.code !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${result.code}):\n${result.tail.join('\n')}`);
}

/** Runs a command, its output line by line to `onLine`; resolves with its code and last lines. */
export function run(
  cmd: string,
  args: string[],
  onLine: Log = () => {},
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<{ code: number; tail: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const tail: string[] = [];
    const timer = setTimeout(() => {
      tail.push(`killed after ${(opts.timeoutMs ?? INSTALL_TIMEOUT_MS) / 1000} s`);
      child.kill('SIGKILL');
    }, opts.timeoutMs ?? INSTALL_TIMEOUT_MS);
    const take = (stream: NodeJS.ReadableStream) => {
      let buffered = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        buffered += chunk;
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        for (const line of lines) {
          tail.push(line);
          if (tail.length > 40) tail.shift();
          onLine(line);
        }
      });
      stream.on('end', () => {
        if (buffered) {
          tail.push(buffered);
          onLine(buffered);
        }
      });
    };
    take(child.stdout!);
    take(child.stderr!);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, tail });
    });
  });
}
