import { afterAll as after, describe, expect, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScratchDatabase, freePort, openTestDataSource } from '@taproot/persistence';
import { root, script, taproot, type Ran } from './cli-testing';

interface Started {
  child: ChildProcess;
  output: () => string;
  api: string;
}

/** `npm start` on a data dir (as in start.e2e-spec.ts). */
async function start(env: Record<string, string>): Promise<Started> {
  const port = await freePort();
  let out = '';
  const [cmd, base] = script('start.ts');
  const child = spawn(cmd, [...base], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      AUTH_PORT: String(await freePort()),
      DISPATCHER_PORT: String(await freePort()),
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const api = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}:\n${out}`);
    if (await fetch(`${api}/readyz`).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline) throw new Error(`api not ready within 90 s:\n${out}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return { child, output: () => out, api };
}

function stop(s: Started): Promise<number | null> {
  return new Promise((done) => {
    s.child.once('exit', (code) => done(code));
    s.child.kill('SIGTERM');
  });
}

const get = (url: string, token: string) => fetch(url, { headers: { authorization: `Bearer ${token}` } });
const names = async (res: Response) => ((await res.json()) as { data: { attributes: { name: string } }[] }).data.map((d) => d.attributes.name);

function parseJsonOutput(ran: Ran): { organization_id: string; api_key: string } {
  assert.equal(ran.code, 0, ran.stderr);
  const lines = ran.stdout.trim().split('\n');
  assert.equal(lines.length, 1, `stdout must be exactly one JSON object, got:\n${ran.stdout}`);
  const doc = JSON.parse(lines[0]);
  expect(Object.keys(doc).sort()).toEqual(['api_key', 'organization_id']);
  assert.match(doc.organization_id, /^[0-9a-f-]{36}$/);
  assert.match(doc.api_key, /^tpr_[A-Za-z0-9]{40}$/);
  return doc;
}

