/**
 * `npm test`: every suite against real parts. Starts a throwaway embedded PostgreSQL (applies
 * the migrations once) and a real single-node Kafka broker (tools/kafka) unless
 * TEST_DATABASE_URL / KAFKA_BROKERS point at servers, then runs Node's test runner over
 *   *.spec.ts (unit), *.int-spec.ts (Postgres), *.kafka-spec.ts (Kafka), *.e2e-spec.ts (HTTP).
 * `--suite conformance` runs *.conformance-spec.ts (needs ../shared beside the repository).
 * Ends with one line `N passed, N failed`.
 */
import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { globSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
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

const PATTERNS: Record<string, string[]> = {
  default: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.kafka-spec.ts', '**/*.e2e-spec.ts'],
  conformance: ['**/*.conformance-spec.ts'],
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
    if (files.some((f) => f.endsWith('.kafka-spec.ts')) && !env.KAFKA_BROKERS) {
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
    progress(`running ${files.length} test files (${suite})`);
    const tapFile = join(mkdtempSync(join(tmpdir(), 'taproot-tap-')), 'results.tap');
    const code = await new Promise<number>((done) => {
      const child = spawn(
        process.execPath,
        [
          '-r',
          join(root, 'tools/register.js'),
          '--test',
          '--test-concurrency=2',
          '--test-timeout=300000',
          '--test-reporter=spec',
          '--test-reporter-destination=stdout',
          '--test-reporter=tap',
          `--test-reporter-destination=${tapFile}`,
          ...files,
        ],
        { cwd: root, env, stdio: 'inherit' },
      );
      child.on('exit', (c) => done(c ?? 1));
    });
    const tap = readFileSync(tapFile, 'utf8');
    const count = (name: string) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(tap)?.[1] ?? 0);
    const passed = count('pass');
    const failed = count('fail') + count('cancelled');
    console.log(`${passed} passed, ${failed} failed${count('skipped') ? `, ${count('skipped')} skipped` : ''}`);
    return code === 0 && failed === 0 ? 0 : 1;
  } finally {
    for (const fn of cleanups.reverse()) await fn().catch((e) => progress(`cleanup failed: ${String(e)}`));
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    console.log('0 passed, 1 failed');
    process.exit(1);
  },
);
