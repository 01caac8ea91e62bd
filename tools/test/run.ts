/**
 * `npm test`: every suite against real parts. Starts a throwaway embedded PostgreSQL (applies
 * the migrations once) and a real single-node Kafka broker (tools/kafka) unless
 * TEST_DATABASE_URL / KAFKA_BROKERS point at servers, then runs Jest (jest.config.mjs) over
 *   *.spec.ts (unit), *.int-spec.ts (Postgres), *.kafka-spec.ts (Kafka), *.e2e-spec.ts (HTTP).
 * The whole run (no file filter) goes through Nx: the servers are started here once, then
 * `nx run-many -t test` runs each project's target (`run.ts --project <root>/`), which finds them
 * in the environment; each writes its counts for the total.
 * `--suite conformance` runs *.conformance-spec.ts (needs ../shared beside the repository);
 * `--suite fuzz` runs *.fuzz-spec.ts (Schemathesis against the api, tools/fuzz).
 * `--suite probe` runs *.probe-spec.ts: checks of a client whose source this machine's package
 * mirrors do not serve (tools/cli), run by hand where it can be fetched; not part of npm test or CI.
 * Ends with one line `N passed, N failed`.
 */
import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { existsSync, globSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { ALL_MIGRATIONS } from '@taproot/api';
import { createDataSource, freePort, runMigrations, startEmbeddedPostgres } from '@taproot/persistence';
import { startKafkaBroker, type KafkaBroker } from '../kafka/broker';
import { ALERTMANAGER } from './alertmanager';
import { CHROMIUM } from './chromium';
import { ensureTestBinaries } from './debian-binary';

const root = resolve(__dirname, '..', '..');
const args = process.argv.slice(2);
const suite = args.includes('--suite') ? args[args.indexOf('--suite') + 1] : 'default';
const only = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--suite');
/** One Nx project's target: its folders are `only`; a project without tests passes with 0. */
const projectMode = args.includes('--project');
/** The whole default suite goes through Nx, each project in turn (its own target). */
const viaNx = suite === 'default' && only.length === 0 && process.env.TAPROOT_TEST_DIRECT !== '1';

const PATTERNS: Record<string, string[]> = {
  default: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.kafka-spec.ts', '**/*.e2e-spec.ts'],
  conformance: ['**/*.conformance-spec.ts'],
  fuzz: ['**/*.fuzz-spec.ts'],
  probe: ['**/*.probe-spec.ts'],
};

function progress(message: string): void {
  process.stderr.write(`[test] ${message}\n`);
}

function findFiles(): string[] {
  const patterns = PATTERNS[suite];
  if (!patterns) throw new Error(`unknown suite ${suite}`);
  const files = patterns.flatMap((p) =>
    globSync(p, { cwd: root, exclude: (f) => f.includes('node_modules') || f.startsWith('.') }),
  );
  const unique = [...new Set(files)].sort();
  return only.length ? unique.filter((f) => only.some((o) => f.includes(o))) : unique;
}

async function main(): Promise<number> {
  const files = findFiles();
  if (files.length === 0 && projectMode) {
    progress(`no test files in ${only.join(', ')}`);
    return writeCounts(0, 0);
  }
  if (files.length === 0) {
    progress(`no test files for suite ${suite}`);
    console.log('0 passed, 1 failed');
    return 1;
  }
  const cleanups: (() => Promise<void>)[] = [];
  const env: Record<string, string> = { ...(process.env as Record<string, string>) };
  try {
    const needsDb = files.some((f) => !f.endsWith('.spec.ts') || f.endsWith('conformance-spec.ts'));
    if (needsDb && !env.TEST_DATABASE_URL) {
      const dir = mkdtempSync(join(tmpdir(), 'taproot-test-pg-'));
      progress('starting embedded PostgreSQL');
      const pg = await startEmbeddedPostgres({
        dir: join(dir, 'pg'),
        port: await freePort(),
        persistent: false,
        log: (line) => env.TEST_PG_LOG && progress(`postgres: ${line}`),
      });
      cleanups.push(async () => {
        await pg.stop();
        rmSync(dir, { recursive: true, force: true });
      });
      env.TEST_DATABASE_URL = pg.url;
    }
    if (needsDb) {
      const ds = createDataSource({ url: env.TEST_DATABASE_URL, entities: [], migrations: ALL_MIGRATIONS, poolSize: 2 });
      await ds.initialize();
      progress(`migrations applied: ${(await runMigrations(ds)).length}`);
      await ds.destroy();
    }
    if (files.some((f) => f.endsWith('.kafka-spec.ts')) && !env.KAFKA_BROKERS && !env.TEST_KAFKA_BROKERS) {
      progress('starting Kafka broker (the first run fetches it with Maven)');
      const broker: KafkaBroker = await startKafkaBroker({ log: (line) => progress(`kafka: ${line}`) });
      cleanups.push(() => broker.stop());
      env.TEST_KAFKA_BROKERS = broker.brokers.join(',');
    } else if (env.KAFKA_BROKERS) {
      env.TEST_KAFKA_BROKERS = env.KAFKA_BROKERS;
    }
    ensureTestBinaries([ALERTMANAGER, CHROMIUM], files, env);
    // The apps under test must not pick up the caller's deployment settings.
    delete env.DATABASE_URL;
    delete env.KAFKA_BROKERS;
    if (viaNx) return await runProjects(env);
    progress(`running ${files.length} test files (${suite}) under Jest`);
    const report = join(mkdtempSync(join(tmpdir(), 'taproot-jest-')), 'results.json');
    const code = await new Promise<number>((done) => {
      const child = spawn(
        process.execPath,
        [
          // Jest's ESM mode (docs/decisions/0004) needs the VM modules of Node.
          '--experimental-vm-modules',
          '--no-warnings=ExperimentalWarning',
          join(root, 'node_modules/jest/bin/jest.js'),
          '--config',
          join(root, 'jest.config.mjs'),
          '--ci',
          '--json',
          `--outputFile=${report}`,
          '--runTestsByPath',
          ...files,
        ],
        { cwd: root, env, stdio: 'inherit' },
      );
      child.on('exit', (c) => done(c ?? 1));
    });
    return reportJest(report, code);
  } finally {
    for (const fn of cleanups.reverse()) await fn().catch((e) => progress(`cleanup failed: ${String(e)}`));
  }
}

interface JestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  numRuntimeErrorTestSuites: number;
}

