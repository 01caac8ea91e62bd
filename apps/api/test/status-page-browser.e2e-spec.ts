import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import axe from 'axe-core';
import { chromium, type Browser, type Page } from 'playwright-core';
import { useApiWorld } from './support/api-world';
import { newStatusPage } from './support/status-pages';

/**
 * The public status page in a real browser (Debian's headless Chromium; tools/test/run.ts hands
 * its path as CHROMIUM_BIN to every file ending in browser.e2e-spec.ts): an update published
 * through the API shows on the page with the components' statuses, a screenshot is kept, and
 * axe-core finds no accessibility violation. Without Chromium the test fails: never skipped.
 */
const SCREENSHOT = join(tmpdir(), 'taproot-test-output', 'status-page-browser.png');

/** The rules the issue names (landmarks, headings, contrast): each must have been checked and passed. */
const CHECKED_RULES = ['landmark-one-main', 'landmark-no-duplicate-banner', 'landmark-no-duplicate-contentinfo', 'region', 'page-has-heading-one', 'heading-order', 'empty-heading', 'color-contrast', 'html-has-lang', 'document-title'];

interface AxeSummary {
  violations: string[];
  incomplete: string[];
  passes: string[];
}

/**
 * Every axe-core rule (WCAG A/AA and best practices) over the loaded page. axe is evaluated
 * through the DevTools protocol, which the page's CSP (no scripts) does not govern.
 */
async function audit(page: Page): Promise<AxeSummary> {
  await page.evaluate(axe.source);
  return page.evaluate(async () => {
    const results = await (globalThis as unknown as { axe: typeof axe }).axe.run();
    const line = (r: (typeof results.violations)[number]) => `${r.id} (${r.help}): ${r.nodes.map((n) => `${n.target.join(' ')} ${n.failureSummary ?? ''}`).join('; ')}`;
    return { violations: results.violations.map(line), incomplete: results.incomplete.map(line), passes: results.passes.map((r) => r.id) };
  });
}

function assertAccessible(summary: AxeSummary, rules: string[]): void {
  assert.deepEqual(summary.violations, [], 'no axe violations');
  // Contrast axe could not decide (text over an image, say) would be unchecked text.
  assert.deepEqual(summary.incomplete.filter((r) => r.startsWith('color-contrast')), [], 'every text’s contrast was measured');
  for (const rule of rules) assert.ok(summary.passes.includes(rule), `axe checked ${rule}`);
}

