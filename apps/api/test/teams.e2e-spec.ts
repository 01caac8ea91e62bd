import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { generateApiKeyToken, hashToken, tokenPrefix } from '@taproot/auth';
import { startTestApi, type TestApi, type TestOrganization } from '../src/testing';

const team = (attributes: Record<string, unknown>) => ({ data: { type: 'groups', attributes } });

describe('teams over HTTP', () => {
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
  const newUser = async (o: TestOrganization): Promise<number> =>
    (await sql(`INSERT INTO users (organization_id, email, role) VALUES ($1, $2, 'user') RETURNING id`, [o.organizationId, `${randomUUID()}@example.com`]))[0].id;

  test('a submitted slug is ignored and create, update and bulk_upsert warn with Deprecation and X-API-Warn', async () => {
    const warned = (res: { headers: Headers }) => res.headers.get('deprecation') === 'true' && /slug/.test(res.headers.get('x-api-warn') ?? '');
    const created = await send('POST', '/v1/teams', team({ name: 'Slugged Team', slug: 'mine' }));
    assert.equal(created.status, 201);
    assert.equal(created.body.data.attributes.slug, 'slugged-team');
    assert.ok(warned(created));
    const updated = await send('PUT', `/v1/teams/${created.body.data.id}`, team({ slug: 'other' }));
    assert.equal(updated.status, 200);
    assert.equal(updated.body.data.attributes.slug, 'slugged-team');
    assert.ok(warned(updated));
    // Its own organization: the bulk tests below count this one's external ids.
    const own = await api.newOrganization();
    const bulk = await send('POST', '/v1/teams/bulk_upsert', { entities: [{ external_id: 'slugged-1', name: 'Bulk Slugged', slug: 'x' }] }, own.token);
    assert.equal(bulk.status, 200, JSON.stringify(bulk.body));
    assert.ok(warned(bulk));
    assert.equal((await send('POST', '/v1/teams', team({ name: 'Plain Team' }))).headers.get('deprecation'), null, 'no slug, no warning');
  });

  test('CRUD with the reference attributes, membership, read-your-writes, tenancy', async () => {
    const [a, b] = [await newUser(org), await newUser(org)];
    const created = await send('POST', '/v1/teams', team({ name: 'Platform Team', public_description: 'We keep it up', external_id: 'ext-1', user_ids: [a], admin_ids: [b] }));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.data.type, 'groups');
    const attrs = created.body.data.attributes;
    assert.equal(attrs.slug, 'platform-team');
    assert.equal(attrs.managed_by, 'api');
    assert.equal(attrs.public_description, 'We keep it up');
    assert.deepEqual(attrs.user_ids, [a, b], 'admins are members too');
    assert.deepEqual(attrs.admin_ids, [b]);
    const id = created.body.data.id;

    const read = await send('GET', `/v1/teams/${id}`);
    assert.equal(read.status, 200);
    assert.deepEqual(read.body.data.attributes.user_ids, [a, b]);
    assert.equal((await send('GET', '/v1/teams/platform-team')).body.data.id, id);

    const unknown = await send('PUT', `/v1/teams/${id}`, team({ user_ids: [a, 999999] }));
    assert.equal(unknown.status, 422, JSON.stringify(unknown.body));
    assert.equal(unknown.body.errors[0].source.pointer, '/data/attributes/user_ids/1');
    assert.match(unknown.body.errors[0].detail, /999999/);
    const foreignUser = await newUser(other);
    assert.equal((await send('POST', '/v1/teams', team({ name: 'X', user_ids: [foreignUser] }))).status, 422);

    const updated = await send('PUT', `/v1/teams/${id}`, team({ name: 'Platform', user_ids: [a], admin_ids: [] }));
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.deepEqual((await send('GET', `/v1/teams/${id}`)).body.data.attributes.user_ids, [a]);
    const list = await send('GET', '/v1/teams?filter[external_id]=ext-1');
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.data.map((d: { id: string }) => d.id), [id]);

    // Another organization sees nothing.
    for (const [m, body] of [['GET'], ['PUT', team({ name: 'Y' })], ['DELETE']] as const) {
      assert.equal((await send(m, `/v1/teams/${id}`, body, other.token)).status, 404);
    }

    assert.equal((await send('DELETE', `/v1/teams/${id}`)).status, 200);
    assert.equal((await send('GET', `/v1/teams/${id}`)).status, 404);
  });

  test('membership needs update on members: a role that edits teams only gets 403', async () => {
    const role = await send('POST', '/v1/roles', { data: { type: 'roles', attributes: { name: `Teams ${randomUUID().slice(0, 6)}`, groups_permissions: ['create', 'read', 'update', 'delete'] } } });
    assert.equal(role.status, 201, JSON.stringify(role.body));
    const token = generateApiKeyToken();
    await sql(`INSERT INTO api_keys (id, organization_id, name, kind, token_prefix, token_hash, role_id) VALUES ($1, $2, $3, 'global', $4, $5, $6)`, [
      randomUUID(), org.organizationId, `Key ${randomUUID()}`, tokenPrefix(token), hashToken(token), role.body.data.id,
    ]);
    const plain = await send('POST', '/v1/teams', team({ name: 'Editors only' }), token);
    assert.equal(plain.status, 201, JSON.stringify(plain.body));
    const u = await newUser(org);
    const withMembers = await send('POST', '/v1/teams', team({ name: 'With members', user_ids: [u] }), token);
    assert.equal(withMembers.status, 403);
    assert.equal(withMembers.body.errors[0].code, 'PERMISSION_DENIED');
    assert.equal((await send('PUT', `/v1/teams/${plain.body.data.id}`, team({ admin_ids: [u] }), token)).status, 403);
    assert.equal((await send('PUT', `/v1/teams/${plain.body.data.id}`, team({ color: '#fff' }), token)).status, 200);
  });

  test('bulk upsert by external_id (one transaction) and bulk delete', async () => {
    const u = await newUser(org);
    const first = await send('POST', '/v1/teams/bulk_upsert', { entities: [{ external_id: 'b-1', name: 'Bulk One' }, { external_id: 'b-2', name: 'Bulk Two', color: '#000' }] });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.data.length, 2);
    const idOne = first.body.data[0].id;

    const again = await send('POST', '/v1/teams/bulk_upsert', { entities: [{ external_id: 'b-1', description: 'changed' }, { external_id: 'b-3', name: 'Bulk Three' }] });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal(again.body.data[0].id, idOne, 'matched on external_id');
    const one = await send('GET', `/v1/teams/${idOne}`);
    assert.equal(one.body.data.attributes.description, 'changed');
    assert.equal(one.body.data.attributes.name, 'Bulk One');

    // A bad item fails the whole batch; nothing of it is kept.
    const bad = await send('POST', '/v1/teams/bulk_upsert', { entities: [{ external_id: 'b-4', name: 'Bulk Four' }, { external_id: 'b-5', name: 'Five', user_ids: [u, 999999] }] });
    assert.equal(bad.status, 422, JSON.stringify(bad.body));
    assert.equal(bad.body.errors[0].source.pointer, '/entities/1/user_ids/1');
    const noName = await send('POST', '/v1/teams/bulk_upsert', { entities: [{ external_id: 'b-6', name: 'Six' }, { external_id: 'b-7' }] });
    assert.equal(noName.status, 422);
    assert.equal(noName.body.errors[0].source.pointer, '/entities/1/name');
    const typed = await send('POST', '/v1/teams/bulk_upsert', { entities: [{ external_id: 'b-8', name: 'Eight' }, { external_id: 'b-9', name: 42 }] });
    assert.equal(typed.status, 422);
    assert.equal(typed.body.errors[0].source.pointer, '/entities/1/name');
    const none = await send('GET', '/v1/teams?filter[external_id]=b-4');
    assert.equal(none.body.data.length, 0);
    assert.equal((await send('GET', '/v1/teams?filter[external_id]=b-6')).body.data.length, 0);

    const del = await send('POST', '/v1/teams/bulk_delete', { external_ids: ['b-1', 'nope'] });
    assert.equal(del.status, 200, JSON.stringify(del.body));
    assert.deepEqual(del.body.data, { deleted_external_ids: ['b-1'], failed_external_ids: [], not_found_external_ids: ['nope'] });
    assert.equal((await send('GET', `/v1/teams/${idOne}`)).status, 404);
    const prune = await send('POST', '/v1/teams/bulk_delete', { managed_by: 'api', keep_external_ids: ['b-2'] });
    assert.equal(prune.status, 200, JSON.stringify(prune.body));
    assert.deepEqual(prune.body.data.deleted_external_ids, ['b-3']);
    // Another organization's teams are untouched and unseen.
    const otherDel = await send('POST', '/v1/teams/bulk_delete', { external_ids: ['b-2'] }, other.token);
    assert.deepEqual(otherDel.body.data.not_found_external_ids, ['b-2']);
    assert.equal((await send('GET', '/v1/teams?filter[external_id]=b-2')).body.data.length, 1);
  });
});
