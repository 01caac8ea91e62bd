/**
 * The hosted API's own MCP server (PyPI `rootly-mcp-server`, pinned in tools/mcp/requirements.txt)
 * in a virtualenv under tools/mcp/.cache, and the run of rootly_mcp_check.py against a running api:
 * one JSON report of every tool call it made.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installVenv, runPythonReport, workspacePath, type Log } from '../python/venv';

const HERE = workspacePath('tools', 'mcp');

/** rootly_mcp_check.py's exit status when its report lists failures (it is written either way). */
const EXIT_FAILURES = 3;

const defaultLog: Log = (line) => process.stderr.write(`[mcp] ${line}\n`);

/**
 * The venv's Python with the server installed (first run only; again when requirements.txt
 * changes). rootly-mcp-server needs Python 3.12 or later; MCP_PYTHON names the interpreter.
 */
export function installRootlyMcp(opts: { log?: Log } = {}): Promise<string> {
  return installVenv({
    label: 'rootly-mcp-server',
    requirements: join(HERE, 'requirements.txt'),
    cache: join(HERE, '.cache'),
    smokeTest: ['-c', 'import rootly_mcp_server.server, mcp.client.stdio'],
    pythonVariable: 'MCP_PYTHON',
    minimumPython: [3, 12],
    log: opts.log ?? defaultLog,
  });
}

/** One tool call as rootly_mcp_check.py recorded it. */
export interface McpCall {
  tool: string;
  arguments: Record<string, unknown>;
  /** Strings the answer must contain (ids and names of what was seeded or created) and must not. */
  expected: string[];
  absent: string[];
  /** The MCP result's isError; null when the call was not made. */
  is_error?: boolean | null;
  /** The error's text, the tool's own error document, a protocol error, or why the call was not made. */
  error?: string;
  missing?: string[];
  present?: string[];
  /** The answer's first characters when an expectation failed. */
  excerpt?: string;
  chars?: number;
}

export interface McpReport {
  server: { name: string; version: string; tools: string[] };
  calls: McpCall[];
  /** The server's resources read (`rootly://incidents`...), with the same rules as the calls. */
  resources: { uri: string; expected: string[]; error?: string; missing?: string[]; excerpt?: string }[];
  /** Requests sent with plain HTTP for records no tool creates; a failure is listed here. */
  setup: { request: string; status: number; error: string }[];
  /** The check's EXCUSED: tools it does not call, with the reason. */
  excused: Record<string, string>;
  /** Listed tools neither called nor excused. */
  not_called: string[];
}

/**
 * Runs the check against the api with the seeded records `seed` (ids, names; the keys
 * rootly_mcp_check.py reads); its stderr, and the server's, go to `log`.
 */
export async function runMcpCheck(opts: { python: string; baseUrl: string; token: string; seed: Record<string, unknown>; log?: Log }): Promise<McpReport> {
  const dir = await mkdtemp(join(tmpdir(), 'taproot-mcp-seed-'));
  try {
    const seed = join(dir, 'seed.json');
    await writeFile(seed, JSON.stringify(opts.seed));
    return await runPythonReport<McpReport>({
      python: opts.python,
      script: join(HERE, 'rootly_mcp_check.py'),
      // One value after "=": a token may begin with "-", which argparse would take for an option.
      args: ['--base-url', opts.baseUrl, `--token=${opts.token}`, '--seed', seed],
      log: opts.log ?? defaultLog,
      timeoutMs: 300_000,
      failuresExit: EXIT_FAILURES,
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
