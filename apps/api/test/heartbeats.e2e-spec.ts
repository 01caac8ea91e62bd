import { beforeEach, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { HeartbeatMonitor } from '@taproot/alerting';
import { createScratchDatabase } from '@taproot/persistence';
import { eventually, startTestApi } from '../src/testing';
import { created, doc, unique } from './support/json-api';
import { MINUTE, usePagingWorld, type PagedUser } from './support/paging';

type Attributes = Record<string, unknown>;

/**
 * Heartbeats (docs/heartbeats.md): CRUD with the reference's shapes, pings (API, ping_url with the
 * bearer secret, mail through /v1/heartbeat_emails), and expiry on the durable deadline: an alert
 * pages the target once, the next ping resolves it. The clock and the monitor are the test's.
 */
describe('heartbeats', () => {
  const w = usePagingWorld();
  const monitor = () => w.api.app.get(HeartbeatMonitor);
  // The world moved a day on: earlier tests' heartbeats expire now, not inside the next test.
  beforeEach(async () => {
    await monitor().tick();
  });
  /** Moves the clock, then runs the monitor and the paging engine once each. */
  const advance = async (ms: number) => {
    await w.advance(ms);
    await monitor().tick();
    await w.engine.tick();
  };

  const heartbeat = (user: PagedUser, more: Attributes = {}) => ({
    name: unique('Nightly backup'),
    alert_summary: 'Nightly backup did not check in',
    alert_description: 'The backup job pings at the end of each run',
    interval: 10,
    interval_unit: 'minutes',
    notification_target_type: 'User',
    notification_target_id: String(user.id),
    ...more,
  });
  const create = async (attributes: Attributes) => created(await w.send('POST', '/v1/heartbeats', doc('heartbeats', attributes))) as { id: string; attributes: Attributes };
  const get = async (id: string) => (await w.send('GET', `/v1/heartbeats/${id}`)).body.data.attributes as Attributes;
  const ping = (id: string) => w.send('POST', `/v1/heartbeats/${id}/ping`);
  /** A heartbeat of a new user's, pinged now (active for 10 minutes). */
  const pinged = async () => {
    const hb = await create(heartbeat(await w.userWithEmail()));
    assert.equal((await ping(hb.id)).status, 204);
    return hb;
  };
  const alertsOf = async (id: string) => {
    const res = await w.send('GET', '/v1/alerts?filter[source]=heartbeat&page[size]=100');
    return (res.body.data as { id: string; attributes: Attributes }[]).filter((a) => (a.attributes.data as Attributes | null)?.heartbeat_id === id);
  };

  test('create, read, list, update and delete with the reference shapes; waiting until the first ping', async () => {
    const user = await w.userWithEmail();
    const hb = await create(heartbeat(user));
    const a = hb.attributes;
    assert.equal(a.status, 'waiting');
    assert.equal(a.enabled, true);
    assert.equal(a.expires_at, null);
    assert.equal(a.last_pinged_at, null);
    assert.match(String(a.secret), /^[0-9a-f]{64}$/);
    assert.match(String(a.ping_url), new RegExp(`/v1/heartbeats/${hb.id}/ping_heartbeat$`));
    assert.match(String(a.email_address), /^heartbeat-[0-9a-f]{24}@/);

    assert.equal((await get(hb.id)).name, a.name);
    const listed = await w.send('GET', `/v1/heartbeats?filter[name]=${encodeURIComponent(String(a.name))}`);
    assert.deepEqual(listed.body.data.map((d: { id: string }) => d.id), [hb.id]);

    const updated = await w.send('PUT', `/v1/heartbeats/${hb.id}`, doc('heartbeats', { interval: 2, interval_unit: 'hours', enabled: false }));
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.equal(updated.body.data.attributes.interval_unit, 'hours');
    assert.equal(updated.body.data.attributes.enabled, false);

    const patched = await w.send('PATCH', `/v1/heartbeats/${hb.id}`, doc('heartbeats', { description: 'patched' }));
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(patched.body.data.attributes.description, 'patched');
    assert.equal(patched.body.data.attributes.interval_unit, 'hours', 'the rest unchanged');

    const deleted = await w.send('DELETE', `/v1/heartbeats/${hb.id}`);
    assert.equal(deleted.status, 200);
    assert.equal((await w.send('GET', `/v1/heartbeats/${hb.id}`)).status, 404);
  });

  test('bad input answers 422 naming the attribute and stores nothing', async () => {
    const user = await w.userWithEmail();
    const name = unique('Refused');
    const cases: [Attributes, string][] = [
      [{ interval_unit: 'weeks' }, '/data/attributes/interval_unit'],
      [{ interval: 0 }, '/data/attributes/interval'],
      [{ interval: 367, interval_unit: 'days' }, '/data/attributes/interval'],
      [{ notification_target_id: '999999' }, '/data/attributes/notification_target_id'],
      [{ alert_urgency_id: '00000000-0000-4000-8000-000000000000' }, '/data/attributes/alert_urgency_id'],
    ];
    for (const [attributes, pointer] of cases) {
      const res = await w.send('POST', '/v1/heartbeats', doc('heartbeats', heartbeat(user, { name, ...attributes })));
      assert.ok([400, 422].includes(res.status), `${JSON.stringify(attributes)}: ${res.status}`);
      assert.ok(
        res.body.errors.some((e: { source?: { pointer?: string } }) => e.source?.pointer === pointer),
        `${JSON.stringify(attributes)}: ${JSON.stringify(res.body.errors)}`,
      );
    }
    const listed = await w.send('GET', `/v1/heartbeats?filter[name]=${encodeURIComponent(name)}`);
    assert.equal(listed.body.data.length, 0);
  });

  test("another organization's heartbeat answers 404 to every route, and its pings too", async () => {
    const user = await w.userWithEmail();
    const hb = await create(heartbeat(user));
    const theirs = w.other.token;
    assert.equal((await w.send('GET', `/v1/heartbeats/${hb.id}`, undefined, theirs)).status, 404);
    assert.equal((await w.send('PUT', `/v1/heartbeats/${hb.id}`, doc('heartbeats', { name: 'x' }), theirs)).status, 404);
    assert.equal((await w.send('DELETE', `/v1/heartbeats/${hb.id}`, undefined, theirs)).status, 404);
    assert.equal((await w.send('POST', `/v1/heartbeats/${hb.id}/ping`, undefined, theirs)).status, 404);
    const list = await w.send('GET', '/v1/heartbeats?page[size]=100', undefined, theirs);
    assert.ok(!list.body.data.some((d: { id: string }) => d.id === hb.id));
    assert.equal((await get(hb.id)).status, 'waiting', 'unchanged');
  });

  test('a caller who may only read heartbeats reads them but cannot ping or change them (403)', async () => {
    const hb = await create(heartbeat(await w.userWithEmail()));
    const role = created(await w.send('POST', '/v1/on_call_roles', doc('on_call_roles', { name: unique('Heartbeat reader'), heartbeats_permissions: ['read'] }))).id as string;
    const reader = await w.api.issueApiKey(w.org.organizationId, { onCallRoleId: role });
    assert.equal((await w.send('GET', `/v1/heartbeats/${hb.id}`, undefined, reader)).status, 200);
    assert.equal((await w.send('POST', `/v1/heartbeats/${hb.id}/ping`, undefined, reader)).status, 403);
    assert.equal((await w.send('PUT', `/v1/heartbeats/${hb.id}`, doc('heartbeats', { name: 'x' }), reader)).status, 403);
    assert.equal((await get(hb.id)).status, 'waiting');
  });

  test('a late ping expires the heartbeat: one alert pages its target, once; the next ping resolves it', async () => {
    const user = await w.userWithEmail();
    const hb = await create(heartbeat(user));
    assert.equal((await ping(hb.id)).status, 204);
    let now = await get(hb.id);
    assert.equal(now.status, 'active');
    assert.equal(now.last_pinged_at, w.now().toISOString());
    assert.equal(now.expires_at, new Date(w.now().getTime() + 10 * MINUTE).toISOString());

    await advance(10 * MINUTE - 1000);
    assert.equal((await get(hb.id)).status, 'active', 'not yet due');
    assert.equal((await alertsOf(hb.id)).length, 0);

    await advance(1000);
    now = await get(hb.id);
    assert.equal(now.status, 'expired');
    const [alert, ...more] = await alertsOf(hb.id);
    assert.equal(more.length, 0);
    assert.equal(alert.attributes.summary, 'Nightly backup did not check in');
    assert.equal(alert.attributes.description, 'The backup job pings at the end of each run');
    assert.equal(alert.attributes.status, 'triggered');
    assert.equal(w.mailsTo(user.email).length, 1, 'the target is paged');

    await advance(30 * MINUTE);
    assert.equal((await alertsOf(hb.id)).length, 1, 'expired once: no second alert');

    // The public ping_url with the bearer secret.
    const url = new URL(String(now.ping_url));
    assert.equal((await w.api.request('POST', url.pathname, { headers: { authorization: `Bearer ${String(now.secret)}` } })).status, 204);
    now = await get(hb.id);
    assert.equal(now.status, 'active');
    assert.equal(now.expires_at, new Date(w.now().getTime() + 10 * MINUTE).toISOString());
    const [resolved] = await alertsOf(hb.id);
    assert.equal(resolved.attributes.status, 'resolved');
    const events = (await w.send('GET', `/v1/alerts/${resolved.id}/events?page[size]=100`)).body.data as { attributes: { details: string } }[];
    assert.ok(events.some((e) => /expired: no ping since/.test(e.attributes.details)), 'the timeline says why it opened');
    assert.ok(events.some((e) => /was pinged \(ping_url\)/.test(e.attributes.details)), 'and what resolved it');

    // And it can expire again: a new alert.
    await advance(10 * MINUTE);
    assert.equal((await get(hb.id)).status, 'expired');
    assert.deepEqual((await alertsOf(hb.id)).map((a) => a.attributes.status).sort(), ['resolved', 'triggered']);
  });

  test('a waiting heartbeat never expires; a disabled one neither, and enabling it again gives a whole interval', async () => {
    const user = await w.userWithEmail();
    const waiting = await create(heartbeat(user));
    const hb = await create(heartbeat(user, { enabled: false }));
    await ping(hb.id);
    await advance(60 * MINUTE);
    assert.equal((await get(waiting.id)).status, 'waiting');
    assert.equal((await get(hb.id)).status, 'active', 'disabled: never expires');
    assert.equal((await alertsOf(hb.id)).length, 0);

    const enabled = await w.send('PUT', `/v1/heartbeats/${hb.id}`, doc('heartbeats', { enabled: true }));
    assert.equal(enabled.body.data.attributes.expires_at, new Date(w.now().getTime() + 10 * MINUTE).toISOString());
    await advance(10 * MINUTE);
    assert.equal((await get(hb.id)).status, 'expired');
  });

  test('changing the interval of an active heartbeat moves its deadline from the last ping', async () => {
    const hb = await pinged();
    const pingedAt = w.now().getTime();
    await advance(5 * MINUTE);
    const res = await w.send('PUT', `/v1/heartbeats/${hb.id}`, doc('heartbeats', { interval: 1, interval_unit: 'hours' }));
    assert.equal(res.body.data.attributes.expires_at, new Date(pingedAt + 60 * MINUTE).toISOString());
    await advance(10 * MINUTE);
    assert.equal((await get(hb.id)).status, 'active');
  });

  test('an urgency and a target deleted since do not hold the expiry up: the alert leaves them out and says so', async () => {
    const team = created(await w.send('POST', '/v1/teams', doc('groups', { name: unique('Team') }))).id as string;
    const urgency = created(await w.send('POST', '/v1/alert_urgencies', doc('alert_urgencies', { name: unique('Urgent'), description: 'now' }))).id as string;
    const hb = await create(heartbeat(await w.userWithEmail(), { notification_target_type: 'Group', notification_target_id: team, alert_urgency_id: urgency }));
    await ping(hb.id);
    assert.equal((await w.send('DELETE', `/v1/teams/${team}`)).status, 200);
    assert.equal((await w.send('DELETE', `/v1/alert_urgencies/${urgency}`)).status, 200);
    await advance(10 * MINUTE);
    assert.equal((await get(hb.id)).status, 'expired');
    const [alert] = await alertsOf(hb.id);
    assert.equal(alert.attributes.alert_urgency_id, null);
    assert.equal(alert.attributes.notification_target_id, null);
    assert.equal(alert.attributes.status, 'open', 'nobody left to page');
    const events = (await w.send('GET', `/v1/alerts/${alert.id}/events`)).body.data as { attributes: { details: string } }[];
    assert.ok(events.some((e) => /left out: alert_urgency_id .* no longer exists; notification_target_id/.test(e.attributes.details)), JSON.stringify(events));
  });

  test('two monitors passing at once expire a heartbeat once (FOR UPDATE SKIP LOCKED)', async () => {
    const hb = await pinged();
    await w.advance(10 * MINUTE);
    const claimed = await Promise.all([monitor().tick(), monitor().tick(), monitor().tick()]);
    assert.equal(claimed.reduce((a, b) => a + b, 0), 1);
    assert.equal((await alertsOf(hb.id)).length, 1);
  });

  test('the ping_url answers 401 to a wrong or missing secret, and takes GET and ?secret=', async () => {
    const user = await w.userWithEmail();
    const hb = await create(heartbeat(user));
    const path = new URL(String(hb.attributes.ping_url)).pathname;
    assert.equal((await w.api.request('POST', path, { headers: { authorization: 'Bearer wrong' } })).status, 401);
    assert.equal((await w.api.request('POST', path)).status, 401);
    assert.equal((await w.api.request('POST', '/v1/heartbeats/not-a-uuid/ping_heartbeat', { headers: { authorization: 'Bearer x' } })).status, 401);
    assert.equal((await get(hb.id)).status, 'waiting');
    assert.equal((await w.api.request('GET', `${path}?secret=${String(hb.attributes.secret)}`)).status, 204);
    assert.equal((await get(hb.id)).status, 'active');
  });

  test('mail to the email_address, posted by a relay (JSON or raw), pings; another address is a 401', async () => {
    const user = await w.userWithEmail();
    const json = await create(heartbeat(user));
    const raw = await create(heartbeat(user));
    const mail = { from: 'cron@example.test', to: `Backups <${String(json.attributes.email_address)}>`, subject: 'backup done' };
    const byJson = await w.api.request('POST', '/v1/heartbeat_emails', { body: mail, headers: { 'content-type': 'application/json' } });
    assert.equal(byJson.status, 204, JSON.stringify(byJson.body));
    assert.equal((await get(json.id)).status, 'active');

    const message = `From: cron@example.test\r\nTo: ${String(raw.attributes.email_address)}\r\nSubject: done\r\nMessage-ID: <1@example.test>\r\n\r\nok\r\n`;
    const byRaw = await w.api.request('POST', '/v1/heartbeat_emails', { rawBody: message, headers: { 'content-type': 'message/rfc822' } });
    assert.equal(byRaw.status, 204, JSON.stringify(byRaw.body));
    assert.equal((await get(raw.id)).status, 'active');

    const stranger = await w.api.request('POST', '/v1/heartbeat_emails', { body: { ...mail, to: 'someone@example.test' }, headers: { 'content-type': 'application/json' } });
    assert.equal(stranger.status, 401);
    const notMail = await w.api.request('POST', '/v1/heartbeat_emails', { body: { to: String(json.attributes.email_address) }, headers: { 'content-type': 'application/json' } });
    assert.equal(notMail.status, 422);
  });
});

describe('heartbeat expiry is durable', () => {
  test('with PAGING_POLL_MS set the monitor runs on its own', async () => {
    let now = Date.parse('2026-11-25T12:00:00.000Z');
    const api = await startTestApi({ clock: { now: () => new Date(now) }, env: { PAGING_POLL_MS: '20' } });
    try {
      const org = await api.newOrganization();
      const user = await api.addUser(org.organizationId, { roleKind: 'user' });
      const attributes = { name: unique('Polled'), alert_summary: 'late', interval: 5, interval_unit: 'minutes', notification_target_type: 'User', notification_target_id: String(user) };
      const hb = created(await api.request('POST', '/v1/heartbeats', { token: org.token, body: doc('heartbeats', attributes) })) as { id: string };
      await api.request('POST', `/v1/heartbeats/${hb.id}/ping`, { token: org.token });
      now += 5 * MINUTE;
      // A deadline, not a count of polls: on a busy machine a hundred polls pass quickly.
      const status = await eventually(
        async () => (await api.request('GET', `/v1/heartbeats/${hb.id}`, { token: org.token })).body.data.attributes.status as string,
        (s) => s === 'expired',
        15_000,
      );
      assert.equal(status, 'expired');
    } finally {
      await api.close();
    }
  });

  test('a deadline set before a restart expires after it, once across two replicas', async () => {
    const databaseUrl = await createScratchDatabase();
    let now = Date.parse('2026-11-25T12:00:00.000Z');
    const options = { databaseUrl, clock: { now: () => new Date(now) }, env: { PAGING_POLL_MS: '0' } };
    const first = await startTestApi(options);
    const org = await first.newOrganization();
    const user = await first.addUser(org.organizationId, { roleKind: 'user' });
    const attributes = { name: unique('Replicated'), alert_summary: 'late', interval: 1, interval_unit: 'hours', notification_target_type: 'User', notification_target_id: String(user) };
    const hb = created(await first.request('POST', '/v1/heartbeats', { token: org.token, body: doc('heartbeats', attributes) })) as { id: string };
    assert.equal((await first.request('POST', `/v1/heartbeats/${hb.id}/ping`, { token: org.token })).status, 204);
    await first.close();

    now += 60 * MINUTE;
    const replicas = [await startTestApi(options), await startTestApi(options)];
    try {
      const claimed = await Promise.all(replicas.map((api) => api.app.get(HeartbeatMonitor).tick()));
      assert.equal(claimed[0] + claimed[1], 1, 'one replica expired it');
      const [a] = replicas;
      assert.equal((await a.request('GET', `/v1/heartbeats/${hb.id}`, { token: org.token })).body.data.attributes.status, 'expired');
      const alerts = await a.request('GET', '/v1/alerts?filter[source]=heartbeat', { token: org.token });
      assert.equal(alerts.body.data.length, 1);
      assert.equal(alerts.body.data[0].attributes.summary, 'late');
    } finally {
      for (const api of replicas) await api.close();
    }
  });
});
