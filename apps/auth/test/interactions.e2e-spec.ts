import { afterAll as after, beforeAll as before, describe, expect, test } from '@jest/globals';
import assert from 'node:assert/strict';
import {
  authorizationRequest,
  exchangeCode,
  interactionUid,
  newPerson,
  PageWalker,
  registerPublicClient,
  startAuthAndApi,
  startRedirectCatcher,
  type AuthAndApi,
} from './interaction-flow';
import { SIGN_IN_FAILURES_PER_EMAIL, SIGN_IN_FAILURES_PER_IP } from '../src/interactions/sign-in-throttle';

/** The interaction pages over plain HTTP, following their form contract (docs/oauth.md). */
describe('auth app interaction pages (sign-in, organization picker, consent)', () => {
  let env: AuthAndApi;
  let catcher: Awaited<ReturnType<typeof startRedirectCatcher>>;
  before(async () => {
    env = await startAuthAndApi();
    catcher = await startRedirectCatcher();
  });
  after(async () => {
    await catcher?.close();
    await env?.close();
  });

  /** A fresh client and browser at the sign-in page of a new authorization request. */
  async function begin(scope = 'openid profile email ir.incidents:read all') {
    const clientId = await registerPublicClient(env.authUrl, catcher.uri, 'Pager <b>App</b>');
    const request = authorizationRequest(env.authUrl, clientId, catcher.uri, scope);
    const browser = new PageWalker(env.authUrl);
    const page = await browser.get(request.url);
    assert.equal(page.status, 200, page.body);
    return { clientId, request, browser, page, uid: interactionUid(page.url) };
  }

  test('the sign-in page is accessible HTML: a main landmark, a heading, labelled fields, no scripts', async () => {
    const { page, uid } = await begin();
    assert.match(page.headers.get('content-type') ?? '', /^text\/html; charset=utf-8/);
    assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    assert.match(page.body, /<html lang="en">/);
    assert.match(page.body, /<main>\s*<h1>Sign in<\/h1>/);
    assert.match(page.body, /<label for="email">E-mail address<\/label>\s*<input id="email" name="email" type="email"/);
    assert.match(page.body, /<label for="password">Password<\/label>\s*<input id="password" name="password" type="password"/);
    assert.match(page.body, new RegExp(`<form method="post" action="/interaction/${uid}/login">`));
    assert.doesNotMatch(page.body, /<script/i);
    assert.match(page.body, /Pager &lt;b&gt;App&lt;\/b&gt;/, 'the client name is escaped');
  });

  test('a wrong password answers 401 with the error tied to the field, and grants nothing', async () => {
    const person = await newPerson(env);
    const { browser, uid } = await begin();
    const wrong = await browser.post(`/interaction/${uid}/login`, { email: person.email, password: 'not the password' });
    assert.equal(wrong.status, 401);
    assert.match(wrong.body, /aria-describedby="password-error" aria-invalid="true"/);
    assert.match(wrong.body, /<p class="error" id="password-error">The e-mail address or password is incorrect.<\/p>/);
    assert.match(wrong.body, new RegExp(`value="${person.email}"`), 'the e-mail is kept');
    // Still the sign-in page: the picker is not reachable and nothing was finished.
    const again = await browser.get(`/interaction/${uid}`);
    assert.match(again.body, /<h1>Sign in<\/h1>/);
    const picked = await browser.post(`/interaction/${uid}/organization`, { organization_id: person.organizationIds[0] });
    assert.match(picked.body, /<h1>Sign in<\/h1>/, 'choosing an organization needs a signed-in e-mail');
    const [{ count }] = await env.api.runtime.dataSource.query(`SELECT count(*)::int AS count FROM oauth_payloads WHERE model IN ('Grant', 'Session') AND payload->>'accountId' = $1`, [String(person.users.get(person.organizationIds[0]))]);
    assert.equal(count, 0);
    assert.equal(catcher.received.length, 0);
  });

  test('missing fields answer 400 naming each field', async () => {
    const { browser, uid } = await begin();
    const empty = await browser.post(`/interaction/${uid}/login`, { email: '', password: '' });
    assert.equal(empty.status, 400);
    assert.match(empty.body, /<input id="email"[^>]*aria-describedby="email-error"/);
    assert.match(empty.body, /id="email-error">Enter your e-mail address.</);
    assert.match(empty.body, /id="password-error">Enter your password.</);
  });

  test(`after ${SIGN_IN_FAILURES_PER_EMAIL} failures for an e-mail the next attempt is refused with 429, even with the right password`, async () => {
    const person = await newPerson(env);
    const { browser, uid } = await begin();
    for (let i = 0; i < SIGN_IN_FAILURES_PER_EMAIL; i++) {
      assert.equal((await browser.post(`/interaction/${uid}/login`, { email: person.email.toUpperCase(), password: `wrong ${i}` })).status, 401);
    }
    const refused = await browser.post(`/interaction/${uid}/login`, { email: person.email, password: person.password });
    assert.equal(refused.status, 429);
    assert.match(refused.body, /<h1>Too many attempts<\/h1>/);
    assert.equal(refused.headers.get('retry-after'), String(Number(refused.headers.get('retry-after'))));
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    // Another person signing in from elsewhere is not affected by this e-mail's failures.
    const other = await newPerson(env);
    const second = await begin();
    const ok = await second.browser.post(`/interaction/${second.uid}/login`, { email: other.email, password: other.password });
    assert.equal(ok.status, 200);
    assert.match(ok.body, /<h1>Choose an organization<\/h1>/);
  });

  test(`after ${SIGN_IN_FAILURES_PER_IP} failures from one IP, whatever the e-mails, the next attempt is refused with 429`, async () => {
    const person = await newPerson(env);
    const { browser, uid } = await begin();
    // Every test of this file signs in from 127.0.0.1: start from no failures, leave none.
    const forgetIpFailures = () => env.api.runtime.dataSource.query(`DELETE FROM rate_limit_windows WHERE bucket LIKE 'signin:ip:%'`);
    await forgetIpFailures();
    try {
      for (let i = 0; i < SIGN_IN_FAILURES_PER_IP; i++) {
        assert.equal((await browser.post(`/interaction/${uid}/login`, { email: `guess-${i}@example.test`, password: 'guessed' })).status, 401);
      }
      const refused = await browser.post(`/interaction/${uid}/login`, { email: person.email, password: person.password });
      assert.equal(refused.status, 429);
      assert.match(refused.body, /Too many failed sign-ins. Try again in \d+ minutes?\./);
    } finally {
      await forgetIpFailures();
    }
  });

  test('names are escaped on the picker and consent pages', async () => {
    const person = await newPerson(env, [{ name: 'Org <script>alert(1)</script>', userName: '<script>x()</script> "Bob"' }]);
    const { browser, uid } = await begin();
    const picker = await browser.post(`/interaction/${uid}/login`, { email: person.email, password: person.password });
    assert.equal(picker.status, 200);
    assert.doesNotMatch(picker.body, /<script/i);
    assert.match(picker.body, /Org &lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(picker.body, /\(as &lt;script&gt;x\(\)&lt;\/script&gt; &quot;Bob&quot;\)/);
    const consent = await browser.post(`/interaction/${uid}/organization`, { organization_id: person.organizationIds[0] });
    assert.equal(consent.status, 200, consent.body);
    assert.doesNotMatch(consent.body, /<script/i);
    assert.match(consent.body, /act as <strong>&lt;script&gt;x\(\)&lt;\/script&gt; &quot;Bob&quot;<\/strong>/);
  });

  test('the picker lists every organization of the e-mail; consent lists the scopes with meta scopes expanded; approval returns code and state', async () => {
    const person = await newPerson(env, [{ name: 'Alpha team' }, { name: 'Beta team' }]);
    const [alpha, beta] = person.organizationIds;
    const { browser, uid, request, clientId } = await begin('openid profile ir.incidents:read oc.all');
    const picker = await browser.post(`/interaction/${uid}/login`, { email: person.email, password: person.password });
    assert.match(picker.body, /<fieldset>\s*<legend>Organization<\/legend>/);
    assert.match(picker.body, new RegExp(`<input type="radio" id="organization-0" name="organization_id" value="${alpha}" required checked>\\s*<label for="organization-0">Alpha team`));
    assert.match(picker.body, new RegExp(`value="${beta}"`));
    const unknown = await browser.post(`/interaction/${uid}/organization`, { organization_id: '00000000-0000-4000-8000-000000000000' });
    assert.equal(unknown.status, 400);
    assert.match(unknown.body, /id="organization_id-error">Choose one of the listed organizations./);

    const consent = await browser.post(`/interaction/${uid}/organization`, { organization_id: beta });
    assert.match(consent.body, /<h1>Allow access<\/h1>/);
    assert.match(consent.body, /in <strong>Beta team<\/strong>/);
    for (const scope of ['openid', 'profile', 'ir.incidents:read', 'oc.all']) {
      assert.match(consent.body, new RegExp(`<input type="checkbox" id="scope-\\d+" name="scope" value="${scope}" checked>`), scope);
    }
    assert.match(consent.body, /Read incident response: incidents/);
    assert.match(consent.body, /<ul class="includes" aria-label="oc.all includes">.*<li>Read and change on-call: schedules<\/li>/s);
    const [{ organization_id: fixed }] = await env.api.runtime.dataSource.query('SELECT organization_id::text FROM oauth_applications WHERE client_id = $1', [clientId]);
    assert.equal(fixed, beta, 'the first authorization fixes the client’s organization');

    // Finishing the login starts a new interaction for consent.
    const consentUid = interactionUid(consent.url);
    assert.notEqual(consentUid, uid);
    const none = await browser.post(`/interaction/${consentUid}/confirm`, {});
    assert.equal(none.status, 400);
    assert.match(none.body, /id="scope-error">Choose at least one permission/);

    const done = await browser.post(`/interaction/${consentUid}/confirm`, { scope: ['openid', 'ir.incidents:read'] });
    assert.equal(done.status, 303);
    const back = new URL(done.url);
    assert.equal(`${back.origin}${back.pathname}`, catcher.uri);
    assert.equal(back.searchParams.get('state'), request.state);
    const code = back.searchParams.get('code');
    assert.ok(code);
    const token = await exchangeCode(env.authUrl, { code, clientId, redirectUri: catcher.uri, verifier: request.verifier });
    const body = (await token.json()) as { scope: string; access_token: string };
    assert.equal(token.status, 200, JSON.stringify(body));
    // Unchecked scopes are not granted.
    expect(body.scope.split(' ').sort()).toEqual(['ir.incidents:read', 'openid']);
    const claims = JSON.parse(Buffer.from(body.access_token.split('.')[1], 'base64url').toString()) as { sub: string; org_id: string };
    assert.equal(claims.sub, String(person.users.get(beta)));
    assert.equal(claims.org_id, beta);
  });

  test('a client fixed to one organization is refused for another with a clear page', async () => {
    const person = await newPerson(env, [{ name: 'First' }, { name: 'Second' }]);
    const [first, second] = person.organizationIds;
    const { clientId } = await begin();
    await env.api.runtime.dataSource.query('UPDATE oauth_applications SET organization_id = $2 WHERE client_id = $1', [clientId, first]);
    const request = authorizationRequest(env.authUrl, clientId, catcher.uri, 'openid');
    const browser = new PageWalker(env.authUrl);
    const uid = interactionUid((await browser.get(request.url)).url);
    await browser.post(`/interaction/${uid}/login`, { email: person.email, password: person.password });
    const refused = await browser.post(`/interaction/${uid}/organization`, { organization_id: second });
    assert.equal(refused.status, 403);
    assert.match(refused.body, /<h1>Organization not allowed<\/h1>/);
    assert.match(refused.body, /already connected to another organization/);
    const [{ organization_id: still }] = await env.api.runtime.dataSource.query('SELECT organization_id::text FROM oauth_applications WHERE client_id = $1', [clientId]);
    assert.equal(still, first);
    const allowed = await browser.post(`/interaction/${uid}/organization`, { organization_id: first });
    assert.match(allowed.body, /<h1>Allow access<\/h1>/);
  });

  test('Cancel (abort) sends the browser back with error=access_denied and the state', async () => {
    const { browser, uid, request } = await begin();
    const aborted = await browser.post(`/interaction/${uid}/abort`, {});
    assert.equal(aborted.status, 303);
    const back = new URL(aborted.url);
    assert.equal(back.searchParams.get('error'), 'access_denied');
    assert.equal(back.searchParams.get('state'), request.state);
    assert.equal(back.searchParams.get('code'), null);
  });

  test('without the interaction cookie (another browser, a cross-site form) the pages refuse', async () => {
    const { uid } = await begin();
    const stranger = new PageWalker(env.authUrl);
    const page = await stranger.get(`/interaction/${uid}`);
    assert.equal(page.status, 400);
    assert.match(page.body, /<h1>Sign-in expired<\/h1>/);
    assert.equal((await stranger.post(`/interaction/${uid}/abort`, {})).status, 400);
  });
});
