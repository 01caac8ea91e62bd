/**
 * Issue 13, point 1: Schemathesis generates requests from the served /v1/openapi.json against
 * every served operation, with an organization's all-permissions key, for FUZZ_SECONDS (default
 * 240). No answer may be a 5xx, and every answer must match the document's schema for its status.
 * A failure lists each failing operation with its reproduction (curl) and, for a 5xx, the error
 * the api logged for that request. `npm run test:fuzz` (the tools project's Nx target `fuzz`).
 */
import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { startTestApi, type TestApi } from '../../apps/api/src/testing';
import { describeFailure, fuzzSeconds, installSchemathesis, runSchemathesis, type FuzzFailure, type FuzzRun } from './schemathesis';

/** Schemathesis's codes for a 5xx answer (`st explain ST101`); the rest are conformance failures. */
const SERVER_ERROR_CODES = new Set(['ST101', 'ST102']);

/** The api's unhandled errors by request id, read from its log (LOG_LEVEL error). */
interface ServerLog {
  byRequest: Map<string, string>;
  /** Every logged error's message, to show what the fuzzer's one case per operation and status hides. */
  messages: string[];
}

/**
 * Reads the api's pino log as it is written: its destination is the logger's `pino.stream`
 * symbol (pino.symbols, for integrations). Lines go on to stdout only when TEST_LOG_LEVEL asks.
 */
function tapServerLog(logger: object, forward: boolean): ServerLog {
  const log: ServerLog = { byRequest: new Map(), messages: [] };
  const symbol = Object.getOwnPropertySymbols(logger).find((s) => s.description === 'pino.stream');
  const stream = symbol && (logger as Record<symbol, { write(chunk: string): boolean }>)[symbol];
  if (!stream) return log;
  const write = stream.write.bind(stream);
  stream.write = (chunk: string) => {
    for (const line of String(chunk).split('\n').filter(Boolean)) {
      try {
        const entry = JSON.parse(line) as { level?: number; reqId?: string; msg?: string; err?: { type?: string; message?: string } };
        if ((entry.level ?? 0) < 50) continue;
        const message = `${entry.msg ?? ''}: ${entry.err?.type ?? ''} ${entry.err?.message ?? ''}`.trim();
        log.messages.push(message);
        if (entry.reqId) log.byRequest.set(entry.reqId, message);
      } catch {
        // Not a JSON line: nothing to match.
      }
    }
    return forward ? write(chunk) : true;
  };
  return log;
}

function describeAll(failures: FuzzFailure[], log: ServerLog): string {
  return failures.map((f) => describeFailure(f, f.requestId ? log.byRequest.get(f.requestId) : undefined)).join('\n\n');
}

/**
 * The distinct errors the api logged (quoted values folded), with how often and one example: a
 * 5xx the fuzzer counted once per operation and status shows here.
 */
function distinctServerErrors(log: ServerLog): string {
  const kinds = new Map<string, { n: number; example: string }>();
  for (const message of log.messages) {
    const kind = message.replace(/"[^"]*"/g, '"…"');
    const seen = kinds.get(kind) ?? { n: 0, example: message };
    kinds.set(kind, { ...seen, n: seen.n + 1 });
  }
  return [...kinds].map(([kind, { n, example }]) => `    ${n} x ${kind}${example === kind ? '' : `\n        e.g. ${example}`}`).join('\n');
}

describe('fuzzing every served operation from /v1/openapi.json (Schemathesis)', () => {
  const seconds = fuzzSeconds();
  let api: TestApi | undefined;
  let run: FuzzRun;
  let log: ServerLog;

  before(async () => {
    const python = await installSchemathesis();
    api = await startTestApi({
      env: {
        LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error',
        // The fuzzer's request rate is no abuse to limit: every request should reach the handlers.
        RATE_LIMIT_READS_PER_MINUTE: '10000000',
        RATE_LIMIT_WRITES_PER_MINUTE: '10000000',
        ALERT_CREATION_LIMIT_PER_MINUTE: '10000000',
      },
    });
    log = tapServerLog(api.runtime.logger, process.env.TEST_LOG_LEVEL !== undefined);
    const org = await api.newOrganization();
    run = await runSchemathesis({ python, baseUrl: api.url, token: org.token });
    const summary = `${run.testCases} test cases over ${run.operations.tested}/${run.operations.total} operations in ${run.seconds.toFixed(0)} s (seed ${run.seed})`;
    process.stderr.write(`[fuzz] ${summary}; ${run.failures.length} failing cases, ${run.errors.length} errors; reports in ${run.reportDir}\n`);
    if (log.messages.length) process.stderr.write(`[fuzz] the api logged:\n${distinctServerErrors(log)}\n`);
  }, (seconds + 900) * 1000);

  after(async () => {
    await api?.close();
    // The reports stay for a failed run (their folder is printed above).
    if (run && run.failures.length === 0 && run.errors.length === 0) rmSync(run.reportDir, { recursive: true, force: true });
  });

  test('every served operation was fuzzed, none left untested by an error', () => {
    assert.ok(run.operations.total > 0, 'the document lists no operation');
    const errors = run.errors.map((e) => `${e.operation}:\n${e.message.replace(/^/gm, '    ')}`).join('\n\n');
    assert.equal(run.errors.length, 0, `Schemathesis could not test ${run.errors.length} operations:\n\n${errors}`);
    assert.equal(run.operations.tested, run.operations.total, `${run.operations.total - run.operations.tested} operations were not tested`);
  });

  test('no request gets a 5xx', () => {
    const failing = run.failures.filter((f) => f.checks.some((c) => SERVER_ERROR_CODES.has(c.code)) || (f.status ?? 0) >= 500);
    const message = `${failing.length} cases got a 5xx (${run.command}, seed ${run.seed}):\n\n${describeAll(failing, log)}\n\nthe api logged:\n${distinctServerErrors(log)}`;
    assert.equal(failing.length, 0, message);
  });

  test('every answer conforms to the served document', () => {
    const failing = run.failures.filter((f) => f.checks.some((c) => !SERVER_ERROR_CODES.has(c.code)));
    assert.equal(failing.length, 0, `${failing.length} answers do not match the document (${run.command}, seed ${run.seed}):\n\n${describeAll(failing, log)}`);
  });
});
