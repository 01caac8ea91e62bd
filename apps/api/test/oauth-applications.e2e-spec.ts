import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import type { DomainEvent } from '@taproot/messaging';
import { startTestApi, type TestApi, type TestOrganization, type TestResponse } from '../src/testing';

const application = (attributes: Record<string, unknown>) => ({ data: { type: 'oauth_applications', attributes } });

function pointers(res: TestResponse): string[] {
  return (res.body.errors as { source?: { pointer?: string } }[]).map((e) => e.source?.pointer ?? '');
}

describe('OAuth applications over HTTP (/v1/oauth_applications)', () => {
  let api: TestApi;
  let org: TestOrganization;
  let other: TestOrganization;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
    other = await api.newOrganization();
  });
  after(() => api.close());

  const create = (attributes: Record<string, unknown>, token = org.token) => api.request('POST', '/v1/oauth_applications', { token, body: application(attributes) });
  const db = () => api.runtime.dataSource;
  const clientOf = async (clientId: string) =>
    ((await db().query(`SELECT payload FROM oauth_payloads WHERE model = 'Client' AND id = $1`, [clientId])) as { payload: Record<string, unknown> }[])[0]?.payload;
  const userOf = async (id: number) =>
    ((await db().query(
      `SELECT u.email, u.name, u.role, r.system_role AS ir_kind, o.system_role AS oc_kind
         FROM users u LEFT JOIN roles r ON r.id::text = u.role_id::text LEFT JOIN on_call_roles o ON o.id::text = u.on_call_role_id::text
        WHERE u.id = $1`,
      [id],
    )) as Record<string, string>[])[0];
  const outboxEvents = async (clientId: string) =>
    ((await db().query(`SELECT event FROM outbox WHERE event->>'aggregate_id' = $1 ORDER BY seq`, [clientId])) as { event: DomainEvent }[]).map((r) => r.event);

  test('create: 201 with the secret once, the provider client, the service user with the Admin roles, an event without the secret', async () => {
    const res = await create({ name: 'Deploy bot', scope: 'ir.services:read  ir.services:read oc.alerts:write' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const { id, type, attributes } = res.body.data;
    assert.equal(type, 'oauth_applications');
    assert.equal(attributes.client_id, id);
    assert.deepEqual(attributes.grant_types, ['client_credentials']);
    assert.equal(attributes.scope, 'ir.services:read oc.alerts:write', 'normalized: single spaces, no repeats');
    assert.equal(attributes.revoked_at, null);
    assert.match(attributes.client_secret, /^[A-Za-z0-9_-]{43}$/);

    const client = await clientOf(id);
    assert.deepEqual(client, {
      client_id: id,
      client_secret: attributes.client_secret,
      client_name: 'Deploy bot',
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'client_secret_basic',
      scope: 'ir.services:read oc.alerts:write',
      organization_id: org.organizationId,
      service_user_id: attributes.service_user_id,
    });
    assert.deepEqual(await userOf(attributes.service_user_id), {
      email: `app-${id}@apps.taproot.invalid`,
      name: 'Deploy bot',
      role: 'admin',
      ir_kind: 'admin',
      oc_kind: 'admin',
    });

    // Reads never show the secret; the list has the application.
    const got = await api.request('GET', `/v1/oauth_applications/${id}`, { token: org.token });
    assert.equal(got.status, 200);
    assert.equal(got.body.data.attributes.client_secret, undefined);
    assert.equal(got.body.data.attributes.name, 'Deploy bot');
    const list = await api.request('GET', '/v1/oauth_applications?filter[name]=Deploy bot', { token: org.token });
    assert.deepEqual(list.body.data.map((d: { id: string }) => d.id), [id]);
    assert.ok(!JSON.stringify(list.body).includes(attributes.client_secret));

    const events = await outboxEvents(id);
    assert.deepEqual(events.map((e) => e.type), ['oauth_application.created']);
    assert.ok(!JSON.stringify(events).includes(attributes.client_secret), 'the secret never reaches the outbox');
  });

  test('scope and grant_types validation: 422 naming the attribute, nothing created', async () => {
    const count = async () => Number((await db().query('SELECT count(*) FROM oauth_applications WHERE organization_id = $1', [org.organizationId]))[0].count);
    const before = await count();
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ name: 'x', scope: 'ir.services:read ir.nope:read admin' }, '/data/attributes/scope', /unknown scopes: ir\.nope:read, admin/],
      [{ name: 'x', scope: 'openid profile' }, '/data/attributes/scope', /cannot include openid, profile/],
      [{ name: 'x', scope: 'ir.services:read email' }, '/data/attributes/scope', /cannot include email/],
      [{ name: 'x', scope: '   ' }, '/data/attributes/scope', /at least one scope/],
      [{ name: 'x' }, '/data/attributes/scope', /scope/],
      [{ name: 'x', scope: 'all', grant_types: ['authorization_code'] }, '/data/attributes/grant_types/0', /client_credentials/],
      [{ name: '', scope: 'all' }, '/data/attributes/name', /name/],
    ];
    for (const [attributes, pointer, detail] of cases) {
      const res = await create(attributes);
      assert.equal(res.status, 422, `${JSON.stringify(attributes)}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(pointers(res), [pointer], JSON.stringify(attributes));
      assert.match(res.body.errors[0].detail, detail);
    }
    assert.equal(await count(), before);
    // Meta scopes are resource scopes: ir.all alone is enough.
    assert.equal((await create({ name: 'Meta', scope: 'ir.all' })).status, 201);
  });

  test('administrators only: the api_keys permission, and no application stronger than the caller', async () => {
    const userToken = await api.issueApiKey(org.organizationId, { kind: 'personal', userId: await api.addUser(org.organizationId, { roleKind: 'user' }) });
    assert.equal((await api.request('GET', '/v1/oauth_applications', { token: userToken })).status, 403);
    const refused = await create({ name: 'Nope', scope: 'all' }, userToken);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.errors[0].code, 'PERMISSION_DENIED');

    const adminToken = await api.issueApiKey(org.organizationId, { kind: 'personal', userId: await api.addUser(org.organizationId, { roleKind: 'admin' }) });
    assert.equal((await create({ name: 'By an admin', scope: 'all' }, adminToken)).status, 201);

    // A role that may manage credentials but not services cannot make an application that reads services.
    const role = await api.request('POST', '/v1/roles', {
      token: org.token,
      body: { data: { type: 'roles', attributes: { name: 'Credential manager', api_keys_permissions: ['create', 'read', 'update'] } } },
    });
    assert.equal(role.status, 201, JSON.stringify(role.body));
    const managerToken = await api.issueApiKey(org.organizationId, { kind: 'global', roleId: role.body.data.id });
    const escalation = await create({ name: 'Stronger', scope: 'ir.services:read' }, managerToken);
    assert.equal(escalation.status, 403);
    assert.equal(escalation.body.errors[0].code, 'PRIVILEGE_ESCALATION');
    // Widening the scope of an existing application is checked the same way.
    const own = await create({ name: 'Incidents reader', scope: 'ir.incidents:read' }, org.token);
    const widen = await api.request('PUT', `/v1/oauth_applications/${own.body.data.id}`, { token: managerToken, body: application({ scope: 'all' }) });
    assert.equal(widen.status, 403);
    assert.equal(widen.body.errors[0].code, 'PRIVILEGE_ESCALATION');
    assert.equal((await clientOf(own.body.data.id))!.scope, 'ir.incidents:read', 'unchanged');
  });

  test('update renames and rescopes the application, its client and its service user; PATCH is the same', async () => {
    const created = await create({ name: 'Old name', scope: 'ir.incidents:read' });
    const id = created.body.data.id;
    const res = await api.request('PUT', `/v1/oauth_applications/${id}`, { token: org.token, body: application({ name: 'New name', scope: 'ir.incidents:write oc.alerts:read' }) });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data.attributes.name, 'New name');
    assert.equal(res.body.data.attributes.scope, 'ir.incidents:write oc.alerts:read');
    assert.equal(res.body.data.attributes.client_secret, undefined);
    const client = await clientOf(id);
    assert.equal(client!.client_name, 'New name');
    assert.equal(client!.scope, 'ir.incidents:write oc.alerts:read');
    assert.equal(client!.client_secret, created.body.data.attributes.client_secret, 'the secret is kept');
    assert.equal((await userOf(created.body.data.attributes.service_user_id)).name, 'New name');

    const patched = await api.request('PATCH', `/v1/oauth_applications/${id}`, { token: org.token, body: application({ name: 'Patched' }) });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.data.attributes.scope, 'ir.incidents:write oc.alerts:read', 'an attribute not sent is kept');

    const bad = await api.request('PUT', `/v1/oauth_applications/${id}`, { token: org.token, body: application({ scope: 'ir.incidents:read bogus' }) });
    assert.equal(bad.status, 422);
    assert.deepEqual(pointers(bad), ['/data/attributes/scope']);
    assert.equal((await clientOf(id))!.scope, 'ir.incidents:write oc.alerts:read');
    assert.deepEqual((await outboxEvents(id)).map((e) => e.type), ['oauth_application.created', 'oauth_application.updated', 'oauth_application.updated']);
  });

  test('rotate_secret: a new secret once, the old one replaced in the client', async () => {
    const created = await create({ name: 'Rotating', scope: 'oc.alerts:read' });
    const id = created.body.data.id;
    const rotated = await api.request('POST', `/v1/oauth_applications/${id}/rotate_secret`, { token: org.token });
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    const secret = rotated.body.data.attributes.client_secret;
    assert.match(secret, /^[A-Za-z0-9_-]{43}$/);
    assert.notEqual(secret, created.body.data.attributes.client_secret);
    assert.equal((await clientOf(id))!.client_secret, secret);
    const events = await outboxEvents(id);
    assert.equal(events.at(-1)!.type, 'oauth_application.rotated');
    assert.ok(!JSON.stringify(events).includes(secret));
  });

  test('revoke: revoked_at set, the client and everything issued to it deleted, the service user left with No Access', async () => {
    const created = await create({ name: 'Short lived', scope: 'ir.services:read' });
    const id = created.body.data.id;
    const unrelated = await create({ name: 'Unrelated', scope: 'ir.services:read' });
    // What the provider stores for a client's grants and tokens (payload.clientId).
    for (const [model, clientId] of [['Grant', id], ['ClientCredentials', id], ['Grant', unrelated.body.data.id]]) {
      await db().query('INSERT INTO oauth_payloads (model, id, payload) VALUES ($1, $2, $3)', [model, `${model}-${clientId}`, { clientId }]);
    }
    const res = await api.request('DELETE', `/v1/oauth_applications/${id}`, { token: org.token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.ok(res.body.data.attributes.revoked_at);
    assert.equal(await clientOf(id), undefined, 'the provider no longer knows the client');
    const left = await db().query(`SELECT model, id FROM oauth_payloads WHERE payload->>'clientId' = ANY($1) ORDER BY id`, [[id, unrelated.body.data.id]]);
    assert.deepEqual(left, [{ model: 'Grant', id: `Grant-${unrelated.body.data.id}` }]);
    assert.ok(await clientOf(unrelated.body.data.id));
    const user = await userOf(created.body.data.attributes.service_user_id);
    assert.deepEqual([user.role, user.ir_kind, user.oc_kind], ['no_access', 'no_access', 'no_access']);

    // Still listed (with revoked_at), but no longer changed.
    const got = await api.request('GET', `/v1/oauth_applications/${id}`, { token: org.token });
    assert.equal(got.body.data.attributes.revoked_at, res.body.data.attributes.revoked_at);
    const revokedList = await api.request('GET', '/v1/oauth_applications?filter[revoked_at][not_null]=true', { token: org.token });
    assert.deepEqual(revokedList.body.data.map((d: { id: string }) => d.id), [id]);
    for (const [method, path] of [['PUT', `/v1/oauth_applications/${id}`], ['DELETE', `/v1/oauth_applications/${id}`], ['POST', `/v1/oauth_applications/${id}/rotate_secret`]]) {
      const again = await api.request(method, path, { token: org.token, body: method === 'PUT' ? application({ name: 'Back' }) : undefined });
      assert.equal(again.status, 409, `${method} ${path}`);
      assert.equal(again.body.errors[0].code, 'APPLICATION_REVOKED');
    }
    assert.deepEqual((await outboxEvents(id)).map((e) => e.type), ['oauth_application.created', 'oauth_application.deleted']);
  });

  test('a registered client users authorized for the organization: listed, rescoped with OpenID scopes, no secret to rotate, revocable', async () => {
    // As dynamic registration and the first authorization leave it (docs/oauth.md): a public client, organization fixed.
    const clientId = 'registered-public-client';
    await db().query(`INSERT INTO oauth_payloads (model, id, payload) VALUES ('Client', $1, $2)`, [
      clientId,
      { client_id: clientId, client_name: 'CLI tool', grant_types: ['authorization_code'], token_endpoint_auth_method: 'none', redirect_uris: ['http://127.0.0.1/cb'] },
    ]);
    await db().query(
      `INSERT INTO oauth_applications (client_id, organization_id, name, kind, scope, created_at, updated_at) VALUES ($1, $2, 'CLI tool', 'registered', 'openid all', now(), now())`,
      [clientId, org.organizationId],
    );
    const got = await api.request('GET', `/v1/oauth_applications/${clientId}`, { token: org.token });
    assert.equal(got.status, 200);
    assert.deepEqual(got.body.data.attributes.grant_types, ['authorization_code']);
    assert.equal(got.body.data.attributes.service_user_id, null);

    const rescoped = await api.request('PATCH', `/v1/oauth_applications/${clientId}`, { token: org.token, body: application({ scope: 'openid profile ir.incidents:read' }) });
    assert.equal(rescoped.status, 200, JSON.stringify(rescoped.body));
    assert.equal((await clientOf(clientId))!.scope, 'openid profile ir.incidents:read');
    const unknown = await api.request('PATCH', `/v1/oauth_applications/${clientId}`, { token: org.token, body: application({ scope: 'openid nope' }) });
    assert.equal(unknown.status, 422);

    const rotate = await api.request('POST', `/v1/oauth_applications/${clientId}/rotate_secret`, { token: org.token });
    assert.equal(rotate.status, 409);
    assert.equal(rotate.body.errors[0].code, 'NO_CLIENT_SECRET');
    assert.equal((await api.request('DELETE', `/v1/oauth_applications/${clientId}`, { token: org.token })).status, 200);
    assert.equal(await clientOf(clientId), undefined);
  });

  test("another organization's application answers 404 and is never listed", async () => {
    const mine = await create({ name: 'Tenant A app', scope: 'ir.services:read' });
    const id = mine.body.data.id;
    for (const [method, path] of [['GET', `/v1/oauth_applications/${id}`], ['PUT', `/v1/oauth_applications/${id}`], ['DELETE', `/v1/oauth_applications/${id}`], ['POST', `/v1/oauth_applications/${id}/rotate_secret`]]) {
      const res = await api.request(method, path, { token: other.token, body: method === 'PUT' ? application({ name: 'Taken' }) : undefined });
      assert.equal(res.status, 404, `${method} ${path}`);
    }
    const list = await api.request('GET', '/v1/oauth_applications', { token: other.token });
    assert.ok(!JSON.stringify(list.body).includes(id));
    assert.equal((await clientOf(id))!.client_name, 'Tenant A app');
  });
});
