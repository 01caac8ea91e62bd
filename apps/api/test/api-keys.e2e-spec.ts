import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { hashToken, tokenPrefix } from '@taproot/auth';
import type { DomainEvent } from '@taproot/messaging';
import { createScratchDatabase, openTestDataSource } from '@taproot/persistence';
import { startTestApi, type TestApi, type TestOrganization, type TestResponse } from '../src/testing';
import { REFERENCE_OPENAPI_PATH, validateAgainstReference } from './support/openapi-ajv';

/** A clock the test moves by hand (architecture rule 10). */
function manualClock(iso: string) {
  let now = new Date(iso).getTime();
  return {
    now: () => new Date(now),
    advance: (ms: number) => void (now += ms),
    set: (at: string | Date) => void (now = new Date(at).getTime()),
  };
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const apiKey = (attributes: Record<string, unknown>) => ({ data: { type: 'api_keys', attributes } });

/** Response bodies against the reference schema when ../shared is beside the repository. */
const haveReference = existsSync(REFERENCE_OPENAPI_PATH);
function conforms(schema: string, res: TestResponse): void {
  if (haveReference) validateAgainstReference(schema, res.body, `${schema} (${res.status})`);
}

function pointers(res: TestResponse): string[] {
  return (res.body.errors as { source?: { pointer?: string } }[]).map((e) => e.source?.pointer ?? '');
}

describe('API keys over HTTP', () => {
  const clock = manualClock('2026-11-23T10:00:00.000Z');
  let api: TestApi;
  let org: TestOrganization;
  let other: TestOrganization;
  before(async () => {
    api = await startTestApi({ clock });
    org = await api.newOrganization();
    other = await api.newOrganization();
  });
  after(() => api.close());

  /** A seeded role of the organization: the ids an organization key may carry. */
  const seeded = async (path: string, token = org.token): Promise<string> => (await api.request('GET', `${path}?page[size]=1`, { token })).body.data[0].id;
  const inDays = (days: number) => new Date(clock.now().getTime() + days * DAY).toISOString();
  const create = (attributes: Record<string, unknown>, token = org.token) =>
    api.request('POST', '/v1/api_keys', { token, body: apiKey({ expires_at: inDays(30), ...attributes }) });
  const get = (path: string, token = org.token) => api.request('GET', path, { token });
  const rotate = (id: string, token: string, attributes?: Record<string, unknown>) =>
    api.request('POST', `/v1/api_keys/${id}/rotate`, { token, body: attributes === undefined ? undefined : apiKey(attributes) });
  // Every kind of key may read severities (a team key through the User role), so 200 means "authenticated".
  const authenticates = async (token: string) => (await get('/v1/severities?page[size]=1', token)).status;
  const newTeam = async (name: string): Promise<string> => {
    const res = await api.request('POST', '/v1/teams', { token: org.token, body: { data: { type: 'groups', attributes: { name: `${name} ${Date.now().toString(36)}` } } } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data.id;
  };
  const outbox = async (aggregateId: string): Promise<{ topic: string; event: DomainEvent }[]> =>
    api.runtime.dataSource.query('SELECT topic, event FROM outbox WHERE aggregate_id = $1 ORDER BY seq', [aggregateId]);

  test('creates each kind; the token is shown once, authenticates, and never appears in get or list', async () => {
    const personal = await create({ name: 'Personal key', kind: 'personal', description: 'mine' });
    const team = await create({ name: 'Team key', kind: 'team', group_id: await newTeam('Key team') });
    const roleId = await seeded('/v1/roles');
    const onCallRoleId = await seeded('/v1/on_call_roles');
    const organization = await create({ name: 'Org key', kind: 'organization', role_id: roleId, on_call_role_id: onCallRoleId });
    for (const [res, kind] of [[personal, 'personal'], [team, 'team'], [organization, 'organization']] as const) {
      assert.equal(res.status, 201, JSON.stringify(res.body));
      conforms('api_key_with_token_response', res);
      assert.equal(res.body.data.type, 'api_keys');
      assert.equal(res.body.data.attributes.kind, kind);
      assert.match(res.body.data.attributes.token, /^tpr_[A-Za-z0-9]{40}$/);
      assert.equal(res.body.data.attributes.last_used_at, null);
      assert.equal(res.body.data.attributes.grace_period_ends_at, null);
      assert.equal(res.body.data.attributes.expires_at, inDays(30));
      assert.equal(await authenticates(res.body.data.attributes.token), 200, `${kind} token authenticates`);
    }
    assert.equal(personal.body.data.attributes.description, 'mine');
    assert.equal(organization.body.data.attributes.role_id, roleId);
    assert.equal(organization.body.data.attributes.on_call_role_id, onCallRoleId);
    assert.equal(team.body.data.attributes.role_id, null);

    const one = await get(`/v1/api_keys/${team.body.data.id}`);
    assert.equal(one.status, 200);
    conforms('api_key_response', one);
    assert.equal('token' in one.body.data.attributes, false);
    assert.equal(one.body.data.attributes.name, 'Team key');
    const list = await get('/v1/api_keys?page[size]=100');
    assert.equal(list.status, 200);
    conforms('api_key_list', list);
    const ids = list.body.data.map((d: { id: string }) => d.id);
    for (const res of [personal, team, organization]) assert.ok(ids.includes(res.body.data.id));
    assert.ok(list.body.data.every((d: { attributes: Record<string, unknown> }) => !('token' in d.attributes)));
    const everything = JSON.stringify([one.body, list.body]);
    for (const res of [personal, team, organization]) {
      const token = res.body.data.attributes.token as string;
      assert.ok(!everything.includes(token) && !everything.includes(hashToken(token)), 'no token or hash in reads');
    }
    // The bootstrap key is organization-wide.
    const bootstrap = list.body.data.find((d: { attributes: { name: string } }) => d.attributes.name === 'Bootstrap key');
    assert.equal(bootstrap.attributes.kind, 'organization');
  });

  test('only a hash of the token is stored', async () => {
    const res = await create({ name: 'Stored as hash', kind: 'personal' });
    const token = res.body.data.attributes.token as string;
    const [row] = await api.runtime.dataSource.query('SELECT * FROM api_keys WHERE id = $1', [res.body.data.id]);
    assert.equal(row.token_hash, hashToken(token));
    assert.ok(!JSON.stringify(row).includes(token));
  });

  test('validation: 422 naming the field', async () => {
    const missing = await api.request('POST', '/v1/api_keys', { token: org.token, body: apiKey({ name: 'No expiry', kind: 'personal' }) });
    assert.equal(missing.status, 422);
    assert.deepEqual(pointers(missing), ['/data/attributes/expires_at']);

    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'Past', kind: 'personal', expires_at: new Date(clock.now().getTime() - 1000).toISOString() }, 'expires_at'],
      [{ name: 'Now', kind: 'personal', expires_at: clock.now().toISOString() }, 'expires_at'],
      [{ name: 'Too far', kind: 'personal', expires_at: inDays(5 * 366) }, 'expires_at'],
      [{ name: 'Null expiry', kind: 'personal', expires_at: null }, 'expires_at'],
      [{ name: 'Bad date', kind: 'personal', expires_at: 'tomorrow' }, 'expires_at'],
      [{ name: 'Unknown', kind: 'personal', token: 'tpr_mine' }, 'token'],
      [{ name: 'Unknown 2', kind: 'personal', scopes: ['all'] }, 'scopes'],
      [{ name: 'Bad kind', kind: 'global' }, 'kind'],
      [{ name: 'Team without group', kind: 'team' }, 'group_id'],
      [{ name: 'Team of nothing', kind: 'team', group_id: 'no-such-team' }, 'group_id'],
      [{ name: 'Personal with role', kind: 'personal', role_id: 'r' }, 'role_id'],
      [{ name: 'Org with group', kind: 'organization', group_id: 'g' }, 'group_id'],
      [{ name: '', kind: 'personal' }, 'name'],
      [{ kind: 'personal' }, 'name'],
    ];
    for (const [attributes, field] of cases) {
      const res = await create(attributes);
      assert.equal(res.status, 422, `${JSON.stringify(attributes)}: ${JSON.stringify(res.body)}`);
      assert.ok(pointers(res).includes(`/data/attributes/${field}`), `${JSON.stringify(attributes)} names ${field}: ${JSON.stringify(res.body)}`);
    }
    const wrongType = await api.request('POST', '/v1/api_keys', { token: org.token, body: { data: { type: 'services', attributes: {} } } });
    assert.equal(wrongType.status, 422);
  });

  test('names are unique within kind and scope', async () => {
    const [first, second] = [await newTeam('Unique 1'), await newTeam('Unique 2')];
    assert.equal((await create({ name: 'Unique name', kind: 'team', group_id: first })).status, 201);
    const taken = await create({ name: 'Unique name', kind: 'team', group_id: first });
    assert.equal(taken.status, 422);
    assert.deepEqual(pointers(taken), ['/data/attributes/name']);
    assert.equal((await create({ name: 'Unique name', kind: 'team', group_id: second })).status, 201, 'another team');
    assert.equal((await create({ name: 'Unique name', kind: 'organization' })).status, 201, 'another kind');
  });

  test('a key without a user cannot create a personal key; a team key manages no API keys', async () => {
    const team = await create({ name: 'Team creator', kind: 'team', group_id: await newTeam('Creators') });
    const organization = await create({ name: 'Org creator', kind: 'organization' });
    const personalOfOrgKey = await create({ name: 'Personal of a service account', kind: 'personal' }, organization.body.data.attributes.token);
    assert.equal(personalOfOrgKey.status, 422);
    assert.deepEqual(pointers(personalOfOrgKey), ['/data/attributes/kind']);
    assert.match(personalOfOrgKey.body.errors[0].detail, /without a user/);
    // A team key acts as a member of its team: the User role grants nothing on API keys.
    for (const kind of ['personal', 'organization', 'team']) {
      const refused = await create({ name: `Made by a team key ${kind}`, kind }, team.body.data.attributes.token);
      assert.equal(refused.status, 403, kind);
      assert.equal(refused.body.errors[0].code, 'PERMISSION_DENIED');
    }
    const byOrgKey = await create({ name: 'Made by an org key', kind: 'organization' }, organization.body.data.attributes.token);
    assert.equal(byOrgKey.status, 201);
    const personal = await create({ name: 'Personal creator', kind: 'personal' });
    assert.equal((await create({ name: 'Made by the owner', kind: 'organization' }, personal.body.data.attributes.token)).status, 201);
  });

  test('PUT and PATCH change name, description and expires_at only', async () => {
    const created = await create({ name: 'Mutable key', kind: 'personal' });
    const id = created.body.data.id;
    clock.advance(MINUTE);
    const put = await api.request('PUT', `/v1/api_keys/${id}`, {
      token: org.token,
      body: apiKey({ name: 'Renamed key', description: 'described', expires_at: inDays(60) }),
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    conforms('api_key_response', put);
    assert.equal('token' in put.body.data.attributes, false);
    assert.equal(put.body.data.attributes.name, 'Renamed key');
    assert.equal(put.body.data.attributes.description, 'described');
    assert.equal(put.body.data.attributes.expires_at, inDays(60));
    assert.equal(put.body.data.attributes.updated_at, clock.now().toISOString());
    assert.equal(put.body.data.attributes.created_at, created.body.data.attributes.created_at);

    const patch = await api.request('PATCH', `/v1/api_keys/${id}`, { token: org.token, body: apiKey({ description: null }) });
    assert.equal(patch.status, 200);
    assert.equal(patch.body.data.attributes.description, null);
    assert.equal(patch.body.data.attributes.name, 'Renamed key');
    assert.equal((await get(`/v1/api_keys/${id}`)).body.data.attributes.name, 'Renamed key');
    assert.equal(await authenticates(created.body.data.attributes.token), 200, 'an update keeps the token');

    for (const method of ['PUT', 'PATCH']) {
      const fixed = await api.request(method, `/v1/api_keys/${id}`, { token: org.token, body: apiKey({ kind: 'team', role_id: 'r' }) });
      assert.equal(fixed.status, 422);
      assert.deepEqual(pointers(fixed).sort(), ['/data/attributes/kind', '/data/attributes/role_id']);
      const unknown = await api.request(method, `/v1/api_keys/${id}`, { token: org.token, body: apiKey({ colour: 'red' }) });
      assert.equal(unknown.status, 422);
      assert.deepEqual(pointers(unknown), ['/data/attributes/colour']);
      const past = await api.request(method, `/v1/api_keys/${id}`, { token: org.token, body: apiKey({ expires_at: '2020-01-01T00:00:00Z' }) });
      assert.equal(past.status, 422);
      assert.deepEqual(pointers(past), ['/data/attributes/expires_at']);
    }
  });

  test('an organization key must carry roles of the organization and cannot exceed its creator', async () => {
    const unknown = await create({ name: 'Unknown role', kind: 'organization', role_id: '00000000-0000-4000-8000-000000000000' });
    assert.equal(unknown.status, 422);
    assert.deepEqual(pointers(unknown), ['/data/attributes/role_id']);
    const foreign = await create({ name: 'Foreign role', kind: 'organization', role_id: await seeded('/v1/roles', other.token) });
    assert.equal(foreign.status, 422);
    // A key whose role may only manage API keys cannot mint a key without roles (full access).
    const role = await api.request('POST', '/v1/roles', {
      token: org.token,
      body: { data: { type: 'roles', attributes: { name: 'Key manager', api_keys_permissions: ['create', 'read'] } } },
    });
    assert.equal(role.status, 201, JSON.stringify(role.body));
    const limited = await create({ name: 'Key manager key', kind: 'organization', role_id: role.body.data.id });
    assert.equal(limited.status, 201, JSON.stringify(limited.body));
    const limitedToken = limited.body.data.attributes.token;
    const escalation = await create({ name: 'Stronger key', kind: 'organization' }, limitedToken);
    assert.equal(escalation.status, 403);
    assert.equal(escalation.body.errors[0].code, 'PRIVILEGE_ESCALATION');
    const same = await create({ name: 'Same role key', kind: 'organization', role_id: role.body.data.id }, limitedToken);
    assert.equal(same.status, 201, 'a key may hand out what it holds');
    const services = await api.request('GET', '/v1/services', { token: limitedToken });
    assert.equal(services.status, 403, 'the role grants nothing on services');
  });

  test('list filters and sorts', async () => {
    const suffix = Date.now().toString(36);
    const teamId = await newTeam('Filter');
    await create({ name: `Filter team ${suffix}`, kind: 'team', group_id: teamId });
    const roleId = await seeded('/v1/roles');
    await create({ name: `Filter org ${suffix}`, kind: 'organization', role_id: roleId, expires_at: inDays(2) });
    const names = async (query: string) =>
      (await get(`/v1/api_keys?${query}&page[size]=100`)).body.data.map((d: { attributes: { name: string } }) => d.attributes.name);
    assert.deepEqual(await names(`filter[group_ids]=${teamId},nope`), [`Filter team ${suffix}`]);
    assert.ok((await names(`filter[role_id]=${roleId}`)).includes(`Filter org ${suffix}`));
    assert.ok(!(await names(`filter[role_id]=${roleId}`)).includes(`Filter team ${suffix}`));
    assert.deepEqual(await names(`filter[search]=filter (team|org) ${suffix}&sort=-name`), [`Filter team ${suffix}`, `Filter org ${suffix}`]);
    assert.deepEqual(await names(`filter[search]=${suffix}&filter[kind]=organization`), [`Filter org ${suffix}`]);
    assert.deepEqual(await names(`filter[search]=${suffix}&filter[expires_at][lt]=${inDays(3)}`), [`Filter org ${suffix}`]);
    const all = await get('/v1/api_keys?filter[kind]=personal&page[size]=100');
    assert.ok(all.body.data.every((d: { attributes: { kind: string } }) => d.attributes.kind === 'personal'));
    const [{ id: ownerId }] = await api.runtime.dataSource.query('SELECT user_id AS id FROM api_keys WHERE organization_id = $1 AND kind = $2 AND user_id IS NOT NULL ORDER BY created_at LIMIT 1', [
      org.organizationId,
      'global',
    ]);
    const mine = await get(`/v1/api_keys?filter[user_id]=${ownerId}&filter[kind]=personal&page[size]=100`);
    assert.equal(mine.status, 200);
    assert.equal(mine.body.data.length, all.body.data.length, 'every personal key here belongs to the owner');
    assert.equal((await get('/v1/api_keys?filter[active]=maybe')).status, 400);
    assert.equal((await get('/v1/api_keys?sort=token_hash')).status, 400);
    assert.equal((await get('/v1/api_keys?filter[token_prefix]=tpr_')).status, 400);
  });

  test('filter[active] and filter[expired] follow the clock', async () => {
    const suffix = Date.now().toString(36);
    await create({ name: `Soon ${suffix}`, kind: 'personal', expires_at: new Date(clock.now().getTime() + HOUR).toISOString() });
    await create({ name: `Later ${suffix}`, kind: 'personal', expires_at: inDays(10) });
    const names = async (query: string) =>
      (await get(`/v1/api_keys?filter[search]=${suffix}&${query}&sort=name`)).body.data.map((d: { attributes: { name: string } }) => d.attributes.name);
    assert.deepEqual(await names('filter[active]=true'), [`Later ${suffix}`, `Soon ${suffix}`]);
    assert.deepEqual(await names('filter[expired]=true'), []);
    clock.advance(HOUR);
    assert.deepEqual(await names('filter[active]=true'), [`Later ${suffix}`]);
    assert.deepEqual(await names('filter[expired]=true'), [`Soon ${suffix}`]);
    assert.deepEqual(await names('filter[active]=false'), [`Soon ${suffix}`]);
    const bootstrap = await get('/v1/api_keys?filter[name]=Bootstrap key&filter[active]=true');
    assert.equal(bootstrap.body.data.length, 1, 'a key without expiry is active');
  });

  test('DELETE revokes: 200 with the key, then 404, gone from the list, and its token answers 401', async () => {
    const created = await create({ name: 'Doomed key', kind: 'personal' });
    const { id } = created.body.data;
    const token = created.body.data.attributes.token as string;
    assert.equal(await authenticates(token), 200);
    const deleted = await api.request('DELETE', `/v1/api_keys/${id}`, { token: org.token });
    assert.equal(deleted.status, 200);
    conforms('api_key_response', deleted);
    assert.equal(deleted.body.data.id, id);
    assert.equal(deleted.body.data.attributes.name, 'Doomed key');
    assert.equal('token' in deleted.body.data.attributes, false);
    assert.equal((await get(`/v1/api_keys/${id}`)).status, 404);
    assert.equal((await api.request('DELETE', `/v1/api_keys/${id}`, { token: org.token })).status, 404);
    const list = await get('/v1/api_keys?filter[name]=Doomed key');
    assert.equal(list.body.data.length, 0);
    const refused = await get('/v1/api_keys', token);
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get('www-authenticate'), 'Bearer realm="taproot", error="invalid_token"');
  });

  test('a key can revoke itself', async () => {
    const created = await create({ name: 'Self revoking', kind: 'personal' });
    const token = created.body.data.attributes.token as string;
    assert.equal((await api.request('DELETE', `/v1/api_keys/${created.body.data.id}`, { token })).status, 200);
    assert.equal(await authenticates(token), 401);
  });

  test('another organization’s key id answers 404 to every operation and changes nothing', async () => {
    const created = await create({ name: 'Private key', kind: 'personal' });
    const { id } = created.body.data;
    const theirs = other.token;
    assert.equal((await get(`/v1/api_keys/${id}`, theirs)).status, 404);
    assert.equal((await api.request('PUT', `/v1/api_keys/${id}`, { token: theirs, body: apiKey({ name: 'hijacked' }) })).status, 404);
    assert.equal((await api.request('PATCH', `/v1/api_keys/${id}`, { token: theirs, body: apiKey({ name: 'hijacked' }) })).status, 404);
    assert.equal((await rotate(id, theirs)).status, 404);
    assert.equal((await api.request('DELETE', `/v1/api_keys/${id}`, { token: theirs })).status, 404);
    const list = await get('/v1/api_keys?page[size]=100', theirs);
    assert.ok(!list.body.data.some((d: { id: string }) => d.id === id));
    assert.equal((await get(`/v1/api_keys/${id}`)).body.data.attributes.name, 'Private key');
    assert.equal(await authenticates(created.body.data.attributes.token), 200);
    assert.equal((await get('/v1/api_keys/not-a-uuid')).status, 404);
  });

  test('rotation is self-only: another key of the organization gets 403', async () => {
    const a = await create({ name: 'Rotate target', kind: 'personal' });
    const b = await create({ name: 'Rotate intruder', kind: 'organization' });
    const res = await rotate(a.body.data.id, b.body.data.attributes.token, {});
    assert.equal(res.status, 403);
    assert.equal((await rotate(a.body.data.id, org.token)).status, 403, 'even the bootstrap key');
    assert.equal(await authenticates(a.body.data.attributes.token), 200, 'nothing changed');
  });

  test('rotation keeps the id, returns a new token, and the old one works until grace_period_ends_at (default 24 h), then 401', async () => {
    const created = await create({ name: 'Rotating key', kind: 'team', group_id: await newTeam('Rotating'), expires_at: inDays(10) });
    const { id } = created.body.data;
    const oldToken = created.body.data.attributes.token as string;
    const rotatedAt = clock.now();
    const res = await rotate(id, oldToken);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    conforms('api_key_with_token_response', res);
    assert.equal(res.body.data.id, id);
    const newToken = res.body.data.attributes.token as string;
    assert.notEqual(newToken, oldToken);
    const graceEnd = new Date(rotatedAt.getTime() + DAY);
    assert.equal(res.body.data.attributes.grace_period_ends_at, graceEnd.toISOString(), 'the spec’s 24 hours');
    assert.equal(res.body.data.attributes.expires_at, new Date(rotatedAt.getTime() + 90 * DAY).toISOString(), 'reference default: 90 days');
    assert.equal(res.body.data.attributes.kind, 'team');
    assert.equal(res.body.data.attributes.name, 'Rotating key');
    const shown = await get(`/v1/api_keys/${id}`);
    assert.equal(shown.body.data.attributes.grace_period_ends_at, graceEnd.toISOString());
    assert.equal('token' in shown.body.data.attributes, false);

    assert.equal(await authenticates(newToken), 200);
    assert.equal(await authenticates(oldToken), 200, 'inside the grace period');
    clock.set(new Date(graceEnd.getTime() - 1));
    assert.equal(await authenticates(oldToken), 200, 'one millisecond before the end');
    clock.set(graceEnd);
    assert.equal(await authenticates(oldToken), 401, 'at the end of the grace period');
    assert.equal(await authenticates(newToken), 200);
  });

  test('grace_period_minutes: 0 ends the old token at once; a custom grace and expires_at are honoured', async () => {
    const created = await create({ name: 'Zero grace', kind: 'personal' });
    const oldToken = created.body.data.attributes.token as string;
    const res = await rotate(created.body.data.id, oldToken, { grace_period_minutes: 0 });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.attributes.grace_period_ends_at, clock.now().toISOString());
    assert.equal(await authenticates(oldToken), 401);
    assert.equal(await authenticates(res.body.data.attributes.token), 200);

    const custom = await create({ name: 'Custom grace', kind: 'personal' });
    const expiresAt = inDays(7);
    const rotated = await rotate(custom.body.data.id, custom.body.data.attributes.token, { grace_period_minutes: 10, expires_at: expiresAt });
    assert.equal(rotated.status, 200);
    assert.equal(rotated.body.data.attributes.grace_period_ends_at, new Date(clock.now().getTime() + 10 * MINUTE).toISOString());
    assert.equal(rotated.body.data.attributes.expires_at, expiresAt);
    clock.advance(10 * MINUTE);
    assert.equal(await authenticates(custom.body.data.attributes.token), 401);
    assert.equal(await authenticates(rotated.body.data.attributes.token), 200);
  });

  test('the grace period never outlives the old expiry, and rotating again ends the previous grace', async () => {
    const created = await create({ name: 'Nearly expired', kind: 'personal', expires_at: new Date(clock.now().getTime() + HOUR).toISOString() });
    const first = created.body.data.attributes.token as string;
    const res = await rotate(created.body.data.id, first);
    assert.equal(res.body.data.attributes.grace_period_ends_at, created.body.data.attributes.expires_at);
    const second = res.body.data.attributes.token as string;
    const again = await rotate(created.body.data.id, second, { grace_period_minutes: 5 });
    assert.equal(again.status, 200);
    assert.equal(await authenticates(first), 401, 'only one previous token is kept');
    assert.equal(await authenticates(second), 200);
    assert.equal(await authenticates(again.body.data.attributes.token), 200);
  });

  test('rotation payload validation: 422 naming the field', async () => {
    const created = await create({ name: 'Rotation validation', kind: 'personal' });
    const { id } = created.body.data;
    const token = created.body.data.attributes.token as string;
    for (const [attributes, field] of [
      [{ grace_period_minutes: 1441 }, 'grace_period_minutes'],
      [{ grace_period_minutes: -1 }, 'grace_period_minutes'],
      [{ grace_period_minutes: 1.5 }, 'grace_period_minutes'],
      [{ expires_at: '2020-01-01T00:00:00Z' }, 'expires_at'],
      [{ expires_at: inDays(6 * 366) }, 'expires_at'],
      [{ name: 'x' }, 'name'],
    ] as const) {
      const res = await rotate(id, token, attributes);
      assert.equal(res.status, 422, JSON.stringify(attributes));
      assert.deepEqual(pointers(res), [`/data/attributes/${field}`]);
    }
    assert.equal(await authenticates(token), 200, 'a refused rotation changes nothing');
    assert.equal((await rotate(id, token, { grace_period_minutes: 1440, expires_at: null })).status, 200);
  });

  test('expires_at is enforced with the clock', async () => {
    const expiresAt = new Date(clock.now().getTime() + 2 * HOUR);
    const created = await create({ name: 'Short lived', kind: 'personal', expires_at: expiresAt.toISOString() });
    const token = created.body.data.attributes.token as string;
    clock.set(new Date(expiresAt.getTime() - 1));
    assert.equal(await authenticates(token), 200);
    clock.set(expiresAt);
    assert.equal(await authenticates(token), 401);
  });

  test('every change emits its event to the outbox, without the token, its hash or its prefix', async () => {
    const roleId = await seeded('/v1/roles');
    const created = await create({ name: 'Evented key', kind: 'organization', role_id: roleId });
    const { id } = created.body.data;
    const first = created.body.data.attributes.token as string;
    await api.request('PATCH', `/v1/api_keys/${id}`, { token: org.token, body: apiKey({ description: 'events' }) });
    const rotated = await rotate(id, first);
    const second = rotated.body.data.attributes.token as string;
    await api.request('DELETE', `/v1/api_keys/${id}`, { token: org.token });
    const rows = await outbox(id);
    assert.deepEqual(
      rows.map((r) => r.event.type),
      ['api_key.created', 'api_key.updated', 'api_key.rotated', 'api_key.deleted'],
    );
    for (const { topic, event } of rows) {
      assert.equal(topic, 'taproot.identity');
      assert.equal(event.aggregate_type, 'api_keys');
      assert.equal(event.organization_id, org.organizationId);
      assert.equal(event.payload.id, id);
      assert.equal(event.payload.kind, 'organization');
      assert.equal(event.payload.role_id, roleId);
      assert.equal(event.actor.kind, 'api_key');
      const text = JSON.stringify(event);
      for (const secret of [first, second]) {
        assert.ok(!text.includes(secret), 'no token');
        assert.ok(!text.includes(hashToken(secret)), 'no hash');
        assert.ok(!text.includes(tokenPrefix(secret)), 'no prefix');
      }
      assert.ok(!/token_hash|token_prefix|"token"/.test(text));
    }
    const rotatedEvent = rows[2].event;
    assert.equal(rotatedEvent.payload.grace_period_ends_at, rotated.body.data.attributes.grace_period_ends_at);
    assert.equal(rotatedEvent.actor.id, id, 'the key rotated itself');
  });
});

