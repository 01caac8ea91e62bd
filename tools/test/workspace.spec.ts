import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, globSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { bareImports, packageOf } from './source-imports';

// Jest runs from the workspace root (jest.config.mjs); ES modules have no `__dirname`.
const root = process.cwd();

interface Manifest {
  name: string;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  nx?: { targets?: Record<string, unknown> };
}

const projects = globSync(['apps/*/package.json', 'libs/*/package.json', 'libs/platform/*/package.json', 'tools/package.json'], { cwd: root }).map((file) => ({
  dir: dirname(file),
  manifest: JSON.parse(readFileSync(join(root, file), 'utf8')) as Manifest,
}));

describe('the Nx workspace', () => {
  test('every app and lib is a project with typecheck and test targets (and lint), and its own tsconfig.json', () => {
    assert.ok(projects.length >= 18, `${projects.length} projects`);
    for (const { dir, manifest } of projects) {
      assert.ok(manifest.nx?.targets?.typecheck && manifest.nx.targets.test, `${dir}: typecheck and test targets`);
      if (dir !== 'tools') assert.ok(manifest.scripts?.lint, `${dir}: a lint target`);
      assert.ok(existsSync(join(root, dir, 'tsconfig.json')), `${dir}/tsconfig.json`);
    }
  });

  test('each project declares the workspace packages it imports, so the project graph (nx affected) sees them', () => {
    for (const { dir, manifest } of projects) {
      const declared = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {})]);
      const files = globSync('**/*.ts', { cwd: join(root, dir), exclude: (f) => f.includes('node_modules') });
      for (const file of files) {
        const source = readFileSync(join(root, dir, file), 'utf8');
        for (const name of bareImports(source).map(packageOf)) {
          if (name.startsWith('@taproot/') && name !== manifest.name) assert.ok(declared.has(name), `${dir}/${file} imports ${name}, which ${dir}/package.json does not declare`);
        }
      }
    }
  });

  test('nx affected: a platform change reaches the contexts and apps built on it, a context change only its dependents', () => {
    const affected = (file: string) =>
      execFileSync(process.execPath, [join(root, 'node_modules/.bin/nx'), 'show', 'projects', '--affected', `--files=${file}`], {
        cwd: root,
        env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' },
        encoding: 'utf8',
      })
        .split('\n')
        .filter(Boolean)
        .sort();
    const fromMessaging = affected('libs/platform/messaging/src/index.ts');
    for (const name of ['@taproot/messaging', '@taproot/incidents', '@taproot/alerting', '@taproot/api']) assert.ok(fromMessaging.includes(name), `${name} in ${fromMessaging.join(', ')}`);
    const fromIncidents = affected('libs/incidents/src/index.ts');
    assert.ok(fromIncidents.includes('@taproot/api'));
    assert.ok(!fromIncidents.includes('@taproot/alerting') && !fromIncidents.includes('@taproot/messaging'), fromIncidents.join(', '));
  });

  test('a project\'s test target runs its own files (a project without tests passes with 0) and reports its counts', () => {
    const results = mkdtempSync(join(tmpdir(), 'taproot-results-'));
    try {
      const run = (project: string) =>
        spawnSync(process.execPath, [join(root, 'node_modules/.bin/nx'), 'test', project, '--skip-nx-cache', '--output-style=static'], {
          cwd: root,
          env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', TAPROOT_TEST_RESULTS: results },
          encoding: 'utf8',
        });
      // Whichever project has no test files yet: naming one breaks as soon as it gets its first test.
      const untested = projects.find(({ dir }) => globSync('**/*[.-]spec.ts', { cwd: join(root, dir), exclude: (f) => f.includes('node_modules') || f.startsWith('dist') }).length === 0);
      assert.ok(untested, 'a project without test files, to show its target passes with 0');
      const empty = run(untested.manifest.name);
      assert.equal(empty.status, 0, empty.stdout + empty.stderr);
      assert.match(empty.stdout, /^0 passed, 0 failed$/m);
      const config = run('config');
      assert.equal(config.status, 0, config.stdout + config.stderr);
      const reported = readdirSync(results).map((f) => JSON.parse(readFileSync(join(results, f), 'utf8')) as { passed: number; failed: number });
      assert.equal(reported.length, 2);
      assert.ok(reported.some((r) => r.passed > 10 && r.failed === 0), JSON.stringify(reported));
    } finally {
      rmSync(results, { recursive: true, force: true });
    }
  });
});
