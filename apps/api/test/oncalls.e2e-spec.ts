import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { startTestApi, type TestApi, type TestOrganization } from '../src/testing';
import { created, unique } from './support/json-api';
import { weeklySchedule } from './support/schedules';

const DAY = 24 * 3_600_000;
type Attributes = Record<string, unknown>;
const doc = (type: string, attributes: Attributes) => ({ data: { type, attributes } });

/**
 * `GET /v1/oncalls` (issue 15): who is on call at each level of each escalation policy, from the
 * levels' user, team and schedule targets and the schedules' shifts; the reference's filters,
 * includes and errors; another organization's policies never appear.
 */
describe('on-calls of escalation policies', () => {
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
  const fourUsers = async () => {
    const users: number[] = [];
    for (let i = 0; i < 4; i++) users.push(await api.addUser(org.organizationId, { roleKind: 'user' }));
    return users;
  };
  const oncalls = async (query: string, token = org.token) => {
    const res = await send('GET', `/v1/oncalls?${query}`, undefined, token);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body as { data: { id: string; type: string; attributes: Attributes; relationships: Record<string, { data: unknown }> }[]; included?: { type: string; id: string }[] };
  };

  test("a schedule level lists whoever is on call in the window, a user level its user, a team level the team's members", async () => {
    const [alice, bob, carol, dave] = await fourUsers();
    const { scheduleId } = await weeklySchedule(api, org.token, { members: [alice, bob], owner: alice });
    const team = created(await send('POST', '/v1/teams', doc('groups', { name: unique('Team'), user_ids: [dave] }))).id as string;
    const policy = created(await send('POST', '/v1/escalation_policies', doc('escalation_policies', { name: unique('Primary') }))).id as string;
    const path = created(await send('POST', `/v1/escalation_policies/${policy}/escalation_paths`, doc('escalation_paths', { name: 'Default', default: true, notification_type: 'quiet' }))).id as string;
    created(await send('POST', `/v1/escalation_policies/${policy}/escalation_levels`, doc('escalation_levels', { delay: 0, notification_target_params: [{ id: scheduleId, type: 'schedule' }] })));
    created(
      await send('POST', `/v1/escalation_policies/${policy}/escalation_levels`, doc('escalation_levels', { delay: 10, notification_target_params: [{ id: String(carol), type: 'user' }, { id: team, type: 'team' }] })),
    );

    const since = new Date(Math.ceil((Date.now() + 7 * DAY) / DAY) * DAY).toISOString();
    const until = new Date(Date.parse(since) + 14 * DAY).toISOString();
    const body = await oncalls(`since=${since}&until=${until}&filter[escalation_policy_ids]=${policy}&include=user,schedule,escalation_policy`);
    const rows = body.data.map((d) => d.attributes);
    const first = rows.filter((r) => r.escalation_level === 1);
    assert.ok(first.length >= 2 && first.every((r) => r.schedule_id === scheduleId && [alice, bob].includes(r.user_id as number)), JSON.stringify(first));
    assert.ok(first.every((r, i) => i === 0 || r.starts_at === first[i - 1].ends_at), 'consecutive shifts');
    const second = rows.filter((r) => r.escalation_level === 2);
    assert.deepEqual(second.map((r) => [r.user_id, r.schedule_id, r.starts_at, r.ends_at]).sort(), [[carol, null, since, until], [dave, null, since, until]].sort());
    assert.deepEqual([rows[0].escalation_policy_id, rows[0].escalation_policy_path_id, rows[0].is_default_path, rows[0].notification_type], [policy, path, true, 'quiet']);
    assert.ok(body.data.every((d) => d.type === 'on_call_resources'));
    const types = new Set((body.included ?? []).map((i) => i.type));
    assert.deepEqual([...types].sort(), ['escalation_policies', 'schedules', 'users']);

    const now = await oncalls(`since=${since}&filter[escalation_policy_ids]=${policy}&earliest=true`);
    assert.deepEqual(now.data.filter((d) => d.attributes.escalation_level === 1).length, 1, 'one on call at an instant');
    const carols = await oncalls(`since=${since}&until=${until}&filter[user_ids]=${carol}`);
    assert.deepEqual(carols.data.map((d) => d.attributes.user_id), [carol]);
    const quiet = await oncalls(`since=${since}&filter[notification_types]=audible&filter[escalation_policy_ids]=${policy}`);
    assert.deepEqual(quiet.data, []);
    assert.deepEqual((await oncalls(`since=${since}`, other.token)).data, [], "another organization sees none of this organization's on-calls");
  });

  test("filter[schedule_ids], [group_ids] and [service_ids]; a deferral path's levels list no one; filter[notification_types] answers audible paths first", async () => {
    const [alice, bob, carol, dave] = await fourUsers();
    const { scheduleId } = await weeklySchedule(api, org.token, { members: [alice, bob], owner: alice });
    const team = created(await send('POST', '/v1/teams', doc('groups', { name: unique('Team') }))).id as string;
    const service = created(await send('POST', '/v1/services', doc('services', { name: unique('Checkout') }))).id as string;
    const level = (policy: string, path: string, targets: { id: string; type: string }[]) =>
      send('POST', `/v1/escalation_policies/${policy}/escalation_levels`, doc('escalation_levels', { delay: 0, notification_target_params: targets, escalation_policy_path_id: path }));
    // A: quiet, used by the team and the service, a schedule level and a user level. B: audible, with a deferral path.
    const quiet = created(await send('POST', '/v1/escalation_policies', doc('escalation_policies', { name: unique('A quiet'), group_ids: [team], service_ids: [service] }))).id as string;
    const quietPath = created(await send('POST', `/v1/escalation_policies/${quiet}/escalation_paths`, doc('escalation_paths', { name: 'Default', default: true, notification_type: 'quiet' }))).id as string;
    created(await level(quiet, quietPath, [{ id: scheduleId, type: 'schedule' }]));
    created(await level(quiet, quietPath, [{ id: String(carol), type: 'user' }]));
    const loud = created(await send('POST', '/v1/escalation_policies', doc('escalation_policies', { name: unique('B loud') }))).id as string;
    const loudPath = created(await send('POST', `/v1/escalation_policies/${loud}/escalation_paths`, doc('escalation_paths', { name: 'Default', default: true }))).id as string;
    created(await level(loud, loudPath, [{ id: String(carol), type: 'user' }]));
    const night = { rule_type: 'deferral_window', time_zone: 'America/New_York', time_blocks: [{ monday: true, start_time: '22:00', end_time: '06:00' }] };
    const deferral = created(
      await send(
        'POST',
        `/v1/escalation_policies/${loud}/escalation_paths`,
        doc('escalation_paths', { name: 'Night', path_type: 'deferral', rules: [night], after_deferral_behavior: 'execute_path', after_deferral_path_id: loudPath }),
      ),
    ).id as string;
    created(await level(loud, deferral, [{ id: String(dave), type: 'user' }]));

    const since = new Date(Math.ceil((Date.now() + 7 * DAY) / DAY) * DAY).toISOString();
    const both = `since=${since}&filter[escalation_policy_ids]=${quiet},${loud}`;
    const who = (body: Awaited<ReturnType<typeof oncalls>>) => body.data.map((d) => [d.attributes.escalation_policy_id, d.attributes.user_id]);
    const all = await oncalls(both);
    assert.ok(!all.data.some((d) => d.attributes.user_id === dave), "the deferral path's level lists no one");
    assert.deepEqual(who(all).map(([policy]) => policy), [quiet, quiet, loud], 'by policy name without filter[notification_types]');
    assert.deepEqual(who(await oncalls(`${both}&filter[notification_types]=quiet,audible`)).map(([policy]) => policy), [loud, quiet, quiet], 'audible first');

    const scheduled = await oncalls(`${both}&filter[schedule_ids]=${scheduleId}`);
    assert.ok(scheduled.data.length === 1 && [alice, bob].includes(scheduled.data[0].attributes.user_id as number) && scheduled.data[0].attributes.schedule_id === scheduleId, JSON.stringify(scheduled.data));
    for (const filter of [`filter[group_ids]=${team}`, `filter[service_ids]=${service}`]) {
      const body = await oncalls(`since=${since}&${filter}`);
      assert.deepEqual([...new Set(body.data.map((d) => d.attributes.escalation_policy_id))], [quiet], filter);
    }
    assert.deepEqual((await oncalls(`since=${since}&filter[group_ids]=${team}`, other.token)).data, [], "another organization's filter on this organization's team matches nothing");
    // time_zone writes the same entries' times with its offset; the ids stay those of the instants.
    const zoned = await oncalls(`${both}&time_zone=Asia/Kolkata`);
    assert.deepEqual(zoned.data.map((d) => d.id), all.data.map((d) => d.id));
    assert.ok(zoned.data.every((d) => String(d.attributes.starts_at).endsWith('+05:30') && String(d.attributes.ends_at).endsWith('+05:30')), JSON.stringify(zoned.data[0]));
    assert.deepEqual(
      zoned.data.map((d) => [Date.parse(String(d.attributes.starts_at)), Date.parse(String(d.attributes.ends_at))]),
      all.data.map((d) => [Date.parse(String(d.attributes.starts_at)), Date.parse(String(d.attributes.ends_at))]),
    );
    // A Rails name is the IANA zone it denotes: Asia/Kolkata's.
    assert.deepEqual((await oncalls(`${both}&time_zone=${encodeURIComponent('New Delhi')}`)).data, zoned.data);
  });

  test('bad parameters are a 400 naming the parameter', async () => {
    for (const [query, parameter] of [
      ['since=tomorrow', 'since'],
      ['since=2027-01-10T00:00:00Z&until=2027-01-01T00:00:00Z', 'until'],
      ['time_zone=Mars/Olympus', 'time_zone'],
      ['include=owner', 'include'],
      ['filter[notification_types]=loud', 'filter[notification_types]'],
    ] as const) {
      const res = await send('GET', `/v1/oncalls?${query}`);
      assert.equal(res.status, 400, `${query}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.errors[0].source.parameter, parameter, query);
    }
  });
});
