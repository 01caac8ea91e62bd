import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import ICAL from 'ical.js';
import pino from 'pino';
import { startTestApi, type TestApi, type TestOrganization } from '../src/testing';
import { created } from './support/json-api';
import { weeklySchedule } from './support/schedules';

type Attributes = Record<string, unknown>;
const doc = (type: string, attributes: Attributes) => ({ data: { type, attributes } });
const DAY = 24 * 3_600_000;

/** The feed's documented window: whole UTC days, 30 back and 90 ahead of today. */
function feedWindow() {
  const today = Math.floor(Date.now() / DAY) * DAY;
  return { from: new Date(today - 30 * DAY).toISOString(), to: new Date(today + 90 * DAY).toISOString() };
}

interface ParsedEvent {
  uid: string;
  start: string;
  end: string;
  summary: string;
  description: string;
  userId: number;
  timeZone: string | null;
}

/** The feed through Mozilla's parser (ical.js), independent of the library that wrote it. */
function parseFeed(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const events: ParsedEvent[] = calendar.getAllSubcomponents('vevent').map((v) => {
    const event = new ICAL.Event(v);
    return {
      uid: event.uid,
      start: event.startDate.toJSDate().toISOString(),
      end: event.endDate.toJSDate().toISOString(),
      summary: event.summary,
      description: event.description,
      userId: Number(v.getFirstPropertyValue('x-taproot-user-id')),
      timeZone: (v.getFirstPropertyValue('x-taproot-time-zone') as string | null) ?? null,
    };
  });
  const property = (name: string) => calendar.getFirstPropertyValue(name) as string | null;
  return { calendar, events, property };
}

/**
 * Calendar feeds (issue 14): a schedule's and a user's shifts as iCalendar at a secret URL. Every
 * event of the parsed feed is exactly a shift of `/v1/schedules/{id}/shifts` (or `/v1/shifts` for
 * the user) over the feed's window; rotating or revoking the URL makes the old one 404; the token
 * never reaches the outbox.
 */
