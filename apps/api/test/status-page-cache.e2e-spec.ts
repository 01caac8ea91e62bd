import { beforeAll as before, describe, jest, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { PublicPageReader } from '@taproot/status-pages';
import type { TestResponse } from '../src/testing';
import { useApiWorld } from './support/api-world';
import { doc, unique, type Attributes } from './support/json-api';
import { getOnHost, newStatusPage, useFakeTxtRecords } from './support/status-pages';

/** An answer, and whether it came from memory: the reader was not asked for the page. */
type Answer = TestResponse & { fromMemory: boolean };

/** Headers that differ between two answers of the same bytes: the moment, and the limiter's count. */
const OF_THE_MOMENT = new Set(['date', 'x-ratelimit-remaining', 'x-ratelimit-used']);
const lasting = (res: TestResponse) => [...res.headers].filter(([name]) => !OF_THE_MOMENT.has(name));

/**
 * The public page's answers kept in memory (docs/status-pages.md, Public page): a hit is answered
 * before Nest without reading the page (the real reader's calls are counted), exactly as the
 * controller answers; every change through the API shows on the next request. The cache's ttl is a
 * minute here, so only a commit or the page's own time boundary can drop an answer in a test.
 */
describe('the public status page served from memory', () => {
  const w = useApiWorld({ env: { STATUS_PAGE_CACHE_TTL_MS: '60000' } });
  const published = useFakeTxtRecords(w);
  let reads: () => number;
  before(() => {
    const reader = w.api.app.get(PublicPageReader, { strict: false });
    const bySlug = jest.spyOn(reader, 'bySlug');
    const byHost = jest.spyOn(reader, 'byHost');
    reads = () => bySlug.mock.calls.length + byHost.mock.calls.length;
  });

  const send = async (method: string, path: string, body?: unknown) => {
    const res = await w.send(method, path, body);
    assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  };
  const newPage = (attributes: Attributes = {}): Promise<{ id: string; attributes: { slug: string } }> => newStatusPage(w, { public: true, ...attributes });
  const incident = (attributes: Attributes = {}) => send('POST', '/v1/incidents', doc('incidents', { title: unique('Checkout down'), ...attributes }));
  const postUpdate = (incidentId: string, page: string, event: string) =>
    send('POST', `/v1/incidents/${incidentId}/status-page-events`, doc('incident_status_page_events', { status_page_id: page, event }));
  const announce = (page: string, attributes: Attributes) => send('POST', `/v1/status-pages/${page}/announcements`, doc('status_page_announcements', { body: 'Read this.', ...attributes }));

  const read = async (method: string, path: string, headers: Record<string, string> = {}): Promise<Answer> => {
    const before = reads();
    const res = await w.api.request(method, path, { headers });
    return { ...res, fromMemory: reads() === before };
  };
  const get = (path: string, headers?: Record<string, string>) => read('GET', path, headers);
  /** Reads the page until the answer comes from memory (the second read at the latest). */
  const warm = async (path: string): Promise<Answer> => {
    const first = await get(path);
    assert.equal(first.status, 200, first.body);
    const hit = await get(path);
    assert.equal(hit.fromMemory, true, 'the second read is answered from memory');
    return hit;
  };

  const onHost = async (host: string, path: string): Promise<Answer> => {
    const before = reads();
    const res = await getOnHost(w.api, host, path);
    return { ...res, fromMemory: reads() === before };
  };

  test('a warm hit answers the cold answer’s bytes and headers (but Date and the limiter’s count) without reading the page: HTML, JSON, Atom, HEAD', async () => {
    const page = await newPage({ allow_search_engine_index: false });
    const outage = await incident();
    await postUpdate(outage.id, page.id, 'Looking into it');
    const requestId = { 'x-request-id': randomUUID() };
    for (const [method, path] of [
      ['GET', `/status/${page.attributes.slug}`],
      ['GET', `/status/${page.attributes.slug}/index.json`],
      ['GET', `/status/${page.attributes.slug}/feed.atom`],
      // The id's address is an entry of its own.
      ['HEAD', `/status/${page.id}`],
    ]) {
      const cold = await read(method, path, requestId);
      const warmed = await read(method, path, requestId);
      assert.equal(cold.status, 200, `${method} ${path}`);
      assert.deepEqual([cold.fromMemory, warmed.fromMemory], [false, true], `${method} ${path}`);
      assert.deepEqual(warmed.body, cold.body, `${method} ${path}`);
      assert.deepEqual(lasting(warmed), lasting(cold), `${method} ${path}`);
      assert.ok(lasting(cold).some(([name]) => name === 'x-robots-tag'));
      // The per-address limit still counts a hit.
      assert.equal(Number(warmed.headers.get('x-ratelimit-used')), Number(cold.headers.get('x-ratelimit-used')) + 1, `${method} ${path}`);
    }
    assert.equal((await read('HEAD', `/status/${page.attributes.slug}`)).body, undefined, 'HEAD sends no body');
  });

  test('304 from memory, with the headers the controller sends with its 304', async () => {
    const page = await newPage();
    const path = `/status/${page.attributes.slug}`;
    const { headers } = await warm(path);
    const etag = headers.get('etag')!;
    const validate = { 'if-none-match': etag, 'x-request-id': randomUUID() };
    const hit = await get(path, validate);
    assert.deepEqual([hit.status, hit.fromMemory, hit.body], [304, true, undefined]);
    // A commit of a kind that may change pages drops every answer: the next 304 is the controller's.
    await newPage();
    const cold = await get(path, validate);
    assert.deepEqual([cold.status, cold.fromMemory], [304, false]);
    assert.deepEqual(lasting(hit), lasting(cold));
  });

  test('a published update, a component’s new status and a new announcement show on the very next request', async () => {
    const page = await newPage();
    const path = `/status/${page.attributes.slug}`;
    const website = await send('POST', `/v1/status-pages/${page.id}/components`, doc('status_page_components', { name: 'Website' }));
    const outage = await incident();
    await warm(path);

    await postUpdate(outage.id, page.id, 'A bad deploy; rolling back');
    let next = await get(path);
    assert.equal(next.fromMemory, false);
    assert.match(next.body, /A bad deploy; rolling back/);

    await warm(path);
    await send('PUT', `/v1/components/${website.id}`, doc('status_page_components', { status: 'major_outage' }));
    next = await get(path);
    assert.match(next.body, /Website <span class="state">Major Outage<\/span>/);

    await warm(path);
    await announce(page.id, { title: 'New region' });
    assert.match((await get(path)).body, /New region/);
  });

  test('an incident made private leaves the page on the very next request', async () => {
    const page = await newPage();
    const path = `/status/${page.attributes.slug}/index.json`;
    const secret = await incident({ title: 'Soon private' });
    await postUpdate(secret.id, page.id, 'Investigating');
    assert.deepEqual((await warm(path)).body.incidents.map((i: { id: string }) => i.id), [secret.id]);
    await send('PUT', `/v1/incidents/${secret.id}`, doc('incidents', { private: true }));
    assert.deepEqual((await get(path)).body.incidents, []);
  });

  test('a page made private, or disabled, is refused on the very next request', async () => {
    const hidden = await newPage();
    await warm(`/status/${hidden.attributes.slug}/index.json`);
    await send('PUT', `/v1/status-pages/${hidden.id}`, doc('status_pages', { public: false }));
    assert.equal((await get(`/status/${hidden.attributes.slug}/index.json`)).status, 401);

    const disabled = await newPage();
    await warm(`/status/${disabled.attributes.slug}`);
    await send('PUT', `/v1/status-pages/${disabled.id}`, doc('status_pages', { enabled: false }));
    assert.equal((await get(`/status/${disabled.attributes.slug}`)).status, 404);
  });

  test('a private or password page is never served from memory; nor is an unknown address kept', async () => {
    const hidden = await newPage({ public: false });
    const password = await newPage({ authentication_method: 'password', authentication_password: 'hunter22' });
    const unknown = `/status/no-such-page-${randomUUID().slice(0, 8)}`;
    for (const path of [`/status/${hidden.attributes.slug}/index.json`, `/status/${password.attributes.slug}/index.json`, unknown]) {
      for (let i = 0; i < 3; i++) {
        const res = await get(path);
        assert.notEqual(res.status, 200, path);
        assert.equal(res.fromMemory, false, `${path}, read ${i + 1}`);
      }
    }
  });

  test('a password page opened with its password is answered to that person only, never from memory', async () => {
    const password = `pw-${randomUUID()}`;
    const page = await newPage({ authentication_method: 'password', authentication_password: password });
    const path = `/status/${page.attributes.slug}`;
    const signedIn = await fetch(`${w.api.url}${path}`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ password }) });
    assert.equal(signedIn.status, 303);
    const cookie = signedIn.headers.getSetCookie()[0].split(';')[0];
    for (let i = 0; i < 2; i++) {
      const shown = await get(path, { cookie });
      assert.deepEqual([shown.status, shown.fromMemory, shown.headers.get('cache-control')], [200, false, 'private, no-cache'], `read ${i + 1}`);
    }
    const anonymous = await get(path);
    assert.deepEqual([anonymous.status, anonymous.fromMemory], [401, false]);
  });

  test('a custom domain is served from memory by Host, and stops being served on the next request once its check fails', async () => {
    const domain = `status-${randomUUID().slice(0, 8)}.example.com`;
    const page = await newPage({ external_domain_names: [domain] });
    const ours = await send('POST', '/v1/verified_domains', doc('verified_domains', { domain }));
    published.set(ours.attributes.txt_host, [[ours.attributes.txt_value]]);
    await send('POST', `/v1/verified_domains/${ours.id}/verify`);

    const cold = await onHost(domain, '/index.json');
    assert.deepEqual([cold.status, cold.fromMemory], [200, false]);
    const hit = await onHost(`${domain.toUpperCase()}:443`, '/index.json');
    assert.deepEqual([hit.status, hit.fromMemory, JSON.parse(hit.body).page.id], [200, true, page.id]);
    assert.deepEqual(lasting(hit).filter(([name]) => name !== 'x-request-id'), lasting(cold).filter(([name]) => name !== 'x-request-id'));
    assert.equal((await onHost(`other-${domain}`, '/index.json')).status, 404, 'another host');
    // The slug's address is another entry: the page's URL in it differs.
    assert.equal((await get(`/status/${page.attributes.slug}/index.json`)).body.page.url, `${w.api.runtime.config.publicUrl}/status/${page.attributes.slug}`);

    published.clear();
    assert.equal((await send('POST', `/v1/verified_domains/${ours.id}/verify`)).attributes.verification_status, 'failing');
    assert.equal((await onHost(domain, '/index.json')).status, 404);
  });

  test('an answer lasts until an announcement shown ends, or one to come starts', async () => {
    const page = await newPage();
    const path = `/status/${page.attributes.slug}`;
    const soon = Date.now() + 2_000;
    await announce(page.id, { title: 'Ending soon', ends_at: new Date(soon).toISOString() });
    await announce(page.id, { title: 'Starting soon', starts_at: new Date(soon + 1_000).toISOString() });
    const warmed = await warm(path);
    assert.match(warmed.body, /Ending soon/);
    assert.doesNotMatch(warmed.body, /Starting soon/);

    await new Promise((r) => setTimeout(r, soon + 200 - Date.now()));
    const ended = await get(path);
    assert.equal(ended.fromMemory, false, 'the end of the announcement dropped the answer');
    assert.doesNotMatch(ended.body, /Ending soon/);
    assert.doesNotMatch(ended.body, /Starting soon/);
    assert.equal((await get(path)).fromMemory, true);

    await new Promise((r) => setTimeout(r, soon + 1_200 - Date.now()));
    const started = await get(path);
    assert.equal(started.fromMemory, false, 'the start of the other one dropped it too');
    assert.match(started.body, /Starting soon/);
  });
});

