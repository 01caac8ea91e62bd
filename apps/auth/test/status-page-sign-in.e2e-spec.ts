/**
 * Private status pages sign people in through the auth app (docs/status-pages.md, Sign-in): the
 * api and the auth app over HTTP on one scratch database, the api's public URL known to both (the
 * status page client's redirect URI), and one clock the test can move.
 */
import { afterAll as after, beforeAll as before, describe, jest, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { randomUUID } from 'node:crypto';
import { freePort } from '@taproot/persistence';
import type { MigrationInterface } from 'typeorm';
import { STATUS_PAGES_CONTEXT, TXT_RESOLVER, type TxtResolver } from '@taproot/status-pages';
import { offsetClock, startTestAuth, type TestAuth, type TestClock } from '../src/testing';
import { interactionUid, newPerson, PageWalker, type Person } from './interaction-flow';
import { startTestApi, type TestApi } from './oauth-test-helpers';

type Attributes = Record<string, unknown>;
interface Member extends Person {
  organizationId: string;
  token: string;
}

describe('private status pages: sign-in through the auth app', () => {
  let auth: TestAuth;
  let api: TestApi;
  let clock: TestClock;
  let publicUrl: string;
  let alice: Member;
  let mallory: Member;
  const txt: Record<string, string[][]> = {};

  before(async () => {
    clock = offsetClock();
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    auth = await startTestAuth({ clock, env: { PUBLIC_URL: publicUrl } });
    api = await startTestApi({ databaseUrl: auth.databaseUrl, clock, env: { ...auth.apiEnv, PUBLIC_URL: publicUrl, PORT: String(port) } });
    const resolver = api.app.get<symbol, TxtResolver>(TXT_RESOLVER, { strict: false });
    jest.spyOn(resolver, 'resolveTxt').mockImplementation(async (name) => txt[name] ?? []);
    alice = await member();
    mallory = await member();
  });
  after(async () => {
    await api?.close();
    await auth?.close();
  });

  /** A person with a sign-in and an admin user in a new organization, and an API key of it. */
  async function member(): Promise<Member> {
    const person = await newPerson({ api, auth, authUrl: auth.url, close: async () => undefined });
    const [organizationId] = person.organizationIds;
    return { ...person, organizationId, token: await api.issueApiKey(organizationId) };
  }

  const send = async (owner: Member, method: string, path: string, body?: unknown) => {
    const res = await api.request(method, path, { token: owner.token, body });
    assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data as { id: string; attributes: Record<string, unknown> & { slug: string } };
  };
  const newPage = (owner: Member, attributes: Attributes = {}) =>
    send(owner, 'POST', '/v1/status-pages', { data: { type: 'status_pages', attributes: { title: `Internal ${randomUUID().slice(0, 8)}`, public: false, ...attributes } } });

  /** What a browser does from a private page's address to the auth app's sign-in page. */
  async function toSignIn(site: PageWalker, path: string) {
    const away = await site.get(path);
    assert.equal(away.status, 303, `${path} sends the browser to the auth app`);
    assert.ok(away.url.startsWith(`${auth.url}/oauth/authorize?`), away.url);
    return new URL(away.url);
  }

  /** Signs `who` in at the auth app for `organizationId`: the auth app's redirect back to the api's callback. */
  async function atAuthApp(authorization: URL, who: Person, organizationId: string): Promise<URL> {
    const browser = new PageWalker(auth.url);
    const signIn = await browser.get(authorization.href);
    const uid = interactionUid(signIn.url);
    const picker = await browser.post(`/interaction/${uid}/login`, { email: who.email, password: who.password });
    assert.equal(picker.status, 200, picker.body);
    const back = await browser.post(`/interaction/${uid}/organization`, { organization_id: organizationId });
    assert.equal(back.status, 303, `no consent page for the status page client: ${back.body}`);
    assert.ok(back.url.startsWith(`${publicUrl}/status/sign-in/callback?`), back.url);
    return new URL(back.url);
  }

  /** The whole sign-in of `who` on a page's address: the site walker then holds the session cookie. */
  async function signedIn(path: string, who: Member, organizationId = who.organizationId) {
    const site = new PageWalker(api.url);
    const callback = await atAuthApp(await toSignIn(site, path), who, organizationId);
    const page = await site.get(callback.pathname + callback.search);
    return { site, page };
  }

  const sessionCookie = (site: PageWalker) => [...site.cookies].find(([name]) => name.startsWith('taproot_status_') && name !== 'taproot_status_sign_in');

  test('a member signs in (PKCE, state, nonce, openid only) and reads the page as HTML, JSON and Atom', async () => {
    const page = await newPage(alice);
    const path = `/status/${page.attributes.slug}`;
    const site = new PageWalker(api.url);
    const authorization = await toSignIn(site, path);
    const q = authorization.searchParams;
    assert.equal(q.get('client_id'), 'taproot-status-pages');
    assert.equal(q.get('redirect_uri'), `${publicUrl}/status/sign-in/callback`);
    assert.equal(q.get('scope'), 'openid');
    assert.equal(q.get('code_challenge_method'), 'S256');
    assert.ok(q.get('code_challenge') && q.get('state') && q.get('nonce'));

    const callback = await atAuthApp(authorization, alice, alice.organizationId);
    assert.equal(callback.searchParams.get('state'), q.get('state'));
    // The callback's own answer: the session cookie and back to the page.
    const cookies = [...site.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const res = await fetch(`${api.url}${callback.pathname}${callback.search}`, { redirect: 'manual', headers: { cookie: cookies } });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), path);
    const session = res.headers.getSetCookie().find((c) => c.startsWith(`taproot_status_${page.id}=`));
    assert.ok(session, res.headers.getSetCookie().join('\n'));
    assert.match(session, /; Max-Age=3600/);
    assert.match(session, /; Path=\/status/);
    assert.match(session, /; HttpOnly/);
    assert.match(session, /; SameSite=Lax/);
    assert.doesNotMatch(session, /Secure/, 'not on an http public URL');
    site.cookies.set(`taproot_status_${page.id}`, session.split(';')[0].split('=')[1]);

    const shown = await site.get(path);
    assert.equal(shown.status, 200);
    assert.match(shown.body, new RegExp(String(page.attributes.title)));
    assert.equal(shown.headers.get('cache-control'), 'private, no-cache', 'no shared cache keeps a private page');
    const json = await site.get(`${path}/index.json`);
    assert.equal(json.status, 200);
    assert.equal(JSON.parse(json.body).page.id, page.id);
    const feed = await site.get(`${path}/feed.atom`);
    assert.equal(feed.status, 200);
    assert.match(feed.headers.get('content-type') ?? '', /application\/atom\+xml/);
    // By its id too: the cookie is the page's, whichever address names it.
    assert.equal((await site.get(`/status/${page.id}`)).status, 200);
  });

  test('without a session: HTML is sent to sign in, JSON and Atom answer 401 naming where', async () => {
    const page = await newPage(alice);
    const path = `/status/${page.attributes.slug}`;
    const html = await fetch(`${api.url}${path}`, { redirect: 'manual' });
    assert.equal(html.status, 303);
    assert.equal(html.headers.get('location'), `${publicUrl}${path}/sign-in`);
    assert.equal(html.headers.get('cache-control'), 'no-store');
    const json = await api.request('GET', `${path}/index.json`);
    assert.equal(json.status, 401);
    assert.equal(json.body.errors[0].links.sign_in, `${publicUrl}${path}/sign-in`);
    assert.equal(json.headers.get('www-authenticate'), null);
    const feed = await api.request('GET', `${path}/feed.atom`);
    assert.equal(feed.status, 401);
    assert.match(feed.body, new RegExp(`Sign in at ${publicUrl}${path}/sign-in`));
    assert.doesNotMatch(JSON.stringify([json.body, feed.body]), new RegExp(String(page.attributes.title)));
  });

  test('a user of another organization is refused (403), nothing of the page shown', async () => {
    const page = await newPage(alice, { public: true, authentication_method: 'saml' });
    const { page: answer, site } = await signedIn(`/status/${page.attributes.slug}`, mallory);
    assert.equal(answer.status, 403);
    assert.match(answer.body, /another organization/);
    assert.doesNotMatch(answer.body, new RegExp(String(page.attributes.title)));
    assert.equal(sessionCookie(site), undefined, 'no session');
  });

  test('a person in both organizations who picks the other one is refused too', async () => {
    const both = await newPerson({ api, auth, authUrl: auth.url, close: async () => undefined }, [{}, {}]);
    const [first, second] = both.organizationIds;
    const owner = { ...both, organizationId: first, token: await api.issueApiKey(first) };
    const page = await newPage(owner);
    const { page: answer } = await signedIn(`/status/${page.attributes.slug}`, owner, second);
    assert.equal(answer.status, 403);
    const { page: admitted } = await signedIn(`/status/${page.attributes.slug}`, owner, first);
    assert.equal(admitted.status, 200);
  });

  test('a tampered, expired or other page’s cookie is refused; signing out drops it', async () => {
    const page = await newPage(alice);
    const sibling = await newPage(alice);
    const theirs = await newPage(mallory);
    const path = `/status/${page.attributes.slug}`;
    const { site, page: shown } = await signedIn(path, alice);
    assert.equal(shown.status, 200);
    const [name, value] = sessionCookie(site)!;
    const readWith = (target: string, cookie: string) => api.request('GET', `${target}/index.json`, { headers: { cookie } });
    assert.equal((await readWith(path, `${name}=${value}`)).status, 200);

    const [header, payload, signature] = value.split('.');
    const flipped = `${header}.${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    assert.equal((await readWith(path, `${name}=${flipped}`)).status, 401, 'signature changed');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, aud: `status-page:${mallory.organizationId}:${theirs.id}` })).toString('base64url');
    assert.equal((await readWith(`/status/${theirs.id}`, `taproot_status_${theirs.id}=${header}.${forged}.${signature}`)).status, 401, 'claims changed');
    // The same cookie under another page's name: another organization's page, and a page of the same organization.
    assert.equal((await readWith(`/status/${theirs.id}`, `taproot_status_${theirs.id}=${value}`)).status, 401);
    assert.equal((await readWith(`/status/${sibling.id}`, `taproot_status_${sibling.id}=${value}`)).status, 401);

    clock.advance(3601);
    try {
      assert.equal((await readWith(path, `${name}=${value}`)).status, 401, 'expired after an hour');
    } finally {
      clock.advance(-3601);
    }
    assert.equal((await readWith(path, `${name}=${value}`)).status, 200);

    const out = await fetch(`${api.url}${path}/sign-out`, { redirect: 'manual', headers: { cookie: `${name}=${value}` } });
    assert.equal(out.status, 303);
    assert.equal(out.headers.get('location'), path);
    assert.match(out.headers.getSetCookie().join('\n'), new RegExp(`${name}=; Max-Age=0; Path=/status; HttpOnly; SameSite=Lax`));
  });

  test('a callback whose state does not match the sign-in under way is refused', async () => {
    const page = await newPage(alice);
    const site = new PageWalker(api.url);
    const callback = await atAuthApp(await toSignIn(site, `/status/${page.attributes.slug}`), alice, alice.organizationId);
    callback.searchParams.set('state', 'not-the-state');
    const answer = await site.get(callback.pathname + callback.search);
    assert.equal(answer.status, 400);
    assert.match(answer.body, /Sign-in failed/);
    assert.equal(sessionCookie(site), undefined);
    // No sign-in cookie at all (another browser, or it expired): refused too.
    const bare = await api.request('GET', `${callback.pathname}?code=x&state=y`);
    assert.equal(bare.status, 400);
  });

  test('a page made public again is served without a session', async () => {
    const page = await newPage(alice);
    const path = `/status/${page.attributes.slug}`;
    assert.equal((await api.request('GET', `${path}/index.json`)).status, 401);
    await send(alice, 'PUT', `/v1/status-pages/${page.id}`, { data: { type: 'status_pages', id: page.id, attributes: { public: true } } });
    const shown = await api.request('GET', path);
    assert.equal(shown.status, 200);
    assert.equal(shown.headers.get('cache-control'), 'public, max-age=30');
  });

  test('a password page asks on its own address; the right password opens it, a wrong one is refused and throttled', async () => {
    const password = `pw-${randomUUID()}`;
    const page = await newPage(alice, { public: true, authentication_method: 'password', authentication_password: password });
    const path = `/status/${page.attributes.slug}`;
    const [{ authentication_password: stored }] = await api.runtime.dataSource.query('SELECT authentication_password FROM status_pages WHERE id = $1', [page.id]);
    assert.match(stored, /^scrypt\$/, 'stored as a scrypt hash');

    const asked = await api.request('GET', path);
    assert.equal(asked.status, 401);
    assert.match(asked.body, new RegExp(`<form method="post" action="${path}">`));
    assert.match(asked.headers.get('content-security-policy') ?? '', /form-action 'self'/);
    assert.doesNotMatch(asked.body, new RegExp(String(page.attributes.title)));
    const json = await api.request('GET', `${path}/index.json`);
    assert.equal(json.status, 401);
    assert.equal(json.body.errors[0].links.sign_in, `${publicUrl}${path}`);

    const post = (value: string, cookie = '') =>
      fetch(`${api.url}${path}`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie }, body: new URLSearchParams({ password: value }) });
    const wrong = await post('not-it');
    assert.equal(wrong.status, 401);
    const form = await wrong.text();
    assert.match(form, /aria-invalid="true" aria-describedby="password-error"/);
    assert.doesNotMatch(form, /not-it/, 'the password is never echoed');

    const right = await post(password);
    assert.equal(right.status, 303);
    assert.equal(right.headers.get('location'), path);
    const session = right.headers.getSetCookie().find((c) => c.startsWith(`taproot_status_${page.id}=`))!;
    assert.match(session, /; Max-Age=3600; Path=\/status; HttpOnly; SameSite=Lax/);
    const cookie = session.split(';')[0];
    const shown = await api.request('GET', path, { headers: { cookie } });
    assert.equal(shown.status, 200);
    assert.match(shown.body, new RegExp(String(page.attributes.title)));
    assert.equal((await api.request('GET', `${path}/feed.atom`, { headers: { cookie } })).status, 200);

    // Four more wrong ones make five from this address: the next is refused before the password is checked.
    for (let i = 0; i < 4; i++) assert.equal((await post(`wrong-${i}`)).status, 401);
    const throttled = await post(password);
    assert.equal(throttled.status, 429);
    assert.ok(Number(throttled.headers.get('retry-after')) > 0);
    assert.equal(throttled.headers.getSetCookie().length, 0, 'no session, even with the right password');
  });

  test('a password stored in clear before hashing is hashed by the migration and still opens the page', async () => {
    const password = `pw-${randomUUID()}`;
    const page = await newPage(alice, { public: true, authentication_method: 'password', authentication_password: 'replaced-below' });
    await api.runtime.dataSource.query('UPDATE status_pages SET authentication_password = $2 WHERE id = $1', [page.id, password]);
    // The migration itself, run again now that a password is in clear.
    const migration = STATUS_PAGES_CONTEXT.migrations.find((m) => m.name === 'HashStatusPagePasswords1732300009300') as new () => MigrationInterface;
    const runner = api.runtime.dataSource.createQueryRunner();
    try {
      await new migration().up(runner);
    } finally {
      await runner.release();
    }
    const [{ authentication_password: stored }] = await api.runtime.dataSource.query('SELECT authentication_password FROM status_pages WHERE id = $1', [page.id]);
    assert.match(stored, /^scrypt\$/);
    const right = await fetch(`${api.url}/status/${page.id}`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `password=${encodeURIComponent(password)}` });
    assert.equal(right.status, 303);
  });

  /** A request with its own Host header (fetch keeps the connection's). */
  const onHost = (host: string, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
    new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
      const { port } = new URL(api.url);
      const req = httpRequest({ host: '127.0.0.1', port, path, method: init.method ?? 'GET', headers: { host, ...init.headers } }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      });
      req.on('error', reject).end(init.body);
    });

  /** A new domain of `owner`, verified (its TXT record published). */
  async function verifiedDomain(owner: Member): Promise<string> {
    const domain = `status-${randomUUID().slice(0, 8)}.example.test`;
    const claim = await send(owner, 'POST', '/v1/verified_domains', { data: { type: 'verified_domains', attributes: { domain } } });
    txt[`_taproot-challenge.${domain}`] = [[String(claim.attributes.verification_token)]];
    assert.equal((await send(owner, 'POST', `/v1/verified_domains/${claim.id}/verify`)).attributes.verification_status, 'verified');
    return domain;
  }

  test('a private page on a verified custom domain signs in at its public URL address', async () => {
    const domain = await verifiedDomain(alice);
    const page = await newPage(alice, { external_domain_names: [domain] });
    const onDomain = await onHost(domain, '/');
    assert.equal(onDomain.status, 303);
    assert.equal(onDomain.headers.location, `${publicUrl}/status/${page.id}/sign-in`);
    const { page: shown } = await signedIn(`/status/${page.id}`, alice);
    assert.equal(shown.status, 200);
    assert.match(shown.body, new RegExp(String(page.attributes.title)));
  });

  test('a password page on a custom domain takes its form there, with a cookie of that host, until signing out', async () => {
    const domain = await verifiedDomain(alice);
    const password = `pw-${randomUUID()}`;
    const page = await newPage(alice, { public: true, authentication_method: 'password', authentication_password: password, external_domain_names: [domain] });
    const asked = await onHost(domain, '/');
    assert.equal(asked.status, 401);
    assert.match(asked.body, /<form method="post" action="\/">/);
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const right = await onHost(domain, '/', { method: 'POST', headers: form, body: new URLSearchParams({ password }).toString() });
    assert.equal(right.status, 303);
    assert.equal(right.headers.location, '/');
    const session = ([right.headers['set-cookie']].flat() as string[]).find((c) => c.startsWith(`taproot_status_${page.id}=`))!;
    assert.match(session, /; Path=\/;/);
    const cookie = session.split(';')[0];
    const shown = await onHost(domain, '/', { headers: { cookie } });
    assert.equal(shown.status, 200);
    assert.match(shown.body, new RegExp(String(page.attributes.title)));
    const out = await onHost(domain, '/sign-out', { headers: { cookie } });
    assert.equal(out.status, 303);
    assert.match(String(out.headers['set-cookie']), new RegExp(`taproot_status_${page.id}=; Max-Age=0; Path=/;`));
  });
});
