import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { issueEmailVerificationToken } from '@taproot/identity';
import { SmtpSink, type ReceivedMail } from '@taproot/mail/testing';
import { eventually, startTestApi, type TestApi } from '../src/testing';
import { created, errorCodes } from './support/json-api';

const PUBLIC_URL = 'https://taproot.example.test';
const FROM = 'Taproot <verify@taproot.example.test>';
const email = (address: string) => ({ data: { type: 'user_email_addresses', attributes: { email: address } } });
const newAddress = (name: string) => `${name}.${randomUUID().slice(0, 8)}@example.test`;

/** A world: an api mailing through `smtp` (or not at all), an organization, a user and that user's own key. */
async function world(smtp: SmtpSink | null) {
  const env: Record<string, string> = { PUBLIC_URL, SMTP_FROM: FROM };
  if (smtp) env.SMTP_URL = await smtp.start();
  const api = await startTestApi({ env });
  const org = await api.newOrganization();
  const user = await api.addUser(org.organizationId, { roleKind: 'user' });
  const key = await api.issueApiKey(org.organizationId, { kind: 'personal', userId: user });
  return { api, org, user, key };
}

/** How many of the aggregates' events the relay has not published yet. */
const unpublishedIn = async (api: TestApi, aggregateIds: string[]): Promise<number> =>
  (await api.runtime.dataSource.query('SELECT count(*)::int AS n FROM outbox WHERE aggregate_id = ANY($1::text[]) AND published_at IS NULL', [aggregateIds]))[0].n;

/** The token of a verification mail's verify link, checked to be the same in the text and the HTML. */
function tokenOf(mail: ReceivedMail, id: string): string {
  const link = new RegExp(`${PUBLIC_URL.replace(/\./g, '\\.')}/v1/email_addresses/${id}/verify\\?token=([A-Za-z0-9_-]{43})`);
  const [text, html] = [link.exec(mail.text)?.[1], link.exec(mail.html)?.[1]];
  assert.ok(text, `the text has the verify link:\n${mail.text}`);
  assert.equal(html, text, 'the HTML has the same link');
  return text;
}

/**
 * The verification mail of an e-mail address (issue 15), over a real SMTP server: creating an
 * address (or asking again) mails it a single-use token the API's verify takes; a busy server is
 * retried by the bus, a refused address skipped; without SMTP_URL nothing is sent and nothing fails.
 */