describe('calendar feeds', () => {
  let api: TestApi;
  let [org, other]: TestOrganization[] = [];
  let [alice, bob, carol] = [0, 0, 0];
  let [aliceKey, scheduleId] = ['', ''];
  /** Full names with the characters iCalendar escapes. */
  const names: Record<number, string> = {};
  const tokens: string[] = [];
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
    other = await api.newOrganization();
    [alice, bob, carol] = [
      await api.addUser(org.organizationId, { roleKind: 'user' }),
      await api.addUser(org.organizationId, { roleKind: 'user' }),
      await api.addUser(org.organizationId, { roleKind: 'user' }),
    ];
    for (const [id, first_name, last_name] of [[alice, 'Alice', 'Liddell'], [bob, 'Bob,', 'the "Builder"'], [carol, 'Carol;', 'Danvers']] as const) {
      const named = await send('PUT', `/v1/users/${id}`, doc('users', { first_name, last_name }));
      assert.equal(named.status, 200, JSON.stringify(named.body));
      names[id] = `${first_name} ${last_name}`;
    }
    aliceKey = await api.issueApiKey(org.organizationId, { kind: 'personal', userId: alice });
    ({ scheduleId } = await weeklySchedule(api, org.token, { members: [alice, bob], owner: alice, name: 'Payments, primary' }));
    const startsAt = new Date(Math.ceil(Date.now() / DAY) * DAY + 10 * DAY);
    created(
      await send('POST', `/v1/schedules/${scheduleId}/override_shifts`, doc('shifts', { starts_at: startsAt.toISOString(), ends_at: new Date(startsAt.getTime() + DAY).toISOString(), user_id: carol })),
    );
  });
  after(() => api?.close());

  const send = (method: string, path: string, body?: unknown, token = org.token) => api.request(method, path, { token, body });
  /** Creates (or re-creates) a feed and answers its URL's path. */
  async function newFeed(attributes: Attributes, token = org.token, status = 201): Promise<{ id: string; path: string; attributes: Attributes }> {
    const res = await send('POST', '/v1/calendar_feeds', doc('calendar_feeds', attributes), token);
    assert.equal(res.status, status, JSON.stringify(res.body));
    const url = new URL(String(res.body.data.attributes.url));
    const token_ = /^\/calendar\/(tcal_[A-Za-z0-9_-]{43})\.ics$/.exec(url.pathname)?.[1];
    assert.ok(token_, url.pathname);
    tokens.push(token_);
    return { id: res.body.data.id, path: url.pathname, attributes: res.body.data.attributes };
  }
  const fetchFeed = (path: string) => api.request('GET', path);
  /** The shifts the API answers for the feed's window, as the events the feed must hold. */
  async function shiftsAt(path: string) {
    const { from, to } = feedWindow();
    const res = await send('GET', `${path}${path.includes('?') ? '&' : '?'}from=${from}&to=${to}&page[size]=100`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.ok(res.body.meta.total_count < 100);
    return res.body.data as { id: string; attributes: Attributes }[];
  }
  /** iCalendar times have no fractions of a second (RFC 5545 §3.3.5): a rotation starting at its creation instant starts at that second. */
  const toSecond = (iso: unknown) => new Date(Math.floor(new Date(String(iso)).getTime() / 1000) * 1000).toISOString();
  /** Every event is one shift (UID, start, end, user) and every shift one event. */
  function assertSameShifts(events: ParsedEvent[], shifts: { id: string; attributes: Attributes }[], summaryNamesUser: boolean) {
    const host = new URL(api.url).hostname;
    const expected = shifts.map((s) => ({ uid: `${s.id}@${host}`, start: toSecond(s.attributes.starts_at), end: toSecond(s.attributes.ends_at), userId: s.attributes.user_id })).sort((a, b) => a.uid.localeCompare(b.uid));
    const got = events.map((e) => ({ uid: e.uid, start: e.start, end: e.end, userId: e.userId })).sort((a, b) => a.uid.localeCompare(b.uid));
    assert.ok(expected.length > 0);
    assert.deepEqual(got, expected);
    for (const event of events) {
      const shift = shifts.find((s) => `${s.id}@${host}` === event.uid)!;
      if (summaryNamesUser) assert.ok(event.summary.startsWith(`${names[event.userId]}: `), event.summary);
      assert.equal(event.summary.includes('(override)'), shift.attributes.is_override, event.summary);
      if (shift.attributes.rotation_id) {
        assert.equal(event.timeZone, 'America/New_York');
        assert.match(event.description, /rotation Weekly \(time zone America\/New_York\)/);
      } else {
        assert.equal(event.timeZone, null);
      }
    }
  }

  test("a schedule's feed, fetched without a bearer token and parsed, holds exactly the schedule's shifts, in UTC with the zone named", async () => {
    const feed = await newFeed({ kind: 'schedule', schedule_id: scheduleId });
    assert.deepEqual([feed.attributes.kind, feed.attributes.schedule_id, feed.attributes.user_id, feed.attributes.rotated_at], ['schedule', scheduleId, null, null]);
    const res = await fetchFeed(feed.path);
    assert.equal(res.status, 200, String(res.body));
    assert.equal(res.headers.get('content-type'), 'text/calendar; charset=utf-8');
    assert.ok(res.headers.get('x-ratelimit-limit'), 'rate limited per client address, like every public route');
    const text = String(res.body);
    for (const line of text.split('\r\n').filter((l) => /^DT(START|END|STAMP)/.test(l))) assert.match(line, /^DT(START|END|STAMP):\d{8}T\d{6}Z$/);
    const parsed = parseFeed(text);
    assert.equal(parsed.property('version'), '2.0');
    assert.equal(parsed.property('calscale'), 'GREGORIAN');
    assert.match(String(parsed.property('prodid')), /Taproot/);
    assert.match(String(parsed.property('x-wr-calname')), /^Payments, primary /);
    assert.equal(parsed.property('x-wr-timezone'), 'America/New_York');
    assert.ok(parsed.events.some((e) => e.summary.includes('(override)')));
    for (const v of parsed.calendar.getAllSubcomponents('vevent')) assert.equal(v.getFirstPropertyValue('sequence'), 0);
    assertSameShifts(parsed.events, await shiftsAt(`/v1/schedules/${scheduleId}/shifts`), true);
  });

  test("a rotation in a Rails-named zone is told in the IANA zone it denotes, the one calendar clients know", async () => {
    const { scheduleId: railsNamed } = await weeklySchedule(api, org.token, { members: [bob], owner: alice, name: 'Rails zone', timeZone: 'Eastern Time (US & Canada)' });
    const parsed = parseFeed(String((await fetchFeed((await newFeed({ kind: 'schedule', schedule_id: railsNamed })).path)).body));
    assert.equal(parsed.property('x-wr-timezone'), 'America/New_York');
    assert.ok(parsed.events.length > 0);
    for (const event of parsed.events) {
      assert.equal(event.timeZone, 'America/New_York');
      // The shift's local times: it starts or ends at a handoff, Monday 09:00 in New York.
      assert.match(event.description, /Local time in America\/New_York: .*Mon \d+ \w+ \d{4} 09:00/);
    }
  });

  test("a user's feed holds exactly that user's shifts of every schedule; a key without a user is refused naming kind", async () => {
    const keyWithoutUser = await api.issueApiKey(org.organizationId, { kind: 'global', userId: null });
    const refused = await send('POST', '/v1/calendar_feeds', doc('calendar_feeds', { kind: 'user' }), keyWithoutUser);
    assert.equal(refused.status, 422, JSON.stringify(refused.body));
    assert.equal(refused.body.errors[0].source.pointer, '/data/attributes/kind');

    const feed = await newFeed({ kind: 'user' }, aliceKey);
    assert.deepEqual([feed.attributes.kind, feed.attributes.user_id], ['user', alice]);
    const res = await fetchFeed(feed.path);
    assert.equal(res.status, 200);
    const parsed = parseFeed(String(res.body));
    assert.match(String(parsed.property('x-wr-calname')), /Alice Liddell/);
    assertSameShifts(parsed.events, await shiftsAt(`/v1/shifts?user_ids[]=${alice}`), false);
    assert.ok(parsed.events.every((e) => e.userId === alice));

    // A user's feed is theirs: another caller neither lists nor rotates it.
    const listed = await send('GET', '/v1/calendar_feeds', undefined, keyWithoutUser);
    assert.ok(!listed.body.data.some((f: { id: string }) => f.id === feed.id));
    assert.equal((await send('POST', `/v1/calendar_feeds/${feed.id}/rotate`, undefined, keyWithoutUser)).status, 404);
    const own = await send('GET', '/v1/calendar_feeds', undefined, aliceKey);
    assert.ok(own.body.data.some((f: { id: string; attributes: Attributes }) => f.id === feed.id && !('url' in f.attributes)));
    assert.equal(own.body.meta.total_count, own.body.data.length);
    assert.ok(own.body.links.self, 'a list like every other: links and meta');
  });

  test('creating again or rotating replaces the URL at once; revoking makes it 404; unknown tokens are 404s', async () => {
    const first = await newFeed({ kind: 'schedule', schedule_id: scheduleId }, org.token, 200);
    const again = await newFeed({ kind: 'schedule', schedule_id: scheduleId }, org.token, 200);
    assert.equal(again.id, first.id, 'one feed per schedule');
    assert.ok(again.attributes.rotated_at);
    assert.equal(again.attributes.updated_at, again.attributes.rotated_at, 'a rotation is the last change');
    assert.equal((await fetchFeed(first.path)).status, 404);
    assert.equal((await fetchFeed(again.path)).status, 200);

    const rotated = await send('POST', `/v1/calendar_feeds/${first.id}/rotate`);
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    const rotatedPath = new URL(rotated.body.data.attributes.url).pathname;
    tokens.push(rotatedPath.slice('/calendar/'.length, -'.ics'.length));
    assert.equal((await fetchFeed(again.path)).status, 404);
    assert.equal((await fetchFeed(rotatedPath)).status, 200);

    const read = await send('GET', `/v1/calendar_feeds/${first.id}`);
    assert.equal(read.status, 200);
    assert.ok(!('url' in read.body.data.attributes), 'the URL is shown only when made');

    const removed = await send('DELETE', `/v1/calendar_feeds/${first.id}`);
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.equal((await fetchFeed(rotatedPath)).status, 404);
    assert.equal((await send('GET', `/v1/calendar_feeds/${first.id}`)).status, 404);
    for (const path of ['/calendar/nothing.ics', `/calendar/tcal_${'x'.repeat(43)}.ics`, '/calendar/%00.ics']) {
      const res = await fetchFeed(path);
      assert.ok(res.status === 404 || res.status === 400, `${path}: ${res.status}`);
    }
  });

  test("another organization's schedule is a 404; an invalid body a 422", async () => {
    const res = await send('POST', '/v1/calendar_feeds', doc('calendar_feeds', { kind: 'schedule', schedule_id: scheduleId }), other.token);
    assert.equal(res.status, 404, JSON.stringify(res.body));
    assert.equal((await send('POST', '/v1/calendar_feeds', doc('calendar_feeds', { kind: 'team' }))).status, 422);
    const missing = await send('POST', '/v1/calendar_feeds', doc('calendar_feeds', { kind: 'schedule' }));
    assert.equal(missing.status, 422);
    assert.equal(missing.body.errors[0].source.pointer, '/data/attributes/schedule_id');
  });

  test('the events are written, and no token reaches the outbox or the request logs', async () => {
    const rows = (await api.runtime.dataSource.query("SELECT event FROM outbox WHERE organization_id = $1 AND event->>'type' LIKE 'calendar_feed.%' ORDER BY seq", [
      org.organizationId,
    ])) as { event: { type: string; payload: Attributes } }[];
    assert.deepEqual(
      [...new Set(rows.map((r) => r.event.type))].sort(),
      ['calendar_feed.created', 'calendar_feed.deleted', 'calendar_feed.rotated'],
    );
    const outbox = JSON.stringify(await api.runtime.dataSource.query('SELECT event FROM outbox'));
    assert.ok(tokens.length >= 4);
    for (const token of tokens) assert.ok(!outbox.includes(token), 'a token in the outbox');
    assert.ok(!outbox.includes('tcal_'));
    // Fastify's request log line serializes the request with the logger's serializer.
    const log = api.app.getHttpAdapter().getInstance().log as unknown as Record<symbol, Record<string, (v: unknown) => Attributes>>;
    const logged = log[pino.symbols.serializersSym].req({ method: 'GET', url: `/calendar/${tokens[0]}.ics` });
    assert.ok(!JSON.stringify(logged).includes(tokens[0]));
  });
});