/**
 * An expired answer is re-read by one request while the others are still answered it
 * (docs/status-pages.md, Public page): an expiry costs one read of the page, not one per request
 * in flight.
 */
describe('the public status page refreshed after its ttl', () => {
  const TTL = 300;
  const w = useApiWorld({ env: { STATUS_PAGE_CACHE_TTL_MS: String(TTL) } });
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  test('one request reads the expired page; one arriving meanwhile is answered from memory; after a second ttl nothing is', async () => {
    const page = await newStatusPage(w, { public: true });
    const path = `/status/${page.attributes.slug}`;
    const reader = w.api.app.get(PublicPageReader, { strict: false });
    const read = reader.bySlug.bind(reader);
    let readsStarted = 0;
    /** Holds the `nth` read of the page until the answer is called. */
    const holdRead = (nth: number) => {
      let release = () => {};
      const held = new Promise<void>((r) => (release = r));
      jest.spyOn(reader, 'bySlug').mockImplementation(async (...args) => {
        if (++readsStarted === nth) await held;
        return read(...args);
      });
      return release;
    };
    const release = holdRead(2);
    assert.equal((await w.api.request('GET', path)).status, 200);
    assert.equal(readsStarted, 1);
    await sleep(TTL + 20);

    const refreshing = w.api.request('GET', path);
    while (readsStarted < 2) await sleep(5);
    const meanwhile = await w.api.request('GET', path);
    assert.equal(meanwhile.status, 200);
    assert.equal(readsStarted, 2, 'answered from memory while the page is being re-read');
    release();
    assert.equal((await refreshing).status, 200);
    assert.equal((await w.api.request('GET', path)).status, 200);
    assert.equal(readsStarted, 2, 'the refreshed answer is kept');

    await sleep(TTL + 20);
    const releaseStuck = holdRead(3);
    const slow = w.api.request('GET', path);
    while (readsStarted < 3) await sleep(5);
    await sleep(TTL + 20);
    assert.equal((await w.api.request('GET', path)).status, 200);
    assert.equal(readsStarted, 4, 'a refresh never finished: the old answer is not served past a second ttl');
    releaseStuck();
    assert.equal((await slow).status, 200);
  });
});