describe('e-mail address verification mails', () => {
  const smtp = new SmtpSink({ refuseRecipients: ['refused@example.test'] });
  let api: TestApi;
  let user: number;
  let key: string;
  before(async () => {
    ({ api, user, key } = await world(smtp));
  });
  after(async () => {
    await api?.close();
    await smtp.close();
  });

  const send = (method: string, path: string, body?: unknown) => api.request(method, path, { token: key, body });
  const verify = (id: string, token: string) => send('POST', `/v1/email_addresses/${id}/verify?token=${encodeURIComponent(token)}`);
  const mailsTo = (address: string) => eventually(async () => smtp.messages.filter((m) => m.to.includes(address)), (mails) => mails.length > 0);
  const unpublished = (aggregateIds: string[]) => unpublishedIn(api, aggregateIds);
  const addAddress = async (address: string) => created(await send('POST', `/v1/users/${user}/email_addresses`, email(address))).id as string;

  test('a new address is mailed its verify link; POSTing it with the token verifies the address', async () => {
    const address = newAddress('alice');
    const id = await addAddress(address);
    const [mail] = await mailsTo(address);
    assert.deepEqual(mail.to, [address]);
    assert.equal(mail.from, FROM);
    assert.equal(mail.subject, `[Taproot] Verify your e-mail address ${address}`);
    assert.equal(mail.headers['x-taproot-email-address-id'], id);
    assert.equal(mail.headers['auto-submitted'], 'auto-generated');
    const token = tokenOf(mail, id);
    assert.ok(mail.text.includes(`curl -X POST -H 'Authorization: Bearer <your API key>' '${PUBLIC_URL}/v1/email_addresses/${id}/verify?token=${token}'`), mail.text);
    assert.ok(mail.text.includes('within 24 hours'), mail.text);

    const verified = await verify(id, token);
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    assert.equal(typeof verified.body.data.attributes.verified_at, 'string');
    assert.equal((await send('GET', `/v1/email_addresses/${id}`)).body.data.attributes.verified_at, verified.body.data.attributes.verified_at);
    assert.match(errorCodes(await verify(id, token))[0], /^422\/INVALID_VERIFICATION_TOKEN\//, 'the token works once');
  });

  test("resend_verification mails a new token that works; the first mail's token no longer does", async () => {
    const address = newAddress('bob');
    const id = await addAddress(address);
    const first = tokenOf((await mailsTo(address))[0], id);
    const resent = await send('POST', `/v1/email_addresses/${id}/resend_verification`);
    assert.equal(resent.status, 200, JSON.stringify(resent.body));
    const mails = await eventually(async () => smtp.messages.filter((m) => m.to.includes(address)), (m) => m.length === 2);
    const second = tokenOf(mails[1], id);
    assert.notEqual(second, first);
    assert.match(errorCodes(await verify(id, first))[0], /^422\/INVALID_VERIFICATION_TOKEN\//);
    assert.equal((await verify(id, second)).status, 200);
  });

  test('a changed address is mailed at its new address; the old mail no longer verifies it', async () => {
    const [before, after] = [newAddress('carol'), newAddress('carol.new')];
    const id = await addAddress(before);
    const old = tokenOf((await mailsTo(before))[0], id);
    assert.equal((await send('PUT', `/v1/email_addresses/${id}`, email(after))).status, 200);
    const fresh = tokenOf((await mailsTo(after))[0], id);
    assert.match(errorCodes(await verify(id, old))[0], /^422\/INVALID_VERIFICATION_TOKEN\//);
    assert.equal((await verify(id, fresh)).status, 200);
  });

  test('an address the relay refuses is skipped (no token kept); the mails after it go out', async () => {
    const refused = await addAddress('refused@example.test');
    const next = newAddress('dave');
    const nextId = await addAddress(next);
    await mailsTo(next);
    assert.equal(smtp.messages.filter((m) => m.to.includes('refused@example.test')).length, 0);
    const [{ tokens }] = await api.runtime.dataSource.query('SELECT count(*)::int AS tokens FROM user_email_address_verifications WHERE user_email_address_id = $1', [refused]);
    assert.equal(tokens, 0);
    // Published: the refusal failed no delivery (the relay marks a batch once every consumer took it).
    await eventually(() => unpublished([refused, nextId]), (n) => n === 0);
  });
});

describe('e-mail address verification mails through a busy relay', () => {
  // The first two sessions are refused with 421. Embedded (the in-process bus feeds every consumer
  // from one relay) the mail is skipped rather than retried, so the audit log and webhooks never
  // wait for the SMTP relay; resend_verification asks again.
  const smtp = new SmtpSink({ failFirstSessions: 2 });
  let w: Awaited<ReturnType<typeof world>>;
  before(async () => {
    w = await world(smtp);
  });
  after(async () => {
    await w?.api.close();
    await smtp.close();
  });

  test('a refused session holds up nothing: the event is published, no token kept; resend_verification mails once the relay answers', async () => {
    const address = newAddress('frank');
    const id = created(await w.api.request('POST', `/v1/users/${w.user}/email_addresses`, { token: w.key, body: email(address) })).id as string;
    await eventually(() => unpublishedIn(w.api, [id]), (n) => n === 0);
    const [{ tokens }] = await w.api.runtime.dataSource.query('SELECT count(*)::int AS tokens FROM user_email_address_verifications WHERE user_email_address_id = $1', [id]);
    assert.equal(tokens, 0);
    const mails = () => smtp.messages.filter((m) => m.to.includes(address));
    // Each request handled before the next (one token outstanding at a time), until the relay answers.
    for (let i = 0; i < 5 && mails().length === 0; i++) {
      assert.equal((await w.api.request('POST', `/v1/email_addresses/${id}/resend_verification`, { token: w.key })).status, 200);
      await eventually(() => unpublishedIn(w.api, [id]), (n) => n === 0);
    }
    assert.equal(mails().length, 1, `${smtp.sessions} sessions`);
    const [mail] = mails();
    const verified = await w.api.request('POST', `/v1/email_addresses/${id}/verify?token=${tokenOf(mail, id)}`, { token: w.key });
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
  });
});

describe('e-mail address verification without SMTP_URL', () => {
  const smtp = new SmtpSink();
  let w: Awaited<ReturnType<typeof world>>;
  before(async () => {
    // The server runs, but the api is not told of it.
    await smtp.start();
    w = await world(null);
  });
  after(async () => {
    await w?.api.close();
    await smtp.close();
  });

  test('nothing is sent, no token is minted, and nothing fails: the events are published and a token minted by hand still verifies', async () => {
    const { api, org, user, key } = w;
    const address = newAddress('gina');
    const id = created(await api.request('POST', `/v1/users/${user}/email_addresses`, { token: key, body: email(address) })).id as string;
    await eventually(() => unpublishedIn(api, [id]), (n) => n === 0);
    const [{ tokens }] = await api.runtime.dataSource.query('SELECT count(*)::int AS tokens FROM user_email_address_verifications WHERE user_email_address_id = $1', [id]);
    assert.equal(tokens, 0);
    const [{ inbox }] = await api.runtime.dataSource.query("SELECT count(*)::int AS inbox FROM inbox WHERE consumer = 'identity.email-verification-mails'");
    assert.equal(inbox, 0, 'no consumer subscribed');
    assert.equal(smtp.sessions, 0);
    const token = await issueEmailVerificationToken(api.runtime.dataSource, org.organizationId, id);
    assert.equal((await api.request('POST', `/v1/email_addresses/${id}/verify?token=${token}`, { token: key })).status, 200);
  });
});
