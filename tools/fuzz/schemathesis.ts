/**
 * The API fuzzer: Schemathesis (PyPI, pinned in tools/fuzz/requirements.txt) generates requests
 * from the served OpenAPI document, positive and negative, and checks every answer. Installed
 * once into a virtualenv under tools/fuzz/.cache (Python >= 3.11 must be on the machine), then
 * `st run` against a running api, bounded by a wall-clock budget, and its JUnit report parsed
 * into one entry per failing test case (operation, checks, status, curl reproduction).
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installVenv, run, workspacePath, type Log } from '../python/venv';

const HERE = workspacePath('tools', 'fuzz');
const REQUIREMENTS = join(HERE, 'requirements.txt');

/** What the gate checks: no 5xx, and every answer's body matches the document's schema for its status. */
export const DEFAULT_CHECKS = ['not_a_server_error', 'response_schema_conformance'] as const;

const defaultLog: Log = (line) => process.stderr.write(`[fuzz] ${line}\n`);

/** The Schemathesis version pinned in requirements.txt (for messages). */
export function schemathesisVersion(): string {
  const match = /^schemathesis==(\S+)$/m.exec(readFileSync(REQUIREMENTS, 'utf8'));
  if (!match) throw new Error(`no schemathesis==<version> in ${REQUIREMENTS}`);
  return match[1];
}

/** FUZZ_SECONDS: the whole `st run`'s wall-clock budget (default 240 s, so the suite takes about 4 min). */
export function fuzzSeconds(env: NodeJS.ProcessEnv = process.env): number {
  return positiveInt(env, 'FUZZ_SECONDS', 240);
}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return value;
}

/**
 * The virtualenv's Python with Schemathesis installed (tools/fuzz/.cache/venv); installs it the
 * first time and again when requirements.txt changes. FUZZ_PYTHON names the interpreter to build it with.
 */
export function installSchemathesis(opts: { log?: Log } = {}): Promise<string> {
  return installVenv({
    label: `Schemathesis ${schemathesisVersion()}`,
    requirements: REQUIREMENTS,
    cache: join(HERE, '.cache'),
    smokeTest: ['-m', 'schemathesis.cli', '--version'],
    pythonVariable: 'FUZZ_PYTHON',
    log: opts.log ?? defaultLog,
  });
}

export interface FuzzOptions {
  /** The venv's Python (installSchemathesis). */
  python: string;
  /** The api's origin; the document is read from `<baseUrl>/v1/openapi.json`. */
  baseUrl: string;
  /** Bearer token sent on every request (Schemathesis also sends requests without it). */
  token: string;
  /** Wall-clock budget of the whole run in seconds (default FUZZ_SECONDS). */
  seconds?: number;
  /** Test cases per operation per cycle (default FUZZ_MAX_EXAMPLES or 25). */
  maxExamples?: number;
  /** Concurrent workers (default FUZZ_WORKERS or 1: the generator is CPU bound under one GIL). */
  workers?: number;
  /** Schemathesis checks (default FUZZ_CHECKS, comma separated, or DEFAULT_CHECKS). */
  checks?: readonly string[];
  /** Reproduce a run (the seed is printed at the end of every run). Default FUZZ_SEED. */
  seed?: string;
  /** Where the reports go (default a fresh temporary folder). */
  reportDir?: string;
  /** More `st run` options, e.g. ['--include-path-regex', '^/v1/services']. Default FUZZ_ARGS (space separated). */
  extraArgs?: readonly string[];
  log?: Log;
}

export interface FuzzCheck {
  /** Schemathesis's failure code: ST101/ST102 a 5xx, ST108 a body or header its schema rejects, ST109 not JSON (`st explain ST108`). */
  code: string;
  title: string;
  /** What the check says about the violation (indented lines under it), if anything. */
  detail: string;
}

export interface FuzzFailure {
  /** `METHOD /path` as in the document, or `Stateful tests (METHOD /path)` for a sequence. */
  operation: string;
  caseId: string;
  checks: FuzzCheck[];
  status: number | null;
  /** The answer's body as Schemathesis shows it. */
  response: string;
  /** The reproduction, one curl line per request of the case (the token shows as [Filtered]). */
  curl: string[];
  /** The api's request id when the answer names it (a 500 does: "Request <id> failed"). */
  requestId: string | null;
}

export interface FuzzError {
  operation: string;
  message: string;
}

export interface FuzzRun {
  exitCode: number;
  seconds: number;
  /** The command line, token left out. */
  command: string;
  operations: { total: number; tested: number };
  testCases: number;
  seed: string | null;
  failures: FuzzFailure[];
  /** Schemathesis could not test an operation (network failure, schema it cannot generate for, its own bug). */
  errors: FuzzError[];
  reportDir: string;
}