describe('npm run taproot', () => {
  const dirs: string[] = [];
  const newEnv = async () => {
    const dir = mkdtempSync(join(tmpdir(), 'taproot-cli-'));
    dirs.push(dir);
    return { DATA_DIR: join(dir, 'data'), EMBEDDED_POSTGRES_PORT: String(await freePort()) };
  };
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  test('org create with the server stopped: embedded PostgreSQL started and stopped, the key works on the next npm start', async () => {
    const env = await newEnv();
    const bootstrap = 'tk_cli_bootstrap_0123456789';
    // A first organization with data, then a clean stop.
    const first = await start({ ...env, BOOTSTRAP_API_KEY: bootstrap });
    try {
      const created = await fetch(`${first.api}/v1/services`, {
        method: 'POST',
        headers: { authorization: `Bearer ${bootstrap}`, 'content-type': 'application/vnd.api+json' },
        body: JSON.stringify({ data: { type: 'services', attributes: { name: 'Checkout' } } }),
      });
      assert.equal(created.status, 201);
    } finally {
      assert.equal(await stop(first), 0, first.output());
    }

    const ran = await taproot(['org', 'create', '--name', 'Second org', '--owner-email', 'ops@second.test', '--json'], env);
    const org = parseJsonOutput(ran);
    assert.match(ran.stderr, /starting the embedded PostgreSQL/);
    assert.match(ran.stderr, /embedded PostgreSQL stopped/);
    assert.ok(!ran.stderr.includes(org.api_key), 'the key goes to stdout only');

    // The data dir was left clean: npm start comes up on it and accepts the key.
    const second = await start(env);
    try {
      const mine = await get(`${second.api}/v1/services`, org.api_key);
      assert.equal(mine.status, 200);
      // The new organization sees nothing of the first.
      expect(await names(mine)).toEqual([]);
      expect(await names(await get(`${second.api}/v1/services`, bootstrap))).toEqual(['Checkout']);
    } finally {
      assert.equal(await stop(second), 0, second.output());
    }
  });

  test('org create while npm start runs: connects to the running server, the key is accepted at once', async () => {
    const env = await newEnv();
    const s = await start({ ...env, BOOTSTRAP_API_KEY: 'tk_cli_running_0123456789' });
    try {
      const ran = await taproot(['org', 'create', '--name', 'Live org', '--json'], env);
      const org = parseJsonOutput(ran);
      assert.match(ran.stderr, /connecting to the running embedded PostgreSQL/);
      const res = await get(`${s.api}/v1/services`, org.api_key);
      assert.equal(res.status, 200);
      expect(await names(res)).toEqual([]);

      // Human-readable output without --json; the running server is left untouched.
      const text = await taproot(['org', 'create', '--name', 'Text org'], env);
      assert.equal(text.code, 0, text.stderr);
      const key = /(tpr_[A-Za-z0-9]{40})/.exec(text.stdout)?.[1];
      assert.ok(key, text.stdout);
      assert.match(text.stdout, /Created organization "Text org"/);
      assert.equal((await get(`${s.api}/v1/severities`, key)).status, 200);
      assert.equal((await fetch(`${s.api}/readyz`)).status, 200);
    } finally {
      assert.equal(await stop(s), 0, s.output());
    }
  });

  test('org limits shows and sets an organization’s own rate limits; the running api applies them to its keys', async () => {
    const env = await newEnv();
    // The CLI is another process: the api sees its change once its verified keys expire (the stated bound).
    const s = await start({ ...env, BOOTSTRAP_API_KEY: 'tk_cli_limits_0123456789', AUTH_CACHE_TTL_MS: '1000' });
    try {
      const org = parseJsonOutput(await taproot(['org', 'create', '--name', 'Limited org', '--json'], env));
      const show = await taproot(['org', 'limits', '--org', org.organization_id, '--json'], env);
      assert.equal(show.code, 0, show.stderr);
      expect(JSON.parse(show.stdout)).toEqual({
        organization_id: org.organization_id,
        reads_per_minute: 3000,
        writes_per_minute: 3000,
        reads_default: true,
        writes_default: true,
      });

      const set = await taproot(['org', 'limits', '--org', org.organization_id, '--reads', '2', '--writes=7', '--json'], env);
      assert.equal(set.code, 0, set.stderr);
      expect(JSON.parse(set.stdout)).toEqual({ organization_id: org.organization_id, reads_per_minute: 2, writes_per_minute: 7, reads_default: false, writes_default: false });
      const reads = [];
      for (let i = 0; i < 3; i++) reads.push(await get(`${s.api}/v1/services`, org.api_key));
      expect(reads.map((r) => r.status)).toEqual([200, 200, 429]);
      assert.equal(reads[0].headers.get('x-ratelimit-limit'), '2, 2;window=60');
      // Another organization keeps the deployment default.
      assert.equal((await get(`${s.api}/v1/services`, 'tk_cli_limits_0123456789')).headers.get('x-ratelimit-limit'), '3000, 3000;window=60');

      const reset = await taproot(['org', 'limits', '--org', org.organization_id, '--reads', 'default'], env);
      assert.equal(reset.code, 0, reset.stderr);
      assert.match(reset.stdout, /3000 reads \(deployment default\) and 7 writes per API key per minute/);
      await new Promise((r) => setTimeout(r, 1100));
      assert.equal((await get(`${s.api}/v1/services`, org.api_key)).status, 200, 'the default applies again within AUTH_CACHE_TTL_MS');

      const unknown = await taproot(['org', 'limits', '--org', '00000000-0000-4000-8000-000000000000'], env);
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /no organization with id "00000000-0000-4000-8000-000000000000"/);
    } finally {
      assert.equal(await stop(s), 0, s.output());
    }
  });

  test('bad usage exits 2 with a message on stderr; --help lists the commands', async () => {
    const env = await newEnv();
    const cases: [string[], RegExp][] = [
      [[], /no command given/],
      [['frobnicate'], /unknown command "frobnicate"/],
      [['org'], /org needs a sub-command/],
      [['org', 'delete'], /unknown command "org delete"/],
      [['org', 'create'], /needs --name/],
      [['org', 'create', '--name'], /--name needs a value/],
      [['org', 'create', '--name', '  '], /needs --name/],
      [['org', 'create', '--name', 'x', '--colour', 'red'], /unknown option --colour/],
      [['org', 'create', '--name', 'x', '--owner-email', 'nope'], /--owner-email must be an email/],
      [['org', 'create', '--name', 'x', '--reads', '5'], /unknown option --reads/],
      [['org', 'limits'], /needs --org/],
      [['org', 'limits', '--org', 'o', '--reads', '0'], /--reads must be a whole number from 1 to 10000000 or "default", got "0"/],
      [['org', 'limits', '--org', 'o', '--writes', 'lots'], /--writes must be a whole number/],
      [['app'], /app needs a sub-command \(create, list, revoke\)/],
      [['app', 'create', '--name', 'x', '--grant', 'client_credentials', '--scope', 'all'], /app create needs --org/],
      [['app', 'create', '--org', 'o', '--grant', 'client_credentials', '--scope', 'all'], /app create needs --name/],
      [['app', 'create', '--org', 'o', '--name', 'x', '--scope', 'all'], /needs --grant client_credentials, got ""/],
      [['app', 'create', '--org', 'o', '--name', 'x', '--grant', 'authorization_code', '--scope', 'all'], /needs --grant client_credentials, got "authorization_code"/],
      [['app', 'create', '--org', 'o', '--name', 'x', '--grant', 'client_credentials'], /needs --scope/],
      [['app', 'create', '--org', 'o', '--name', 'x', '--grant', 'client_credentials', '--scope', 'ir.nope:read'], /--scope: scope has unknown scopes: ir\.nope:read/],
      [['app', 'create', '--org', 'o', '--name', 'x', '--grant', 'client_credentials', '--scope', 'openid'], /--scope: scope cannot include openid/],
      [['app', 'revoke', '--org', 'o'], /app revoke needs --client-id/],
      [['app', 'list', '--org', 'o', '--name', 'x'], /unknown option --name/],
    ];
    for (const [args, message] of cases) {
      const ran = await taproot(args, env);
      assert.equal(ran.code, 2, `${args.join(' ')}: ${ran.stderr}`);
      assert.match(ran.stderr, message, args.join(' '));
      assert.match(ran.stderr, /Usage:/);
      assert.equal(ran.stdout, '', 'nothing on stdout');
    }
    const bad = await taproot(['org', 'create', '--name', 'x'], { ...env, EMBEDDED_POSTGRES_PORT: 'five' });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /EMBEDDED_POSTGRES_PORT must be an integer/);

    const help = await taproot(['--help'], env);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /org create --name <name>/);
    assert.match(help.stdout, /org limits --org <organization-id>/);
    assert.match(help.stdout, /app create --org <organization-id> --name <name> --grant client_credentials --scope "<scopes>"/);
  });
});

