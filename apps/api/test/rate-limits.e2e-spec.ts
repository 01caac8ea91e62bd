import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { createScratchDatabase } from '@taproot/persistence';
import { startTestApi, type TestApi, type TestOrganization } from '../src/testing';

describe('rate limits and request ids over HTTP', () => {
  let a: TestApi;
  let b: TestApi;
  let org: TestOrganization;
  before(async () => {
    // Two api instances on one database, as two replicas would be.
    const databaseUrl = await createScratchDatabase();
    const env = { RATE_LIMIT_READS_PER_MINUTE: '6', RATE_LIMIT_WRITES_PER_MINUTE: '2' };
    a = await startTestApi({ databaseUrl, env });
    b = await startTestApi({ databaseUrl, env });
    // The copy carries the template database's windows, where other suites' anonymous calls from
    // this address count: the per-address test starts from an empty budget.
    await a.runtime.dataSource.query('DELETE FROM rate_limit_windows');
    org = await a.newOrganization();
  });
  after(async () => {
    await a.close();
    await b.close();
  });

  test('success and error responses carry the X-RateLimit-* headers', async () => {
    const ok = await a.request('GET', '/v1/services', { token: org.token });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('x-ratelimit-limit'), '6, 6;window=60');
    assert.equal(ok.headers.get('x-ratelimit-used'), '1');
    assert.equal(ok.headers.get('x-ratelimit-remaining'), '5');
    assert.match(ok.headers.get('x-ratelimit-reset') ?? '', /^\d{10}$/);
    const missing = await a.request('GET', '/v1/services/00000000-0000-4000-8000-000000000000', { token: org.token });
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get('x-ratelimit-used'), '2');
  });

  test('writes are counted apart from reads, across both instances, and the excess answers 429', async () => {
    const body = { data: { type: 'severities', attributes: { name: 'limited' } } };
    assert.equal((await a.request('POST', '/v1/severities', { token: org.token, body })).status, 201);
    assert.equal((await b.request('POST', '/v1/severities', { token: org.token, body: { data: { type: 'severities', attributes: { name: 'limited 2' } } } })).status, 201);
    const over = await a.request('POST', '/v1/severities', { token: org.token, body: { data: { type: 'severities', attributes: { name: 'limited 3' } } } });
    assert.equal(over.status, 429);
    assert.deepEqual(over.body, { error: 'Rate limit exceeded. Try again later.' });
    assert.match(over.headers.get('retry-after') ?? '', /^\d+$/);
    assert.equal(over.headers.get('x-ratelimit-remaining'), '0');
    const list = await b.request('GET', '/v1/severities?filter[name]=limited 3', { token: org.token });
    assert.equal(list.status, 200, 'reads have their own budget');
    assert.equal(list.body.data.length, 0, 'the refused write changed nothing');
  });

  test('refused tokens carry the headers too and are limited per client address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await a.request('GET', '/v1/services', { token: i % 2 ? `tpr_guess_${i}_0123456789abcdef` : undefined });
      statuses.push(res.status);
      if (res.status === 401) {
        assert.equal(res.headers.get('x-ratelimit-limit'), '6, 6;window=60');
        assert.equal(res.headers.get('x-ratelimit-used'), String(i + 1));
        assert.equal(res.body.errors[0].status, '401');
      }
    }
    assert.deepEqual(statuses, [401, 401, 401, 401, 401, 401, 429], 'the seventh guess of the minute is refused');
    assert.equal((await b.request('GET', '/v1/services', { token: org.token })).status, 200, 'a valid key keeps its own budget');
  });

  test('public routes carry the headers too, counted per client address; inbound alerts keep their own limit', async () => {
    // Its own database: the per-address budget above must start empty. The clock stands in the
    // middle of a minute: across a window's start the sliding count would weigh the first request
    // at less than one, and the second would still have one left (seen once in CI).
    const midMinute = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 30_000);
    const c = await startTestApi({ databaseUrl: await createScratchDatabase(), clock: { now: () => midMinute }, env: { RATE_LIMIT_READS_PER_MINUTE: '2' } });
    try {
      const first = await c.request('GET', '/v1/openapi.json');
      assert.equal(first.status, 200);
      assert.equal(first.headers.get('x-ratelimit-limit'), '2, 2;window=60');
      assert.equal(first.headers.get('x-ratelimit-used'), '1');
      assert.equal((await c.request('GET', '/v1/openapi.json')).headers.get('x-ratelimit-remaining'), '0');
      const over = await c.request('GET', '/v1/openapi.json');
      assert.equal(over.status, 429);
      assert.match(over.headers.get('retry-after') ?? '', /^\d+$/);
      const inbound = await c.request('POST', '/v1/alert_sources/00000000-0000-4000-8000-000000000000/alerts', { body: { summary: 'x' }, headers: { 'content-type': 'application/json' } });
      assert.equal(inbound.status, 401, 'an inbound alert is refused by its source check, not by the address budget');
      assert.equal(inbound.headers.get('x-ratelimit-limit'), null);
    } finally {
      await c.close();
    }
  });

  test('X-Request-Id is echoed, or generated when absent', async () => {
    const given = await a.request('GET', '/healthz', { headers: { 'x-request-id': 'trace-123' } });
    assert.equal(given.headers.get('x-request-id'), 'trace-123');
    const generated = await a.request('GET', '/healthz');
    assert.match(generated.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  });
});
