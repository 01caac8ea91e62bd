import { afterEach, describe, jest, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { createServer, Socket, type Server } from 'node:net';
import { inspect } from 'node:util';
import { escapeHtml, isMailbox, MailFailure, Mailer, type OutgoingMail } from './mailer';
import { SmtpSink, type SmtpSinkOptions } from './testing';

const FROM = 'Taproot <pager@taproot.example>';
const mail = (overrides: Partial<OutgoingMail> = {}): OutgoingMail => ({ to: 'oncall@example.com', subject: 'Checkout is down', text: 'Checkout is down.\n', ...overrides });

/** Servers and mailers a test opened, closed in reverse order whatever the test left open. */
let open: { close(): Promise<void> }[] = [];
const track = <T extends { close(): Promise<void> }>(resource: T): T => (open.push(resource), resource);
afterEach(async () => {
  for (const resource of open.splice(0).reverse()) await resource.close();
  open = [];
});

async function sinkAndMailer(options: SmtpSinkOptions = {}, url = (u: string) => u) {
  const sink = track(new SmtpSink(options));
  const mailer = track(new Mailer({ url: url(await sink.start()), from: FROM, timeoutMs: 2000 }));
  return { sink, mailer };
}

/** The MailFailure a send rejects with (an assertion error when it resolves or rejects otherwise). */
async function failureOf(send: Promise<unknown>): Promise<MailFailure> {
  const error = await send.then(
    () => assert.fail('the send should have failed'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof MailFailure, `a MailFailure, got ${String(error)}`);
  assert.equal(error.retriable, !error.permanent, 'retriable is the opposite of permanent');
  return error;
}

describe('Mailer against a real SMTP server', () => {
  test('delivers to the address with the From, subject, bodies, headers and Message-Id given; Auto-Submitted always', async () => {
    const { sink, mailer } = await sinkAndMailer();
    const messageId = mailer.messageIdOf('8c1f0d2e');
    assert.equal(messageId, '<8c1f0d2e@taproot.example>');
    const sent = await mailer.send(mail({ html: '<p>Checkout is down.</p>', messageId, headers: { 'X-Taproot-Thing': 't-1' } }));
    const received = await sink.waitFor();
    assert.deepEqual(received.to, ['oncall@example.com']);
    assert.equal(received.from, FROM);
    assert.equal(received.subject, 'Checkout is down');
    assert.equal(received.text.trim(), 'Checkout is down.');
    assert.ok(received.html.includes('<p>Checkout is down.</p>'), received.html);
    assert.equal(received.headers['message-id'], messageId);
    assert.equal(received.headers['x-taproot-thing'], 't-1');
    assert.equal(received.headers['auto-submitted'], 'auto-generated');
    assert.equal(sent.messageId, messageId);
  });

  test('without a Message-Id, one is made; a From without a domain gives Message-Ids on "taproot"', async () => {
    const { sink, mailer } = await sinkAndMailer();
    const sent = await mailer.send(mail());
    assert.match(String(sent.messageId), /^<.+@.+>$/);
    assert.equal((await sink.waitFor()).headers['message-id'], sent.messageId);
    const bare = track(new Mailer({ url: 'smtp://127.0.0.1:1', from: 'Taproot' }));
    assert.equal(bare.messageIdOf('x'), '<x@taproot>');
  });

  test('reuses the pooled connection for the next messages', async () => {
    const { sink, mailer } = await sinkAndMailer();
    for (let i = 0; i < 3; i++) await mailer.send(mail({ subject: `n-${i}` }));
    assert.equal(sink.messages.length, 3);
    assert.equal(sink.sessions, 1);
  });

  test("authenticates with the URL's user and password; a refused login is permanent and names no password", async () => {
    const credentials = { user: 'pager', pass: 'p@ss:word' };
    const userinfo = `${credentials.user}:${encodeURIComponent(credentials.pass)}`;
    const ok = await sinkAndMailer({ credentials }, (u) => u.replace('smtp://', `smtp://${userinfo}@`));
    await ok.mailer.send(mail());
    assert.equal((await ok.sink.waitFor()).user, 'pager');

    const wrong = await sinkAndMailer({ credentials }, (u) => u.replace('smtp://', 'smtp://pager:hunter2@'));
    const failure = await failureOf(wrong.mailer.send(mail()));
    assert.equal(failure.permanent, true);
    assert.match(failure.message, /535/);
    assert.ok(!failure.message.includes('hunter2'), failure.message);
  });

  test('inspecting or logging the mailer shows no password', async () => {
    const mailer = track(new Mailer({ url: 'smtps://pager:hunter2@127.0.0.1:465', from: FROM }));
    assert.ok(!inspect(mailer, { depth: 10 }).includes('hunter2') && !JSON.stringify(mailer).includes('hunter2'));
  });

  test('a recipient refused with 550 is a permanent failure', async () => {
    const { sink, mailer } = await sinkAndMailer({ refuseRecipients: ['gone@example.com'] });
    const failure = await failureOf(mailer.send(mail({ to: 'gone@example.com' })));
    assert.equal(failure.permanent, true);
    assert.match(failure.message, /550/);
    assert.equal(sink.messages.length, 0);
  });

  test('a server refusing the session with 421 is a failure to retry; the retry is delivered', async () => {
    const { sink, mailer } = await sinkAndMailer({ failFirstSessions: 1 });
    const failure = await failureOf(mailer.send(mail()));
    assert.equal(failure.permanent, false);
    assert.match(failure.message, /421/);
    await mailer.send(mail());
    assert.equal((await sink.waitFor()).to[0], 'oncall@example.com');
    assert.equal(sink.sessions, 2);
  });

  test("opens its connections with TCP_NODELAY (nodemailer's own keep Nagle's algorithm: ~40 ms a message)", async () => {
    const setNoDelay = jest.spyOn(Socket.prototype, 'setNoDelay');
    try {
      let port = 0;
      const { sink, mailer } = await sinkAndMailer({}, (url) => ((port = Number(new URL(url).port)), url));
      await mailer.send(mail());
      await mailer.send(mail({ subject: 'second' }));
      await sink.waitFor((m) => m.subject === 'second');
      const toSink = setNoDelay.mock.contexts.filter((socket) => (socket as Socket).remotePort === port);
      assert.equal(toSink.length, 1, 'one pooled connection, opened with TCP_NODELAY');
      assert.ok(setNoDelay.mock.calls[setNoDelay.mock.contexts.indexOf(toSink[0])][0] === true);
    } finally {
      setNoDelay.mockRestore();
    }
  });

  test('no server listening is a failure to retry', async () => {
    const sink = new SmtpSink();
    const url = await sink.start();
    await sink.close();
    const mailer = track(new Mailer({ url, from: FROM, timeoutMs: 2000 }));
    const failure = await failureOf(mailer.send(mail()));
    assert.equal(failure.permanent, false);
    assert.match(failure.message, /ECONNREFUSED/);
  });

  test('a server that never greets is a failure to retry after the timeout, not a send that hangs', async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    track({ close: () => new Promise<void>((resolve) => { sockets.forEach((s) => s.destroy()); silent.close(() => resolve()); }) });
    const port = (silent.address() as { port: number }).port;
    const mailer = track(new Mailer({ url: `smtp://127.0.0.1:${port}`, from: FROM, timeoutMs: 300 }));
    const started = Date.now();
    const failure = await failureOf(mailer.send(mail()));
    assert.equal(failure.permanent, false);
    assert.ok(Date.now() - started < 5000);
  });

  test('what is not one e-mail address fails permanently without a connection, and is not repeated in the failure', async () => {
    const { sink, mailer } = await sinkAndMailer();
    for (const to of ['', 'not-an-address', 'a@example.com, b@example.com', 'Someone <a@example.com>', 'a@example.com\r\nBcc: b@example.com']) {
      assert.equal(isMailbox(to), false, to);
      const failure = await failureOf(mailer.send(mail({ to })));
      assert.equal(failure.permanent, true);
      assert.ok(!failure.message.includes('example.com'), failure.message);
    }
    assert.equal(sink.sessions, 0);
    assert.equal(isMailbox('oncall+pager@example.com'), true);
  });

  test('after close, a send fails at once (to retry) instead of never settling', async () => {
    const { sink, mailer } = await sinkAndMailer();
    await mailer.send(mail());
    await mailer.close();
    const failure = await failureOf(mailer.send(mail({ subject: 'after close' })));
    assert.equal(failure.permanent, false);
    assert.match(failure.message, /closed/);
    assert.equal(sink.messages.length, 1);
  });
});

test('escapeHtml: markup and quotes become character references', () => {
  assert.equal(escapeHtml(`restart the <pool> & "watch" it's`), 'restart the &#60;pool&#62; &#38; &#34;watch&#34; it&#39;s');
});
