import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { openTestDataSource } from '@taproot/persistence';
import type { DataSource } from 'typeorm';
import { loadConfig } from '@taproot/config';
import { ALERT_CREATION_LIMIT_PER_MINUTE, AlertCreationLimit, alertCreationLimitProvider } from './alert-creation-limit';
import { RateLimiter, RateLimitExceededError } from './rate-limiter';

describe('AlertCreationLimit (50 alerts per minute per API key or alert source)', () => {
  let ds: DataSource;
  let now: number;
  let limit: AlertCreationLimit;
  before(async () => {
    ds = await openTestDataSource();
    now = Date.parse('2026-11-23T10:00:05.000Z');
    limit = new AlertCreationLimit(new RateLimiter(ds, { now: () => new Date(now) }));
  });
  after(() => ds.destroy());

  const refused = async (fn: () => Promise<unknown>) => {
    await assert.rejects(fn, (error: unknown) => {
      assert.ok(error instanceof RateLimitExceededError);
      assert.equal(error.status, 429);
      assert.equal(error.headers['Retry-After'], '55');
      assert.equal(error.headers['X-RateLimit-Limit'], '50, 50;window=60');
      return true;
    });
  };

  test('the 51st alert of a key within the minute is refused; another key and a source keep their own budget', async () => {
    assert.equal(ALERT_CREATION_LIMIT_PER_MINUTE, 50);
    const key = randomUUID();
    for (let i = 1; i <= 50; i++) assert.equal((await limit.consume({ apiKeyId: key })).remaining, 50 - i);
    await refused(() => limit.consume({ apiKeyId: key }));
    assert.equal((await limit.consume({ apiKeyId: randomUUID() })).used, 1);
    assert.equal((await limit.consume({ organizationId: randomUUID(), alertSourceId: key })).used, 1, 'a source id never shares a key’s bucket');
  });

  test('alert sources are counted per organization', async () => {
    const source = randomUUID();
    const [orgA, orgB] = [randomUUID(), randomUUID()];
    for (let i = 0; i < 50; i++) await limit.consume({ organizationId: orgA, alertSourceId: source });
    await refused(() => limit.consume({ organizationId: orgA, alertSourceId: source }));
    assert.equal((await limit.consume({ organizationId: orgB, alertSourceId: source })).allowed, true);
  });

  test('a full minute later the source may send again', async () => {
    const subject = { organizationId: randomUUID(), alertSourceId: randomUUID() };
    for (let i = 0; i < 50; i++) await limit.consume(subject);
    now += 120_000;
    assert.equal((await limit.consume(subject)).used, 1);
  });

  test('the deployment setting ALERT_CREATION_LIMIT_PER_MINUTE replaces the spec’s 50 (IdentityModule’s provider)', async () => {
    const limiter = new RateLimiter(ds, { now: () => new Date(now) });
    const raised = alertCreationLimitProvider.useFactory(limiter, loadConfig({ ALERT_CREATION_LIMIT_PER_MINUTE: '3' }));
    const key = randomUUID();
    for (let i = 0; i < 3; i++) await raised.consume({ apiKeyId: key });
    await assert.rejects(() => raised.consume({ apiKeyId: key }), (error: unknown) => error instanceof RateLimitExceededError && error.headers['X-RateLimit-Limit'] === '3, 3;window=60');
    const byDefault = alertCreationLimitProvider.useFactory(limiter, loadConfig({}));
    assert.equal((await byDefault.consume({ apiKeyId: randomUUID() })).limit, 50);
  });
});