/** Jest's JSON report gives the counts; a file that failed to load counts as one failure. */
function reportJest(file: string, code: number): number {
  if (!existsSync(file)) return writeCounts(0, 1, code);
  const result = JSON.parse(readFileSync(file, 'utf8')) as JestReport;
  rmSync(dirname(file), { recursive: true, force: true });
  const skipped = result.numPendingTests + result.numTodoTests;
  if (skipped) progress(`${skipped} skipped (not counted as passed)`);
  return writeCounts(result.numPassedTests, result.numFailedTests + result.numRuntimeErrorTestSuites, code);
}

/** Prints the run's line and, for a project's target run by the whole run, its counts file. */
function writeCounts(passed: number, failed: number, code = 0): number {
  console.log(`${passed} passed, ${failed} failed`);
  const results = process.env.TAPROOT_TEST_RESULTS;
  if (projectMode && results) writeFileSync(join(results, `${only.join('+').replace(/[^a-z0-9]+/gi, '_')}.json`), JSON.stringify({ passed, failed }));
  return code === 0 && failed === 0 ? 0 : 1;
}

/** Every project's test target through Nx, one after the other, on the servers started here. */
async function runProjects(env: Record<string, string>): Promise<number> {
  const results = mkdtempSync(join(tmpdir(), 'taproot-test-results-'));
  progress('running every project\'s test target (nx run-many -t test)');
  const code = await new Promise<number>((done) => {
    const child = spawn(
      process.execPath,
      [join(root, 'node_modules/.bin/nx'), 'run-many', '-t', 'test', '--skip-nx-cache', '--parallel=1', '--output-style=stream'],
      { cwd: root, env: { ...env, TAPROOT_TEST_RESULTS: results, NX_DAEMON: 'false' }, stdio: 'inherit' },
    );
    child.on('exit', (c) => done(c ?? 1));
  });
  const counts = readdirSync(results).map((f) => JSON.parse(readFileSync(join(results, f), 'utf8')) as { passed: number; failed: number });
  rmSync(results, { recursive: true, force: true });
  progress(`${counts.length} projects reported`);
  const passed = counts.reduce((n, c) => n + c.passed, 0);
  // A project that reported nothing (it crashed before its line) counts as a failure.
  const failed = counts.reduce((n, c) => n + c.failed, 0) + (code !== 0 && counts.every((c) => c.failed === 0) ? 1 : 0);
  console.log(`${passed} passed, ${failed} failed`);
  return code === 0 && failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    console.log('0 passed, 1 failed');
    process.exit(1);
  },
);
