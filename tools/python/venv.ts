/**
 * Python tools the tests run (Schemathesis in tools/fuzz, the hosted API's SDK in tools/sdk, a SCIM
 * client in tools/scim): each installed once from its pinned requirements file into its own
 * virtualenv under the tool's `.cache` folder (Python >= 3.11 must be on the machine), reinstalled
 * when the file changes.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
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

  const base = await findPython(spec.pythonVariable, log);
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
 * with its last lines.
 */
export async function runPythonReport<T>(opts: { python: string; script: string; args: string[]; log: Log; timeoutMs?: number }): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'taproot-python-'));
  try {
    const report = join(dir, 'report.json');
    const result = await run(opts.python, [opts.script, ...opts.args, '--report', report], opts.log, { timeoutMs: opts.timeoutMs ?? 120_000 });
    if (result.code !== 0) throw new Error(`${basename(opts.script)} failed (exit ${result.code}):\n${result.tail.join('\n')}`);
    return JSON.parse(await readFile(report, 'utf8')) as T;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function findPython(variable: string, log: Log): Promise<string> {
  const named = process.env[variable];
  const candidates = named ? [named] : ['python3.13', 'python3.12', 'python3.11', 'python3'];
  const check = 'import sys; print("%d.%d" % sys.version_info[:2]); sys.exit(0 if sys.version_info >= (3, 11) else 3)';
  for (const candidate of candidates) {
    const result = await run(candidate, ['-c', check]).catch(() => null);
    if (result?.code === 0) return candidate;
    if (result?.code === 3) log(`${candidate} is Python ${result.tail.join('').trim()}; 3.11 or later is needed`);
  }
  throw new Error(`no Python 3.11 or later found (tried ${candidates.join(', ')}); install one or set ${variable}`);
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
