import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import type { TestResponse } from '../src/testing';
import { doc, unique } from './support/json-api';
import { MINUTE, usePagingWorld } from './support/paging';

interface Resource {
  type: string;
  id: string;
  relationships?: Record<string, { data: { type: string; id: string }[] }>;
}

const REFUSED = 'refused-pager@example.test';

/**
 * `include=notified_users` and `include=responders` on alerts (docs/paging.md, "Notified users
 * and responders"): the users a notification was sent to, and the users who acknowledged or
 * resolved the alert, as `users` records in `included`; only the organization's own.
 */
describe('alerts: notified_users and responders', () => {
  const w = usePagingWorld({ refuseRecipients: [REFUSED] });

  const alertTo = async (type: string, id: string | number) => {
    const res = await w.send('POST', '/v1/alerts', doc('alerts', { summary: unique('Checkout is down'), notification_target_type: type, notification_target_id: String(id) }));
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data as Resource;
  };
  const users = (ids: number[]) => ids.map((id) => ({ type: 'users', id: String(id) })).sort((a, b) => a.id.localeCompare(b.id));
  const linked = (record: Resource, name: string) => [...(record.relationships?.[name]?.data ?? [])].sort((a, b) => a.id.localeCompare(b.id));
  const includedOf = (res: TestResponse) => ((res.body.included ?? []) as Resource[]).map((r) => ({ type: r.type, id: r.id })).sort((a, b) => a.id.localeCompare(b.id));
  const withIncludes = async (alertId: string) => {
    const res = await w.send('GET', `/v1/alerts/${alertId}?include=notified_users,responders`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res;
  };

  test('notified_users lists exactly the users mailed; responders the user who acknowledged through the link', async () => {
    const [alice, bob, carol] = [await w.userWithEmail(), await w.userWithEmail(), await w.userWithEmail()];
    const refused = { id: await w.api.addUser(w.org.organizationId, { roleKind: 'user', email: REFUSED }) };
    const policy = await w.policyOf([{ users: [alice.id, bob.id, refused.id], delay: 5 }, { users: [carol.id] }]);
    const alert = await alertTo('EscalationPolicy', policy);

    const before = await withIncludes(alert.id);
    assert.deepEqual(before.body.data.relationships, { notified_users: { data: [] }, responders: { data: [] } }, 'nothing sent yet');
    assert.deepEqual(before.body.included, []);

    await w.engine.tick();
    assert.equal(w.mailsTo(alice.email).length, 1);
    assert.equal(w.mailsTo(bob.email).length, 1);
    const paged = await withIncludes(alert.id);
    assert.deepEqual(linked(paged.body.data, 'notified_users'), users([alice.id, bob.id]), 'the refused address was not sent, carol not reached yet');
    assert.deepEqual(linked(paged.body.data, 'responders'), []);
    assert.deepEqual(includedOf(paged), users([alice.id, bob.id]));
    const record = (paged.body.included as { id: string; attributes: Record<string, unknown>; relationships: unknown }[]).find((r) => r.id === String(alice.id))!;
    assert.equal(record.attributes.email, alice.email, 'included as /v1/users answers the user');
    assert.deepEqual(record.relationships, {});

    const ack = await w.api.request('GET', w.ackLinkOf(w.mailsTo(bob.email)[0].text));
    assert.equal(ack.status, 200, JSON.stringify(ack.body));
    await w.advance(10 * MINUTE);
    assert.equal(w.mailsTo(carol.email).length, 0, 'the acknowledgement stopped level 2');
    const acknowledged = await withIncludes(alert.id);
    assert.deepEqual(linked(acknowledged.body.data, 'notified_users'), users([alice.id, bob.id]));
    assert.deepEqual(linked(acknowledged.body.data, 'responders'), users([bob.id]));
    assert.deepEqual(includedOf(acknowledged), users([alice.id, bob.id]), 'bob is included once, for both relationships');

    const list = await w.send('GET', `/v1/alerts?include=responders&filter[status]=acknowledged&page[size]=100`);
    assert.equal(list.status, 200, JSON.stringify(list.body));
    const item = (list.body.data as Resource[]).find((a) => a.id === alert.id)!;
    assert.deepEqual(item.relationships, { responders: { data: users([bob.id]) } }, 'the list asks for responders only');
    assert.ok(includedOf(list).some((r) => r.id === String(bob.id)));
  });

  test('responders: whoever acknowledged and resolved with a user; a key without a user names nobody', async () => {
    const alice = await w.userWithEmail();
    const dave = await w.userWithEmail();
    const daveKey = await w.api.issueApiKey(w.org.organizationId, { kind: 'personal', userId: dave.id });
    const nobodysKey = await w.api.issueApiKey(w.org.organizationId, { kind: 'global' });
    const alert = await alertTo('User', alice.id);
    await w.engine.tick();

    assert.equal((await w.send('POST', `/v1/alerts/${alert.id}/acknowledge`, undefined, nobodysKey)).status, 200);
    assert.deepEqual(linked((await withIncludes(alert.id)).body.data, 'responders'), [], 'an acknowledgement by a key without a user');
    const resolved = await w.send('POST', `/v1/alerts/${alert.id}/resolve`, doc('alerts', { resolution_message: 'Fixed' }), daveKey);
    assert.equal(resolved.status, 200, JSON.stringify(resolved.body));
    const res = await withIncludes(alert.id);
    assert.deepEqual(linked(res.body.data, 'responders'), users([dave.id]));
    assert.deepEqual(linked(res.body.data, 'notified_users'), users([alice.id]));
  });

  test('escalation_policies: the policies paging the alert, named by it or reached through its team once a level fired', async () => {
    const alice = await w.userWithEmail();
    const [named, teams] = [await w.policyOf([{ users: [alice.id] }]), await w.policyOf([{ users: [alice.id] }])];
    const team = (await w.send('POST', '/v1/teams', doc('groups', { name: unique('Team'), user_ids: [alice.id] }))).body.data.id as string;
    assert.equal((await w.send('PUT', `/v1/escalation_policies/${teams}`, doc('escalation_policies', { group_ids: [team] }))).status, 200);
    const res = await w.send('POST', '/v1/alerts', doc('alerts', { summary: unique('Checkout is down'), notification_targets: [{ type: 'EscalationPolicy', id: named }, { type: 'Group', id: team }] }));
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const policies = async () => {
      const got = await w.send('GET', `/v1/alerts/${res.body.data.id}?include=escalation_policies`);
      assert.equal(got.status, 200, JSON.stringify(got.body));
      return { linked: linked(got.body.data, 'escalation_policies').map((p) => p.id), included: includedOf(got) };
    };
    assert.deepEqual((await policies()).linked, [named], "the team's policy is known once a level fires");
    await w.engine.tick();
    const fired = await policies();
    assert.deepEqual(fired.linked, [named, teams].sort());
    assert.deepEqual(fired.included, [named, teams].sort().map((id) => ({ type: 'escalation_policies', id })));
    const other = await w.send('GET', `/v1/alerts/${res.body.data.id}`);
    assert.equal(other.body.data.relationships, undefined, 'not without include');
  });

  test("another organization's alert is 404 with include, and a row naming another organization's user includes nothing", async () => {
    const theirs = await w.userWithEmail(w.other);
    const theirPolicy = await w.policyOf([{ users: [theirs.id] }], w.other.token);
    const theirAlert = (await w.send('POST', '/v1/alerts', doc('alerts', { summary: unique('Theirs'), notification_target_type: 'EscalationPolicy', notification_target_id: theirPolicy }), w.other.token)).body
      .data as Resource;
    await w.engine.tick();
    assert.equal(w.mailsTo(theirs.email).length, 1);
    const res = await w.send('GET', `/v1/alerts/${theirAlert.id}?include=notified_users,responders`);
    assert.equal(res.status, 404, JSON.stringify(res.body));
    const listed = await w.send('GET', '/v1/alerts?include=notified_users&page[size]=100');
    assert.ok(!(listed.body.data as Resource[]).some((a) => a.id === theirAlert.id));
    assert.ok(!includedOf(listed).some((r) => r.id === String(theirs.id)));

    // Planted past the engine: only the includes' scoping keeps another organization's user out.
    const alice = await w.userWithEmail();
    const alert = await alertTo('User', alice.id);
    await w.engine.tick();
    await w.api.runtime.dataSource.query(
      `INSERT INTO alert_notifications (id, organization_id, alert_id, run, level, repeat, user_id, channel, address, target_type, target_id, status, due_at, sent_at, created_at)
       VALUES (gen_random_uuid(), $1, $2, 99, 1, 0, $3::int, 'email', $4, 'User', $3::text, 'sent', now(), now(), now())`,
      [w.org.organizationId, alert.id, theirs.id, theirs.email],
    );
    assert.deepEqual(linked((await withIncludes(alert.id)).body.data, 'notified_users'), users([alice.id]));
  });
});
