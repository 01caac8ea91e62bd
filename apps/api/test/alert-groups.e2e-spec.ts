import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { newAlertSource, postInbound, signedBy, type InboundSource } from './support/alert-sources';
import { created, doc, pointers, unique } from './support/json-api';
import { MINUTE, usePagingWorld } from './support/paging';

type Alert = { id: string; attributes: Record<string, unknown> };

/**
 * Alert groups (docs/alert-groups.md): CRUD in the reference's shapes, and at ingestion an alert
 * its group's open leader takes is attached to the leader and pages no one.
 */
describe('alert groups', () => {
  const w = usePagingWorld();

  const source = () => newAlertSource(w.api, w.org.token, { source_type: 'generic_webhook', sourceable_attributes: { field_mappings_attributes: [{ field: 'alert_title', json_path: '$.title' }] } });
  /** 503s answered (and retried) during the storm. */
  let overloaded = 0;
  const ingest = async (src: InboundSource, payload: Record<string, unknown>): Promise<Alert> => {
    const raw = JSON.stringify(payload);
    // As monitoring tools do, a 503 is sent again: under the storm on a slow machine the test's
    // pool of 4 connections can keep a request waiting past the 5 s connect timeout (nothing written).
    for (let attempt = 1; ; attempt++) {
      const res = await postInbound(w.api, src.path, raw, signedBy(src.secret, raw));
      if (res.status === 503 && attempt < 5) {
        overloaded++;
        await new Promise((r) => setTimeout(r, 250));
        continue;
      }
      assert.equal(res.status, 202, JSON.stringify(res.body));
      return res.body.data[0] as Alert;
    }
  };
  const create = async (type: string, path: string, attributes: Record<string, unknown>) => created(await w.send('POST', path, doc(type, attributes))).id as string;
  const alertOf = async (id: string): Promise<Alert> => (await w.send('GET', `/v1/alerts/${id}`)).body.data as Alert;

  /** A source routing everything to a one-user policy, and a group of its alerts (by `$.host`) restricted to that policy. */
  async function world(group: Record<string, unknown> = {}) {
    const user = await w.userWithEmail();
    const policy = await w.policyOf([{ users: [user.id] }]);
    const src = await source();
    await create('alert_routes', '/v1/alert_routes', { name: unique('All'), alerts_source_ids: [src.id], rules: [{ name: 'All', destinations: [{ target_id: policy }], condition_groups: [] }] });
    const groupId = await create('alert_groups', '/v1/alert_groups', { name: unique('Hosts'), time_window: 10, attributes: [{ json_path: '$.host' }], targets: [{ target_id: policy }], ...group });
    return { user, policy, src, groupId };
  }

  test('CRUD in the reference shapes; 422 names the attribute and changes nothing; another organization gets 404', async () => {
    const team = await create('groups', '/v1/teams', { name: unique('Team') });
    const urgency = await create('alert_urgencies', '/v1/alert_urgencies', { name: unique('High'), description: 'High' });
    const conditions = [
      { property_field_type: 'attribute', property_field_name: 'summary', property_field_condition_type: 'matches_existing_alert' },
      { property_field_type: 'attribute', property_field_name: 'alert_urgency', property_field_condition_type: 'is_one_of', alert_urgency_ids: [urgency] },
    ];
    const res = await w.send('POST', '/v1/alert_groups', doc('alert_groups', { name: 'Storage hosts', description: 'Disks', time_window: 15, conditions, attributes: [{ json_path: '$.host' }], targets: [{ target_id: team }], owner_group_ids: [team] }));
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const a = res.body.data.attributes;
    assert.equal(res.body.data.type, 'alert_groups');
    assert.match(a.slug, /^storage-hosts/);
    assert.deepEqual([a.time_window, a.condition_type, a.group_by_alert_title, a.group_by_alert_urgency, a.deleted_at], [15, 'all', false, false, null]);
    assert.deepEqual(a.targets, [{ target_id: team, target_type: 'Group' }]);
    assert.deepEqual(a.conditions[0].values, []);
    assert.deepEqual(a.conditions[1].values, [{ record_id: urgency, record_type: 'AlertUrgency' }]);
    const id = res.body.data.id as string;

    const patched = await w.send('PATCH', `/v1/alert_groups/${id}`, doc('alert_groups', { time_window: 5, conditions: [] }));
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.deepEqual([patched.body.data.attributes.time_window, patched.body.data.attributes.group_by_alert_title, patched.body.data.attributes.name], [5, false, 'Storage hosts']);

    const bad = await w.send(
      'PATCH',
      `/v1/alert_groups/${id}`,
      doc('alert_groups', {
        name: 'Renamed',
        conditions: [{ property_field_type: 'payload', property_field_name: '$..x', property_field_condition_type: 'is_one_of' }],
        attributes: [{ json_path: 'host' }],
      }),
    );
    assert.equal(bad.status, 422);
    assert.deepEqual(pointers(bad).sort(), ['/data/attributes/attributes/0/json_path', '/data/attributes/conditions/0/property_field_name'].sort());
    const operator = await w.send('PATCH', `/v1/alert_groups/${id}`, doc('alert_groups', { conditions: [{ property_field_name: '$.x', property_field_condition_type: 'is_about' }] }));
    assert.deepEqual([operator.status, pointers(operator)], [422, ['/data/attributes/conditions/0/property_field_condition_type']]);
    assert.equal((await w.send('PATCH', `/v1/alert_groups/${id}`, doc('alert_groups', { time_window: 0 }))).status, 422);
    const kept = (await w.send('GET', `/v1/alert_groups/${id}`)).body.data.attributes;
    assert.deepEqual([kept.name, kept.time_window], ['Storage hosts', 5]);
    const listed = await w.send('GET', '/v1/alert_groups?filter[name][eq]=Storage%20hosts');
    assert.deepEqual(listed.body.data.map((d: { id: string }) => d.id), [id]);

    // Another organization's ids: its group is not found, its team is no target here.
    for (const [method, body] of [['GET', undefined], ['PATCH', doc('alert_groups', { name: 'x' })], ['DELETE', undefined]] as const) {
      assert.equal((await w.send(method, `/v1/alert_groups/${id}`, body, w.other.token)).status, 404, method);
    }
    const theirs = await w.send('POST', '/v1/alert_groups', doc('alert_groups', { name: 'Theirs', targets: [{ target_id: team }] }), w.other.token);
    assert.equal(theirs.status, 422);
    assert.deepEqual(pointers(theirs), ['/data/attributes/targets/0/target_id']);

    assert.equal((await w.send('DELETE', `/v1/alert_groups/${id}`)).status, 200);
    assert.equal((await w.send('GET', `/v1/alert_groups/${id}`)).status, 404);
  });

  // The hosted API's Terraform provider's bodies (DEBUG traces of tools/terraform/probe.sh, its acceptance-test configurations).
  const providerCondition = (c: Record<string, unknown>) => ({ alert_urgency_ids: [], conditionable_id: '', conditionable_type: '', property_field_value: '', property_field_values: [], values: [], ...c });

  test('the Terraform provider\'s conditions: "" for unset members is no value, values records are urgencies answered as sent', async () => {
    const team = await create('groups', '/v1/teams', { name: unique('Team') });
    const byPayload = await w.send('POST', '/v1/alert_groups', {
      data: {
        type: 'alert_groups',
        attributes: {
          conditions: [providerCondition({ property_field_condition_type: 'matches_existing_alert', property_field_name: 'monitor_id', property_field_type: 'payload' })],
          description: 'tf',
          name: unique('tf-probe by payload'),
          targets: [{ target_id: team, target_type: 'Group' }],
        },
      },
    });
    assert.equal(byPayload.status, 201, JSON.stringify(byPayload.body));
    assert.deepEqual(byPayload.body.data.attributes.conditions, [
      { alert_urgency_ids: [], property_field_condition_type: 'matches_existing_alert', property_field_name: 'monitor_id', property_field_type: 'payload', property_field_values: [], values: [] },
    ]);

    const urgency = await create('alert_urgencies', '/v1/alert_urgencies', { name: unique('tf urgency'), description: 'tf' });
    const values = [{ record_id: urgency, record_type: 'AlertUrgency' }];
    const byUrgency = { property_field_condition_type: 'matches_existing_alert', property_field_name: 'alert_urgency', property_field_type: 'attribute', values };
    const res = await w.send('POST', '/v1/alert_groups', { data: { type: 'alert_groups', attributes: { conditions: [providerCondition(byUrgency)], description: 'tf', name: unique('tf-probe by urgency') } } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const [answered] = res.body.data.attributes.conditions;
    assert.deepEqual([answered.values, answered.alert_urgency_ids], [values, []]);
    assert.deepEqual((await w.send('GET', `/v1/alert_groups/${res.body.data.id}`)).body.data.attributes.conditions[0].values, values);

    const theirUrgency = await created(await w.send('POST', '/v1/alert_urgencies', doc('alert_urgencies', { name: unique('Theirs'), description: 't' }), w.other.token)).id;
    for (const [bad, pointer] of [
      [{ record_id: theirUrgency, record_type: 'AlertUrgency' }, 'record_id'],
      [{ record_id: urgency, record_type: 'Severity' }, 'record_type'],
    ] as const) {
      const name = unique('refused');
      const refused = await w.send('POST', '/v1/alert_groups', doc('alert_groups', { name, conditions: [providerCondition({ ...byUrgency, values: [bad] })] }));
      assert.deepEqual([refused.status, pointers(refused)], [422, [`/data/attributes/conditions/0/values/0/${pointer}`]], JSON.stringify(refused.body));
      assert.deepEqual((await w.send('GET', `/v1/alert_groups?filter[name][eq]=${encodeURIComponent(name)}`)).body.data, []);
    }
    // Groups without targets take the organization's alerts ahead of the later tests' groups.
    for (const id of [byPayload.body.data.id, res.body.data.id]) assert.equal((await w.send('DELETE', `/v1/alert_groups/${id}`)).status, 200);
  });

  test('group_by_alert_title and group_by_alert_urgency are stored as written (true/false or 1/0) and key the group by title, resp. urgency', async () => {
    const { user, policy, src } = await world({ attributes: [] });
    const groupId = created(
      await w.send('POST', '/v1/alert_groups', {
        data: { type: 'alert_groups', attributes: { condition_type: 'all', group_by_alert_title: true, name: unique('tf-probe alert group'), targets: [{ target_id: policy, target_type: 'EscalationPolicy' }], time_window: 10 } },
      }),
    ).id as string;
    // The world's own group (created first) takes the alerts unless removed.
    for (const g of (await w.send('GET', '/v1/alert_groups')).body.data as { id: string; attributes: { targets: { target_id: string }[] } }[]) {
      if (g.id !== groupId && g.attributes.targets.some((t) => t.target_id === policy)) assert.equal((await w.send('DELETE', `/v1/alert_groups/${g.id}`)).status, 200);
    }
    const read = (await w.send('GET', `/v1/alert_groups/${groupId}`)).body.data.attributes;
    assert.deepEqual([read.group_by_alert_title, read.group_by_alert_urgency], [true, false]);
    const disk = await ingest(src, { title: 'Disk full', host: 'db1' });
    const again = await ingest(src, { title: 'Disk full', host: 'db2' });
    const cpu = await ingest(src, { title: 'CPU high', host: 'db1' });
    assert.deepEqual([again.attributes.group_leader_alert_id, cpu.attributes.group_leader_alert_id, cpu.attributes.is_group_leader_alert], [disk.id, null, true]);
    await w.engine.tick();
    assert.equal(w.mailsTo(user.email).length, 2, 'one page per title');

    const patched = await w.send('PATCH', `/v1/alert_groups/${groupId}`, doc('alert_groups', { group_by_alert_title: 0, group_by_alert_urgency: 1 }));
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.deepEqual([patched.body.data.attributes.group_by_alert_title, patched.body.data.attributes.group_by_alert_urgency], [false, true]);
    const bad = await w.send('PATCH', `/v1/alert_groups/${groupId}`, doc('alert_groups', { group_by_alert_title: 2 }));
    assert.deepEqual([bad.status, pointers(bad)], [422, ['/data/attributes/group_by_alert_title']]);
  });

  test("a storm of alerts of one group pages once; each follower shows its leader; another key leads its own group", async () => {
    const { user, src, groupId } = await world();
    const leader = await ingest(src, { title: 'Disk full', host: 'db1' });
    const followers: Alert[] = [];
    for (let i = 0; i < 8; i++) followers.push(await ingest(src, { title: `Disk full ${i}`, host: 'db1' }));
    const other = await ingest(src, { title: 'Disk full', host: 'db2' });
    await w.engine.tick();
    assert.equal(w.mailsTo(user.email).length, 2, 'the db1 leader and the db2 leader');

    assert.deepEqual([leader.attributes.status, leader.attributes.is_group_leader_alert, leader.attributes.alert_group_id, leader.attributes.group_leader_alert_id], ['triggered', true, groupId, null]);
    for (const f of followers) {
      const read = await alertOf(f.id);
      assert.deepEqual([read.attributes.status, read.attributes.is_group_leader_alert, read.attributes.group_leader_alert_id, read.attributes.alert_group_id], ['open', false, leader.id, groupId]);
      assert.equal(read.attributes.notification_targets ?? null, null);
    }
    assert.deepEqual([other.attributes.is_group_leader_alert, other.attributes.group_leader_alert_id], [true, null]);
    const members = await w.send('GET', `/v1/alerts?filter[group_leader_alert_id][eq]=${leader.id}`);
    assert.equal(members.body.data.length, 8);
    // The reference's relationships: a follower links its leader and group, a leader its members.
    const follower = await w.send('GET', `/v1/alerts/${followers[0].id}?include=group_leader_alert,alert_group`);
    assert.deepEqual(follower.body.data.relationships.group_leader_alert.data, { type: 'alerts', id: leader.id });
    assert.deepEqual(follower.body.data.relationships.alert_group.data, { type: 'alert_groups', id: groupId });
    assert.deepEqual(follower.body.included.map((r: { type: string; id: string }) => `${r.type}:${r.id}`).sort(), [`alert_groups:${groupId}`, `alerts:${leader.id}`].sort());
    const led = await w.send('GET', `/v1/alerts/${leader.id}?include=group_member_alerts`);
    // Ordered by creation, then id: the test's clock stands still, so by id here.
    assert.deepEqual(led.body.data.relationships.group_member_alerts.data.map((r: { id: string }) => r.id), followers.map((f) => f.id).sort());
  });

  test('resolving the leader resolves its followers; the next alert leads a new group', async () => {
    const { user, src } = await world();
    const leader = await ingest(src, { title: 'CPU', host: 'web1' });
    const follower = await ingest(src, { title: 'CPU', host: 'web1' });
    assert.equal(follower.attributes.group_leader_alert_id, leader.id);
    await w.engine.tick();
    const resolved = await w.send('PATCH', `/v1/alerts/${leader.id}`, { data: { type: 'alerts', attributes: { status: 'resolved' } } });
    assert.equal(resolved.status, 200, JSON.stringify(resolved.body));
    assert.equal((await alertOf(follower.id)).attributes.status, 'resolved');
    const next = await ingest(src, { title: 'CPU', host: 'web1' });
    assert.deepEqual([next.attributes.is_group_leader_alert, next.attributes.status], [true, 'triggered']);
    await w.engine.tick();
    assert.equal(w.mailsTo(user.email).length, 2);
  });

  test('an alert after the window leads a new group; an alert the group does not take pages as usual', async () => {
    const { user, src } = await world({ time_window: 3, conditions: [{ property_field_type: 'payload', property_field_name: '$.env', property_field_condition_type: 'is_one_of', property_field_values: ['prod'] }] });
    const first = await ingest(src, { title: 'Slow', host: 'api1', env: 'prod' });
    await w.advance(3 * MINUTE);
    const within = await ingest(src, { title: 'Slow', host: 'api1', env: 'prod' });
    assert.equal(within.attributes.group_leader_alert_id, first.id, 'at the window’s last instant');
    await w.advance(1000);
    const after = await ingest(src, { title: 'Slow', host: 'api1', env: 'prod' });
    assert.deepEqual([after.attributes.is_group_leader_alert, after.attributes.group_leader_alert_id], [true, null]);
    const staging = await ingest(src, { title: 'Slow', host: 'api1', env: 'staging' });
    assert.deepEqual([staging.attributes.alert_group_id, staging.attributes.status], [null, 'triggered']);
    await w.engine.tick();
    // first, after and staging page (each one mail; the engine's first pass sends them all).
    assert.equal(w.mailsTo(user.email).length, 3);
  });

  // Issue 16's storm: 1,000 alerts through 20 sources (the spec's 50 a minute each) across 5 routes
  // and 3 groups page exactly what a plain model of the rules expects, each group key once.
  test('a storm of 1,000 alerts across 5 routes and 3 groups pages each group key once and each ungrouped alert', async () => {
    const users = await Promise.all(Array.from({ length: 5 }, () => w.userWithEmail()));
    const policies: string[] = [];
    for (const u of users) policies.push(await w.policyOf([{ users: [u.id] }]));
    const sources: InboundSource[] = [];
    for (let i = 0; i < 20; i++) sources.push(await source());
    for (const [i, policy] of policies.entries()) {
      const rule = { name: `s${i}`, destinations: [{ target_id: policy }], condition_groups: [{ conditions: [{ property_field_name: '$.service', property_field_value: `s${i}` }] }] };
      await create('alert_routes', '/v1/alert_routes', { name: unique(`Route s${i}`), alerts_source_ids: sources.map((x) => x.id), rules: [rule] });
    }
    const byHost = await create('alert_groups', '/v1/alert_groups', { name: unique('By host'), attributes: [{ json_path: '$.host' }], targets: [{ target_id: policies[0] }, { target_id: policies[1] }] });
    // An alert two groups take goes to the older: the test's clock stands still unless moved.
    await w.advance(1000);
    const bySummary = await create('alert_groups', '/v1/alert_groups', {
      name: unique('By summary'),
      targets: [{ target_id: policies[2] }],
      conditions: [{ property_field_type: 'attribute', property_field_name: 'summary', property_field_condition_type: 'matches_existing_alert' }],
    });
    await w.advance(1000);
    const prod = await create('alert_groups', '/v1/alert_groups', { name: unique('Prod'), conditions: [{ property_field_name: '$.env', property_field_value: 'prod' }] });

    const alerts = Array.from({ length: 1000 }, (_, i) => ({ title: `t${i % 3}`, service: `s${i % 5}`, host: `h${i % 4}`, env: i % 50 === 8 ? 'dev' : 'prod', src: sources[i % 20] }));
    // The model: the first group (by creation) that takes the alert, its key, else the alert pages alone.
    const pages = policies.map(() => new Set<string>());
    for (const [i, a] of alerts.entries()) {
      const p = Number(a.service.slice(1));
      const place = p <= 1 ? `${byHost}:${a.host}` : p === 2 ? `${bySummary}:${a.title}` : a.env === 'prod' ? `${prod}:` : `alone:${i}`;
      pages[p].add(place);
    }
    const started = Date.now();
    const stored: Alert[] = [];
    for (let i = 0; i < alerts.length; i += 20) {
      stored.push(...(await Promise.all(alerts.slice(i, i + 20).map(({ src, ...payload }) => ingest(src, payload)))));
    }
    const seconds = (Date.now() - started) / 1000;
    // A few retried 503s are overload; many would be a fault (a deadlock answers 503 too).
    assert.ok(overloaded <= 20, `${overloaded} of 1,000 posts answered 503`);
    for (let pass = 0, before = -1; pass < 20 && before !== w.smtp.messages.length; pass++) {
      before = w.smtp.messages.length;
      await w.engine.tick();
    }
    assert.deepEqual(
      users.map((u) => w.mailsTo(u.email).length),
      pages.map((set) => set.size),
      `mails per policy's user (ingested in ${seconds}s)`,
    );
    assert.equal(stored.filter((a) => a.attributes.is_group_leader_alert === true).length, 4 + 4 + 3 + 1 + 1);
    assert.equal(stored.filter((a) => a.attributes.group_leader_alert_id != null).length, 1000 - 13 - 20);
  });

  test('first alerts of a group in parallel requests: one leads, the others follow it', async () => {
    const { src } = await world();
    const alerts = await Promise.all(Array.from({ length: 6 }, () => ingest(src, { title: 'Parallel', host: 'q1' })));
    const leaders = alerts.filter((a) => a.attributes.is_group_leader_alert === true);
    assert.equal(leaders.length, 1);
    for (const a of alerts) if (a !== leaders[0]) assert.equal(a.attributes.group_leader_alert_id, leaders[0].id);
  });
});