describe('browser: the public status page in headless Chromium, checked with axe-core', () => {
  const w = useApiWorld();
  let browser: Browser;
  before(async () => {
    const executablePath = process.env.CHROMIUM_BIN;
    assert.ok(executablePath, 'CHROMIUM_BIN is not set: Debian’s chromium package is missing (npm test installs it when it can; see its log)');
    // Tests run as root in CI, where Chromium's sandbox cannot start.
    browser = await chromium.launch({ executablePath, chromiumSandbox: false, timeout: 60_000 });
  });
  after(async () => {
    await browser?.close();
  });

  const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

  test('an update published through the API shows on the page beside the component’s status; screenshot; no axe violations', async () => {
    // A light header (dark text) and the default dark footer (light text): both contrast branches.
    const statusPage = await newStatusPage(w, { public: true, public_title: 'Acme Cloud', public_description: 'How Acme is doing', header_color: '#FFD700', website_url: 'https://acme.example/' });
    const pageId: string = statusPage.id;
    const group = await w.create(`/v1/status-pages/${pageId}/component-groups`, 'status_page_component_groups', { name: 'Payments' });
    await w.create(`/v1/status-pages/${pageId}/components`, 'status_page_components', { name: 'Website', description: 'acme.example' });
    await w.create(`/v1/status-pages/${pageId}/components`, 'status_page_components', { name: 'Checkout', status: 'major_outage', status_page_component_group_id: group.id });
    await w.create(`/v1/status-pages/${pageId}/announcements`, 'status_page_announcements', { title: 'New region', body: 'Frankfurt is open.' });
    const maintenance = await w.create('/v1/incidents', 'incidents', { kind: 'scheduled', title: 'Database upgrade', scheduled_for: inHours(1), scheduled_until: inHours(2) });
    await w.create(`/v1/incidents/${maintenance.id}/status-page-events`, 'incident_status_page_events', { status_page_id: pageId, event: 'Upgrading the primary', status: 'scheduled' });
    const incident = await w.create('/v1/incidents', 'incidents', { title: 'Internal: PSP timeouts', public_title: 'Checkout errors' });
    const update = (event: string, status: string) => w.create(`/v1/incidents/${incident.id}/status-page-events`, 'incident_status_page_events', { status_page_id: pageId, event, status });
    await update('We are looking into failed payments', 'investigating');

    const page = await browser.newPage();
    try {
      const loaded = await page.goto(`${w.api.url}/status/${statusPage.attributes.slug}`);
      assert.equal(loaded?.status(), 200);
      await page.getByRole('banner').getByRole('heading', { level: 1, name: 'Acme Cloud' }).waitFor();
      const main = page.getByRole('main');
      const story = main.getByRole('region', { name: 'Active incidents' }).getByRole('article').filter({ has: page.getByRole('heading', { level: 3, name: 'Checkout errors' }) });
      await story.getByText('We are looking into failed payments').waitFor();

      // A reader reloads after the next update: the browser revalidates its cached copy (ETag) and gets the new page.
      await update('A payment provider times out; we are failing over', 'identified');
      const etag = await loaded?.headerValue('etag');
      assert.ok(etag);
      const reloaded = await page.reload();
      assert.equal((await reloaded?.request().allHeaders())?.['if-none-match'], etag);
      assert.equal(reloaded?.status(), 200);
      await story.getByText('A payment provider times out; we are failing over').waitFor();
      assert.equal(await story.getByText('Status: Identified', { exact: true }).count(), 1, 'the incident’s status is its newest update’s');
      const updates = story.getByRole('listitem');
      assert.equal(await updates.count(), 2);
      assert.match((await updates.first().textContent()) ?? '', /^Identified · .*A payment provider times out/, 'newest first');

      const currentStatus = main.getByRole('region', { name: 'Current status' });
      assert.equal(await currentStatus.getByText('Some systems are having problems').isVisible(), true);
      const checkout = currentStatus.getByRole('group').filter({ hasText: 'Payments' }).getByRole('listitem').filter({ hasText: 'Checkout' });
      assert.equal(await checkout.locator('.state').textContent(), 'Major Outage');
      assert.equal(await checkout.isVisible(), true, 'the group is open');
      assert.equal(await currentStatus.getByRole('listitem').filter({ hasText: 'Website' }).locator('.state').textContent(), 'Operational');
      assert.equal(await page.getByText('Internal: PSP timeouts').count(), 0, 'only the public title');

      mkdirSync(join(SCREENSHOT, '..'), { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
      assert.equal(readFileSync(SCREENSHOT).subarray(1, 4).toString(), 'PNG');
      process.stderr.write(`[status-page-browser] screenshot: ${SCREENSHOT}\n`);

      assertAccessible(await audit(page), CHECKED_RULES);
    } finally {
      await page.close();
    }
  });

  test('the refusal a private page answers is accessible too', async () => {
    const hidden = await newStatusPage(w, { public: false });
    const page = await browser.newPage();
    try {
      assert.equal((await page.goto(`${w.api.url}/status/${hidden.attributes.slug}`))?.status(), 401);
      await page.getByRole('main').getByText('This status page is private').waitFor();
      assertAccessible(await audit(page), ['landmark-one-main', 'region', 'page-has-heading-one', 'color-contrast', 'html-has-lang', 'document-title']);
    } finally {
      await page.close();
    }
  });

  test('a password page’s form is accessible, wrong or right, and the browser may post it (its CSP allows the page’s own address)', async () => {
    const protectedPage = await newStatusPage(w, { public: true, public_title: 'Acme Internal', authentication_method: 'password', authentication_password: 'correct horse battery' });
    const page = await browser.newPage();
    const formRules = ['landmark-one-main', 'region', 'page-has-heading-one', 'color-contrast', 'html-has-lang', 'document-title', 'label', 'button-name'];
    try {
      assert.equal((await page.goto(`${w.api.url}/status/${protectedPage.attributes.slug}`))?.status(), 401);
      assertAccessible(await audit(page), formRules);
      await page.getByLabel('Password').fill('not it');
      await Promise.all([page.waitForURL(/\/status\//), page.getByRole('button', { name: 'Show the page' }).click()]);
      await page.getByText('That password is not right.').waitFor();
      // The error is tied to the field (aria-describedby, aria-invalid).
      assertAccessible(await audit(page), [...formRules, 'aria-valid-attr-value']);
      await page.getByLabel('Password').fill('correct horse battery');
      await page.getByRole('button', { name: 'Show the page' }).click();
      await page.getByRole('heading', { level: 1, name: 'Acme Internal' }).waitFor();
    } finally {
      await page.close();
    }
  });
});
