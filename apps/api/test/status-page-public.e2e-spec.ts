import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { useApiWorld } from './support/api-world';
import { type Attributes, unique } from './support/json-api';
import { getOnHost, newStatusPage, useFakeTxtRecords } from './support/status-pages';

const HOUR = 3_600_000;
const at = (offset: number) => new Date(Date.now() + offset).toISOString();

/** The text of every heading, with its level, in document order. */
const headings = (page: string) => [...page.matchAll(/<h([1-6])[^>]*>(.*?)<\/h\1>/g)].map((m) => `h${m[1]} ${m[2]}`);

/**
 * XML well-formedness as a feed reader needs it, without an XML parser: tags nest and close in
 * order, attributes are quoted, and `&` only starts a predefined or numeric entity.
 */
function assertWellFormedXml(text: string): void {
  assert.match(text, /^<\?xml version="1.0" encoding="utf-8"\?>\n/);
  const body = text.replace(/^<\?xml[^>]*\?>/, '');
  assert.doesNotMatch(body, /&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);)/i, 'every & starts an entity');
  const stack: string[] = [];
  const tags = /<(\/?)([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(\/?)>/g;
  let rest = body;
  for (const m of body.matchAll(tags)) {
    rest = rest.replace(m[0], '');
    const [, closing, name, , selfClosing] = m;
    if (selfClosing) continue;
    if (closing) assert.equal(stack.pop(), name, `</${name}> closes the open element`);
    else stack.push(name);
  }
  assert.deepEqual(stack, [], 'every element is closed');
  assert.doesNotMatch(rest, /[<>]/, 'no < or > outside tags');
}

describe('the public status page (HTML, JSON, Atom)', () => {
  const w = useApiWorld();
  const published = useFakeTxtRecords(w);

  const send = async (method: string, path: string, body?: unknown, token?: string) => {
    const res = await w.send(method, path, body, token);
    assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  };
  const newPage = (attributes: Attributes = {}, token?: string) => newStatusPage(w, { public: true, ...attributes }, token);
  const incident = async (attributes: Attributes = {}) => send('POST', '/v1/incidents', { data: { type: 'incidents', attributes: { title: unique('Checkout down'), ...attributes } } });
  const postUpdate = async (incidentId: string, page: string, attributes: Attributes) =>
    send('POST', `/v1/incidents/${incidentId}/status-page-events`, { data: { type: 'incident_status_page_events', attributes: { status_page_id: page, ...attributes } } });
  const component = async (page: string, attributes: Attributes) => send('POST', `/v1/status-pages/${page}/components`, { data: { type: 'status_page_components', attributes } });
  const get = (path: string, headers: Record<string, string> = {}) => w.api.request('GET', path, { headers });

  const onHost = (host: string, path = '/') => getOnHost(w.api, host, path);

  /** A page with a group, a grouped and an ungrouped component, an incident with two updates, a maintenance and an announcement. */
  async function furnishedPage() {
    const page = await newPage({ public_title: 'Acme Cloud', public_description: 'How Acme is doing', failure_message: 'Some things are broken', website_url: 'https://acme.example/' });
    const group = await send('POST', `/v1/status-pages/${page.id}/component-groups`, { data: { type: 'status_page_component_groups', attributes: { name: 'Payments' } } });
    await component(page.id, { name: 'Website' });
    await component(page.id, { name: 'Checkout', status: 'partial_outage', status_page_component_group_id: group.id });
    const outage = await incident({ title: 'Internal title', public_title: 'Checkout errors' });
    await postUpdate(outage.id, page.id, { event: 'We are looking into it', started_at: at(-HOUR) });
    await postUpdate(outage.id, page.id, { event: 'A bad deploy; rolling back', status: 'identified', started_at: at(-HOUR / 2) });
    const maintenance = await incident({ kind: 'scheduled', title: 'Database upgrade', scheduled_for: at(HOUR), scheduled_until: at(2 * HOUR) });
    await postUpdate(maintenance.id, page.id, { event: 'Upgrading the primary', status: 'scheduled' });
    await send('POST', `/v1/status-pages/${page.id}/announcements`, { data: { type: 'status_page_announcements', attributes: { title: 'New region', body: 'Frankfurt is open.' } } });
    return { page, group, outage, maintenance };
  }

  test('the HTML shows components by group with their statuses, the active incident with its updates newest first, the maintenance and the announcement', async () => {
    const { page } = await furnishedPage();
    const res = await get(`/status/${page.attributes.slug}`);
    assert.equal(res.status, 200, res.body);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(res.headers.get('cache-control'), 'public, max-age=30');
    assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    const body: string = res.body;
    assert.match(body, /^<!doctype html>\n<html lang="en">/);
    for (const landmark of ['header', 'main', 'footer']) assert.equal(body.split(`<${landmark}`).length, 2, `one <${landmark}>`);
    // Default order: maintenance, system status, incidents; the announcement leads.
    assert.deepEqual(headings(body), [
      'h1 Acme Cloud',
      'h2 Announcements',
      'h3 New region',
      'h2 Scheduled maintenance',
      'h3 Database upgrade',
      'h2 Current status',
      'h3 Payments',
      'h2 Active incidents',
      'h3 Checkout errors',
    ]);
    assert.match(body, /<p class="overall">Some things are broken<\/p>/);
    assert.match(body, /Website <span class="state">Operational<\/span>/);
    assert.match(body, /<details open><summary><h3>Payments<\/h3><\/summary><ul class="components"><li><span class="dot" style="background:#EA580C" aria-hidden="true"><\/span>Checkout <span class="state">Partial Outage<\/span>/i);
    assert.ok(body.indexOf('A bad deploy; rolling back') < body.indexOf('We are looking into it'), 'updates newest first');
    assert.doesNotMatch(body, /Internal title/, 'the public title is shown');
    assert.match(body, /Frankfurt is open\./);
    assert.match(body, /Uptime over the last 90 days: not measured yet\./);
    assert.match(body, /<a href="https:\/\/acme.example\/">Website<\/a>/);
    assert.doesNotMatch(body, /<script|<img|<link rel="stylesheet"|src=/, 'no scripts, no outside assets');
    assert.ok(Buffer.byteLength(body) < 20_000, `${Buffer.byteLength(body)} bytes`);
  });

  test('a page in a Rails-named zone is answered as sent and shows its times in the IANA zone it denotes', async () => {
    const page = await newPage({ time_zone: 'Tokyo' });
    assert.equal(page.attributes.time_zone, 'Tokyo');
    const res = await get(`/status/${page.attributes.slug}`);
    assert.equal(res.status, 200, String(res.body));
    // Asia/Tokyo: the footer's last change is written at UTC+9.
    assert.match(res.body, /Last updated <time datetime="[^"]+Z">[^<]+ GMT\+9<\/time>/);
  });

  test('resolved incidents and completed maintenance leave the page; with every component operational it says the success message; no uptime line without show_uptime', async () => {
    const page = await newPage({ success_message: 'All good here', show_uptime: false, section_order: ['incidents', 'system_status', 'maintenance'] });
    await component(page.id, { name: 'API', status: 'under_maintenance' });
    const outage = await incident();
    await postUpdate(outage.id, page.id, { event: 'Looking', started_at: at(-HOUR) });
    await postUpdate(outage.id, page.id, { event: 'Fixed', status: 'resolved' });
    const maintenance = await incident({ kind: 'scheduled' });
    await postUpdate(maintenance.id, page.id, { event: 'Starting', status: 'in_progress', started_at: at(-HOUR) });
    await postUpdate(maintenance.id, page.id, { event: 'Done', status: 'completed' });
    const body: string = (await get(`/status/${page.attributes.slug}`)).body;
    assert.deepEqual(headings(body).slice(1), ['h2 Active incidents', 'h2 Current status', 'h2 Scheduled maintenance'], 'in section_order');
    assert.match(body, /No active incidents\./);
    assert.match(body, /No scheduled maintenance\./);
    assert.match(body, /<p class="overall">All good here<\/p>/);
    assert.doesNotMatch(body, /Uptime/);
  });

  test('a private incident’s updates never reach the page; the updates of another page neither', async () => {
    const page = await newPage();
    const elsewhere = await newPage();
    const secret = await incident({ private: true, title: 'Secret breach' });
    await postUpdate(secret.id, page.id, { event: 'Investigating a breach' });
    const onOther = await incident({ title: 'Other page incident' });
    await postUpdate(onOther.id, elsewhere.id, { event: 'Elsewhere' });
    for (const path of [`/status/${page.attributes.slug}`, `/status/${page.attributes.slug}/index.json`, `/status/${page.attributes.slug}/feed.atom`]) {
      const text = JSON.stringify((await get(path)).body);
      assert.doesNotMatch(text, /Secret breach|Investigating a breach|Elsewhere|Other page incident/, path);
    }
  });

  test('unknown slugs and disabled pages are 404 HTML; a private page is 401 with an explanation', async () => {
    const missing = await get(`/status/no-such-page-${randomUUID().slice(0, 8)}`);
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.match(missing.body, /<h1>Not found<\/h1>/);
    const disabled = await newPage({ enabled: false });
    assert.equal((await get(`/status/${disabled.attributes.slug}`)).status, 404);
    assert.equal((await get(`/status/${disabled.attributes.slug}/index.json`)).body.errors[0].status, '404');

    const hidden = await newPage({ public: false, title: unique('Internal') });
    const refused = await get(`/status/${hidden.attributes.slug}`);
    assert.equal(refused.status, 401);
    assert.match(refused.body, /This status page is private: it is shown to the people of its organization once they sign in\. This deployment has no sign-in for status pages/);
    assert.equal(refused.headers.get('cache-control'), 'no-store');
    assert.doesNotMatch(refused.body, /Internal/, 'nothing of the page is shown');
    assert.equal((await get(`/status/${hidden.attributes.slug}/feed.atom`)).status, 401);
    const password = await newPage({ authentication_method: 'password', authentication_password: 'hunter22' });
    assert.equal((await get(`/status/${password.attributes.slug}/index.json`)).status, 401);
  });

  test('the page’s id also names it, and a slug another organization’s earlier page holds shows that page', async () => {
    const title = unique('Shared name');
    const first = await newPage({ title }, w.other.token);
    const second = await newPage({ title });
    assert.equal(first.attributes.slug, second.attributes.slug);
    assert.equal((await get(`/status/${second.attributes.slug}/index.json`)).body.page.id, first.id);
    assert.equal((await get(`/status/${second.id}/index.json`)).body.page.id, second.id);
  });

  test('a strong ETag over the body: If-None-Match answers 304 until the page changes', async () => {
    const page = await newPage();
    const path = `/status/${page.attributes.slug}`;
    const first = await get(path);
    const etag = first.headers.get('etag')!;
    assert.match(etag, /^"[\w-]{43}"$/);
    assert.equal((await get(path)).headers.get('etag'), etag, 'the same page, the same tag');
    const unchanged = await get(path, { 'if-none-match': `"other", ${etag}` });
    assert.equal(unchanged.status, 304);
    assert.equal(unchanged.body, undefined);
    assert.equal(unchanged.headers.get('etag'), etag);
    assert.equal(unchanged.headers.get('cache-control'), 'public, max-age=30');
    const outage = await incident();
    await postUpdate(outage.id, page.id, { event: 'Something broke' });
    const changed = await get(path, { 'if-none-match': etag });
    assert.equal(changed.status, 200);
    assert.notEqual(changed.headers.get('etag'), etag);
    assert.match(changed.body, /Something broke/);
  });

  test('JSON: the same content for scripts', async () => {
    const { page, group, outage, maintenance } = await furnishedPage();
    const res = await get(`/status/${page.attributes.slug}/index.json`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.ok(res.headers.get('etag'));
    const body = res.body;
    assert.deepEqual(Object.keys(body), ['page', 'status', 'components', 'component_groups', 'incidents', 'scheduled_maintenances', 'announcements', 'uptime']);
    assert.deepEqual(body.page, {
      id: page.id,
      slug: page.attributes.slug,
      title: 'Acme Cloud',
      description: 'How Acme is doing',
      url: `${w.api.runtime.config.publicUrl}/status/${page.attributes.slug}`,
      time_zone: 'Etc/UTC',
      updated_at: body.page.updated_at,
    });
    assert.deepEqual(body.status, { operational: false, message: 'Some things are broken' });
    assert.deepEqual(
      body.components.map((c: Attributes) => [c.name, c.status, c.status_name]),
      [['Website', 'operational', 'Operational']],
    );
    assert.deepEqual(body.component_groups.map((g: { id: string; components: Attributes[] }) => [g.id, g.components.map((c) => c.name)]), [[group.id, ['Checkout']]]);
    assert.deepEqual(
      body.incidents.map((i: { id: string; title: string; status: string; updates: Attributes[] }) => [i.id, i.title, i.status, i.updates.map((u) => u.body)]),
      [[outage.id, 'Checkout errors', 'identified', ['A bad deploy; rolling back', 'We are looking into it']]],
    );
    assert.deepEqual(Object.keys(body.incidents[0].updates[0]), ['id', 'status', 'body', 'posted_at', 'updated_at']);
    const [window] = body.scheduled_maintenances;
    assert.deepEqual([window.id, window.status, window.scheduled_for, window.scheduled_until], [maintenance.id, 'scheduled', maintenance.attributes.scheduled_for, maintenance.attributes.scheduled_until]);
    assert.deepEqual(body.announcements.map((a: Attributes) => [a.title, a.body, a.ends_at]), [['New region', 'Frankfurt is open.', null]]);
    assert.deepEqual(body.uptime, { last_days: 90, measured: false });
  });

  test('Atom: a well-formed feed of the updates and announcements, newest first', async () => {
    const { page } = await furnishedPage();
    const res = await get(`/status/${page.attributes.slug}/feed.atom`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/atom+xml; charset=utf-8');
    const feed: string = res.body;
    assertWellFormedXml(feed);
    assert.match(feed, /<feed xmlns="http:\/\/www.w3.org\/2005\/Atom">/);
    assert.match(feed, new RegExp(`<id>urn:uuid:${page.id}</id>`));
    assert.match(feed, new RegExp(`<link rel="self" type="application/atom\\+xml" href="${w.api.runtime.config.publicUrl}/status/${page.attributes.slug}/feed.atom"/>`));
    const titles = [...feed.matchAll(/<entry>.*?<title>(.*?)<\/title>/g)].map((m) => m[1]);
    assert.deepEqual(titles, ['New region', 'Database upgrade: Scheduled', 'Checkout errors: Identified', 'Checkout errors: Investigating'], 'by last change');
    for (const entry of feed.match(/<entry>.*?<\/entry>/g)!) assert.match(entry, /^<entry><id>urn:uuid:[0-9a-f-]{36}<\/id><title>.*<\/title><published>[^<]+Z<\/published><updated>[^<]+Z<\/updated>/);
  });

  test('everything shown is escaped: a <script> title, markup in updates, control characters, a javascript: link', async () => {
    const evil = '<script>alert("x")</script> & Co';
    const page = await newPage({ title: evil, public_description: '"><img src=x onerror=alert(1)>', website_url: 'javascript:alert(1)', header_color: '#FFFF00' });
    const outage = await incident({ title: '</h3><script>alert(2)</script>' });
    await postUpdate(outage.id, page.id, { event: 'Broken <b>hard</b> \u0007 & more' });
    const body: string = (await get(`/status/${page.attributes.slug}`)).body;
    assert.doesNotMatch(body, /<script|<img|<b>|javascript:/);
    assert.match(body, /<h1>&lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt; &amp; Co<\/h1>/);
    assert.match(body, /Broken &lt;b&gt;hard&lt;\/b&gt;/);
    assert.match(body, /<header style="background:#FFFF00;color:#000000">/, 'dark text on a light header');
    const json = (await get(`/status/${page.attributes.slug}/index.json`)).body;
    assert.equal(json.page.title, evil);
    const feed: string = (await get(`/status/${page.attributes.slug}/feed.atom`)).body;
    assertWellFormedXml(feed);
    assert.doesNotMatch(feed, /\u0007/);
    assert.match(feed, /<title>&lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt; &amp; Co<\/title>/);
  });

  test('a custom domain serves its page at / only once the organization verified it', async () => {
    const domain = `status-${randomUUID().slice(0, 8)}.example.com`;
    const page = await newPage({ external_domain_names: [domain] });
    assert.equal((await onHost(domain)).status, 404, 'not verified');

    // Another organization verifies the domain: its verification does not serve this page.
    const theirs = await send('POST', '/v1/verified_domains', { data: { type: 'verified_domains', attributes: { domain } } }, w.other.token);
    published.set(theirs.attributes.txt_host, [[theirs.attributes.txt_value]]);
    assert.equal((await send('POST', `/v1/verified_domains/${theirs.id}/verify`, undefined, w.other.token)).attributes.verification_status, 'verified');
    assert.equal((await onHost(domain)).status, 404, 'verified by another organization');

    const ours = await send('POST', '/v1/verified_domains', { data: { type: 'verified_domains', attributes: { domain } } });
    published.clear();
    published.set(ours.attributes.txt_host, [[ours.attributes.txt_value]]);
    await send('POST', `/v1/verified_domains/${ours.id}/verify`);
    const served = await onHost(`${domain.toUpperCase()}:443`);
    assert.equal(served.status, 200, served.body);
    assert.match(served.body, /<link rel="alternate" type="application\/atom\+xml" title="[^"]*" href="\/feed.atom">/);
    assert.equal(JSON.parse((await onHost(domain, '/index.json')).body).page.id, page.id);
    assert.match((await onHost(domain, '/feed.atom')).body, new RegExp(`<id>urn:uuid:${page.id}</id>`));
    assert.equal((await onHost(`other-${domain}`)).status, 404, 'another host');

    // A failing check stops serving it.
    published.clear();
    assert.equal((await send('POST', `/v1/verified_domains/${ours.id}/verify`)).attributes.verification_status, 'failing');
    assert.equal((await onHost(domain)).status, 404);
  });
});
