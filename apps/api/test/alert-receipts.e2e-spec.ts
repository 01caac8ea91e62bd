import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestApi, type TestApi, type TestOrganization } from '../src/testing';
import { newAlertSource, postInbound, signedBy, type InboundSource } from './support/alert-sources';

// Jest runs from the workspace root (jest.config.mjs).
const FIXTURES = join(process.cwd(), 'libs/alerting/src/ingestion/fixtures');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

describe('receipts: GET /v1/alerts/receipts/{id}', () => {
  let api: TestApi;
  let org: TestOrganization;
  let other: TestOrganization;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
    other = await api.newOrganization();
  });
  after(() => api?.close());

  const newSource = (attributes: Record<string, unknown>) => newAlertSource(api, org.token, attributes);
  const receipt = (id: string, token = org.token) => api.request('GET', `/v1/alerts/receipts/${id}`, { token });
  const alertmanager = async (source: InboundSource, name: string) => {
    const res = await postInbound(api, `${source.path}?secret=${source.secret}`, fixture(name));
    assert.equal(res.status, 202, JSON.stringify(res.body));
    return res.body;
  };

  test('one receipt per item, in order: created done, deduplicated failed, resolved done, nothing to resolve failed; each readable as plain JSON', async () => {
    const source = await newSource({ source_type: 'alertmanager' });
    const firing = await alertmanager(source, 'alertmanager-firing.json');
    assert.equal(firing.meta.receipts.length, 2);
    for (const [i, r] of firing.meta.receipts.entries()) assert.deepEqual(r, { id: r.id, state: 'done', resource_type: 'Alert', resource_id: firing.data[i].id });

    const read = await receipt(firing.meta.receipts[0].id);
    assert.equal(read.status, 200, JSON.stringify(read.body));
    assert.match(read.headers.get('content-type') ?? '', /^application\/json/);
    assert.deepEqual(read.body, { state: 'done', resource_type: 'Alert', resource_id: firing.data[0].id }, 'the reference receipt, not a JSON:API document');

    const again = await alertmanager(source, 'alertmanager-firing.json');
    assert.deepEqual((await receipt(again.meta.receipts[1].id)).body, { state: 'failed', reason: 'deduplicated', resource_type: 'Alert', resource_id: firing.data[1].id });

    const resolved = await alertmanager(source, 'alertmanager-resolved.json');
    const resolvedAlert = resolved.data[0];
    assert.equal(resolvedAlert.attributes.status, 'resolved');
    const states = await Promise.all(resolved.meta.receipts.map(async (r: { id: string }) => (await receipt(r.id)).body));
    assert.ok(states.some((s) => s.state === 'done' && s.resource_id === resolvedAlert.id), JSON.stringify(states));
    // The same resolution again: the alert is resolved already, nothing is left to resolve.
    const twice = await alertmanager(source, 'alertmanager-resolved.json');
    const resolvingReceipt = twice.meta.receipts[states.findIndex((s) => s.resource_id === resolvedAlert.id)];
    assert.deepEqual((await receipt(resolvingReceipt.id)).body, { state: 'failed', reason: 'no_route_matched' });
  });

  test("another organization's receipt, a missing one and a malformed id answer 404 alike; a token is required", async () => {
    const source = await newSource({ source_type: 'generic_webhook' });
    const raw = JSON.stringify({ title: 'receipt tenancy' });
    const posted = await postInbound(api, source.path, raw, signedBy(source.secret, raw));
    assert.equal(posted.status, 202, JSON.stringify(posted.body));
    const [{ id }] = posted.body.meta.receipts;
    assert.equal((await receipt(id)).status, 200);
    const foreign = await receipt(id, other.token);
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.errors[0].code, 'NOT_FOUND');
    assert.equal((await receipt(randomUUID())).status, 404);
    assert.equal((await receipt('not-a-uuid')).status, 404);
    assert.equal((await api.request('GET', `/v1/alerts/receipts/${id}`)).status, 401);
  });

  test('the webhook answer keeps its data and adds meta.receipts; a refused payload (422) stores no receipt', async () => {
    const source = await newSource({ source_type: 'generic_webhook' });
    const raw = JSON.stringify([{ title: 'receipt one' }, { title: 'receipt two' }]);
    const res = await postInbound(api, source.path, raw, signedBy(source.secret, raw));
    assert.equal(res.status, 202);
    assert.deepEqual(res.body.data.map((a: { attributes: { summary: string } }) => a.attributes.summary), ['receipt one', 'receipt two']);
    assert.deepEqual(res.body.meta.receipts.map((r: { resource_id: string }) => r.resource_id), res.body.data.map((a: { id: string }) => a.id));
    const count = async () => Number((await api.runtime.dataSource.query('SELECT count(*) FROM alert_receipts WHERE alert_source_id = $1', [source.id]))[0].count);
    assert.equal(await count(), 2);
    const bad = JSON.stringify([{ title: 'fine' }, 'not an object']);
    const refused = await postInbound(api, source.path, bad, signedBy(source.secret, bad));
    assert.equal(refused.status, 422);
    assert.equal(await count(), 2);
  });
});