describe('API key last_used_at', () => {
  const clock = manualClock('2026-11-23T10:00:00.000Z');
  let databaseUrl: string;
  let api: TestApi;
  let org: TestOrganization;
  let closed = false;
  before(async () => {
    databaseUrl = await createScratchDatabase();
    api = await startTestApi({ databaseUrl, clock });
    org = await api.newOrganization();
  });
  after(async () => {
    if (!closed) await api.close();
  });

  const create = async (name: string) => {
    const res = await api.request('POST', '/v1/api_keys', {
      token: org.token,
      body: apiKey({ name, kind: 'personal', expires_at: new Date(clock.now().getTime() + 30 * DAY).toISOString() }),
    });
    assert.equal(res.status, 201);
    return { id: res.body.data.id as string, token: res.body.data.attributes.token as string };
  };
  /** The row's last_used_at and the id of the transaction that last wrote the row. */
  const row = async (id: string): Promise<{ last_used_at: Date | null; xmin: string }> =>
    (await api.runtime.dataSource.query('SELECT last_used_at, xmin::text AS xmin FROM api_keys WHERE id = $1', [id]))[0];
  async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string): Promise<T> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const value = await read();
      if (ok(value)) return value;
      if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  test('uses are batched: no write per request, then one UPDATE for every key at the flush', async () => {
    const a = await create('Used key A');
    const b = await create('Used key B');
    const before = { a: await row(a.id), b: await row(b.id) };
    clock.advance(1000);
    assert.equal((await api.request('GET', '/v1/api_keys', { token: a.token })).status, 200);
    clock.advance(1000);
    const lastUseOfA = clock.now();
    assert.equal((await api.request('GET', '/v1/api_keys', { token: a.token })).status, 200);
    const useOfB = clock.now();
    assert.equal((await api.request('GET', `/v1/api_keys/${a.id}`, { token: b.token })).status, 200);
    await new Promise((r) => setTimeout(r, 1_500)); // the flush timer ticks; nothing is due yet on the clock
    const during = { a: await row(a.id), b: await row(b.id) };
    assert.equal(during.a.last_used_at, null, 'no write per request');
    assert.equal(during.a.xmin, before.a.xmin, 'the row was not written');
    assert.equal(during.b.xmin, before.b.xmin, 'the row was not written');
    const shownBefore = await api.request('GET', `/v1/api_keys/${a.id}`, { token: org.token });
    assert.equal(shownBefore.body.data.attributes.last_used_at, null);

    clock.advance(30_000); // the flush interval (30 s) passes on the injected clock
    const after = {
      a: await eventually(() => row(a.id), (r) => r.last_used_at !== null, 'the flush of key A'),
      b: await eventually(() => row(b.id), (r) => r.last_used_at !== null, 'the flush of key B'),
    };
    assert.equal(after.a.last_used_at!.toISOString(), lastUseOfA.toISOString(), 'the latest use');
    assert.equal(after.b.last_used_at!.toISOString(), useOfB.toISOString());
    assert.notEqual(after.a.xmin, before.a.xmin);
    assert.equal(after.a.xmin, after.b.xmin, 'both keys written by one statement in one transaction');
    const shown = await api.request('GET', `/v1/api_keys/${a.id}`, { token: org.token });
    assert.equal(shown.body.data.attributes.last_used_at, lastUseOfA.toISOString());
    const listed = await api.request('GET', `/v1/api_keys?filter[last_used_at][gte]=${lastUseOfA.toISOString()}&filter[kind]=personal&sort=name`, { token: org.token });
    assert.deepEqual(
      listed.body.data.map((d: { attributes: { name: string } }) => d.attributes.name),
      ['Used key A', 'Used key B'],
    );
  });

  test('pending uses are written on shutdown', async () => {
    const c = await create('Used before shutdown');
    clock.advance(1000);
    const usedAt = clock.now();
    assert.equal((await api.request('GET', '/v1/api_keys', { token: c.token })).status, 200);
    assert.equal((await row(c.id)).last_used_at, null);
    closed = true;
    await api.close();
    const ds = await openTestDataSource(databaseUrl);
    try {
      const [stored] = await ds.query('SELECT last_used_at FROM api_keys WHERE id = $1', [c.id]);
      assert.equal(stored.last_used_at.toISOString(), usedAt.toISOString());
    } finally {
      await ds.destroy();
    }
  });
});
