import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import type { TestResponse } from '../src/testing';
import { created, doc, errorCodes, pointers, unique } from './support/json-api';
import { MINUTE, usePagingWorld } from './support/paging';

type Attributes = Record<string, unknown>;

/**
 * `POST /v1/pages` (docs/paging.md): an alert that pages whom the body names, by one attribute
 * per kind of target or several through `notification_targets`, answered 201 and paged by the
 * engine at once; a functionality only with an escalation policy (spec: Functionality paging).
 * A refused page names the attribute the client sent.
 */
describe('POST /v1/pages', () => {
  const w = usePagingWorld();

  const page = (attributes: Attributes, token?: string) => w.send('POST', '/v1/pages', doc('pages', { summary: unique('Checkout is down'), ...attributes }), token);
  const paged = async (attributes: Attributes) => {
    const res = await page(attributes);
    const alert = created(res) as { id: string; type: string; attributes: Attributes };
    assert.equal(alert.type, 'alerts');
    assert.equal(alert.attributes.status, 'triggered');
    return alert;
  };
  const refused = (res: TestResponse, pointer: string) => {
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.deepEqual(pointers(res), [pointer], JSON.stringify(res.body));
  };
  const team = async (users: number[]) => created(await w.send('POST', '/v1/teams', doc('groups', { name: unique('Team'), user_ids: users }))).id as string;

  test('an escalation policy: the alert names it and level 1 is mailed at once', async () => {
    const alice = await w.userWithEmail();
    const policy = await w.policyOf([{ users: [alice.id] }]);
    const alert = await paged({ escalation_policy_id: policy, description: 'p99 above 2 s' });
    assert.deepEqual(alert.attributes.notification_targets, [{ type: 'EscalationPolicy', id: policy }]);
    assert.equal(alert.attributes.description, 'p99 above 2 s');
    const read = await w.send('GET', `/v1/alerts/${alert.id}`);
    assert.equal(read.status, 200, 'the page is an alert like any other');
    await w.engine.tick();
    assert.equal(w.mailsTo(alice.email).length, 1);
    assert.match(w.mailsTo(alice.email)[0].subject, new RegExp(String(alert.attributes.summary)));
  });

  test('a user, by id', async () => {
    const bob = await w.userWithEmail();
    const alert = await paged({ user_id: String(bob.id) });
    assert.deepEqual(alert.attributes.notification_targets, [{ type: 'User', id: String(bob.id) }]);
    await w.engine.tick();
    assert.equal(w.mailsTo(bob.email).length, 1);
  });

  test("a user's id as the number clients send (user_id: 42, notification_targets' id too) pages as its text does", async () => {
    const [bob, carol] = [await w.userWithEmail(), await w.userWithEmail()];
    const alert = await paged({ user_id: bob.id, notification_targets: [{ type: 'User', id: carol.id }] });
    assert.deepEqual(alert.attributes.notification_targets, [
      { type: 'User', id: String(carol.id) },
      { type: 'User', id: String(bob.id) },
    ]);
    await w.engine.tick();
    assert.deepEqual([w.mailsTo(bob.email).length, w.mailsTo(carol.email).length], [1, 1]);
    refused(await page({ user_id: 4.5 }), '/data/attributes/user_id');
    const theirs = await w.userWithEmail(w.other);
    refused(await page({ user_id: theirs.id }), '/data/attributes/user_id');
  });

  test('a team without a policy: its members', async () => {
    const [alice, bob] = [await w.userWithEmail(), await w.userWithEmail()];
    const teamId = await team([alice.id, bob.id]);
    const alert = await paged({ group_id: teamId });
    assert.deepEqual(alert.attributes.notification_targets, [{ type: 'Group', id: teamId }]);
    await w.engine.tick();
    assert.deepEqual([w.mailsTo(alice.email).length, w.mailsTo(bob.email).length], [1, 1]);
  });

  test("a service: its escalation_policy_id's levels", async () => {
    const [alice, bob] = [await w.userWithEmail(), await w.userWithEmail()];
    const policy = await w.policyOf([{ users: [alice.id], delay: 5 }, { users: [bob.id] }]);
    const service = created(await w.send('POST', '/v1/services', doc('services', { name: unique('Checkout'), escalation_policy_id: policy }))).id as string;
    const alert = await paged({ service_id: service });
    assert.deepEqual(alert.attributes.notification_targets, [{ type: 'Service', id: service }]);
    await w.engine.tick();
    assert.deepEqual([w.mailsTo(alice.email).length, w.mailsTo(bob.email).length], [1, 0]);
    await w.advance(5 * MINUTE);
    assert.equal(w.mailsTo(bob.email).length, 1, "the service's policy escalates to level 2");
  });

  test('several at once through notification_targets, beside a single-target attribute', async () => {
    const [alice, bob, carol] = [await w.userWithEmail(), await w.userWithEmail(), await w.userWithEmail()];
    const policy = await w.policyOf([{ users: [alice.id] }]);
    const teamId = await team([bob.id]);
    const notification_targets = [
      { type: 'EscalationPolicy', id: policy },
      { type: 'Group', id: teamId },
    ];
    const alert = await paged({ notification_targets, user_id: String(carol.id) });
    assert.deepEqual(alert.attributes.notification_targets, [...notification_targets, { type: 'User', id: String(carol.id) }]);
    await w.engine.tick();
    assert.deepEqual([alice, bob, carol].map((u) => w.mailsTo(u.email).length), [1, 1, 1]);
  });

  test('a functionality with an escalation policy: the alert gets the functionality and its owning teams, and the timeline says so', async () => {
    const alice = await w.userWithEmail();
    const policy = await w.policyOf([{ users: [alice.id] }]);
    const owners = [await team([]), await team([])];
    const functionality = created(await w.send('POST', '/v1/functionalities', doc('functionalities', { name: unique('Refunds'), escalation_policy_id: policy, owner_group_ids: owners }))).id as string;
    const alert = await paged({ functionality_id: functionality });
    assert.deepEqual(alert.attributes.functionality_ids, [functionality]);
    assert.deepEqual([...(alert.attributes.group_ids as string[])].sort(), [...owners].sort());
    assert.deepEqual(alert.attributes.notification_targets, [{ type: 'Functionality', id: functionality }]);
    const events = ((await w.send('GET', `/v1/alerts/${alert.id}/events?page[size]=100`)).body.data as { attributes: Attributes }[]).map((e) => e.attributes);
    const logged = events.filter((e) => e.kind === 'informational' && e.action === 'paged');
    assert.equal(logged.length, 1, JSON.stringify(events));
    assert.match(String(logged[0].details), new RegExp(functionality));
    await w.engine.tick();
    assert.equal(w.mailsTo(alice.email).length, 1, "the functionality's policy is paged");

    const listed = await paged({ notification_targets: [{ type: 'Functionality', id: functionality }] });
    assert.deepEqual(listed.attributes.functionality_ids, [functionality], 'named in notification_targets, the same');
    assert.deepEqual([...(listed.attributes.group_ids as string[])].sort(), [...owners].sort());
  });

  test('a functionality without an escalation policy cannot be paged: 422 at functionality_id, no alert', async () => {
    const functionality = created(await w.send('POST', '/v1/functionalities', doc('functionalities', { name: unique('Search') }))).id as string;
    const summary = unique('Not pageable');
    const res = await page({ summary, functionality_id: functionality });
    refused(res, '/data/attributes/functionality_id');
    assert.match(res.body.errors[0].detail, /escalation policy/);
    refused(await page({ summary, notification_targets: [{ type: 'Functionality', id: functionality }] }), '/data/attributes/notification_targets/0/id');
    const list = await w.send('GET', `/v1/alerts?filter[search]=${encodeURIComponent(summary)}`);
    assert.deepEqual(list.body.data, [], 'nothing was written');
  });

  test('no target: 422', async () => {
    const res = await page({});
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.match(res.body.errors[0].detail, /escalation_policy_id/);
    assert.equal((await page({ user_id: null, notification_targets: [] })).status, 422, 'null and empty name nobody');
  });

  test("another organization's target is 422 at the attribute the client sent", async () => {
    const theirs = await w.userWithEmail(w.other);
    const theirPolicy = await w.policyOf([{ users: [theirs.id] }], w.other.token);
    const theirTeam = created(await w.send('POST', '/v1/teams', doc('groups', { name: unique('Theirs') }), w.other.token)).id as string;
    const theirService = created(await w.send('POST', '/v1/services', doc('services', { name: unique('Theirs'), escalation_policy_id: theirPolicy }), w.other.token)).id as string;
    const theirFunctionality = created(await w.send('POST', '/v1/functionalities', doc('functionalities', { name: unique('Theirs'), escalation_policy_id: theirPolicy }), w.other.token))
      .id as string;
    const cases: [Attributes, string][] = [
      [{ escalation_policy_id: theirPolicy }, 'escalation_policy_id'],
      [{ user_id: String(theirs.id) }, 'user_id'],
      [{ group_id: theirTeam }, 'group_id'],
      [{ service_id: theirService }, 'service_id'],
      [{ functionality_id: theirFunctionality }, 'functionality_id'],
      [{ notification_targets: [{ type: 'EscalationPolicy', id: theirPolicy }] }, 'notification_targets/0/id'],
    ];
    const alice = await w.userWithEmail();
    for (const [attributes, at] of cases) {
      const res = await page(attributes);
      refused(res, `/data/attributes/${at}`);
      assert.deepEqual(errorCodes(res), ['422/UNKNOWN_NOTIFICATION_TARGET/Invalid attribute'], JSON.stringify(res.body));
      assert.ok(res.body.errors[0].detail.startsWith(`${at.replace(/\/(\d+)/g, '[$1]').replace(/\//g, '.')}: `), res.body.errors[0].detail);
      // Beside a valid target the refusal still names only the bad one.
      refused(await page({ ...attributes, ...(at === 'user_id' ? { group_id: await team([alice.id]) } : { user_id: String(alice.id) }) }), `/data/attributes/${at}`);
    }
    await w.engine.tick();
    assert.equal(w.mailsTo(theirs.email).length, 0, 'nobody of the other organization was paged');
    assert.equal(w.mailsTo(alice.email).length, 0, 'a refused page pages nobody');
  });

  test('a missing summary is 422 naming summary; a notification target needs type and id', async () => {
    const bob = await w.userWithEmail();
    const res = await w.send('POST', '/v1/pages', doc('pages', { user_id: String(bob.id) }));
    refused(res, '/data/attributes/summary');
    assert.match(res.body.errors[0].detail, /summary/);
    refused(await page({ notification_targets: [{ type: 'User' }] }), '/data/attributes/notification_targets/0/id');
    refused(await page({ notification_targets: [{ type: 'Schedule', id: String(bob.id) }] }), '/data/attributes/notification_targets/0/type');
  });

  test('needs alerts create: an observer is refused (403)', async () => {
    const observer = await w.api.issueApiKey(w.org.organizationId, { kind: 'personal', userId: await w.api.addUser(w.org.organizationId, { roleKind: 'observer' }) });
    const bob = await w.userWithEmail();
    assert.equal((await page({ user_id: String(bob.id) }, observer)).status, 403);
  });
});
