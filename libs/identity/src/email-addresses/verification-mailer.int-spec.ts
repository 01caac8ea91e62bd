import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import type { Logger } from '@taproot/config';
import { MailFailure, Mailer } from '@taproot/mail';
import { SmtpSink } from '@taproot/mail/testing';
import { domainEvent, InProcessEventBus, isTransientFailure, KafkaEventBus, type DomainEvent } from '@taproot/messaging';
import { openTestDataSource } from '@taproot/persistence';
import type { DataSource } from 'typeorm';
import { createOrganization } from '../bootstrap/bootstrap-organization';
import { EMAIL_ADDRESS_EVENTS } from './email-address.schema';
import { VERIFICATION_MAIL_CONSUMER, VerificationMailer } from './verification-mailer';

const PUBLIC_URL = 'https://taproot.example.test';
const TOKEN_IN_LINK = /verify\?token=([A-Za-z0-9_-]{43})/;

/**
 * The verification mail consumer against PostgreSQL and a real SMTP server: once per event
 * (inbox), a transient failure rejects with nothing kept (so the bus redelivers), a permanent one
 * is logged and skipped, a stale request is skipped, and no log line ever holds a token.
 */
describe('VerificationMailer', () => {
  let ds: DataSource;
  let organizationId: string;
  let userId: number;
  const logLines: string[] = [];
  const logger = pino({ level: 'trace' }, new Writable({ write: (chunk, _encoding, done) => (logLines.push(String(chunk)), done()) })) as Logger;
  const clock = { now: () => new Date() };
  const open: { close(): Promise<void> }[] = [];

  before(async () => {
    ds = await openTestDataSource();
    ({ organizationId, userId } = await ds.transaction((m) => createOrganization(m, { name: 'Mailed', ownerEmail: 'owner@example.test' })));
  });
  after(async () => {
    for (const resource of open.reverse()) await resource.close();
    await ds.destroy();
  });

  /** The mailer over the in-process bus, or (never connected: `handle` is called directly) Kafka's. */
  async function mailerTo(smtp: SmtpSink | null, bus: 'in-process' | 'kafka' = 'in-process'): Promise<VerificationMailer> {
    const smtpUrl = smtp ? await smtp.start() : null;
    const eventBus = bus === 'kafka' ? new KafkaEventBus({ clientId: 'verification-mailer-spec', brokers: ['127.0.0.1:1'] }) : new InProcessEventBus();
    const smtpMailer = smtpUrl ? new Mailer({ url: smtpUrl, from: 'Taproot <verify@taproot.example.test>' }) : null;
    if (smtpMailer) open.push(smtpMailer);
    const mailer = new VerificationMailer(ds, eventBus, { publicUrl: PUBLIC_URL }, logger, clock, smtpMailer);
    if (smtp) open.push(smtp);
    return mailer;
  }

  /** An address row and its verification request, as the API writes them. */
  async function requested(email = `${randomUUID().slice(0, 8)}@example.test`): Promise<{ id: string; email: string; event: DomainEvent }> {
    const id = randomUUID();
    await ds.query(
      'INSERT INTO user_email_addresses (id, organization_id, user_id, email, verified_at, created_at, updated_at) VALUES ($1, $2, $3, $4, NULL, now(), now())',
      [id, organizationId, userId, email],
    );
    const payload = { id, email, user_id: userId, primary: false, verified_at: null };
    const event = domainEvent({ type: EMAIL_ADDRESS_EVENTS.verificationRequested, organizationId, aggregateType: 'user_email_addresses', aggregateId: id, actor: { kind: 'system', id: null }, payload });
    return { id, email, event };
  }
  const tokensOf = async (id: string): Promise<number> => (await ds.query('SELECT count(*)::int AS n FROM user_email_address_verifications WHERE user_email_address_id = $1', [id]))[0].n;
  const applied = async (event: DomainEvent): Promise<boolean> => (await ds.query('SELECT 1 FROM inbox WHERE consumer = $1 AND event_id = $2', [VERIFICATION_MAIL_CONSUMER, event.id])).length === 1;
  const noTokenLogged = (smtp: SmtpSink) => {
    for (const mail of smtp.messages) {
      const token = TOKEN_IN_LINK.exec(mail.text)![1];
      assert.ok(!logLines.some((line) => line.includes(token)), 'a token in the logs');
    }
  };

  test('mails each request once: a redelivered event is not mailed again; other events are left alone', async () => {
    const smtp = new SmtpSink();
    const mailer = await mailerTo(smtp);
    const { id, email, event } = await requested();
    const other = domainEvent({ type: 'user_email_address.updated', organizationId, aggregateType: 'user_email_addresses', aggregateId: id, actor: { kind: 'system', id: null }, payload: {} });
    await mailer.handle([other, event]);
    await mailer.handle([event]);
    assert.equal(smtp.messages.length, 1);
    assert.deepEqual(smtp.messages[0].to, [email]);
    assert.equal(await tokensOf(id), 1);
    assert.equal(await applied(other), false);
    noTokenLogged(smtp);
  });

  test('on the in-process bus a transient failure is skipped like a refusal, so an SMTP outage never holds up the other consumers', async () => {
    const smtp = new SmtpSink({ failFirstSessions: 1 });
    const mailer = await mailerTo(smtp);
    const first = await requested();
    const second = await requested();
    await mailer.handle([first.event, second.event]);
    assert.deepEqual(smtp.messages.map((m) => m.to[0]), [second.email]);
    assert.deepEqual([await tokensOf(first.id), await applied(first.event), await applied(second.event)], [0, true, true]);
    noTokenLogged(smtp);
  });

  test('with Kafka a transient failure rejects as transient and keeps nothing (no token, no inbox row); the redelivery mails', async () => {
    const smtp = new SmtpSink({ failFirstSessions: 1 });
    const mailer = await mailerTo(smtp, 'kafka');
    const first = await requested();
    const second = await requested();
    const failure = await mailer.handle([first.event, second.event]).then(() => assert.fail('the batch should fail'), (e: unknown) => e);
    assert.ok(failure instanceof MailFailure && !failure.permanent, String(failure));
    assert.equal(isTransientFailure(failure), true, 'the Kafka bus retries it instead of dead-lettering');
    assert.deepEqual([await tokensOf(first.id), await applied(first.event), await applied(second.event)], [0, false, false]);
    await mailer.handle([first.event, second.event]);
    assert.deepEqual(smtp.messages.map((m) => m.to[0]), [first.email, second.email]);
    assert.deepEqual([await applied(first.event), await applied(second.event)], [true, true]);
    noTokenLogged(smtp);
  });

  test('a refused address is logged without its token and skipped: no token kept, the event applied, the next one mailed', async () => {
    const smtp = new SmtpSink({ refuseRecipients: ['gone@example.test'] });
    const mailer = await mailerTo(smtp);
    const refused = await requested('gone@example.test');
    const next = await requested();
    const before = logLines.length;
    await mailer.handle([refused.event, next.event]);
    assert.deepEqual(smtp.messages.map((m) => m.to[0]), [next.email]);
    assert.deepEqual([await tokensOf(refused.id), await applied(refused.event)], [0, true]);
    const warned = logLines.slice(before).map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === 'verification mail not sent; not retried (resend_verification asks again)');
    assert.ok(warned, logLines.slice(before).join(''));
    assert.deepEqual([warned.email_address_id, warned.event_id, warned.level], [refused.id, refused.event.id, 40]);
    assert.match(String(warned.err), /550/);
    noTokenLogged(smtp);
  });

  test('a request that went stale is not mailed: the address deleted, verified, or changed since', async () => {
    const smtp = new SmtpSink();
    const mailer = await mailerTo(smtp);
    const [deleted, verified, changed] = [await requested(), await requested(), await requested()];
    await ds.query('DELETE FROM user_email_addresses WHERE id = $1', [deleted.id]);
    await ds.query('UPDATE user_email_addresses SET verified_at = now() WHERE id = $1', [verified.id]);
    await ds.query("UPDATE user_email_addresses SET email = 'changed@example.test' WHERE id = $1", [changed.id]);
    await mailer.handle([deleted.event, verified.event, changed.event]);
    assert.equal(smtp.messages.length, 0);
    assert.deepEqual([await tokensOf(verified.id), await tokensOf(changed.id)], [0, 0]);
    assert.deepEqual([await applied(deleted.event), await applied(verified.event), await applied(changed.event)], [true, true, true]);
  });

  test('without SMTP_URL it subscribes to nothing and says so once', async () => {
    let subscribed = 0;
    const bus = Object.assign(new InProcessEventBus(), { subscribe: async () => void subscribed++ });
    const before = logLines.length;
    const mailer = new VerificationMailer(ds, bus, { publicUrl: PUBLIC_URL }, logger, clock, null);
    await mailer.onModuleInit();
    assert.equal(subscribed, 0);
    const said = logLines.slice(before).map((l) => JSON.parse(l) as { msg: string });
    assert.deepEqual(said.map((l) => l.msg), ['SMTP_URL is not set: e-mail address verification mails are not sent (docs/contact-methods.md)']);
  });
});