/**
 * The config file. The token reaches Schemathesis through its env substitution, not the command
 * line. The fuzzing phase draws no U+0000: the api answers any NUL anywhere in a request with a
 * 400 before its handlers, and Hypothesis puts one in most large bodies (in the names of the extra
 * members too), so with them about 45 of the 168 operations mostly stop at that 400; without,
 * about 12. The stateful phase keeps sending them (a NUL reaching the database again shows
 * there), and `--generation-allow-x00 true` in FUZZ_ARGS puts them back everywhere.
 */
const CONFIG = `headers = { Authorization = "Bearer \${TAPROOT_FUZZ_TOKEN}" }

[phases.fuzzing.generation]
allow-x00 = false
`;

/** Runs `st run` against the api and parses its reports. Its output goes to `log` as it comes. */
export async function runSchemathesis(opts: FuzzOptions): Promise<FuzzRun> {
  const log = opts.log ?? defaultLog;
  const env = process.env;
  const seconds = opts.seconds ?? fuzzSeconds(env);
  const reportDir = opts.reportDir ?? mkdtempSync(join(tmpdir(), 'taproot-fuzz-'));
  const junit = join(reportDir, 'junit.xml');
  const json = join(reportDir, 'run.json');
  const seed = opts.seed ?? env.FUZZ_SEED;
  const config = join(reportDir, 'schemathesis.toml');
  const extra = opts.extraArgs ?? (env.FUZZ_ARGS ? env.FUZZ_ARGS.split(/\s+/).filter(Boolean) : []);
  await writeFile(config, CONFIG);
  const args = [
    '-m', 'schemathesis.cli',
    '--config-file', config,
    'run', `${opts.baseUrl}/v1/openapi.json`,
    '--url', opts.baseUrl,
    '--checks', (opts.checks ?? (env.FUZZ_CHECKS ? env.FUZZ_CHECKS.split(',') : DEFAULT_CHECKS)).join(','),
    '--max-time', String(seconds),
    '--max-examples', String(opts.maxExamples ?? positiveInt(env, 'FUZZ_MAX_EXAMPLES', 25)),
    '--workers', String(opts.workers ?? positiveInt(env, 'FUZZ_WORKERS', 1)),
    // Every distinct failure of an operation, not only its first.
    '--continue-on-failure',
    // Hypothesis's health checks judge the generator, not the API.
    '--suppress-health-check', 'all',
    // No example database in the working tree; a run is reproduced with its seed.
    '--generation-database', 'none',
    '--report', 'junit,json',
    '--report-junit-path', junit,
    '--report-json-path', json,
    '--no-color',
    ...(seed ? ['--seed', seed] : []),
    ...extra,
  ];
  const command = `st ${args.slice(args.indexOf('run')).join(' ')}`;
  log(command);
  const started = Date.now();
  const result = await run(opts.python, args, (line) => log(line), {
    cwd: reportDir,
    env: childEnv({ TAPROOT_FUZZ_TOKEN: opts.token, PYTHONIOENCODING: 'utf-8', COLUMNS: '120', TERM: 'dumb' }),
    // The budget bounds generation; shrinking a last failure and writing the reports come after it.
    timeoutMs: (seconds + 300) * 1000,
  });
  const elapsed = (Date.now() - started) / 1000;
  if (!existsSync(json) || !existsSync(junit)) {
    throw new Error(`st run wrote no report (exit ${result.code}):\n${result.tail.join('\n')}`);
  }
  const text = await readFile(json, 'utf8');
  const summary = JSON.parse(text) as RunReport;
  // The seed is a 128-bit integer: read its digits, not the float JSON.parse makes of it.
  const seedDigits = /"seed":\s*"?(\d+)/.exec(text)?.[1] ?? null;
  const { failures, errors } = parseJunit(await readFile(junit, 'utf8'));
  return {
    exitCode: result.code,
    seconds: elapsed,
    command,
    operations: { total: summary.operations?.selected ?? 0, tested: summary.operations?.tested ?? 0 },
    testCases: summary.test_cases?.generated ?? 0,
    seed: seedDigits,
    failures,
    errors,
    reportDir,
  };
}

/** The parts of Schemathesis's JSON run report read here. */
interface RunReport {
  operations?: { selected?: number; tested?: number };
  test_cases?: { generated?: number };
}

/**
 * Schemathesis's JUnit report: one <testcase> per operation (and one "Stateful tests"), each
 * <failure> the text of its failing cases ("1. Test Case ID: ...", "- ST101 Server error",
 * "[500] Internal Server Error:", "Reproduce with:" and the curl lines), each <error> a case it
 * could not run.
 */
