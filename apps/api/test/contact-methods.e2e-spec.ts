import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { issueEmailVerificationToken, VERIFICATION_TOKEN_TTL_MS } from '@taproot/identity';
import type { DomainEvent } from '@taproot/messaging';
import { startTestApi, type TestApi, type TestOrganization, type TestResponse } from '../src/testing';
import { created, errorCodes, ids, outboxTypes, pointers } from './support/json-api';

type Attributes = Record<string, unknown>;
const doc = (type: string, attributes: Attributes) => ({ data: { type, attributes } });
const email = (address: string) => doc('user_email_addresses', { email: address });
const phone = (number: string) => doc('user_phone_numbers', { phone: number });
const rule = (attributes: Attributes) => doc('user_notification_rules', attributes);

/**
 * Users' contact methods and notification rules (issue 15): CRUD under `/v1/users/{user_id}/...`
 * and at the records' own paths; e-mail verification with a single-use, expiring token the mailer
 * mints (the test stands in for it); E.164 numbers; rules naming the same user's contact methods;
 * the user or an administrator changes them (403 for another user); another organization's user
 * or record is a 404; every change is an event in the outbox, none carrying a token.
 */
describe('contact methods and notification rules', () => {
  let api: TestApi;
  let org: TestOrganization;
  let other: TestOrganization;
  let alice: number;
  let bob: number;
  let stranger: number;
  let aliceKey: string;
  let bobKey: string;
  before(async () => {
    api = await startTestApi();
    [org, other] = [await api.newOrganization(), await api.newOrganization()];
    alice = await api.addUser(org.organizationId, { roleKind: 'user' });
    bob = await api.addUser(org.organizationId, { roleKind: 'user' });
    stranger = await api.addUser(other.organizationId, { roleKind: 'user' });
    aliceKey = await api.issueApiKey(org.organizationId, { kind: 'personal', userId: alice });
    bobKey = await api.issueApiKey(org.organizationId, { kind: 'personal', userId: bob });
  });
  after(() => api?.close());

  const send = (method: string, path: string, body?: unknown, token = org.token) => api.request(method, path, { token, body });
  const refused = (res: TestResponse, status: number, pointer: string | undefined, code: string) => {
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.deepEqual(pointers(res), [pointer]);
    assert.match(errorCodes(res)[0], new RegExp(`^${status}/${code}/`));
  };
  const outboxEvents = async (aggregateId: string): Promise<DomainEvent[]> =>
    ((await api.runtime.dataSource.query('SELECT event FROM outbox WHERE aggregate_id = $1 ORDER BY seq', [aggregateId])) as { event: DomainEvent }[]).map((r) => r.event);
  /** The mailer's part: a token for the address, as its verification mail would carry it. */
  const mintToken = (id: string, now?: Date) => issueEmailVerificationToken(api.runtime.dataSource, org.organizationId, id, now);

  test('e-mail addresses: create (unverified), list, get, update, delete; events without secrets', async () => {
    const made = created(await send('POST', `/v1/users/${alice}/email_addresses`, email('alice.work@example.test'), aliceKey));
    assert.equal(made.type, 'user_email_addresses');
    assert.deepEqual([made.attributes.email, made.attributes.user_id, made.attributes.primary, made.attributes.verified_at], ['alice.work@example.test', alice, false, null]);
    const second = created(await send('POST', `/v1/users/${alice}/email_addresses`, email('alice.home@example.test'), aliceKey));

    const listed = await send('GET', `/v1/users/${alice}/email_addresses`, undefined, bobKey);
    assert.equal(listed.status, 200, 'anyone who reads users reads them');
    assert.deepEqual(ids(listed), [made.id, second.id]);
    assert.deepEqual((await send('GET', `/v1/users/${bob}/email_addresses`)).body.data, []);
    assert.deepEqual((await send('GET', `/v1/email_addresses/${made.id}`)).body.data, made);

    const renamed = await send('PUT', `/v1/email_addresses/${made.id}`, email('alice@example.test'), aliceKey);
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assert.equal(renamed.body.data.attributes.email, 'alice@example.test');
    const deleted = await send('DELETE', `/v1/email_addresses/${second.id}`, undefined, aliceKey);
    assert.equal(deleted.status, 200);
    assert.equal((await send('GET', `/v1/email_addresses/${second.id}`)).status, 404);

    assert.deepEqual(await outboxTypes(api, made.id), [
      'user_email_address.created',
      'user_email_address.verification_requested',
      'user_email_address.updated',
      'user_email_address.verification_requested',
    ]);
    assert.deepEqual(await outboxTypes(api, second.id), ['user_email_address.created', 'user_email_address.verification_requested', 'user_email_address.deleted']);
    for (const event of await outboxEvents(made.id)) assert.deepEqual(Object.keys(event.payload).sort(), ['created_at', 'email', 'id', 'primary', 'updated_at', 'user_id', 'verified_at']);
  });

  test('verification: a minted token verifies once; a wrong, used, replaced or expired one is a 422 on token', async () => {
    const made = created(await send('POST', `/v1/users/${alice}/email_addresses`, email('verify.me@example.test'), aliceKey));
    const verify = (token: string, key = aliceKey) => send('POST', `/v1/email_addresses/${made.id}/verify?token=${encodeURIComponent(token)}`, undefined, key);
    const badToken = (res: TestResponse) => {
      assert.equal(res.status, 422, JSON.stringify(res.body));
      assert.deepEqual(res.body.errors.map((e: { source?: { parameter?: string }; code: string }) => [e.source?.parameter, e.code]), [['token', 'INVALID_VERIFICATION_TOKEN']]);
    };

    badToken(await verify('not-a-token'));
    const replaced = await mintToken(made.id);
    const expired = await mintToken(made.id, new Date(Date.now() - VERIFICATION_TOKEN_TTL_MS - 1000));
    badToken(await verify(replaced));
    badToken(await verify(expired));

    const token = await mintToken(made.id);
    const [{ token_hash }] = await api.runtime.dataSource.query('SELECT token_hash FROM user_email_address_verifications WHERE user_email_address_id = $1', [made.id]);
    assert.notEqual(token_hash, token, 'only its hash is stored');
    refused(await verify(token, bobKey), 403, undefined, 'PERMISSION_DENIED');
    const verified = await verify(token);
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    assert.ok(Date.parse(verified.body.data.attributes.verified_at) > 0);
    badToken(await verify(token));

    refused(await send('POST', `/v1/email_addresses/${made.id}/resend_verification`, undefined, aliceKey), 422, undefined, 'ALREADY_VERIFIED');
    // A changed address is unverified again, and its old tokens name nothing.
    const beforeChange = await mintToken(made.id);
    const changed = await send('PUT', `/v1/email_addresses/${made.id}`, email('verify.again@example.test'), aliceKey);
    assert.equal(changed.body.data.attributes.verified_at, null);
    badToken(await verify(beforeChange));
    const resent = await send('POST', `/v1/email_addresses/${made.id}/resend_verification`, undefined, aliceKey);
    assert.equal(resent.status, 200, JSON.stringify(resent.body));
    assert.equal(resent.body.data.id, made.id);
    const types = await outboxTypes(api, made.id);
    assert.deepEqual(types, [
      'user_email_address.created',
      'user_email_address.verification_requested',
      'user_email_address.updated',
      'user_email_address.updated',
      'user_email_address.verification_requested',
      'user_email_address.verification_requested',
    ], 'created (asks), verified, changed (asks), resent (asks)');
    const events = JSON.stringify(await outboxEvents(made.id));
    assert.ok(!events.includes(token) && !events.includes(token_hash), 'no token nor hash in any event');
    assert.equal((await send('POST', `/v1/email_addresses/00000000-0000-4000-8000-000000000000/resend_verification`)).status, 404);
  });

  test('phone numbers: E.164 only, once per user; CRUD with events', async () => {
    const made = created(await send('POST', `/v1/users/${alice}/phone_numbers`, phone('+14155550100'), aliceKey));
    assert.deepEqual(
      [made.type, made.attributes.phone, made.attributes.user_id, made.attributes.primary, made.attributes.verified_at, made.attributes.verification_attempts_today],
      ['user_phone_numbers', '+14155550100', alice, false, null, 0],
    );
    for (const bad of ['4155550100', '+0415555', '+1 415 555 0100', '+1234567890123456']) {
      refused(await send('POST', `/v1/users/${alice}/phone_numbers`, phone(bad), aliceKey), 422, '/data/attributes/phone', 'INVALID_ATTRIBUTE');
    }
    refused(await send('POST', `/v1/users/${alice}/phone_numbers`, phone('+14155550100'), aliceKey), 422, '/data/attributes/phone', 'TAKEN');
    refused(await send('PUT', `/v1/phone_numbers/${made.id}`, phone('0800'), aliceKey), 422, '/data/attributes/phone', 'INVALID_ATTRIBUTE');
    // Verifying numbers comes with paging: as if this one had been, a new number is not.
    await api.runtime.dataSource.query('UPDATE user_phone_numbers SET verified_at = now() WHERE id = $1', [made.id]);
    const changed = await send('PUT', `/v1/phone_numbers/${made.id}`, phone('+442071838750'), aliceKey);
    assert.deepEqual([changed.body.data.attributes.phone, changed.body.data.attributes.verified_at], ['+442071838750', null]);
    assert.deepEqual(ids(await send('GET', `/v1/users/${alice}/phone_numbers`)), [made.id]);
    assert.equal((await send('DELETE', `/v1/phone_numbers/${made.id}`, undefined, aliceKey)).status, 200);
    assert.deepEqual(await outboxTypes(api, made.id), ['user_phone_number.created', 'user_phone_number.updated', 'user_phone_number.deleted']);
  });

  test('e-mail addresses: format and one per user (any case) are 422s naming email', async () => {
    refused(await send('POST', `/v1/users/${alice}/email_addresses`, email('not-an-address'), aliceKey), 422, '/data/attributes/email', 'INVALID_ATTRIBUTE');
    created(await send('POST', `/v1/users/${bob}/email_addresses`, email('bob@example.test'), bobKey));
    refused(await send('POST', `/v1/users/${bob}/email_addresses`, email('BOB@example.test'), bobKey), 422, '/data/attributes/email', 'TAKEN');
  });

  test('notification rules name the same user\'s contact methods; ordered by position', async () => {
    const address = created(await send('POST', `/v1/users/${alice}/email_addresses`, email('rules@example.test'), aliceKey));
    const number = created(await send('POST', `/v1/users/${alice}/phone_numbers`, phone('+14155550123'), aliceKey));
    const bobsNumber = created(await send('POST', `/v1/users/${bob}/phone_numbers`, phone('+14155550199'), bobKey));

    const first = created(
      await send('POST', `/v1/users/${alice}/notification_rules`, rule({ enabled_contact_types: ['email', 'sms'], delay: 0, user_email_address_id: address.id, user_sms_number_id: number.id }), aliceKey),
    );
    assert.deepEqual(
      [first.type, first.attributes.user_id, first.attributes.enabled_contact_types, first.attributes.notification_type, first.attributes.position, first.attributes.user_call_number_id],
      ['user_notification_rules', alice, ['email', 'sms'], 'audible', 1, null],
    );
    const second = created(await send('POST', `/v1/users/${alice}/notification_rules`, rule({ enabled_contact_types: ['call'], delay: 5, user_call_number_id: number.id }), aliceKey));
    assert.equal(second.attributes.position, 2);
    assert.deepEqual(ids(await send('GET', `/v1/users/${alice}/notification_rules`)), [first.id, second.id]);

    refused(
      await send('POST', `/v1/users/${alice}/notification_rules`, rule({ enabled_contact_types: ['call'], user_call_number_id: bobsNumber.id }), aliceKey),
      422,
      '/data/attributes/user_call_number_id',
      'UNKNOWN_CONTACT_METHOD',
    );
    refused(await send('PUT', `/v1/notification_rules/${first.id}`, rule({ user_email_address_id: 'nope' }), aliceKey), 422, '/data/attributes/user_email_address_id', 'INVALID_ATTRIBUTE');
    refused(await send('PUT', `/v1/notification_rules/${first.id}`, rule({ user_device_id: 'phone-1' }), aliceKey), 422, '/data/attributes/user_device_id', 'UNKNOWN_CONTACT_METHOD');
    refused(await send('POST', `/v1/users/${alice}/notification_rules`, rule({ enabled_contact_types: ['pager'] }), aliceKey), 422, '/data/attributes/enabled_contact_types/0', 'INVALID_ATTRIBUTE');
    refused(await send('POST', `/v1/users/${alice}/notification_rules`, rule({ delay: 1 }), aliceKey), 422, '/data/attributes/enabled_contact_types', 'REQUIRED_ATTRIBUTE');

    const updated = await send('PUT', `/v1/notification_rules/${second.id}`, rule({ delay: 10, user_call_number_id: null }), aliceKey);
    assert.deepEqual([updated.body.data.attributes.delay, updated.body.data.attributes.user_call_number_id], [10, null]);
    // A contact method a rule names stays until the rule lets go of it.
    refused(await send('DELETE', `/v1/phone_numbers/${number.id}`, undefined, aliceKey), 409, undefined, 'STILL_REFERENCED');
    assert.equal((await send('DELETE', `/v1/notification_rules/${first.id}`, undefined, aliceKey)).status, 200);
    assert.equal((await send('DELETE', `/v1/phone_numbers/${number.id}`, undefined, aliceKey)).status, 200);
    assert.deepEqual(await outboxTypes(api, first.id), ['user_notification_rule.created', 'user_notification_rule.deleted']);
    assert.deepEqual(await outboxTypes(api, second.id), ['user_notification_rule.created', 'user_notification_rule.updated']);
  });

  test('only the user or an administrator changes them: another user is refused (403), reads are open', async () => {
    const mine = created(await send('POST', `/v1/users/${alice}/phone_numbers`, phone('+14155550111'), aliceKey));
    refused(await send('POST', `/v1/users/${alice}/phone_numbers`, phone('+14155550112'), bobKey), 403, undefined, 'PERMISSION_DENIED');
    refused(await send('PUT', `/v1/phone_numbers/${mine.id}`, phone('+14155550113'), bobKey), 403, undefined, 'PERMISSION_DENIED');
    refused(await send('DELETE', `/v1/phone_numbers/${mine.id}`, undefined, bobKey), 403, undefined, 'PERMISSION_DENIED');
    refused(await send('POST', `/v1/users/${alice}/notification_rules`, rule({ enabled_contact_types: ['sms'] }), bobKey), 403, undefined, 'PERMISSION_DENIED');
    const address = created(await send('POST', `/v1/users/${alice}/email_addresses`, email('alice.403@example.test'), aliceKey));
    refused(await send('POST', `/v1/email_addresses/${address.id}/resend_verification`, undefined, bobKey), 403, undefined, 'PERMISSION_DENIED');
    assert.equal((await send('GET', `/v1/phone_numbers/${mine.id}`, undefined, bobKey)).status, 200);
    // The organization's key holds members update: an administrator.
    const byAdmin = await send('PUT', `/v1/phone_numbers/${mine.id}`, phone('+14155550114'));
    assert.equal(byAdmin.status, 200, JSON.stringify(byAdmin.body));
    assert.equal(created(await send('POST', `/v1/users/${alice}/notification_rules`, rule({ enabled_contact_types: ['slack'] }))).attributes.user_id, alice);
  });

  test("another organization's user or records are 404s; a malformed user id too", async () => {
    const theirs = created(await send('POST', `/v1/users/${stranger}/phone_numbers`, phone('+14155550155'), other.token));
    const theirAddress = created(await send('POST', `/v1/users/${stranger}/email_addresses`, email('stranger@example.test'), other.token));
    const bodies = { email_addresses: email('x@example.test'), phone_numbers: phone('+14155550157'), notification_rules: rule({ enabled_contact_types: ['sms'] }) };
    for (const [segment, body] of Object.entries(bodies)) {
      assert.equal((await send('GET', `/v1/users/${stranger}/${segment}`)).status, 404);
      assert.equal((await send('POST', `/v1/users/${stranger}/${segment}`, body)).status, 404);
      assert.equal((await send('GET', `/v1/users/abc/${segment}`)).status, 404);
    }
    assert.equal((await send('GET', `/v1/phone_numbers/${theirs.id}`)).status, 404);
    assert.equal((await send('PUT', `/v1/phone_numbers/${theirs.id}`, phone('+14155550156'))).status, 404);
    assert.equal((await send('DELETE', `/v1/phone_numbers/${theirs.id}`)).status, 404);
    assert.equal((await send('POST', `/v1/email_addresses/${theirAddress.id}/resend_verification`)).status, 404);
    const token = await issueEmailVerificationToken(api.runtime.dataSource, other.organizationId, theirAddress.id);
    assert.equal((await send('POST', `/v1/email_addresses/${theirAddress.id}/verify?token=${token}`)).status, 404);
    // A rule may not name another organization's contact method either.
    refused(
      await send('POST', `/v1/users/${alice}/notification_rules`, rule({ enabled_contact_types: ['sms'], user_sms_number_id: theirs.id })),
      422,
      '/data/attributes/user_sms_number_id',
      'UNKNOWN_CONTACT_METHOD',
    );
  });

  test("deleting a user deletes its contact methods and rules", async () => {
    const carol = await api.addUser(org.organizationId, { roleKind: 'user' });
    const number = created(await send('POST', `/v1/users/${carol}/phone_numbers`, phone('+14155550177')));
    created(await send('POST', `/v1/users/${carol}/notification_rules`, rule({ enabled_contact_types: ['sms'], user_sms_number_id: number.id })));
    assert.equal((await send('DELETE', `/v1/users/${carol}`)).status, 200);
    assert.equal((await send('GET', `/v1/phone_numbers/${number.id}`)).status, 404);
  });
});
