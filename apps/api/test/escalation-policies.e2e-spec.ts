import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startTestApi, type TestApi, type TestOrganization } from '../src/testing';
import { created, errorCodes, ids, outboxTypes, pointers, unique } from './support/json-api';

type Attributes = Record<string, unknown>;
const policy = (attributes: Attributes) => ({ data: { type: 'escalation_policies', attributes } });

describe('escalation policies: CRUD, the teams and services using them, business hours', () => {
  let api: TestApi;
  let org: TestOrganization;
  let other: TestOrganization;
  let admin: number;
  /** A personal key of `admin`: a key with a user. */
  let personal: string;
  /** A global key without a user. */
  let userless: string;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
    other = await api.newOrganization();
    admin = await api.addUser(org.organizationId, { roleKind: 'admin', onCallRoleKind: 'admin' });
    personal = await api.issueApiKey(org.organizationId, { kind: 'personal', userId: admin });
    userless = await api.issueApiKey(org.organizationId);
  });
  after(() => api?.close());

  const send = (method: string, path: string, body?: unknown, token = org.token) => api.request(method, path, { token, body });
  const team = async (token = org.token) => created(await send('POST', '/v1/teams', { data: { type: 'groups', attributes: { name: unique('Team') } } }, token)).id as string;
  const service = async (token = org.token) => created(await send('POST', '/v1/services', { data: { type: 'services', attributes: { name: unique('Service') } } }, token)).id as string;

  test('a policy is created, read, listed, updated and deleted, each change an event', async () => {
    const [t, s] = [await team(), await service()];
    const name = unique('Payments escalation');
    const hours = { days: ['M', 'T', 'W', 'R', 'F'], start_time: '09:00', end_time: '17:30', time_zone: 'Europe/Paris' };
    const res = await send('POST', '/v1/escalation_policies', policy({ name, description: 'Weekdays', repeat_count: 2, group_ids: [t], service_ids: [s], business_hours: hours }), personal);
    const { id, type, attributes: a } = created(res);
    assert.equal(type, 'escalation_policies');
    assert.deepEqual(
      [a.name, a.description, a.repeat_count, a.group_ids, a.service_ids, a.business_hours, a.created_by_user_id, a.last_updated_by_user_id],
      [name, 'Weekdays', 2, [t], [s], hours, admin, admin],
    );
    assert.deepEqual((await send('GET', `/v1/escalation_policies/${id}`)).body.data, res.body.data);
    assert.deepEqual(ids(await send('GET', `/v1/escalation_policies?filter[name]=${encodeURIComponent(name)}`)), [id]);
    assert.deepEqual(ids(await send('GET', `/v1/escalation_policies?filter[search]=${encodeURIComponent(name.split(' ').pop()!)}`)), [id]);

    // A key without a user: the last change is by nobody, the creator stays.
    const updated = await send('PUT', `/v1/escalation_policies/${id}`, policy({ name: `${name} renamed`, repeat_count: 0, business_hours: null }), userless);
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    const u = updated.body.data.attributes;
    assert.deepEqual([u.name, u.repeat_count, u.business_hours, u.created_by_user_id, u.last_updated_by_user_id], [`${name} renamed`, 0, null, admin, null]);

    assert.equal((await send('DELETE', `/v1/escalation_policies/${id}`)).status, 200);
    assert.equal((await send('GET', `/v1/escalation_policies/${id}`)).status, 404);
    assert.deepEqual(await outboxTypes(api, id), ['escalation_policy.created', 'escalation_policy.updated', 'escalation_policy.deleted']);
  });

  test('left out, a policy repeats 0 times and is used by no team or service', async () => {
    const { attributes: a } = created(await send('POST', '/v1/escalation_policies', policy({ name: unique('Bare') }), userless));
    assert.deepEqual([a.repeat_count, a.group_ids, a.service_ids, a.business_hours, a.created_by_user_id], [0, [], [], null, null]);
  });

  test('teams and services must be of the organization (422 naming each one), enums and times are checked', async () => {
    const [theirTeam, theirService] = [await team(other.token), await service(other.token)];
    const unknown = await send('POST', '/v1/escalation_policies', policy({ name: unique('Refs'), group_ids: [await team(), theirTeam], service_ids: [randomUUID(), theirService] }));
    assert.equal(unknown.status, 422);
    assert.deepEqual(pointers(unknown), ['/data/attributes/group_ids/1', '/data/attributes/service_ids/0', '/data/attributes/service_ids/1']);

    const mine = created(await send('POST', '/v1/escalation_policies', policy({ name: unique('Mine') })));
    const update = await send('PUT', `/v1/escalation_policies/${mine.id}`, policy({ service_ids: [theirService] }));
    assert.deepEqual([update.status, pointers(update)], [422, ['/data/attributes/service_ids/0']]);

    const day = await send('POST', '/v1/escalation_policies', policy({ name: unique('Days'), business_hours: { days: ['M', 'X'] } }));
    assert.deepEqual([day.status, pointers(day)], [422, ['/data/attributes/business_hours/days/1']]);
    const bad = await send('POST', '/v1/escalation_policies', policy({ name: unique('Hours'), business_hours: { start_time: '9am', end_time: '25:00', time_zone: 'Mars/Olympus' } }));
    assert.equal(bad.status, 422);
    assert.deepEqual(pointers(bad), ['/data/attributes/business_hours/start_time', '/data/attributes/business_hours/end_time', '/data/attributes/business_hours/time_zone']);
    const negative = await send('POST', '/v1/escalation_policies', policy({ name: unique('Negative'), repeat_count: -1 }));
    assert.deepEqual([negative.status, pointers(negative)], [422, ['/data/attributes/repeat_count']]);
    const nameless = await send('POST', '/v1/escalation_policies', policy({ description: 'no name' }));
    assert.deepEqual([nameless.status, pointers(nameless)], [422, ['/data/attributes/name']]);
  });

  test("another organization's policy answers 404 and is not changed", async () => {
    const theirs = created(await send('POST', '/v1/escalation_policies', policy({ name: unique('Theirs') }), other.token));
    const item = `/v1/escalation_policies/${theirs.id}`;
    for (const [method, body] of [['GET'], ['PUT', policy({ name: 'Taken' })], ['DELETE']] as const) {
      const res = await send(method, item, body);
      assert.equal(res.status, 404);
      assert.deepEqual(errorCodes(res), ['404/NOT_FOUND/Not found']);
    }
    assert.deepEqual((await send('GET', item, undefined, other.token)).body.data, theirs);
    assert.ok(!ids(await send('GET', '/v1/escalation_policies?page[size]=100')).includes(theirs.id));
  });

  test("a team's key edits the policies its team uses, not the others", async () => {
    const t = await team();
    const key = await send('POST', '/v1/api_keys', { data: { type: 'api_keys', attributes: { name: unique('Team CI'), kind: 'team', group_id: t, expires_at: new Date(Date.now() + 86_400_000).toISOString() } } });
    const teamKey = created(key).attributes.token as string;
    const owned = created(await send('POST', '/v1/escalation_policies', policy({ name: unique('Team owned'), group_ids: [t] }), teamKey));
    assert.equal((await send('PUT', `/v1/escalation_policies/${owned.id}`, policy({ repeat_count: 1 }), teamKey)).status, 200);
    const foreign = created(await send('POST', '/v1/escalation_policies', policy({ name: unique('Not theirs') })));
    assert.equal((await send('PUT', `/v1/escalation_policies/${foreign.id}`, policy({ repeat_count: 1 }), teamKey)).status, 403);
  });
});
