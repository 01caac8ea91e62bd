import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startTestApi, type TestApi, type TestOrganization } from '../src/testing';

describe('users over HTTP', () => {
  let api: TestApi;
  let org: TestOrganization;
  let other: TestOrganization;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
    other = await api.newOrganization();
  });
  after(() => api?.close());
  const send = (method: string, path: string, body?: unknown, token = org.token) => api.request(method, path, { token, body });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const sql = (query: string, params: unknown[] = []): Promise<any> => api.runtime.dataSource.query(query, params);
  const keyOf = (o: TestOrganization, userId: number | null) => api.issueApiKey(o.organizationId, { userId });
  async function newUser(o: TestOrganization, email: string): Promise<number> {
    const [{ id }] = await sql(`INSERT INTO users (organization_id, email, name, role) VALUES ($1, $2, 'Someone', 'user') RETURNING id`, [o.organizationId, email]);
    return id;
  }

  test('me, list, get, update, delete; tenancy', async () => {
    const me = await send('GET', '/v1/users/me');
    assert.equal(me.status, 200, JSON.stringify(me.body));
    assert.equal(me.body.data.type, 'users');
    assert.match(me.body.data.id, /^[0-9]+$/);
    for (const k of ['email', 'first_name', 'last_name', 'full_name', 'full_name_with_team', 'time_zone', 'created_at', 'updated_at']) assert.ok(k in me.body.data.attributes, k);
    assert.equal(me.body.data.attributes.full_name_with_team, null);

    const id = await newUser(org, `ada-${randomUUID()}@example.com`);
    const list = await send('GET', '/v1/users');
    assert.equal(list.status, 200);
    assert.ok(list.body.data.some((u: { id: string }) => u.id === String(id)));

    const updated = await send('PUT', `/v1/users/${id}`, { data: { type: 'users', attributes: { first_name: 'Ada', last_name: 'Lovelace' } } });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.equal(updated.body.data.attributes.full_name, 'Ada Lovelace');
    assert.equal((await send('GET', `/v1/users/${id}`)).body.data.attributes.first_name, 'Ada');

    const badRole = await send('PUT', `/v1/users/${id}`, { data: { type: 'users', attributes: { role_id: randomUUID() } } });
    assert.equal(badRole.status, 422);
    assert.equal(badRole.body.errors[0].source.pointer, '/data/attributes/role_id');

    // Another organization's user is a 404, for every verb.
    const foreign = await newUser(other, `x-${randomUUID()}@example.com`);
    assert.equal((await send('GET', `/v1/users/${foreign}`)).status, 404);
    assert.equal((await send('PUT', `/v1/users/${foreign}`, { data: { type: 'users', attributes: { first_name: 'X' } } })).status, 404);
    assert.equal((await send('DELETE', `/v1/users/${foreign}`)).status, 404);
    assert.equal((await send('GET', '/v1/users/not-a-number')).status, 404);

    const deleted = await send('DELETE', `/v1/users/${id}`);
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    assert.equal((await send('GET', `/v1/users/${id}`)).status, 404);
  });

  test('a key without a user has no current user: 404 with an errors list', async () => {
    const token = await keyOf(org, null);
    const res = await send('GET', '/v1/users/me', undefined, token);
    assert.equal(res.status, 404);
    assert.equal(res.body.errors[0].code, 'NO_CURRENT_USER');
    assert.match(res.body.errors[0].detail, /does not belong to a user/);
  });
});
