import { afterAll as after, beforeAll as before, beforeEach, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { PagingEngine } from '@taproot/alerting';
import { FakeTwilio, SmtpSink } from '@taproot/alerting/testing';
import { startTestApi, type TestApi, type TestOrganization } from '../src/testing';
import { created, unique } from './support/json-api';

type Attributes = Record<string, unknown>;
const doc = (type: string, attributes: Attributes) => ({ data: { type, attributes } });
const MINUTE = 60_000;

/**
 * The paging engine over HTTP (issue 15): an alert to an escalation policy notifies level 1 at
 * once through a real SMTP server and a Twilio-speaking fake, escalates on the injected clock,
 * stops when acknowledged (by the API or the signed link, which works once), re-pages after a
 * snooze or an unresolved acknowledgement, and writes what it did on the alert's timeline.
 */
describe('paging', () => {
  let api: TestApi;
  let org: TestOrganization;
  let other: TestOrganization;
  let engine: PagingEngine;
  const smtp = new SmtpSink({ refuseRecipients: ['nobody@example.test'] });
  const twilio = new FakeTwilio();
  let now = Date.parse('2026-11-25T12:00:00.000Z');
  const clock = { now: () => new Date(now) };

  before(async () => {
    const [smtpUrl, twilioUrl] = [await smtp.start(), await twilio.start()];
    api = await startTestApi({
      clock,
      env: {
        PAGING_POLL_MS: '0',
        SMTP_URL: smtpUrl,
        TWILIO_API_URL: twilioUrl,
        TWILIO_ACCOUNT_SID: twilio.accountSid,
        TWILIO_AUTH_TOKEN: twilio.authToken,
        TWILIO_FROM_NUMBER: '+15005550006',
      },
    });
    engine = api.app.get(PagingEngine);
    org = await api.newOrganization();
    other = await api.newOrganization();
  });
  after(async () => {
    await api?.close();
    await smtp.close();
    await twilio.close();
  });
  beforeEach(() => {
    now += 24 * 60 * MINUTE;
  });

  const send = (method: string, path: string, body?: unknown, token = org.token) => api.request(method, path, { token, body });
  const advance = async (ms: number) => {
    now += ms;
    return engine.tick();
  };
  // Pages only: an e-mail address created here is also sent its verification mail (identity's, asynchronously).
  const mailsTo = (address: string) => smtp.messages.filter((m) => m.to.includes(address) && m.headers['x-taproot-notification-id']);
  const userWithEmail = async () => {
    const email = `${unique('pager').replace(' ', '-')}@example.test`;
    return { id: await api.addUser(org.organizationId, { roleKind: 'user', email }), email };
  };
  /** A policy whose default path has one level per user list, each `delay` minutes before the next. */
  const policyOf = async (levels: { users: number[]; delay?: number }[], path: Attributes = {}) => {
    const policy = created(await send('POST', '/v1/escalation_policies', doc('escalation_policies', { name: unique('Policy') }))).id as string;
    const pathId = created(await send('POST', `/v1/escalation_policies/${policy}/escalation_paths`, doc('escalation_paths', { name: 'Default', default: true, ...path }))).id as string;
    for (const level of levels) {
      const targets = level.users.map((id) => ({ type: 'user', id: String(id) }));
      created(await send('POST', `/v1/escalation_policies/${policy}/escalation_levels`, doc('escalation_levels', { delay: level.delay ?? 5, notification_target_params: targets, escalation_policy_path_id: pathId })));
    }
    return policy;
  };
  const alertTo = async (type: string, id: string | number, extra: Attributes = {}) => {
    const res = await send('POST', '/v1/alerts', doc('alerts', { summary: unique('Checkout is down'), notification_target_type: type, notification_target_id: String(id), ...extra }));
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.data.attributes.status, 'triggered');
    return res.body.data as { id: string; attributes: Attributes };
  };
  const timeline = async (alertId: string) =>
    ((await send('GET', `/v1/alerts/${alertId}/events?page[size]=100`)).body.data as { attributes: Attributes }[]).map((e) => e.attributes);
  const ackLinkOf = (text: string) => {
    const match = /\/v1\/alert_acknowledgements\?token=[A-Za-z0-9_.-]+/.exec(text);
    assert.ok(match, text);
    return match[0];
  };

  test('level 1 is e-mailed at once; level 2 after its delay; the signed link acknowledges once and paging stops', async () => {
    const [alice, bob] = [await userWithEmail(), await userWithEmail()];
    const policy = await policyOf([{ users: [alice.id], delay: 5 }, { users: [bob.id] }]);
    const alert = await alertTo('EscalationPolicy', policy);

    assert.deepEqual(await engine.tick(), { fired: 1, sent: 1 });
    const [mail] = mailsTo(alice.email);
    assert.ok(mail, 'level 1 mailed');
    assert.match(mail.subject, new RegExp(String(alert.attributes.summary)));
    assert.equal(mailsTo(bob.email).length, 0);
    const events = await timeline(alert.id);
    const paged = events.find((e) => e.action === 'escalation_policy_paged');
    assert.deepEqual([paged?.escalation_level, paged?.escalation_target_type, paged?.kind, paged?.source], [1, 'EscalationPolicy', 'notification', 'system']);
    assert.ok(events.some((e) => e.action === 'emailed' && String(e.details).includes(alice.email)));

    await advance(4 * MINUTE);
    assert.equal(mailsTo(bob.email).length, 0, 'level 2 waits for its delay');
    await advance(MINUTE);
    assert.equal(mailsTo(bob.email).length, 1, 'level 2 mailed after 5 minutes');
    assert.equal(mailsTo(alice.email).length, 1, 'level 1 is not sent again');

    const link = ackLinkOf(mailsTo(bob.email)[0].text);
    const ack = await api.request('GET', link);
    assert.equal(ack.status, 200, JSON.stringify(ack.body));
    assert.equal(ack.body.data.attributes.status, 'acknowledged');
    assert.equal((await api.request('GET', link)).status, 410, 'a link works once');
    assert.equal((await api.request('GET', `${link.slice(0, -3)}abc`)).status, 404, 'a tampered link is refused');
    const acknowledged = (await timeline(alert.id)).filter((e) => e.action === 'acknowledged');
    assert.equal(acknowledged.length, 1);
    assert.equal(acknowledged[0].user_id, bob.id, 'the link acknowledges as the paged user');
  });

  test('acknowledging before the next level stops it: no further notification, no repeat', async () => {
    const [alice, bob] = [await userWithEmail(), await userWithEmail()];
    const policy = await policyOf([{ users: [alice.id], delay: 5 }, { users: [bob.id] }], { repeat: true, repeat_count: 3 });
    const alert = await alertTo('EscalationPolicy', policy);
    await engine.tick();
    assert.equal((await send('POST', `/v1/alerts/${alert.id}/acknowledge`)).status, 200);
    await advance(30 * MINUTE);
    assert.equal(mailsTo(bob.email).length, 0);
    assert.equal(mailsTo(alice.email).length, 1);
  });

  test('a path repeats its levels repeat_count times, then stops', async () => {
    const alice = await userWithEmail();
    const policy = await policyOf([{ users: [alice.id], delay: 2 }], { repeat: true, repeat_count: 2 });
    await alertTo('EscalationPolicy', policy);
    await engine.tick();
    for (let i = 0; i < 5; i++) await advance(2 * MINUTE);
    assert.equal(mailsTo(alice.email).length, 3, 'the first run and two repeats');
  });

  test("notification rules choose the channels: SMS and a voice call through the Twilio API, e-mail to the rule's address", async () => {
    const carol = await userWithEmail();
    const phone = created(await send('POST', `/v1/users/${carol.id}/phone_numbers`, doc('user_phone_numbers', { phone: '+14155550142' }))).id as string;
    const work = `${unique('work').replace(' ', '-')}@example.test`;
    const address = created(await send('POST', `/v1/users/${carol.id}/email_addresses`, doc('user_email_addresses', { email: work }))).id as string;
    created(await send('POST', `/v1/users/${carol.id}/notification_rules`, doc('user_notification_rules', { enabled_contact_types: ['sms', 'call'], user_sms_number_id: phone, user_call_number_id: phone, delay: 0 })));
    created(await send('POST', `/v1/users/${carol.id}/notification_rules`, doc('user_notification_rules', { enabled_contact_types: ['email'], user_email_address_id: address, delay: 2 })));
    const before = twilio.requests.length;
    await alertTo('User', carol.id);
    await engine.tick();
    const requests = twilio.requests.slice(before);
    assert.deepEqual(requests.map((r) => [r.kind, r.form.To, r.form.From]).sort(), [['call', '+14155550142', '+15005550006'], ['sms', '+14155550142', '+15005550006']]);
    assert.match(requests.find((r) => r.kind === 'sms')!.form.Body, /\/v1\/alert_acknowledgements\?token=/);
    assert.equal(mailsTo(work).length, 0, "the e-mail rule's delay has not passed");
    await advance(2 * MINUTE);
    assert.equal(mailsTo(work).length, 1);
    assert.equal(mailsTo(carol.email).length, 0, 'the address the rule names, not the login e-mail');
  });

  test('a refused address is recorded on the timeline and not retried; the others are still paged', async () => {
    const alice = await userWithEmail();
    const nobody = { id: await api.addUser(org.organizationId, { roleKind: 'user', email: 'nobody@example.test' }) };
    const alert = await alertTo('EscalationPolicy', await policyOf([{ users: [nobody.id, alice.id] }]));
    await engine.tick();
    assert.equal(mailsTo(alice.email).length, 1);
    const failed = (await timeline(alert.id)).filter((e) => e.action === 'notified');
    assert.equal(failed.length, 1);
    assert.match(String(failed[0].details), /nobody@example\.test failed .*not retried/);
    await advance(10 * MINUTE);
    assert.equal((await timeline(alert.id)).filter((e) => e.action === 'notified').length, 1);
  });

  test('a snooze pauses paging; when it ends the alert is triggered and paged from level 1 again', async () => {
    const alice = await userWithEmail();
    const alert = await alertTo('EscalationPolicy', await policyOf([{ users: [alice.id] }]));
    await engine.tick();
    const snoozed = await send('POST', `/v1/alerts/${alert.id}/snooze`, doc('alerts', { delay_minutes: 15 }));
    assert.equal(snoozed.body.data.attributes.status, 'deferred');
    await advance(14 * MINUTE);
    assert.equal(mailsTo(alice.email).length, 1);
    await advance(MINUTE);
    assert.equal((await send('GET', `/v1/alerts/${alert.id}`)).body.data.attributes.status, 'triggered');
    await engine.tick();
    assert.equal(mailsTo(alice.email).length, 2, 'paged again after the snooze');
  });

  test("snoozing an acknowledged alert extends its acknowledgement: the urgency's re-trigger waits for the snooze's end", async () => {
    const alice = await userWithEmail();
    const urgency = created(await send('POST', '/v1/alert_urgencies', doc('alert_urgencies', { name: unique('High'), description: 'wake people', retrigger_timeout_minutes: 30 }))).id as string;
    const alert = await alertTo('EscalationPolicy', await policyOf([{ users: [alice.id] }]), { alert_urgency_id: urgency });
    await engine.tick();
    assert.equal((await send('POST', `/v1/alerts/${alert.id}/acknowledge`)).status, 200);
    await advance(10 * MINUTE);
    assert.equal((await send('POST', `/v1/alerts/${alert.id}/snooze`, doc('alerts', { delay_minutes: 60 }))).status, 200);
    const status = async () => (await send('GET', `/v1/alerts/${alert.id}`)).body.data.attributes.status;
    await advance(30 * MINUTE);
    assert.equal(await status(), 'deferred', 'the acknowledgement timeout (30 minutes) passed without re-triggering');
    assert.equal(mailsTo(alice.email).length, 1);
    await advance(30 * MINUTE);
    assert.equal(await status(), 'triggered', 'the snooze ended');
    await engine.tick();
    assert.equal(mailsTo(alice.email).length, 2);
  });

  test("an alert acknowledged on a path with retrigger_timeout_minutes is triggered again after the path's timeout, before its urgency's", async () => {
    const alice = await userWithEmail();
    const urgency = created(await send('POST', '/v1/alert_urgencies', doc('alert_urgencies', { name: unique('High'), description: 'wake people', retrigger_timeout_minutes: 30 }))).id as string;
    const policy = await policyOf([{ users: [alice.id] }], { retrigger_timeout_minutes: 10 });
    const alert = await alertTo('EscalationPolicy', policy, { alert_urgency_id: urgency });
    await engine.tick();
    assert.equal((await send('POST', `/v1/alerts/${alert.id}/acknowledge`)).status, 200);
    const status = async () => (await send('GET', `/v1/alerts/${alert.id}`)).body.data.attributes.status;
    await advance(9 * MINUTE);
    assert.equal(await status(), 'acknowledged');
    await advance(MINUTE);
    assert.equal(await status(), 'triggered', "the path's 10 minutes, not the urgency's 30");
    await engine.tick();
    assert.equal(mailsTo(alice.email).length, 2);
    const refused = await send('POST', `/v1/escalation_policies/${policy}/escalation_paths`, doc('escalation_paths', { name: 'Bad', retrigger_timeout_minutes: 0 }));
    assert.deepEqual([refused.status, refused.body.errors?.[0]?.source?.pointer], [422, '/data/attributes/retrigger_timeout_minutes']);
  });

  test("an acknowledged alert nobody resolves is triggered again after its urgency's retrigger_timeout_minutes", async () => {
    const alice = await userWithEmail();
    const urgency = created(await send('POST', '/v1/alert_urgencies', doc('alert_urgencies', { name: unique('High'), description: 'wake people', retrigger_timeout_minutes: 30 }))).id as string;
    const alert = await alertTo('EscalationPolicy', await policyOf([{ users: [alice.id] }]), { alert_urgency_id: urgency });
    await engine.tick();
    assert.equal((await send('POST', `/v1/alerts/${alert.id}/acknowledge`)).status, 200);
    await advance(29 * MINUTE);
    assert.equal((await send('GET', `/v1/alerts/${alert.id}`)).body.data.attributes.status, 'acknowledged');
    await advance(MINUTE);
    assert.equal((await send('GET', `/v1/alerts/${alert.id}`)).body.data.attributes.status, 'triggered');
    await engine.tick();
    assert.equal(mailsTo(alice.email).length, 2);
  });

  test('escalate pages the next level now, or the policy and level the body names; another organization\'s policy is refused', async () => {
    const [alice, bob, carol] = [await userWithEmail(), await userWithEmail(), await userWithEmail()];
    const alert = await alertTo('EscalationPolicy', await policyOf([{ users: [alice.id], delay: 60 }, { users: [bob.id] }]));
    await engine.tick();
    assert.equal((await send('POST', `/v1/alerts/${alert.id}/escalate`)).status, 200);
    await engine.tick();
    assert.equal(mailsTo(bob.email).length, 1, 'the next level, without waiting for its delay');

    const second = await policyOf([{ users: [alice.id] }, { users: [carol.id] }]);
    const res = await send('POST', `/v1/alerts/${alert.id}/escalate`, doc('alerts', { escalation_policy_id: second, escalation_policy_level: 2 }));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    await engine.tick();
    assert.equal(mailsTo(carol.email).length, 1, 'level 2 of the named policy');

    const theirs = created(await send('POST', '/v1/escalation_policies', doc('escalation_policies', { name: unique('Theirs') }), other.token)).id as string;
    const refused = await send('POST', `/v1/alerts/${alert.id}/escalate`, doc('alerts', { escalation_policy_id: theirs }));
    assert.equal(refused.status, 422);
    assert.equal(refused.body.errors[0].source.pointer, '/data/attributes/escalation_policy_id');
    const badLevel = await send('POST', `/v1/alerts/${alert.id}/escalate`, doc('alerts', { escalation_policy_level: 0 }));
    assert.equal(badLevel.status, 422);
    assert.equal(badLevel.body.errors[0].source.pointer, '/data/attributes/escalation_policy_level');
  });

  test('a new owner of a paging alert is paged with page_reason manual_reassignment', async () => {
    const [alice, bob] = [await userWithEmail(), await userWithEmail()];
    const alert = await alertTo('User', alice.id);
    await engine.tick();
    const res = await send('PATCH', `/v1/alerts/${alert.id}`, doc('alerts', { notification_target_type: 'User', notification_target_id: String(bob.id) }));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    await engine.tick();
    assert.equal(mailsTo(bob.email).length, 1);
    const paged = (await timeline(alert.id)).filter((e) => e.action === 'paged');
    assert.deepEqual(paged.map((e) => `${e.escalation_target_type}/${e.page_reason}`).sort(), ['User/manual_reassignment', 'User/null']);
  });

  test("a team target pages the team's escalation policy, or its members when it has none", async () => {
    const [alice, bob] = [await userWithEmail(), await userWithEmail()];
    const plainTeam = created(await send('POST', '/v1/teams', doc('groups', { name: unique('Plain'), user_ids: [alice.id] }))).id as string;
    await alertTo('Group', plainTeam);
    await engine.tick();
    assert.equal(mailsTo(alice.email).length, 1);

    const team = created(await send('POST', '/v1/teams', doc('groups', { name: unique('Owned'), user_ids: [alice.id] }))).id as string;
    const policy = await policyOf([{ users: [bob.id] }]);
    assert.equal((await send('PUT', `/v1/escalation_policies/${policy}`, doc('escalation_policies', { group_ids: [team] }))).status, 200);
    await alertTo('Group', team);
    await engine.tick();
    assert.equal(mailsTo(bob.email).length, 1, "the team's policy");
    assert.equal(mailsTo(alice.email).length, 1, 'not the members directly');
  });

  test('resolving with a resolution_message writes it on the timeline and stops paging', async () => {
    const [alice, bob] = [await userWithEmail(), await userWithEmail()];
    const alert = await alertTo('EscalationPolicy', await policyOf([{ users: [alice.id], delay: 1 }, { users: [bob.id] }]));
    await engine.tick();
    const res = await send('POST', `/v1/alerts/${alert.id}/resolve`, doc('alerts', { resolution_message: 'Rolled back the deploy' }));
    assert.equal(res.status, 200);
    assert.ok((await timeline(alert.id)).some((e) => e.action === 'resolved' && String(e.details).includes('Rolled back the deploy')));
    await advance(5 * MINUTE);
    assert.equal(mailsTo(bob.email).length, 0);
  });
});
