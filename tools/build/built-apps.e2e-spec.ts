import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, globSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createScratchDatabase, freePort } from '@taproot/persistence';

// Jest runs from the workspace root (jest.config.mjs); ES modules have no `__dirname`.
const root = process.cwd();

/**
 * What a production image holds (docker/Dockerfile): the manifests, the lockfile and each
 * project's built `dist/`, installed with `npm ci --omit=dev`: no TypeScript, no SWC, no register.
 */
function productionInstall(): string {
  const build = spawnSync(process.execPath, [join(root, 'node_modules/.bin/nx'), 'run-many', '-t', 'build', '--output-style=static'], {
    cwd: root,
    env: { ...process.env, NX_DAEMON: 'false' },
    encoding: 'utf8',
  });
  assert.equal(build.status, 0, `nx run-many -t build:\n${build.stdout}\n${build.stderr}`);
  const dir = mkdtempSync(join(tmpdir(), 'taproot-production-'));
  for (const file of ['package.json', 'package-lock.json']) cpSync(join(root, file), join(dir, file));
  for (const manifest of globSync(['apps/*/package.json', 'libs/*/package.json', 'libs/platform/*/package.json', 'tools/package.json'], { cwd: root })) {
    const project = dirname(manifest);
    mkdirSync(join(dir, project), { recursive: true });
    cpSync(join(root, manifest), join(dir, manifest));
    if (existsSync(join(root, project, 'dist'))) cpSync(join(root, project, 'dist'), join(dir, project, 'dist'), { recursive: true });
  }
  // No install scripts: the embedded PostgreSQL's binaries are not needed with DATABASE_URL.
  const install = spawnSync('npm', ['ci', '--omit=dev', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: dir, encoding: 'utf8' });
  assert.equal(install.status, 0, `npm ci --omit=dev:\n${install.stdout}\n${install.stderr}`);
  return dir;
}

async function ready(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await fetch(`${url}/readyz`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`not ready (exit ${child.exitCode}):\n${output()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * The built system, in one file because both build the same dist folders (two builds at once
 * would race): `npm start`'s own command, then the production-only install.
 */
describe('npm start runs the built system', () => {
  test('its own command (package.json) builds what changed, then serves from tools/dist/start.js', async () => {
    const script: string = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.start;
    const [program, ...args] = script.split(/\s+/);
    assert.equal(program, 'node');
    const dir = mkdtempSync(join(tmpdir(), 'taproot-npm-start-'));
    const token = `tk_built_${Date.now()}_0123456789`;
    const ports = { api: await freePort(), auth: await freePort(), dispatcher: await freePort() };
    let output = '';
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        DATA_DIR: join(dir, 'data'),
        PORT: String(ports.api),
        AUTH_PORT: String(ports.auth),
        DISPATCHER_PORT: String(ports.dispatcher),
        EMBEDDED_POSTGRES_PORT: String(await freePort()),
        LOG_LEVEL: 'warn',
        BOOTSTRAP_API_KEY: token,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const exited = new Promise((done) => child.once('exit', done));
    try {
      await ready(`http://127.0.0.1:${ports.api}`, child, () => output);
      const services = await fetch(`http://127.0.0.1:${ports.api}/v1/services`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(services.status, 200);
      assert.equal((await fetch(`http://127.0.0.1:${ports.auth}/healthz`)).status, 200);
      assert.ok(existsSync(join(root, 'tools/dist/start.js')), 'the launcher built tools/dist/start.js');
    } finally {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the built apps on production dependencies only', () => {
  let dir: string;
  const children: ChildProcess[] = [];
  before(() => {
    dir = productionInstall();
  });
  after(() => {
    for (const child of children) child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  test('no development package is installed', () => {
    for (const dev of ['typescript', '@swc/core', '@swc-node/register', 'nx', 'eslint']) assert.equal(existsSync(join(dir, 'node_modules', dev)), false, dev);
    assert.ok(existsSync(join(dir, 'node_modules/@taproot/api/dist/main.js')), 'the api package resolves to its build');
  });

  test('api, auth and webhook dispatcher each start from dist/main.js with plain node and answer', async () => {
    // A scratch copy: the apps write (the auth app its signing keys) into what they are given, and
    // the shared database is the template of every other suite's scratch copies.
    const env = { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_URL: await createScratchDatabase() };
    const ports = { api: await freePort(), auth: await freePort(), dispatcher: await freePort() };
    const start = (app: string, extra: Record<string, string>) => {
      let output = '';
      const child = spawn(process.execPath, [join(dir, 'apps', app, 'dist/main.js')], { cwd: dir, env: { ...env, ...extra }, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout!.on('data', (d) => (output += d));
      child.stderr!.on('data', (d) => (output += d));
      children.push(child);
      return { child, output: () => output };
    };
    // The api first: it owns the schema and migrates it.
    const api = start('api', { PORT: String(ports.api) });
    await ready(`http://127.0.0.1:${ports.api}`, api.child, api.output);
    const auth = start('auth', { AUTH_PORT: String(ports.auth) });
    const dispatcher = start('webhook-dispatcher', { DISPATCHER_PORT: String(ports.dispatcher) });
    await ready(`http://127.0.0.1:${ports.auth}`, auth.child, auth.output);
    await ready(`http://127.0.0.1:${ports.dispatcher}`, dispatcher.child, dispatcher.output);

    const openapi = await fetch(`http://127.0.0.1:${ports.api}/v1/openapi.json`);
    assert.equal(openapi.status, 200);
    const refused = await fetch(`http://127.0.0.1:${ports.api}/v1/services`);
    assert.equal(refused.status, 401);
    assert.ok(((await refused.json()) as { errors: unknown[] }).errors.length > 0);
    const discovery = await fetch(`http://127.0.0.1:${ports.auth}/.well-known/openid-configuration`);
    assert.equal(discovery.status, 200, api.output());
  });
});