export function parseJunit(xml: string): { failures: FuzzFailure[]; errors: FuzzError[] } {
  const failures: FuzzFailure[] = [];
  const errors: FuzzError[] = [];
  for (const testcase of xml.matchAll(/<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const name = decodeXml(/\bname="([^"]*)"/.exec(testcase[1])?.[1] ?? '?');
    const body = testcase[2] ?? '';
    for (const element of body.matchAll(/<(failure|error)\b[^>]*?(?:\/>|>([\s\S]*?)<\/\1>)/g)) {
      const text = decodeXml(element[2] ?? '');
      if (element[1] === 'error') errors.push({ operation: name, message: text.trim() });
      else failures.push(...parseFailureText(name, text));
    }
  }
  return { failures, errors };
}

function parseFailureText(operation: string, text: string): FuzzFailure[] {
  const cases = text.split(/^(?=\d+\. Test Case ID: )/m).filter((block) => block.trim());
  return cases.map((block) => {
    const caseId = /^\d+\. Test Case ID: (\S+)/.exec(block)?.[1] ?? '?';
    const [head, reproduction = ''] = block.split(/^Reproduce with:\s*$/m);
    const statusAt = head.search(/^\[\d{3}\] /m);
    const checksPart = statusAt >= 0 ? head.slice(0, statusAt) : head;
    const checks: FuzzCheck[] = [];
    for (const part of checksPart.split(/^(?=- ST\d+ )/m).slice(1)) {
      const [first, ...rest] = part.split('\n');
      const match = /^- (ST\d+) (.*?)(?: \(\d+ violations\))?$/.exec(first.trim());
      if (match) checks.push({ code: match[1], title: match[2], detail: dedent(rest.join('\n')).trim() });
    }
    const status = statusAt >= 0 ? Number(head.slice(statusAt + 1, statusAt + 4)) : null;
    const response = statusAt >= 0 ? dedent(head.slice(statusAt).split('\n').slice(1).join('\n')).trim().replace(/^`([\s\S]*)`$/, '$1') : '';
    const curl = reproduction
      .split('\n')
      .map((line) => line.replace(/^ {4}/, ''))
      .filter((line) => line.trim() && !line.startsWith('st replay'));
    const requestId = /Request ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}) failed/.exec(response)?.[1] ?? null;
    const label = operation === 'Stateful tests' && curl.length ? `Stateful tests (${curlOperation(curl[curl.length - 1])})` : operation;
    return { operation: label, caseId, checks, status, response, curl, requestId };
  });
}

/** `METHOD /path` of a curl line (the request a stateful case failed on). */
function curlOperation(curl: string): string {
  const method = /-X (\w+)/.exec(curl)?.[1] ?? 'GET';
  const url = /'?(https?:\/\/[^\s']+)'?\s*$/.exec(curl)?.[1];
  return url ? `${method} ${new URL(url).pathname}` : method;
}

function dedent(text: string): string {
  return text.replace(/^ {4}/gm, '');
}

function decodeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|lt|gt|amp|quot|apos);/gi, (_, entity: string) => {
    if (entity[0] === '#') return String.fromCodePoint(entity[1] === 'x' || entity[1] === 'X' ? parseInt(entity.slice(2), 16) : Number(entity.slice(1)));
    return ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" } as Record<string, string>)[entity.toLowerCase()];
  });
}

/** One paragraph per failure: operation, checks with their details, status, answer, curl. */
export function describeFailure(failure: FuzzFailure, serverError?: string): string {
  const lines = [`${failure.operation} (case ${failure.caseId}): ${failure.checks.map((c) => `${c.code} ${c.title}`).join(', ')}, status ${failure.status ?? 'none'}`];
  for (const check of failure.checks) {
    // The violation and which schema judged it; the schema and value printouts stay in the report.
    const detail = check.detail.split(/\n\nSchema at /)[0];
    if (detail) lines.push(indent(detail.length > 800 ? `${detail.slice(0, 800)}...` : detail));
  }
  if (failure.response) lines.push(indent(`answer: ${failure.response.length > 500 ? `${failure.response.slice(0, 500)}...` : failure.response}`));
  if (serverError) lines.push(indent(`server log: ${serverError}`));
  for (const curl of failure.curl) lines.push(indent(curl));
  return lines.join('\n');
}

function indent(text: string): string {
  return text.replace(/^/gm, '    ');
}

/**
 * The environment of `st run`: without FORCE_COLOR (Nx and Jest set it), which makes its console
 * draw a live progress bar, thousands of lines once piped.
 */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env.FORCE_COLOR;
  return env;
}
