import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startTestApi, type TestApi, type TestOrganization, type TestResponse } from '../src/testing';

type Attributes = Record<string, unknown>;
const service = (attributes: Attributes) => ({ data: { type: 'services', attributes } });
const unique = (name: string) => `${name} ${randomUUID().slice(0, 8)}`;

describe('Idempotency-Key on POST', () => {
  let api: TestApi;
  let org: TestOrganization;
  let other: TestOrganization;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
    other = await api.newOrganization();
  });
  after(() => api?.close());

  const post = (path: string, body: unknown, key?: string, token = org.token): Promise<TestResponse> =>
    api.request('POST', path, { token, body, headers: key === undefined ? {} : { 'idempotency-key': key } });
  const services = async (organizationId: string, name: string): Promise<number> =>
    Number((await api.runtime.dataSource.query('SELECT count(*) AS n FROM services WHERE organization_id = $1 AND name = $2', [organizationId, name]))[0].n);
  const records = async (organizationId: string, key: string) =>
    api.runtime.dataSource.query('SELECT response_status, response_body, resource_type, resource_id FROM idempotency_keys WHERE organization_id = $1 AND key = $2', [organizationId, key]);
  /** Runs `send` while the database refuses the rows `when` matches (a trigger raising on `event`). */
  const whileRefused = async <T>(event: string, when: string, send: () => Promise<T>): Promise<T> => {
    await api.runtime.dataSource.query(`CREATE FUNCTION idempotency_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$`);
    await api.runtime.dataSource.query(`CREATE TRIGGER idempotency_test_refuse BEFORE ${event} FOR EACH ROW WHEN (${when}) EXECUTE FUNCTION idempotency_test_refuse()`);
    try {
      return await send();
    } finally {
      await api.runtime.dataSource.query(`DROP TRIGGER idempotency_test_refuse ON ${event.split(' ON ')[1]}; DROP FUNCTION idempotency_test_refuse()`);
    }
  };
  const keyError = (res: TestResponse) => res.body.errors[0] as { title: string; code: string; detail: string; source: { header: string }; meta?: Attributes };

  test('a retry with the same key and body gets the first answer again, and one record is created', async () => {
    const key = randomUUID();
    const name = unique('Checkout');
    const first = await post('/v1/services', service({ name, public_description: 'Payments' }), key);
    assert.equal(first.status, 201, JSON.stringify(first.body));
    assert.equal(first.headers.get('idempotent-replayed'), null);
    // The same document with its members in another order is the same request.
    const retry = await post('/v1/services', { data: { attributes: { public_description: 'Payments', name }, type: 'services' } }, key);
    assert.equal(retry.status, 201);
    assert.deepEqual(retry.body, first.body);
    assert.equal(retry.headers.get('idempotent-replayed'), 'true');
    assert.equal(retry.headers.get('content-type'), first.headers.get('content-type'));
    assert.equal(await services(org.organizationId, name), 1);
  });

  test('the same key with another body or on another path is a 422 naming the header', async () => {
    const key = randomUUID();
    const name = unique('Search');
    assert.equal((await post('/v1/services', service({ name }), key)).status, 201);
    const changed = await post('/v1/services', service({ name: unique('Other') }), key);
    assert.equal(changed.status, 422);
    assert.match(keyError(changed).title, /different body/);
    assert.match(keyError(changed).detail, /Idempotency-Key/);
    assert.deepEqual(keyError(changed).source, { header: 'Idempotency-Key' });
    const elsewhere = await post('/v1/severities', { data: { type: 'severities', attributes: { name } } }, key);
    assert.equal(elsewhere.status, 422);
    assert.match(keyError(elsewhere).title, /another request/);
    assert.match(keyError(elsewhere).detail, /POST \/v1\/services/);
  });

  test('a key belongs to its organization and principal: others using it get their own results', async () => {
    const key = randomUUID();
    const name = unique('Shared');
    const mine = await post('/v1/services', service({ name }), key);
    const theirs = await post('/v1/services', service({ name }), key, other.token);
    assert.equal(theirs.status, 201, JSON.stringify(theirs.body));
    assert.equal(theirs.headers.get('idempotent-replayed'), null);
    assert.notEqual(theirs.body.data.id, mine.body.data.id);
    assert.equal(await services(other.organizationId, name), 1);
    // Another key of the same organization is another principal.
    const secondKey = await api.issueApiKey(org.organizationId);
    const colleague = await post('/v1/services', service({ name: unique('Colleague') }), key, secondKey);
    assert.equal(colleague.status, 201, JSON.stringify(colleague.body));
    assert.equal(colleague.headers.get('idempotent-replayed'), null);
  });

  test('a key that is empty, too long or not printable ASCII is a 400 naming the header; nothing is created', async () => {
    for (const key of ['', 'k'.repeat(256), 'caf\u00e9', 'tab\there']) {
      const name = unique('Invalid');
      const res = await post('/v1/services', service({ name }), key);
      assert.equal(res.status, 400, `${JSON.stringify(key)}: ${JSON.stringify(res.body)}`);
      assert.equal(keyError(res).code, 'INVALID_IDEMPOTENCY_KEY');
      assert.deepEqual(keyError(res).source, { header: 'Idempotency-Key' });
      assert.equal(await services(org.organizationId, name), 0);
    }
    assert.equal((await post('/v1/services', service({ name: unique('Longest') }), 'k'.repeat(255))).status, 201);
  });

  test('without the header nothing is recorded', async () => {
    const before = Number((await api.runtime.dataSource.query('SELECT count(*) AS n FROM idempotency_keys WHERE organization_id = $1', [org.organizationId]))[0].n);
    assert.equal((await post('/v1/services', service({ name: unique('Plain') }))).status, 201);
    const after = Number((await api.runtime.dataSource.query('SELECT count(*) AS n FROM idempotency_keys WHERE organization_id = $1', [org.organizationId]))[0].n);
    assert.equal(after, before);
  });

  test('a refusal (4xx) is replayed; a server failure (5xx) is not, so the retry runs again', async () => {
    const invalidKey = randomUUID();
    const invalid = await post('/v1/services', service({ name: '' }), invalidKey);
    assert.equal(invalid.status, 422);
    const again = await post('/v1/services', service({ name: '' }), invalidKey);
    assert.equal(again.status, 422);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(again.body, invalid.body);

    // The database refuses this one name once: the create answers 500.
    const name = unique('Explodes');
    const key = randomUUID();
    const failed = await whileRefused('INSERT ON services', `NEW.name = '${name}'`, () => post('/v1/services', service({ name }), key));
    assert.equal(failed.status, 500);
    assert.deepEqual(await records(org.organizationId, key), []);
    const retry = await post('/v1/services', service({ name }), key);
    assert.equal(retry.status, 201, JSON.stringify(retry.body));
    assert.equal(retry.headers.get('idempotent-replayed'), null);
    assert.equal(await services(org.organizationId, name), 1);
  });

  test('an action (acknowledge an alert) is replayed, not applied twice', async () => {
    const created = await post('/v1/alerts', { data: { type: 'alerts', attributes: { summary: unique('Disk full') } } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.data.id as string;
    assert.equal((await post(`/v1/alerts/${id}/escalate`, undefined)).status, 200);
    const events = async () => Number((await api.runtime.dataSource.query(`SELECT count(*) AS n FROM outbox WHERE aggregate_id = $1 AND event->>'type' = 'alert.acknowledged'`, [id]))[0].n);
    const key = randomUUID();
    const first = await post(`/v1/alerts/${id}/acknowledge`, undefined, key);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const retry = await post(`/v1/alerts/${id}/acknowledge`, undefined, key);
    assert.equal(retry.status, 200, 'not the 400 a second acknowledge gets');
    assert.equal(retry.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(retry.body, first.body);
    assert.equal(await events(), 1);
  });

  test('committed but the answer lost: the retry creates nothing and says what was created', async () => {
    // The answer cannot be stored (as when the process stops between the commit and the answer).
    const key = randomUUID();
    const name = unique('Lost');
    const first = await whileRefused('UPDATE ON idempotency_keys', `NEW.organization_id = '${other.organizationId}'`, () =>
      post('/v1/services', service({ name }), key, other.token),
    );
    assert.equal(first.status, 201, 'the client of the first request still has its answer');
    const [record] = await records(other.organizationId, key);
    assert.deepEqual(record, { response_status: null, response_body: null, resource_type: 'services', resource_id: first.body.data.id });

    const retry = await post('/v1/services', service({ name }), key, other.token);
    assert.equal(retry.status, 409);
    assert.equal(keyError(retry).code, 'IDEMPOTENCY_KEY_ANSWER_LOST');
    assert.deepEqual(keyError(retry).meta, { resource: { type: 'services', id: first.body.data.id } });
    assert.equal(await services(other.organizationId, name), 1);
  });

  test('concurrent requests with one key create once; the others hear 409 or the replay', async () => {
    const key = randomUUID();
    const name = unique('Racing');
    const answers = await Promise.all(Array.from({ length: 5 }, () => post('/v1/services', service({ name }), key)));
    assert.equal(await services(org.organizationId, name), 1);
    const created = answers.filter((a) => a.status === 201 && a.headers.get('idempotent-replayed') === null);
    assert.equal(created.length, 1, JSON.stringify(answers.map((a) => [a.status, a.body])));
    for (const answer of answers.filter((a) => !created.includes(a))) {
      if (answer.status === 201) assert.deepEqual(answer.body, created[0].body);
      else assert.equal(answer.status, 409, JSON.stringify(answer.body));
    }
  });

  test('an answer that shows a secret (a new API key) is never stored; the retry learns which key was created', async () => {
    const key = randomUUID();
    const body = { data: { type: 'api_keys', attributes: { name: unique('Deploy'), kind: 'organization', expires_at: new Date(Date.now() + 86_400_000).toISOString() } } };
    const first = await post('/v1/api_keys', body, key);
    assert.equal(first.status, 201, JSON.stringify(first.body));
    const [record] = await records(org.organizationId, key);
    assert.equal(record.response_body, null);
    const retry = await post('/v1/api_keys', body, key);
    assert.equal(retry.status, 409);
    assert.deepEqual(keyError(retry).meta, { resource: { type: 'api_keys', id: first.body.data.id } });
  });

  test('after 24 hours a key is free again, and expired records are deleted', async () => {
    const key = randomUUID();
    const stale = randomUUID();
    assert.equal((await post('/v1/services', service({ name: unique('Old') }), key)).status, 201);
    assert.equal((await post('/v1/services', service({ name: unique('Older') }), stale)).status, 201);
    await api.runtime.dataSource.query(`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE organization_id = $1 AND key IN ($2, $3)`, [
      org.organizationId,
      key,
      stale,
    ]);
    const name = unique('New');
    const reused = await post('/v1/services', service({ name }), key);
    assert.equal(reused.status, 201, JSON.stringify(reused.body));
    assert.equal(reused.headers.get('idempotent-replayed'), null);
    assert.equal(await services(org.organizationId, name), 1);
    assert.deepEqual(await records(org.organizationId, stale), []);
  });
});
