/**
 * python-scim's SCIM client (PyPI `scim2-client` with `scim2-models`, pinned in
 * tools/scim/requirements.txt) in a virtualenv under tools/scim/.cache, and the run of
 * scim_client_check.py against a running api's /scim/v2: one JSON report of every step.
 */
import { join } from 'node:path';
import { installVenv, runPythonReport, workspacePath, type Log } from '../python/venv';

const HERE = workspacePath('tools', 'scim');

const defaultLog: Log = (line) => process.stderr.write(`[scim] ${line}\n`);

/** The venv's Python with the client installed (first run only; again when requirements.txt changes). SCIM_PYTHON names the interpreter. */
export function installScimClient(opts: { log?: Log } = {}): Promise<string> {
  return installVenv({
    label: 'scim2-client',
    requirements: join(HERE, 'requirements.txt'),
    cache: join(HERE, '.cache'),
    smokeTest: ['-c', 'import scim2_client.engines.httpx2, scim2_models'],
    pythonVariable: 'SCIM_PYTHON',
    log: opts.log ?? defaultLog,
  });
}

/** One step as scim_client_check.py recorded it. */
export interface ScimStep {
  step: string;
  ok: boolean;
  /** The client's exception (`Class: message`), or why the step was not run. */
  error?: string;
  /** The exception's notes (the client puts the server's answer or pydantic's errors there). */
  notes?: string[];
  /** The SCIM error the client parsed from the server's answer (expected, or the failure). */
  scim_error?: { status: string | number | null; scimType: string | null; detail: string | null };
  /** Where in the client an unexpected exception was raised. */
  trace?: string;
}

export interface ScimReport {
  steps: ScimStep[];
}

/** Runs the check against the api (its base URL, without /scim/v2) with an organization's SCIM token; its stderr goes to `log`. */
export function runScimClientCheck(opts: { python: string; baseUrl: string; token: string; log?: Log }): Promise<ScimReport> {
  return runPythonReport<ScimReport>({
    python: opts.python,
    script: join(HERE, 'scim_client_check.py'),
    args: ['--base-url', opts.baseUrl, '--token', opts.token],
    log: opts.log ?? defaultLog,
    timeoutMs: 60_000,
  });
}
