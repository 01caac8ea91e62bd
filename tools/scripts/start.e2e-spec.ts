import { afterAll as after, describe, expect, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@taproot/persistence';

// Jest runs from the workspace root (jest.config.mjs); ES modules have no `__dirname`.
const root = process.cwd();

interface Started {
  child: ChildProcess;
  output: () => string;
  ports: { api: number; auth: number; dispatcher: number };
}

/** `npm start` as a user runs it: one process, embedded PostgreSQL under DATA_DIR. */
async function start(dataDir: string, env: Record<string, string>): Promise<Started> {
  const ports = { api: await freePort(), auth: await freePort(), dispatcher: await freePort() };
  let out = '';
  const child = spawn(process.execPath, ['-r', join(root, 'tools/register.js'), join(root, 'tools/scripts/start.ts')], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      DATA_DIR: dataDir,
      PORT: String(ports.api),
      AUTH_PORT: String(ports.auth),
      DISPATCHER_PORT: String(ports.dispatcher),
      EMBEDDED_POSTGRES_PORT: String(await freePort()),
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}:\n${out}`);
    const ready = await fetch(`http://127.0.0.1:${ports.api}/readyz`).then((r) => r.ok, () => false);
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`api not ready within 90 s:\n${out}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return { child, output: () => out, ports };
}

function stop(s: Started, signal: NodeJS.Signals): Promise<number | null> {
  return new Promise((done) => {
    s.child.once('exit', (code) => done(code));
    s.child.kill(signal);
  });
}

describe('npm start', () => {
  const dirs: string[] = [];
  const newDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'taproot-start-'));
    dirs.push(dir);
    return join(dir, 'data');
  };
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  test('runs all apps on embedded Postgres, keeps data across a clean SIGTERM/SIGINT restart', async () => {
    const dataDir = newDir();
    const token = 'tk_bootstrap_0123456789abcdef';
    // A receiver on loopback, which the dispatcher may reach only when the operator allows it.
    const hooks: string[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c));
      req.on('end', () => {
        hooks.push((JSON.parse(body) as { event: { type: string } }).event.type);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const first = await start(dataDir, { BOOTSTRAP_API_KEY: token, WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' });
    try {
      for (const port of [first.ports.api, first.ports.auth, first.ports.dispatcher]) {
        assert.equal((await fetch(`http://127.0.0.1:${port}/healthz`)).status, 200, `healthz on ${port}`);
        assert.equal((await fetch(`http://127.0.0.1:${port}/readyz`)).status, 200, `readyz on ${port}`);
      }
      const endpoint = await fetch(`http://127.0.0.1:${first.ports.api}/v1/webhooks/endpoints`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/vnd.api+json' },
        body: JSON.stringify({ data: { type: 'webhooks_endpoints', attributes: { name: 'Audit', url: hookUrl, event_types: ['audit_log.created'] } } }),
      });
      assert.equal(endpoint.status, 201);
      const created = await fetch(`http://127.0.0.1:${first.ports.api}/v1/services`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/vnd.api+json' },
        body: JSON.stringify({ data: { type: 'services', attributes: { name: 'Checkout' } } }),
      });
      assert.equal(created.status, 201);
      // The service's audit row, announced and delivered by the process's dispatcher.
      for (let i = 0; i < 200 && hooks.length < 2; i++) await new Promise((r) => setTimeout(r, 50));
      assert.ok(hooks.length >= 2 && hooks.every((t) => t === 'audit_log.created'), `the dispatcher delivered the audit rows of the endpoint and the service, got ${JSON.stringify(hooks)}`);
    } finally {
      assert.equal(await stop(first, 'SIGTERM'), 0, first.output());
      receiver.close();
    }
    assert.ok(!first.output().includes(token), 'the bootstrap token must never be logged');

    const second = await start(dataDir, { BOOTSTRAP_API_KEY: 'tk_a_different_token_is_ignored' });
    try {
      const list = await fetch(`http://127.0.0.1:${second.ports.api}/v1/services`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(list.status, 200);
      const body = (await list.json()) as { data: { attributes: { name: string } }[] };
      expect(body.data.map((d) => d.attributes.name)).toEqual(['Checkout']);
      assert.doesNotMatch(second.output(), /bootstrapped the first organization/);
    } finally {
      assert.equal(await stop(second, 'SIGINT'), 0, second.output());
    }
  });

  test('the README example works as printed', async () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Try it'), readme.indexOf('## Configuration'));
    const token = /BOOTSTRAP_API_KEY=(\S+) npm start/.exec(section)?.[1];
    assert.ok(token, 'the README starts the system with a BOOTSTRAP_API_KEY');
    const script = /```sh\n(curl[\s\S]*?)```/.exec(section)?.[1];
    assert.ok(script, 'the README has a curl block');
    const s = await start(newDir(), { BOOTSTRAP_API_KEY: token });
    try {
      // Only the port differs from what the README prints.
      const output = execFileSync('sh', ['-c', script.replaceAll('127.0.0.1:3000', `127.0.0.1:${s.ports.api}`)], { encoding: 'utf8' });
      const [created, listed] = output.split(/(?<=\})(?=\{)/).map((doc) => JSON.parse(doc));
      assert.equal(created.data.attributes.name, 'Checkout');
      expect(listed.data.map((d: { id: string }) => d.id)).toEqual([created.data.id]);
    } finally {
      assert.equal(await stop(s, 'SIGTERM'), 0);
    }
  });

  test('without BOOTSTRAP_API_KEY the first start prints a generated key once, and it works', async () => {
    const s = await start(newDir(), {});
    try {
      const match = /shown only once:\s+(tpr_[A-Za-z0-9]{40})/.exec(s.output());
      assert.ok(match, `no generated key in:\n${s.output()}`);
      const key = match[1];
      assert.equal(s.output().split(key).length - 1, 1, 'the key is printed exactly once');
      const res = await fetch(`http://127.0.0.1:${s.ports.api}/v1/severities`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(res.status, 200);
    } finally {
      assert.equal(await stop(s, 'SIGTERM'), 0);
    }
  });

  test('OAuth works with no setup: the auth app on AUTH_PORT issues a client-credentials token the api accepts, within its scope', async () => {
    const token = 'tk_bootstrap_oauth_0123456789abcdef';
    const s = await start(newDir(), { BOOTSTRAP_API_KEY: token });
    try {
      const auth = `http://127.0.0.1:${s.ports.auth}`;
      const discovery = (await (await fetch(`${auth}/.well-known/openid-configuration`)).json()) as { issuer: string; token_endpoint: string };
      assert.equal(discovery.issuer, auth);
      const created = await fetch(`http://127.0.0.1:${s.ports.api}/v1/oauth_applications`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/vnd.api+json' },
        body: JSON.stringify({ data: { type: 'oauth_applications', attributes: { name: 'Reporter', scope: 'ir.services:read' } } }),
      });
      assert.equal(created.status, 201, await created.clone().text());
      const app = ((await created.json()) as { data: { attributes: { client_id: string; client_secret: string } } }).data.attributes;
      const issued = await fetch(discovery.token_endpoint, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`${app.client_id}:${app.client_secret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'ir.services:read' }),
      });
      assert.equal(issued.status, 200, await issued.clone().text());
      const { access_token: accessToken } = (await issued.json()) as { access_token: string };
      const api = (method: string) =>
        fetch(`http://127.0.0.1:${s.ports.api}/v1/services`, {
          method,
          headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/vnd.api+json' },
          body: method === 'POST' ? JSON.stringify({ data: { type: 'services', attributes: { name: 'Nope' } } }) : undefined,
        });
      assert.equal((await api('GET')).status, 200);
      assert.equal((await api('POST')).status, 403, 'the read scope does not write');
    } finally {
      assert.equal(await stop(s, 'SIGTERM'), 0, s.output());
    }
  });

  test('a bad configuration value stops the process with a message naming the variable', async () => {
    const child = spawn(process.execPath, ['-r', join(root, 'tools/register.js'), join(root, 'tools/scripts/start.ts')], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', PORT: 'eighty' },
    });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise((done) => child.once('exit', done));
    assert.equal(code, 2);
    assert.match(err, /PORT must be an integer/);
  });
});
