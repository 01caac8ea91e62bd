/**
 * The hosted API's Python SDK (PyPI `rootly`, module `rootly_sdk`, pinned in
 * tools/sdk/requirements.txt) in a virtualenv under tools/sdk/.cache, and the run of
 * rootly_sdk_check.py against a running api: one JSON report of every SDK call it made.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installVenv, run, workspacePath, type Log } from '../python/venv';

const HERE = workspacePath('tools', 'sdk');

const defaultLog: Log = (line) => process.stderr.write(`[sdk] ${line}\n`);

/** The venv's Python with the SDK installed (first run only; again when requirements.txt changes). SDK_PYTHON names the interpreter. */
export function installRootlySdk(opts: { log?: Log } = {}): Promise<string> {
  return installVenv({
    label: 'the rootly SDK',
    requirements: join(HERE, 'requirements.txt'),
    cache: join(HERE, '.cache'),
    smokeTest: ['-c', 'import rootly_sdk.api, rootly_sdk.models'],
    pythonVariable: 'SDK_PYTHON',
    log: opts.log ?? defaultLog,
  });
}

/** One SDK call as rootly_sdk_check.py recorded it. */
export interface SdkCall {
  /** The served operationId. */
  operation: string;
  /** `METHOD /path` as served. */
  route: string;
  /** The SDK's module (`teams.create_team`). */
  sdk?: string;
  /** The answer's status; null when the call was not sent. */
  status?: number | null;
  /** The model the SDK parsed the answer into, null when it declares no body for the status. */
  parsed?: string | null;
  /** Why the call failed: a non-2xx answer, the SDK's parse error, or why it was not run. */
  error?: string;
  /** Where in the SDK a parse error was raised. */
  trace?: string;
}

export interface SdkReport {
  /** How many operations GET /v1/openapi.json lists. */
  served: number;
  calls: SdkCall[];
  not_exercised: { operation: string; route: string; reason: string }[];
}

/** Runs the check against the api; its stderr goes to `log`. */
export async function runSdkCheck(opts: { python: string; baseUrl: string; token: string; spareUserId?: string; log?: Log }): Promise<SdkReport> {
  const log = opts.log ?? defaultLog;
  const dir = await mkdtemp(join(tmpdir(), 'taproot-sdk-'));
  try {
    const report = join(dir, 'report.json');
    const args = [join(HERE, 'rootly_sdk_check.py'), '--base-url', opts.baseUrl, '--token', opts.token, '--report', report];
    if (opts.spareUserId) args.push('--spare-user-id', opts.spareUserId);
    const result = await run(opts.python, args, log, { timeoutMs: 120_000 });
    if (result.code !== 0) throw new Error(`rootly_sdk_check.py failed (exit ${result.code}):\n${result.tail.join('\n')}`);
    return JSON.parse(await readFile(report, 'utf8')) as SdkReport;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
