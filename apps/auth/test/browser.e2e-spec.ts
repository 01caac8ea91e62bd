import { afterAll as after, beforeAll as before, describe, expect, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import {
  authorizationRequest,
  exchangeCode,
  newPerson,
  registerPublicClient,
  startAuthAndApi,
  startRedirectCatcher,
  type AuthAndApi,
} from './interaction-flow';

/**
 * A real browser (Debian's headless Chromium, tools/test/chromium.ts hands its path as
 * CHROMIUM_BIN) walks the authorization-code + PKCE flow through the pages by their labels and
 * roles, then the token it earned calls the API. Without Chromium the test fails: never skipped.
 */
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

describe('browser: sign-in, organization picker and consent in headless Chromium', () => {
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

  test('authorization code with PKCE through the pages, then GET /v1/users/me with the access token', async () => {
    const executablePath = process.env.CHROMIUM_BIN;
    assert.ok(executablePath, 'CHROMIUM_BIN is not set: Debian’s chromium package is missing (npm test installs it when it can; see its log)');
    const person = await newPerson(env, [{ name: 'Red team' }, { name: 'Blue team', userName: 'Blue Responder' }]);
    const blue = person.organizationIds[1];
    const clientId = await registerPublicClient(env.authUrl, catcher.uri, 'Browser test app');
    const request = authorizationRequest(env.authUrl, clientId, catcher.uri, 'openid profile email ir.incidents:read');

    const userDataDir = mkdtempSync(join(tmpdir(), 'taproot-chromium-'));
    const context = await chromium.launchPersistentContext(userDataDir, { executablePath, headless: true, args: CHROMIUM_FLAGS, timeout: 60_000 });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(request.url);

      const main = page.getByRole('main');
      await main.getByRole('heading', { name: 'Sign in' }).waitFor();
      await page.getByLabel('E-mail address').fill(person.email);
      await page.getByLabel('Password').fill('a wrong password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      // The error is announced as the password field's description.
      await page.getByText('The e-mail address or password is incorrect.').waitFor();
      assert.equal(await page.getByLabel('Password').getAttribute('aria-describedby'), 'password-error');

      await page.getByLabel('Password').fill(person.password);
      await page.getByRole('button', { name: 'Sign in' }).click();

      await main.getByRole('heading', { name: 'Choose an organization' }).waitFor();
      const organizations = page.getByRole('group', { name: 'Organization' });
      assert.equal(await organizations.getByRole('radio').count(), 2);
      await organizations.getByLabel(/Blue team/).check();
      await page.getByRole('button', { name: 'Continue' }).click();

      await main.getByRole('heading', { name: 'Allow access' }).waitFor();
      const permissions = page.getByRole('group', { name: 'Permissions' });
      const boxes = permissions.getByRole('checkbox');
      assert.equal(await boxes.count(), 4);
      for (let i = 0; i < 4; i++) assert.equal(await boxes.nth(i).isChecked(), true, 'all requested scopes checked by default');
      await permissions.getByLabel(/See your e-mail address/).uncheck();
      await Promise.all([page.waitForURL((url) => url.href.startsWith(catcher.uri)), page.getByRole('button', { name: 'Allow' }).click()]);

      const back = new URL(page.url());
      assert.equal(back.searchParams.get('state'), request.state);
      const code = back.searchParams.get('code');
      assert.ok(code, `no code in ${page.url()}`);
      // (The browser may also ask the catcher for a favicon.)
      assert.ok(catcher.received.some((query) => query.get('code') === code), 'the redirect URI received it');

      const tokenResponse = await exchangeCode(env.authUrl, { code, clientId, redirectUri: catcher.uri, verifier: request.verifier });
      const token = (await tokenResponse.json()) as Record<string, unknown>;
      assert.equal(tokenResponse.status, 200, JSON.stringify(token));
      assert.equal(token.token_type, 'Bearer');
      assert.ok(token.id_token, 'openid was granted');
      expect(String(token.scope).split(' ').sort()).toEqual(['ir.incidents:read', 'openid', 'profile']);

      const me = await env.api.request('GET', '/v1/users/me', { token: String(token.access_token) });
      assert.equal(me.status, 200, JSON.stringify(me.body));
      assert.equal(me.body.data.id, String(person.users.get(blue)));
      assert.equal(me.body.data.attributes.email, person.email);
    } finally {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    }
  });
});
