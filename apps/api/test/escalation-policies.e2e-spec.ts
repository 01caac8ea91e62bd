import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ESCALATION_POLICIES_PER_TEAM } from '@taproot/on-call';
import { startTestApi, type TestApi, type TestOrganization } from '../src/testing';
import { created, errorCodes, ids, outboxTypes, pointers, unique } from './support/json-api';

type Attributes = Record<string, unknown>;
const policy = (attributes: Attributes) => ({ data: { type: 'escalation_policies', attributes } });
const path = (attributes: Attributes) => ({ data: { type: 'escalation_paths', attributes } });
const level = (attributes: Attributes) => ({ data: { type: 'escalation_levels', attributes } });

describe('escalation policies (teams and services using them, business hours) and their paths (rules, time restrictions, deferrals)', () => {
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
  const newPolicy = async (token = org.token) => created(await send('POST', '/v1/escalation_policies', policy({ name: unique('Policy') }), token)).id as string;
  const newPath = async (policyId: string, attributes: Attributes = {}) => created(await send('POST', `/v1/escalation_policies/${policyId}/escalation_paths`, path({ name: unique('Path'), ...attributes })));

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

  test(`a team owns at most ${ESCALATION_POLICIES_PER_TEAM} policies (spec, Limits): the next create or an update adding the team is a 422 naming it; concurrent creates never pass the cap`, async () => {
    const t = await team();
    const withTeam = (name: string, group_ids = [t]) => send('POST', '/v1/escalation_policies', policy({ name: unique(name), group_ids }));
    for (let i = 0; i < ESCALATION_POLICIES_PER_TEAM - 1; i += 11) await Promise.all(Array.from({ length: Math.min(11, ESCALATION_POLICIES_PER_TEAM - 1 - i) }, () => withTeam('Capped').then(created)));
    // The last place, taken by one of two concurrent creates.
    const race = await Promise.all([withTeam('Racer'), withTeam('Racer')]);
    assert.deepEqual(race.map((r) => r.status).sort(), [201, 422], JSON.stringify(race.map((r) => r.body)));
    const countOfTeam = async () => (await send('GET', `/v1/escalation_policies?filter[team_ids]=${t}&page[size]=1`)).body.meta.total_count;
    assert.equal(await countOfTeam(), ESCALATION_POLICIES_PER_TEAM);

    const other = await team();
    const refused = await withTeam('Over', [other, t]);
    assert.equal(refused.status, 422);
    assert.deepEqual(errorCodes(refused), ['422/ESCALATION_POLICY_LIMIT_REACHED/Invalid attribute']);
    assert.deepEqual(pointers(refused), ['/data/attributes/group_ids/1']);
    assert.match(refused.body.errors[0].detail, new RegExp(`team ${t} already owns ${ESCALATION_POLICIES_PER_TEAM} escalation policies`));
    assert.equal(await countOfTeam(), ESCALATION_POLICIES_PER_TEAM, 'nothing written');

    // An update that adds the team is refused; one that keeps it is not.
    const outside = created(await withTeam('Outside', [other])).id;
    const adding = await send('PUT', `/v1/escalation_policies/${outside}`, policy({ group_ids: [other, t] }));
    assert.deepEqual([adding.status, pointers(adding)], [422, ['/data/attributes/group_ids/1']]);
    const member = ids(await send('GET', `/v1/escalation_policies?filter[team_ids]=${t}&page[size]=1`))[0];
    assert.equal((await send('PUT', `/v1/escalation_policies/${member}`, policy({ name: unique('Kept'), group_ids: [t, other] }))).status, 200);

    // A place freed is a place to take.
    assert.equal((await send('DELETE', `/v1/escalation_policies/${member}`)).status, 200);
    created(await withTeam('Freed'));
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

  test('a path is created under its policy, read, listed, updated and deleted, each change an event', async () => {
    const policyId = await newPolicy();
    const s = await service();
    const rules = [
      { rule_type: 'service', service_ids: [s] },
      { rule_type: 'json_path', json_path: '$.labels.team', operator: 'is', value: 'payments' },
      { rule_type: 'working_hour', within_working_hour: true },
    ];
    const restrictions = [{ start_day: 'monday', start_time: '09:00', end_day: 'friday', end_time: '17:00' }];
    const res = await send('POST', `/v1/escalation_policies/${policyId}/escalation_paths`, path({ name: 'Business hours', match_mode: 'match-any-rule', initial_delay: 5, repeat: true, repeat_count: 2, rules, time_restrictions: restrictions, time_restriction_time_zone: 'Europe/Paris' }));
    const { id, type, attributes: a } = created(res);
    assert.equal(type, 'escalation_paths');
    assert.deepEqual(
      [a.escalation_policy_id, a.path_type, a.default, a.notification_type, a.match_mode, a.position, a.initial_delay, a.repeat, a.repeat_count, a.rules, a.time_restrictions, a.time_restriction_time_zone],
      [policyId, 'escalation', false, 'audible', 'match-any-rule', 1, 5, true, 2, rules, restrictions, 'Europe/Paris'],
    );
    assert.deepEqual((await send('GET', `/v1/escalation_paths/${id}`)).body.data, res.body.data);
    const second = await newPath(policyId);
    assert.equal(second.attributes.position, 2, 'a new path goes last');
    assert.deepEqual(ids(await send('GET', `/v1/escalation_policies/${policyId}/escalation_paths`)), [id, second.id]);

    const updated = await send('PUT', `/v1/escalation_paths/${id}`, path({ name: 'Renamed', notification_type: 'quiet', rules: [] }));
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.deepEqual([updated.body.data.attributes.name, updated.body.data.attributes.notification_type, updated.body.data.attributes.rules], ['Renamed', 'quiet', []]);

    assert.equal((await send('DELETE', `/v1/escalation_paths/${id}`)).status, 200);
    assert.equal((await send('GET', `/v1/escalation_paths/${id}`)).status, 404);
    assert.deepEqual(await outboxTypes(api, id), ['escalation_path.created', 'escalation_path.updated', 'escalation_path.deleted']);
  });

  test('deferral paths say what follows them; the listing answers both kinds, filter[path_type] one', async () => {
    const policyId = await newPolicy();
    const escalation = await newPath(policyId);
    const window = { rule_type: 'deferral_window', time_zone: 'America/New_York', time_blocks: [{ monday: true, start_time: '22:00', end_time: '06:00' }] };
    const missing = await send('POST', `/v1/escalation_policies/${policyId}/escalation_paths`, path({ name: 'Night', path_type: 'deferral', rules: [window] }));
    assert.deepEqual([missing.status, pointers(missing)], [422, ['/data/attributes/after_deferral_behavior']]);
    const noTarget = await send('POST', `/v1/escalation_policies/${policyId}/escalation_paths`, path({ name: 'Night', path_type: 'deferral', after_deferral_behavior: 'execute_path' }));
    assert.deepEqual([noTarget.status, pointers(noTarget)], [422, ['/data/attributes/after_deferral_path_id']]);
    const deferral = await newPath(policyId, { path_type: 'deferral', rules: [window], after_deferral_behavior: 'execute_path', after_deferral_path_id: escalation.id });
    assert.deepEqual([deferral.attributes.path_type, deferral.attributes.after_deferral_path_id], ['deferral', escalation.id]);
    assert.deepEqual(ids(await send('GET', `/v1/escalation_policies/${policyId}/escalation_paths`)), [escalation.id, deferral.id]);
    assert.deepEqual(ids(await send('GET', `/v1/escalation_policies/${policyId}/escalation_paths?filter[path_type]=deferral`)), [deferral.id]);

    // The path run after a deferral is an escalation path of the same policy.
    const elsewhere = await newPath(await newPolicy());
    for (const target of [elsewhere.id, deferral.id, randomUUID()]) {
      const res = await send('PUT', `/v1/escalation_paths/${deferral.id}`, path({ after_deferral_path_id: target }));
      assert.deepEqual([res.status, pointers(res)], [422, ['/data/attributes/after_deferral_path_id']], target);
    }
    // An escalation path's after_deferral settings play no part: kept as sent, as the reference accepts them.
    const onEscalation = await send('PUT', `/v1/escalation_paths/${escalation.id}`, path({ after_deferral_behavior: 're_evaluate', after_deferral_path_id: 'anything' }));
    assert.deepEqual([onEscalation.status, onEscalation.body.data.attributes.after_deferral_path_id], [200, 'anything']);
    // path_type cannot be changed after creation: a sent one is ignored.
    assert.equal((await send('PUT', `/v1/escalation_paths/${escalation.id}`, path({ path_type: 'deferral' }))).body.data.attributes.path_type, 'escalation');
  });

  test('rules and restrictions are checked: enums, what each rule type needs, times, zones, services (422 naming the member)', async () => {
    const policyId = await newPolicy();
    const refused = async (attributes: Attributes) => {
      const res = await send('POST', `/v1/escalation_policies/${policyId}/escalation_paths`, path({ name: unique('Refused'), ...attributes }));
      assert.equal(res.status, 422, JSON.stringify(attributes));
      return pointers(res);
    };
    assert.deepEqual(await refused({ match_mode: 'some' }), ['/data/attributes/match_mode']);
    assert.deepEqual(await refused({ path_type: 'detour' }), ['/data/attributes/path_type']);
    assert.deepEqual(await refused({ notification_type: 'loud' }), ['/data/attributes/notification_type']);
    assert.deepEqual(await refused({ initial_delay: 10081 }), ['/data/attributes/initial_delay']);
    assert.deepEqual(await refused({ after_deferral_behavior: 'wait' }), ['/data/attributes/after_deferral_behavior']);
    assert.deepEqual(await refused({ rules: [{ rule_type: 'weather' }] }), ['/data/attributes/rules/0/rule_type']);
    assert.deepEqual(await refused({ rules: [{ rule_type: 'source', operator: 'contains', values: ['datadog'] }] }), ['/data/attributes/rules/0/operator']);
    assert.deepEqual(await refused({ rules: [{ rule_type: 'json_path', operator: 'is' }] }), ['/data/attributes/rules/0/json_path']);
    assert.deepEqual(await refused({ rules: [{ rule_type: 'working_hour', within_working_hour: true }, { rule_type: 'service', service_ids: [await service(other.token)] }] }), ['/data/attributes/rules/1/service_ids/0']);
    assert.deepEqual(await refused({ rules: [{ rule_type: 'deferral_window', time_zone: 'Mars/Olympus', time_blocks: [{ start_time: '9am' }] }] }), ['/data/attributes/rules/0/time_zone', '/data/attributes/rules/0/time_blocks/0/start_time']);
    assert.deepEqual(await refused({ time_restrictions: [{ start_day: 'someday', start_time: '09:00', end_day: 'friday', end_time: '17:00' }] }), ['/data/attributes/time_restrictions/0/start_day']);
    assert.deepEqual(await refused({ time_restrictions: [{ start_day: 'monday', start_time: '09:00', end_day: 'friday', end_time: '5pm' }], time_restriction_time_zone: 'Nowhere' }), [
      '/data/attributes/time_restrictions/0/end_time',
      '/data/attributes/time_restriction_time_zone',
    ]);
  });

  test("Rails zone names of the reference's enums are taken on business hours, time restrictions and deferral windows, answered as sent; an unknown name is a 422 naming the field", async () => {
    const [dateLine, eastern] = ['International Date Line West', 'Eastern Time (US & Canada)'];
    const hours = (time_zone: string) => ({ days: ['M', 'F'], start_time: '09:00', end_time: '17:00', time_zone });
    const made = created(await send('POST', '/v1/escalation_policies', policy({ name: unique('Rails zones'), business_hours: hours(dateLine) })));
    assert.deepEqual(made.attributes.business_hours, hours(dateLine));
    const moved = await send('PUT', `/v1/escalation_policies/${made.id}`, policy({ business_hours: hours(eastern) }));
    assert.deepEqual([moved.status, moved.body.data.attributes.business_hours], [200, hours(eastern)]);
    assert.deepEqual((await send('GET', `/v1/escalation_policies/${made.id}`)).body.data.attributes.business_hours, hours(eastern));

    const restrictions = [{ start_day: 'monday', start_time: '09:00', end_day: 'friday', end_time: '17:00' }];
    const window = (time_zone: string) => ({ rule_type: 'deferral_window', time_zone, time_blocks: [{ monday: true, start_time: '22:00', end_time: '06:00' }] });
    const escalation = await newPath(made.id, { time_restrictions: restrictions, time_restriction_time_zone: dateLine });
    assert.equal(escalation.attributes.time_restriction_time_zone, dateLine);
    const deferral = await newPath(made.id, { path_type: 'deferral', rules: [window(eastern)], after_deferral_behavior: 're_evaluate', time_restriction_time_zone: eastern });
    assert.deepEqual([deferral.attributes.rules, deferral.attributes.time_restriction_time_zone], [[window(eastern)], eastern]);
    const swapped = await send('PUT', `/v1/escalation_paths/${deferral.id}`, path({ rules: [window(dateLine)], time_restriction_time_zone: dateLine }));
    assert.deepEqual([swapped.status, swapped.body.data.attributes.rules, swapped.body.data.attributes.time_restriction_time_zone], [200, [window(dateLine)], dateLine]);
    const again = (await send('GET', `/v1/escalation_paths/${escalation.id}`)).body.data.attributes;
    assert.deepEqual([again.time_restriction_time_zone, again.time_restrictions], [dateLine, restrictions]);

    // A Rails name is matched as written: another case or a made-up one is refused, naming the field, and nothing changes.
    const refusedPolicy = await send('PUT', `/v1/escalation_policies/${made.id}`, policy({ business_hours: hours('eastern time (us & canada)') }));
    assert.deepEqual([refusedPolicy.status, pointers(refusedPolicy), errorCodes(refusedPolicy)[0].split('/')[1]], [422, ['/data/attributes/business_hours/time_zone'], 'INVALID_TIME_ZONE']);
    assert.match(refusedPolicy.body.errors[0].detail, /time_zone must be an IANA time zone name .* or a Rails time zone name/);
    const refusedPath = await send('PUT', `/v1/escalation_paths/${deferral.id}`, path({ rules: [window('Atlantis')], time_restriction_time_zone: 'Eastern Time' }));
    assert.deepEqual([refusedPath.status, pointers(refusedPath)], [422, ['/data/attributes/rules/0/time_zone', '/data/attributes/time_restriction_time_zone']]);
    assert.deepEqual((await send('GET', `/v1/escalation_policies/${made.id}`)).body.data.attributes.business_hours, hours(eastern));
    const kept = (await send('GET', `/v1/escalation_paths/${deferral.id}`)).body.data.attributes;
    assert.deepEqual([kept.rules, kept.time_restriction_time_zone], [[window(dateLine)], dateLine]);
  });

  test("another organization's policy and paths answer 404; deleting a policy deletes its paths, each with its event", async () => {
    const theirPolicy = await newPolicy(other.token);
    const theirs = created(await send('POST', `/v1/escalation_policies/${theirPolicy}/escalation_paths`, path({ name: 'Theirs' }), other.token));
    for (const [method, url, body] of [
      ['GET', `/v1/escalation_policies/${theirPolicy}/escalation_paths`],
      ['POST', `/v1/escalation_policies/${theirPolicy}/escalation_paths`, path({ name: 'Mine' })],
      ['GET', `/v1/escalation_paths/${theirs.id}`],
      ['PUT', `/v1/escalation_paths/${theirs.id}`, path({ name: 'Taken' })],
      ['DELETE', `/v1/escalation_paths/${theirs.id}`],
    ] as const) {
      const res = await send(method, url, body);
      assert.equal(res.status, 404, `${method} ${url}`);
      assert.deepEqual(errorCodes(res), ['404/NOT_FOUND/Not found']);
    }

    const policyId = await newPolicy();
    const [first, second] = [await newPath(policyId), await newPath(policyId)];
    assert.equal((await send('DELETE', `/v1/escalation_policies/${policyId}`)).status, 200);
    for (const p of [first, second]) {
      assert.equal((await send('GET', `/v1/escalation_paths/${p.id}`)).status, 404);
      assert.deepEqual(await outboxTypes(api, p.id), ['escalation_path.created', 'escalation_path.deleted']);
    }
  });

  test('a level is created under its policy on the default path, read, listed, updated and deleted, each change an event', async () => {
    const policyId = await newPolicy();
    const [plain, byDefault] = [await newPath(policyId), await newPath(policyId, { default: true })];
    const [t, schedule] = [await team(), created(await send('POST', '/v1/schedules', { data: { type: 'schedules', attributes: { name: unique('Schedule'), owner_user_id: admin } } })).id];
    const targets = [
      { id: String(admin), type: 'user' },
      { id: t, type: 'team', team_members: 'admins' },
      { id: schedule, type: 'schedule' },
      { id: 'C06Q2JK7RQW', type: 'slack_channel' },
    ];
    const res = await send('POST', `/v1/escalation_policies/${policyId}/escalation_levels`, level({ delay: 5, notification_target_params: targets, paging_strategy_configuration_strategy: 'cycle' }));
    const { id, type, attributes: a } = created(res);
    assert.equal(type, 'escalation_levels');
    assert.deepEqual(
      [a.escalation_policy_id, a.escalation_policy_path_id, a.position, a.delay, a.notification_target_params, a.paging_strategy_configuration_strategy, a.paging_strategy_configuration_schedule_strategy],
      [policyId, byDefault.id, 1, 5, targets, 'cycle', 'on_call_only'],
    );
    assert.deepEqual((await send('GET', `/v1/escalation_levels/${id}`)).body.data, res.body.data);
    const second = created(await send('POST', `/v1/escalation_policies/${policyId}/escalation_levels`, level({ escalation_policy_path_id: plain.id, notification_target_params: [] })));
    assert.deepEqual([second.attributes.position, second.attributes.escalation_policy_path_id], [2, plain.id]);
    assert.deepEqual(ids(await send('GET', `/v1/escalation_policies/${policyId}/escalation_levels`)), [id, second.id]);

    const updated = await send('PUT', `/v1/escalation_levels/${id}`, level({ delay: 10, paging_strategy_configuration_schedule_strategy: 'everyone', paging_strategy_configuration_strategy: null }));
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    const u = updated.body.data.attributes;
    assert.deepEqual([u.delay, u.paging_strategy_configuration_schedule_strategy, u.paging_strategy_configuration_strategy], [10, 'everyone', 'default']);

    assert.equal((await send('DELETE', `/v1/escalation_levels/${id}`)).status, 200);
    assert.equal((await send('GET', `/v1/escalation_levels/${id}`)).status, 404);
    assert.deepEqual(await outboxTypes(api, id), ['escalation_level.created', 'escalation_level.updated', 'escalation_level.deleted']);
    // Without a default path, a level is on none.
    const bare = await newPolicy();
    assert.equal(created(await send('POST', `/v1/escalation_policies/${bare}/escalation_levels`, level({ notification_target_params: [] }))).attributes.escalation_policy_path_id, null);
  });

  test("a level's targets, strategies and path are checked (422 naming the member); deleting its path or policy deletes it, with its event", async () => {
    const policyId = await newPolicy();
    const refused = async (attributes: Attributes) => {
      const res = await send('POST', `/v1/escalation_policies/${policyId}/escalation_levels`, level({ notification_target_params: [], ...attributes }));
      assert.equal(res.status, 422, JSON.stringify(attributes));
      return pointers(res);
    };
    assert.deepEqual(await refused({ notification_target_params: [{ id: 'x', type: 'pager' }] }), ['/data/attributes/notification_target_params/0/type']);
    assert.deepEqual(await refused({ notification_target_params: [{ id: await team(), type: 'team', team_members: 'some' }] }), ['/data/attributes/notification_target_params/0/team_members']);
    assert.deepEqual(await refused({ notification_target_params: [{ id: 'C1', type: 'slack_channel' }, { id: await team(other.token), type: 'team' }] }), ['/data/attributes/notification_target_params/1/id']);
    assert.deepEqual(await refused({ notification_target_params: [{ id: randomUUID(), type: 'schedule' }, { id: '999999', type: 'user' }] }), ['/data/attributes/notification_target_params/0/id', '/data/attributes/notification_target_params/1/id']);
    assert.deepEqual(await refused({ paging_strategy_configuration_strategy: 'loudest' }), ['/data/attributes/paging_strategy_configuration_strategy']);
    assert.deepEqual(await refused({ paging_strategy_configuration_schedule_strategy: 'nobody' }), ['/data/attributes/paging_strategy_configuration_schedule_strategy']);
    assert.deepEqual(await refused({ delay: -1 }), ['/data/attributes/delay']);
    assert.deepEqual(await refused({ escalation_policy_path_id: (await newPath(await newPolicy())).id }), ['/data/attributes/escalation_policy_path_id']);
    assert.deepEqual(await refused({ notification_target_params: undefined }), ['/data/attributes/notification_target_params']);

    const onPath = await newPath(policyId);
    const doomed = created(await send('POST', `/v1/escalation_policies/${policyId}/escalation_levels`, level({ escalation_policy_path_id: onPath.id, notification_target_params: [] })));
    const kept = created(await send('POST', `/v1/escalation_policies/${policyId}/escalation_levels`, level({ notification_target_params: [] })));
    assert.equal((await send('DELETE', `/v1/escalation_paths/${onPath.id}`)).status, 200);
    assert.deepEqual(await outboxTypes(api, doomed.id), ['escalation_level.created', 'escalation_level.deleted']);
    assert.equal((await send('GET', `/v1/escalation_levels/${kept.id}`)).status, 200);
    assert.equal((await send('DELETE', `/v1/escalation_policies/${policyId}`)).status, 200);
    assert.deepEqual(await outboxTypes(api, kept.id), ['escalation_level.created', 'escalation_level.deleted']);
  });

  test("another organization's levels answer 404 on every route", async () => {
    const theirPolicy = await newPolicy(other.token);
    const theirs = created(await send('POST', `/v1/escalation_policies/${theirPolicy}/escalation_levels`, level({ notification_target_params: [] }), other.token));
    for (const [method, url, body] of [
      ['GET', `/v1/escalation_policies/${theirPolicy}/escalation_levels`],
      ['POST', `/v1/escalation_policies/${theirPolicy}/escalation_levels`, level({ notification_target_params: [] })],
      ['GET', `/v1/escalation_levels/${theirs.id}`],
      ['PUT', `/v1/escalation_levels/${theirs.id}`, level({ delay: 1 })],
      ['DELETE', `/v1/escalation_levels/${theirs.id}`],
    ] as const) {
      const res = await send(method, url, body);
      assert.deepEqual([res.status, errorCodes(res)], [404, ['404/NOT_FOUND/Not found']], `${method} ${url}`);
    }
  });

  test("a path's levels: created and listed at /v1/escalation_paths/{id}/escalation_levels, on that path only", async () => {
    const policyId = await newPolicy();
    const [first, second] = [await newPath(policyId, { default: true }), await newPath(policyId)];
    const onSecond = await send('POST', `/v1/escalation_paths/${second.id}/escalation_levels`, level({ delay: 3, notification_target_params: [{ id: String(admin), type: 'user' }] }));
    const made = created(onSecond);
    assert.deepEqual([made.attributes.escalation_policy_id, made.attributes.escalation_policy_path_id, made.attributes.position], [policyId, second.id, 1]);
    const onFirst = created(await send('POST', `/v1/escalation_policies/${policyId}/escalation_levels`, level({ notification_target_params: [] })));
    assert.deepEqual(ids(await send('GET', `/v1/escalation_paths/${second.id}/escalation_levels`)), [made.id]);
    assert.deepEqual(ids(await send('GET', `/v1/escalation_paths/${first.id}/escalation_levels`)), [onFirst.id]);
    // A client's own path filter does not widen the path's list.
    assert.deepEqual(ids(await send('GET', `/v1/escalation_paths/${second.id}/escalation_levels?filter[escalation_policy_path_id]=${first.id}`)), [made.id]);
    assert.deepEqual(await outboxTypes(api, made.id), ['escalation_level.created']);

    const elsewhere = await send('POST', `/v1/escalation_paths/${second.id}/escalation_levels`, level({ escalation_policy_path_id: first.id, notification_target_params: [] }));
    assert.deepEqual([elsewhere.status, pointers(elsewhere)], [422, ['/data/attributes/escalation_policy_path_id']]);
    const badTarget = await send('POST', `/v1/escalation_paths/${second.id}/escalation_levels`, level({ notification_target_params: [{ id: randomUUID(), type: 'team' }] }));
    assert.deepEqual([badTarget.status, pointers(badTarget)], [422, ['/data/attributes/notification_target_params/0/id']]);

    const theirPolicy = await newPolicy(other.token);
    const theirPath = created(await send('POST', `/v1/escalation_policies/${theirPolicy}/escalation_paths`, path({ name: 'Theirs' }), other.token));
    for (const url of [`/v1/escalation_paths/${theirPath.id}/escalation_levels`, `/v1/escalation_paths/${randomUUID()}/escalation_levels`, '/v1/escalation_paths/not-an-id/escalation_levels']) {
      assert.deepEqual([(await send('GET', url)).status, (await send('POST', url, level({ notification_target_params: [] }))).status], [404, 404], url);
    }
  });
  describe('include and filter[team_ids]', () => {
    type Resource = { id: string; type: string; attributes: Attributes; relationships?: Record<string, { data: unknown }> };
    const ALL = 'escalation_policy_levels,escalation_policy_paths,groups,services';
    const read = async (url: string, token = org.token) => {
      const res = await send('GET', url, undefined, token);
      assert.equal(res.status, 200, `${url}: ${JSON.stringify(res.body)}`);
      return res;
    };
    const linkage = (type: string, ...records: string[]) => records.map((id) => ({ type, id }));
    const included = (res: { body: { included?: Resource[] } }) => (res.body.included ?? []).map((r) => `${r.type}:${r.id}`).sort();
    const policyOf = (res: { body: { data: Resource[] } }, id: string) => res.body.data.find((p) => p.id === id)!;
    /** A policy used by two teams and a service, with two paths and a level on each (the second path's level first). */
    async function usedPolicy() {
      const [t1, t2, s] = [await team(), await team(), await service()];
      const id = created(await send('POST', '/v1/escalation_policies', policy({ name: unique('Included'), group_ids: [t1, t2], service_ids: [s] }))).id as string;
      const [main, other] = [await newPath(id, { default: true }), await newPath(id)];
      const onOther = created(await send('POST', `/v1/escalation_policies/${id}/escalation_levels`, level({ escalation_policy_path_id: other.id, notification_target_params: [{ id: String(admin), type: 'user' }] })));
      const onMain = created(await send('POST', `/v1/escalation_policies/${id}/escalation_levels`, level({ delay: 5, notification_target_params: [{ id: t1, type: 'team' }] })));
      return { id, t1, t2, s, paths: [main.id as string, other.id as string], levels: [onOther.id as string, onMain.id as string] };
    }

    test('every include on the get: the linkage under its name, the records once in included, as their own routes answer them', async () => {
      const p = await usedPolicy();
      const res = await read(`/v1/escalation_policies/${p.id}?include=${ALL}`);
      const { relationships } = res.body.data as Resource;
      assert.deepEqual(relationships, {
        escalation_policy_levels: { data: linkage('escalation_levels', ...p.levels) },
        escalation_policy_paths: { data: linkage('escalation_paths', ...p.paths) },
        groups: { data: linkage('groups', p.t1, p.t2) },
        services: { data: linkage('services', p.s) },
      });
      assert.deepEqual(included(res), [...p.levels.map((id) => `escalation_levels:${id}`), ...p.paths.map((id) => `escalation_paths:${id}`), `groups:${p.t1}`, `groups:${p.t2}`, `services:${p.s}`].sort());
      const own: Record<string, string> = { escalation_levels: '/v1/escalation_levels', escalation_paths: '/v1/escalation_paths', groups: '/v1/teams', services: '/v1/services' };
      for (const record of res.body.included as Resource[]) {
        assert.deepEqual(record.relationships, {}, `${record.type} ${record.id} has its relationships object`);
        assert.deepEqual(record.attributes, (await read(`${own[record.type]}/${record.id}`)).body.data.attributes, `${record.type} ${record.id}`);
      }
      // Each include alone links and includes only its own records; without include, neither.
      for (const [name, type] of [['escalation_policy_levels', 'escalation_levels'], ['escalation_policy_paths', 'escalation_paths'], ['groups', 'groups'], ['services', 'services']]) {
        const one = await read(`/v1/escalation_policies/${p.id}?include=${name}`);
        assert.deepEqual(Object.keys(one.body.data.relationships), [name]);
        assert.deepEqual(new Set((one.body.included as Resource[]).map((r) => r.type)), new Set([type]), name);
      }
      const plain = await read(`/v1/escalation_policies/${p.id}`);
      assert.deepEqual([plain.body.data.relationships, plain.body.included], [undefined, undefined]);
      assert.ok(!('team_ids' in plain.body.data.attributes), 'filter[team_ids] is no attribute');
    });

    test('every include on the list: each policy its own linkage (empty lists for a bare one), shared records included once', async () => {
      const p = await usedPolicy();
      const tag = unique('tag').replace(' ', '-');
      const sharing = created(await send('POST', '/v1/escalation_policies', policy({ name: `Sharing ${tag}`, group_ids: [p.t1] }))).id as string;
      const bare = created(await send('POST', '/v1/escalation_policies', policy({ name: `Bare ${tag}` }))).id as string;
      await send('PUT', `/v1/escalation_policies/${p.id}`, policy({ description: tag }));
      const res = await read(`/v1/escalation_policies?filter[search]=${encodeURIComponent(tag)}&include=${ALL}`);
      assert.deepEqual(ids(res), [p.id, sharing, bare]);
      assert.deepEqual(policyOf(res, p.id).relationships, {
        escalation_policy_levels: { data: linkage('escalation_levels', ...p.levels) },
        escalation_policy_paths: { data: linkage('escalation_paths', ...p.paths) },
        groups: { data: linkage('groups', p.t1, p.t2) },
        services: { data: linkage('services', p.s) },
      });
      assert.deepEqual(policyOf(res, sharing).relationships, { escalation_policy_levels: { data: [] }, escalation_policy_paths: { data: [] }, groups: { data: linkage('groups', p.t1) }, services: { data: [] } });
      assert.deepEqual(policyOf(res, bare).relationships, { escalation_policy_levels: { data: [] }, escalation_policy_paths: { data: [] }, groups: { data: [] }, services: { data: [] } });
      assert.equal((res.body.included as Resource[]).filter((r) => r.id === p.t1).length, 1, 'a team two policies use is included once');
      assert.equal(res.body.included.length, 7);
      for (const [name, count] of [['escalation_policy_levels', 2], ['escalation_policy_paths', 2], ['groups', 2], ['services', 1]] as const) {
        const one = await read(`/v1/escalation_policies?filter[search]=${encodeURIComponent(tag)}&include=${name}`);
        assert.deepEqual(one.body.data.map((d: Resource) => Object.keys(d.relationships ?? {})), [[name], [name], [name]]);
        assert.equal(one.body.included.length, count, name);
      }
    });

    test("a path's include=escalation_policy_levels, on the policy's path list and the path's get: the levels on that path, as their own route answers them", async () => {
      const p = await usedPolicy();
      const [main, second] = p.paths;
      const [onSecond, onMain] = p.levels;
      const got = await read(`/v1/escalation_paths/${second}?include=escalation_policy_levels`);
      assert.deepEqual((got.body.data as Resource).relationships, { escalation_policy_levels: { data: linkage('escalation_levels', onSecond) } });
      assert.deepEqual(included(got), [`escalation_levels:${onSecond}`]);
      assert.deepEqual((got.body.included as Resource[])[0].attributes, (await read(`/v1/escalation_levels/${onSecond}`)).body.data.attributes);
      const listed = await read(`/v1/escalation_policies/${p.id}/escalation_paths?include=escalation_policy_levels`);
      assert.deepEqual(
        (listed.body.data as Resource[]).map((r) => [r.id, r.relationships]),
        [
          [main, { escalation_policy_levels: { data: linkage('escalation_levels', onMain) } }],
          [second, { escalation_policy_levels: { data: linkage('escalation_levels', onSecond) } }],
        ],
      );
      assert.deepEqual(included(listed), [`escalation_levels:${onMain}`, `escalation_levels:${onSecond}`].sort());
      assert.equal((await read(`/v1/escalation_paths/${second}`)).body.data.relationships, undefined, 'without include, no relationships');
      const bad = await send('GET', `/v1/escalation_paths/${second}?include=groups`);
      assert.deepEqual([bad.status, bad.body.errors[0].source?.parameter], [400, 'include']);
    });

    test('an include the reference does not declare is a 400 naming include, on the list and the get', async () => {
      const id = await newPolicy();
      for (const url of ['/v1/escalation_policies?include=owners', `/v1/escalation_policies/${id}?include=groups,owners`, '/v1/escalation_policies?include=escalation_levels', `/v1/escalation_policies/${id}?include=teams`]) {
        const res = await send('GET', url);
        assert.equal(res.status, 400, `${url}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.errors[0].source?.parameter, 'include', url);
        assert.match(res.body.errors[0].detail, /Unknown relationship '(owners|escalation_levels|teams)'/);
      }
    });

    test("filter[team_ids] (eq, in: used by any; not_eq, not_in: by none) matches group_ids; another organization's team matches nothing", async () => {
      const [t1, t2] = [await team(), await team()];
      const theirTeam = await team(other.token);
      created(await send('POST', '/v1/escalation_policies', policy({ name: unique('Theirs'), group_ids: [theirTeam] }), other.token));
      const tag = unique('teams').replace(' ', '-');
      const make = async (group_ids: string[]) => created(await send('POST', '/v1/escalation_policies', policy({ name: `${tag} ${group_ids.length}`, group_ids }))).id as string;
      const [first, both, second, none] = [await make([t1]), await make([t1, t2]), await make([t2]), await make([])];
      const listed = async (query: string) => ids(await read(`/v1/escalation_policies?${query}`));
      const tagged = `filter[search]=${encodeURIComponent(tag)}`;
      assert.deepEqual(await listed(`filter[team_ids]=${t1}`), [first, both]);
      assert.deepEqual(await listed(`filter[team_ids][eq]=${t2}`), [both, second]);
      assert.deepEqual(await listed(`filter[team_ids][in]=${t1},${t2}`), [first, both, second]);
      assert.deepEqual(await listed(`filter[team_ids][in]=${t1}&filter[team_ids][in]=${t2}`), [first, both, second], 'repeats merge');
      assert.deepEqual(await listed(`${tagged}&filter[team_ids][not_eq]=${t1}`), [second, none]);
      assert.deepEqual(await listed(`${tagged}&filter[team_ids][not_in]=${t1},${t2}`), [none]);
      assert.deepEqual(await listed(`filter[team_ids]=${t1}&filter[team_ids][not_in]=${t2}`), [first]);
      assert.deepEqual(await listed(`filter[team_ids]=${t2}&include=groups&page[size]=1`), [both]);
      // Another organization's team, or no team at all, matches none of ours (and excludes none).
      assert.deepEqual(await listed(`filter[team_ids]=${theirTeam}`), []);
      assert.deepEqual(await listed(`filter[team_ids][in]=${theirTeam},${randomUUID()},not-a-team`), []);
      assert.deepEqual(await listed(`${tagged}&filter[team_ids][not_in]=${theirTeam}`), [first, both, second, none]);
      // Without a value it filters nothing (the hosted API's Terraform provider sends such filters).
      assert.deepEqual(await listed(`${tagged}&filter[team_ids]=`), await listed(tagged));
      // Their own list sees their policy only.
      assert.equal((await read(`/v1/escalation_policies?filter[team_ids]=${t1}`, other.token)).body.data.length, 0);
      for (const [query, parameter] of [
        [`filter[team_ids][gt]=${t1}`, `filter[team_ids][gt]`],
        [`filter[team_ids][null]=true`, `filter[team_ids][null]`],
        [`filter[group_ids]=${t1}`, 'filter[group_ids]'],
      ]) {
        const res = await send('GET', `/v1/escalation_policies?${query}`);
        assert.deepEqual([res.status, res.body.errors?.[0]?.source?.parameter], [400, parameter], query);
      }
    });

    test("another organization's teams, services and levels never appear, even where a stored id names one", async () => {
      const p = await usedPolicy();
      const [theirTeam, theirService, theirPolicy] = [await team(other.token), await service(other.token), await newPolicy(other.token)];
      const theirLevel = created(await send('POST', `/v1/escalation_policies/${theirPolicy}/escalation_levels`, level({ notification_target_params: [] }), other.token)).id as string;
      // Planted in the read models, past the writes' reference checks: only the includes' scoping keeps them out.
      await api.runtime.dataSource.query('UPDATE escalation_policies_read SET group_ids = group_ids || $2::text, service_ids = service_ids || $3::text WHERE id = $1', [p.id, theirTeam, theirService]);
      await api.runtime.dataSource.query('UPDATE escalation_levels_read SET escalation_policy_id = $2 WHERE id = $1', [theirLevel, p.id]);
      for (const url of [`/v1/escalation_policies/${p.id}?include=${ALL}`, `/v1/escalation_policies?filter[team_ids]=${p.t2}&include=${ALL}`]) {
        const res = await read(url);
        const data = (Array.isArray(res.body.data) ? res.body.data[0] : res.body.data) as Resource;
        assert.deepEqual(data.relationships?.groups, { data: linkage('groups', p.t1, p.t2) }, url);
        assert.deepEqual(data.relationships?.services, { data: linkage('services', p.s) }, url);
        assert.deepEqual(data.relationships?.escalation_policy_levels, { data: linkage('escalation_levels', ...p.levels) }, url);
        assert.ok(!(res.body.included as Resource[]).some((r) => [theirTeam, theirService, theirLevel].includes(r.id)), url);
      }
    });

    test('the served OpenAPI document declares the include enum and filter[team_ids]', async () => {
      const openapi = (await read('/v1/openapi.json')).body;
      const parameters = (path: string) => openapi.paths[path].get.parameters as { name: string; schema: { enum?: string[] } }[];
      for (const path of ['/v1/escalation_policies', '/v1/escalation_policies/{id}']) {
        assert.deepEqual(parameters(path).find((p) => p.name === 'include')?.schema.enum, ['escalation_policy_levels', 'escalation_policy_paths', 'groups', 'services'], path);
      }
      assert.ok(parameters('/v1/escalation_policies').some((p) => p.name === 'filter[team_ids]'));
    });
  });
});