describe('npm run taproot -- app (OAuth client-credentials applications)', () => {
  test('keys rotate adds a signing key and retires the previous one (still published until its tokens expire)', async () => {
    const env = { DATABASE_URL: await createScratchDatabase() };
    const first = await taproot(['keys', 'rotate', '--json'], env);
    assert.equal(first.code, 0, first.stderr);
    const second = await taproot(['keys', 'rotate', '--json'], env);
    assert.equal(second.code, 0, second.stderr);
    const [{ kid: kid1 }, { kid: kid2 }] = [JSON.parse(first.stdout), JSON.parse(second.stdout)];
    assert.notEqual(kid1, kid2);
    const db = await openTestDataSource(env.DATABASE_URL);
    try {
      const rows = await db.query('SELECT kid, retired_at IS NOT NULL AS retired FROM oauth_signing_keys ORDER BY created_at');
      expect(rows.filter((r: { kid: string }) => [kid1, kid2].includes(r.kid))).toEqual([{ kid: kid1, retired: true }, { kid: kid2, retired: false }]);
      assert.equal(rows.filter((r: { retired: boolean }) => !r.retired).length, 1, 'one key signs');
    } finally {
      await db.destroy();
    }
  });

  test('app create prints one JSON object with the client id and secret; app list shows it without the secret; app revoke removes the client', async () => {
    const env = { DATABASE_URL: await createScratchDatabase() };
    const org = parseJsonOutput(await taproot(['org', 'create', '--name', 'Apps org', '--json'], env));

    const created = await taproot(['app', 'create', '--org', org.organization_id, '--name', 'CI bot', '--grant', 'client_credentials', '--scope', 'ir.services:read  oc.alerts:write', '--json'], env);
    assert.equal(created.code, 0, created.stderr);
    const lines = created.stdout.trim().split('\n');
    assert.equal(lines.length, 1, `stdout must be exactly one JSON object, got:\n${created.stdout}`);
    const app = JSON.parse(lines[0]);
    expect(Object.keys(app).sort()).toEqual(['client_id', 'client_secret', 'name', 'organization_id', 'scope', 'service_user_id']);
    assert.equal(app.organization_id, org.organization_id);
    assert.equal(app.scope, 'ir.services:read oc.alerts:write');
    assert.ok(!created.stderr.includes(app.client_secret), 'the secret goes to stdout only');

    const db = await openTestDataSource(env.DATABASE_URL);
    try {
      const [client] = await db.query(`SELECT payload FROM oauth_payloads WHERE model = 'Client' AND id = $1`, [app.client_id]);
      assert.equal(client.payload.client_secret, app.client_secret);
      assert.equal(client.payload.organization_id, org.organization_id);
      assert.equal(client.payload.service_user_id, app.service_user_id);
      const [user] = await db.query('SELECT email, organization_id FROM users WHERE id = $1', [app.service_user_id]);
      expect(user).toEqual({ email: `app-${app.client_id}@apps.taproot.invalid`, organization_id: org.organization_id });
      // The change is in the outbox as the system's, without the secret, for the api to relay.
      const events = await db.query(`SELECT event FROM outbox WHERE event->>'aggregate_id' = $1`, [app.client_id]);
      expect(events.map((e: { event: { type: string; actor: unknown } }) => [e.event.type, e.event.actor])).toEqual([['oauth_application.created', { kind: 'system', id: null }]]);
      assert.ok(!JSON.stringify(events).includes(app.client_secret));

      const listed = await taproot(['app', 'list', '--org', org.organization_id, '--json'], env);
      assert.equal(listed.code, 0, listed.stderr);
      const list = JSON.parse(listed.stdout);
      expect(list.applications.map((a: { client_id: string; name: string; revoked_at: null }) => [a.client_id, a.name, a.revoked_at])).toEqual([[app.client_id, 'CI bot', null]]);
      assert.ok(!listed.stdout.includes(app.client_secret), 'lists never show the secret');

      const revoked = await taproot(['app', 'revoke', '--org', org.organization_id, '--client-id', app.client_id, '--json'], env);
      assert.equal(revoked.code, 0, revoked.stderr);
      assert.ok(JSON.parse(revoked.stdout).revoked_at);
      expect(await db.query(`SELECT id FROM oauth_payloads WHERE model = 'Client' AND id = $1`, [app.client_id])).toEqual([]);
      const text = await taproot(['app', 'list', '--org', org.organization_id], env);
      assert.match(text.stdout, new RegExp(`${app.client_id}  CI bot  \\[client_credentials\\]  "ir.services:read oc.alerts:write"  revoked `));

      const again = await taproot(['app', 'revoke', '--org', org.organization_id, '--client-id', app.client_id], env);
      assert.equal(again.code, 1);
      assert.match(again.stderr, /is revoked/);
      const unknownApp = await taproot(['app', 'revoke', '--org', org.organization_id, '--client-id', 'nope'], env);
      assert.equal(unknownApp.code, 1);
      assert.match(unknownApp.stderr, /No oauth_applications with id nope/);
      const unknownOrg = await taproot(['app', 'list', '--org', 'not-a-uuid'], env);
      assert.equal(unknownOrg.code, 1);
      assert.match(unknownOrg.stderr, /no organization with id "not-a-uuid"/);
    } finally {
      await db.destroy();
    }
  });
});
