import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '@taproot/persistence';
import { root, script } from '../../../tools/scripts/cli-testing';
import { PagingEngine } from '@taproot/alerting';
import { SmtpSink } from '@taproot/alerting/testing';
import { startTestApi, type TestApi, type TestOrganization } from '../src/testing';
import { created, unique } from './support/json-api';

type Attributes = Record<string, unknown>;
const doc = (type: string, attributes: Attributes) => ({ data: { type, attributes } });
const MINUTE = 60_000;

/**
 * Paging's timers and sends are rows in PostgreSQL, not memory (issue 15): a process that stops
 * between two levels leaves the next one to whichever process runs next, which fires it once;
 * two replicas on one database share the work and send each notification exactly once; a
 * failed send is retried with backoff and never holds up the others.
 */
describe('paging survives restarts and runs on replicas', () => {
  const smtp = new SmtpSink({ failFirstSessions: 0 });
  let now = Date.parse('2026-11-25T12:00:00.000Z');
  const clock = { now: () => new Date(now) };
  let databaseUrl: string;
  let smtpUrl: string;
  let first: TestApi;
  let org: TestOrganization;
  const replicas: TestApi[] = [];

  const start = async (url = smtpUrl, pollMs = '0') => {
    const api = await startTestApi({ clock, databaseUrl, env: { PAGING_POLL_MS: pollMs, SMTP_URL: url } });
    replicas.push(api);
    return api;
  };
  before(async () => {
    smtpUrl = await smtp.start();
    first = await startTestApi({ clock, env: { PAGING_POLL_MS: '0', SMTP_URL: smtpUrl } });
    replicas.push(first);
    databaseUrl = first.runtime.config.databaseUrl!;
    org = await first.newOrganization();
  });
  after(async () => {
    for (const api of replicas) await api.close().catch(() => undefined);
    await smtp.close();
  });

  const engineOf = (api: TestApi) => api.app.get(PagingEngine);
  const mailsTo = (address: string) => smtp.messages.filter((m) => m.to.includes(address));
  const setUp = async (api: TestApi, levels: number, users = 1) => {
    const send = (path: string, body: unknown) => api.request('POST', path, { token: org.token, body });
    const people = [];
    for (let i = 0; i < users * levels; i++) {
      const email = `${unique('replica').replace(' ', '-')}@example.test`;
      people.push({ id: await api.addUser(org.organizationId, { roleKind: 'user', email }), email });
    }
    const policy = created(await send('/v1/escalation_policies', doc('escalation_policies', { name: unique('Durable') }))).id as string;
    created(await send(`/v1/escalation_policies/${policy}/escalation_paths`, doc('escalation_paths', { name: 'Default', default: true })));
    for (let level = 0; level < levels; level++) {
      const targets = people.slice(level * users, (level + 1) * users).map((p) => ({ type: 'user', id: String(p.id) }));
      created(await send(`/v1/escalation_policies/${policy}/escalation_levels`, doc('escalation_levels', { delay: 5, notification_target_params: targets })));
    }
    return { policy, people };
  };
  const page = async (api: TestApi, policy: string) =>
    created(await api.request('POST', '/v1/alerts', { token: org.token, body: doc('alerts', { summary: unique('Durable'), notification_target_type: 'EscalationPolicy', notification_target_id: policy }) })).id as string;

  /** Polls until `probe` answers null (done), failing with its last answer after `timeoutMs`. */
  const until = async (what: string, probe: () => Promise<string | null>, timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    for (let last = await probe(); last !== null; last = await probe()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${last}`);
      await sleep(100);
    }
  };

  test('the real process killed (SIGKILL) between two levels: a new process fires the next level, once', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    let child: ChildProcess | null = null;
    let output = '';
    const startSystem = async () => {
      const [cmd, args] = script('start.ts');
      child = spawn(cmd, [...args], {
        cwd: root,
        env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl, PORT: String(port), AUTH_PORT: String(await freePort()), DISPATCHER_PORT: String(await freePort()), SMTP_URL: smtpUrl, PAGING_POLL_MS: '50', LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout!.on('data', (d) => (output += d));
      child.stderr!.on('data', (d) => (output += d));
      await until('the system to be ready', async () => ((await fetch(`${base}/readyz`).catch(() => null))?.status === 200 ? null : output.slice(-500)), 120_000);
    };
    const kill = async () => {
      const exited = new Promise((r) => child!.once('exit', r));
      child!.kill('SIGKILL');
      await exited;
    };
    try {
      const { policy, people } = await setUp(first, 2);
      await startSystem();
      // The process pages on its own clock (the system's): level 1 at once, level 2 in 5 minutes.
      const res = await fetch(`${base}/v1/alerts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${org.token}`, 'content-type': 'application/vnd.api+json' },
        body: JSON.stringify(doc('alerts', { summary: unique('Killed'), notification_target_type: 'EscalationPolicy', notification_target_id: policy })),
      });
      assert.equal(res.status, 201);
      const alertId = ((await res.json()) as { data: { id: string } }).data.id;
      await until('level 1 mailed by the process', async () => (mailsTo(people[0].email).length === 1 ? null : 'not yet'));
      await kill();

      const db = first.runtime.dataSource;
      const [pending] = await db.query(`SELECT id, level, due_at > now() AS later FROM alert_paging_steps WHERE alert_id = $1 AND fired_at IS NULL`, [alertId]);
      assert.deepEqual([pending?.level, pending?.later], [2, true], 'level 2 waits in the database');
      // Five minutes pass while nothing runs.
      await db.query(`UPDATE alert_paging_steps SET due_at = now() - interval '1 second' WHERE id = $1`, [pending.id]);
      await startSystem();
      await until('level 2 mailed by the new process', async () => (mailsTo(people[1].email).length >= 1 ? null : 'not yet'));
      await sleep(500);
      assert.equal(mailsTo(people[1].email).length, 1, 'level 2 fired once');
      assert.equal(mailsTo(people[0].email).length, 1, 'level 1 not again');
    } finally {
      if (child && (child as ChildProcess).exitCode === null) await kill();
    }
  });

  test('a process stopped between two levels: the next process fires the next level, once', async () => {
    const { policy, people } = await setUp(first, 2);
    await page(first, policy);
    await engineOf(first).tick();
    assert.equal(mailsTo(people[0].email).length, 1);
    await first.close();
    replicas.splice(replicas.indexOf(first), 1);

    now += 5 * MINUTE;
    const next = await start();
    await engineOf(next).tick();
    await engineOf(next).tick();
    assert.equal(mailsTo(people[1].email).length, 1, 'level 2 fired after the restart');
    assert.equal(mailsTo(people[0].email).length, 1, 'level 1 was not fired again');
    first = next;
  });

  test('two replicas on one database send each notification exactly once', async () => {
    const second = await start();
    const { policy, people } = await setUp(first, 2, 3);
    const alerts = [];
    for (let i = 0; i < 20; i++) alerts.push(await page(i % 2 ? first : second, policy));
    // Both replicas race over the same due steps and notifications, several passes each.
    const race = () => Promise.all([0, 1, 2].flatMap(() => [engineOf(first).tick(), engineOf(second).tick()]));
    await race();
    now += 5 * MINUTE;
    await race();
    await race();
    for (const person of people) assert.equal(mailsTo(person.email).length, alerts.length, `${person.email}: one mail per alert`);
    const ids = smtp.messages.filter((m) => people.some((p) => m.to.includes(p.email))).map((m) => m.headers['x-taproot-notification-id']);
    assert.equal(new Set(ids).size, ids.length, 'no notification delivered twice');
    const [{ n }] = await first.runtime.dataSource.query(`SELECT count(*)::int AS n FROM alert_notifications WHERE alert_id = ANY($1::uuid[]) AND status = 'sent'`, [alerts]);
    assert.equal(n, alerts.length * 6);
  });

  test('a step of an alert being changed waits for the next pass instead of deadlocking with the change', async () => {
    const { policy, people } = await setUp(first, 1);
    const alert = await page(first, policy);
    // A change of the alert holds its row (as an acknowledgement does before it deletes the steps).
    const runner = first.runtime.dataSource.createQueryRunner();
    await runner.startTransaction();
    try {
      await runner.query('SELECT id FROM alerts WHERE id = $1 FOR UPDATE', [alert]);
      const started = Date.now();
      await engineOf(first).tick();
      assert.ok(Date.now() - started < 2_000, 'the pass did not wait for the lock');
      assert.equal(mailsTo(people[0].email).length, 0, 'the step was left for the next pass');
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
    await engineOf(first).tick();
    assert.equal(mailsTo(people[0].email).length, 1);
  });

  test('a running engine pages as soon as the alert commits, without waiting for its poll', async () => {
    // Polling once a minute: only the kick of the alert's commit can page within the test's wait.
    const running = await start(smtpUrl, '60000');
    const { policy, people } = await setUp(running, 1);
    const sent = Date.now();
    await page(running, policy);
    await until('level 1 mailed', async () => (mailsTo(people[0].email).length === 1 ? null : 'not yet'), 5_000);
    assert.ok(Date.now() - sent < 5_000);
    // Its loop must not take the next tests' work.
    await running.close();
    replicas.splice(replicas.indexOf(running), 1);
  });

  test('a failed send is retried with backoff, recorded on the timeline, and does not hold up the others', async () => {
    const flaky = new SmtpSink({ failFirstSessions: 2 });
    const replica = await start(await flaky.start());
    try {
      const { policy, people } = await setUp(replica, 1, 2);
      const alert = await page(replica, policy);
      await engineOf(replica).tick();
      const delivered = () => flaky.messages.filter((m) => people.some((p) => m.to.includes(p.email))).length;
      assert.ok(delivered() < 2, 'the first sessions were refused');
      now += 10_000;
      await engineOf(replica).tick();
      now += 20_000;
      await engineOf(replica).tick();
      assert.equal(delivered(), 2, 'every recipient reached once the server answers');
      const events = (await replica.request('GET', `/v1/alerts/${alert}/events?page[size]=100`, { token: org.token })).body.data.map((e: { attributes: Attributes }) => e.attributes);
      assert.ok(events.some((e: Attributes) => e.action === 'notified' && /failed \(attempt 1 of 5\).*retried in 10 s/.test(String(e.details))), JSON.stringify(events));
      assert.equal(events.filter((e: Attributes) => e.action === 'emailed').length, 2);
    } finally {
      await flaky.close();
    }
  });
});
