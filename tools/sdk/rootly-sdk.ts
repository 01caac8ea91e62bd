/**
 * The hosted API's Python SDK (PyPI `rootly`, module `rootly_sdk`, pinned in
 * tools/sdk/requirements.txt) in a virtualenv under tools/sdk/.cache, and the run of
 * rootly_sdk_check.py against a running api: one JSON report of every SDK call it made.
 */
import { join } from 'node:path';
import { installVenv, runPythonReport, workspacePath, type Log } from '../python/venv';

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
export function runSdkCheck(opts: { python: string; baseUrl: string; token: string; spareUserId?: string; verifyEmail?: { id: string; token: string }; webhookDelivery?: string; log?: Log }): Promise<SdkReport> {
  const args = ['--base-url', opts.baseUrl, '--token', opts.token];
  if (opts.spareUserId) args.push('--spare-user-id', opts.spareUserId);
  if (opts.verifyEmail) args.push(`--verify-email=${opts.verifyEmail.id}:${opts.verifyEmail.token}`);
  if (opts.webhookDelivery) args.push('--webhook-delivery', opts.webhookDelivery);
  return runPythonReport<SdkReport>({ python: opts.python, script: join(HERE, 'rootly_sdk_check.py'), args, log: opts.log ?? defaultLog });
}
