import { afterEach, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { inspect } from 'node:util';
import { NOTIFICATION_ID_HEADER, SmtpChannel } from './smtp.channel';
import { channelFailureOf as failureOf, OpenResources, outgoingNotification as notification, SmtpSink, type SmtpSinkOptions } from './testing';

const FROM = 'Taproot <pager@taproot.example>';

const open = new OpenResources();
afterEach(() => open.closeAll());

async function sinkAndChannel(options: SmtpSinkOptions = {}, url = (u: string) => u) {
  const sink = open.track(new SmtpSink(options));
  const channel = open.track(new SmtpChannel({ url: url(await sink.start()), from: FROM, timeoutMs: 2000 }));
  return { sink, channel };
}

describe('SmtpChannel against a real SMTP server', () => {
  test('delivers to the address: subject names the alert and its level, From from config, the notification id in a header and the Message-Id', async () => {
    const { sink, channel } = await sinkAndChannel();
    const sent = await channel.send(notification());
    const mail = await sink.waitFor();
    assert.deepEqual(mail.to, ['oncall@example.com']);
    assert.equal(mail.from, FROM);
    assert.equal(mail.subject, '[Taproot] Alert x7Kp2a (level 2): Checkout p99 latency above 2 s');
    assert.equal(mail.headers['x-taproot-notification-id'], '8c1f0d2e-4b7a-4e43-9d0f-2f5c3a1b6e70');
    assert.equal(NOTIFICATION_ID_HEADER.toLowerCase(), 'x-taproot-notification-id');
    assert.equal(mail.headers['message-id'], '<8c1f0d2e-4b7a-4e43-9d0f-2f5c3a1b6e70@taproot.example>');
    assert.equal(sent.providerId, '<8c1f0d2e-4b7a-4e43-9d0f-2f5c3a1b6e70@taproot.example>');
  });

  test('text and HTML bodies carry status, level, description, the alert link and the one-click acknowledge link', async () => {
    const { sink, channel } = await sinkAndChannel();
    await channel.send(notification());
    const { text, html } = await sink.waitFor();
    for (const line of ['Status: triggered', 'Escalation level: 2', 'Runbook: restart the <pool> & watch.', 'Alert: https://grafana.example.com/d/checkout']) {
      assert.ok(text.includes(line), `text lacks ${line}:\n${text}`);
    }
    assert.match(text, /Acknowledge \(one click, works once\): https:\/\/taproot\.example\.com\/v1\/acknowledge\?token=abc\.def/);
    assert.ok(html.includes('<a href="https://taproot.example.com/v1/acknowledge?token=abc.def"><strong>Acknowledge</strong></a>'), html);
    assert.ok(html.includes('<a href="https://grafana.example.com/d/checkout">'), html);
    // The source's text is escaped: it cannot add markup to the page.
    assert.ok(html.includes('restart the &#60;pool&#62; &#38; watch.'), html);
    assert.ok(!html.includes('<pool>'), html);
  });

  test('an alert without a short id, level, description or web URL: its id, and no link that is not http(s)', async () => {
    const { sink, channel } = await sinkAndChannel();
    const alert = { ...notification().alert, shortId: null, description: null, url: 'javascript:alert(1)' };
    await channel.send(notification({ alert, escalationLevel: null }));
    const mail = await sink.waitFor();
    assert.equal(mail.subject, `[Taproot] Alert ${alert.id}: Checkout p99 latency above 2 s`);
    assert.ok(!mail.text.includes('Escalation level') && !mail.text.includes('javascript:'), mail.text);
    assert.ok(!mail.html.includes('javascript:'), mail.html);
  });

  test('reuses the pooled connection for the next messages', async () => {
    const { sink, channel } = await sinkAndChannel();
    for (let i = 0; i < 3; i++) await channel.send(notification({ id: `n-${i}` }));
    assert.equal(sink.messages.length, 3);
    assert.equal(sink.sessions, 1);
  });

  test('authenticates with the URL\'s user and password; a refused login is permanent and names no password', async () => {
    const credentials = { user: 'pager', pass: 'p@ss:word' };
    const userinfo = `${credentials.user}:${encodeURIComponent(credentials.pass)}`;
    const ok = await sinkAndChannel({ credentials }, (u) => u.replace('smtp://', `smtp://${userinfo}@`));
    await ok.channel.send(notification());
    assert.equal((await ok.sink.waitFor()).user, 'pager');

    const wrong = await sinkAndChannel({ credentials }, (u) => u.replace('smtp://', 'smtp://pager:hunter2@'));
    const failure = await failureOf(wrong.channel.send(notification()));
    assert.equal(failure.permanent, true);
    assert.match(failure.message, /535/);
    assert.ok(!failure.message.includes('hunter2'), failure.message);
  });

  test('inspecting or logging the channel shows no password', async () => {
    const channel = open.track(new SmtpChannel({ url: 'smtps://pager:hunter2@127.0.0.1:465', from: FROM }));
    assert.ok(!inspect(channel, { depth: 10 }).includes('hunter2') && !JSON.stringify(channel).includes('hunter2'));
  });

  test('a recipient refused with 550 is a permanent failure', async () => {
    const { sink, channel } = await sinkAndChannel({ refuseRecipients: ['gone@example.com'] });
    const failure = await failureOf(channel.send(notification({ address: 'gone@example.com' })));
    assert.equal(failure.permanent, true);
    assert.match(failure.message, /550/);
    assert.equal(sink.messages.length, 0);
  });

  test('a server refusing the session with 421 is a failure to retry; the retry is delivered', async () => {
    const { sink, channel } = await sinkAndChannel({ failFirstSessions: 1 });
    const failure = await failureOf(channel.send(notification()));
    assert.equal(failure.permanent, false);
    assert.match(failure.message, /421/);
    await channel.send(notification());
    assert.equal((await sink.waitFor()).to[0], 'oncall@example.com');
    assert.equal(sink.sessions, 2);
  });

  test('no server listening is a failure to retry', async () => {
    const sink = new SmtpSink();
    const url = await sink.start();
    await sink.close();
    const channel = open.track(new SmtpChannel({ url, from: FROM, timeoutMs: 2000 }));
    const failure = await failureOf(channel.send(notification()));
    assert.equal(failure.permanent, false);
    assert.match(failure.message, /ECONNREFUSED/);
  });

  test('a server that never greets is a failure to retry after the timeout, not a send that hangs', async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    open.track({ close: () => new Promise<void>((resolve) => { sockets.forEach((s) => s.destroy()); silent.close(() => resolve()); }) });
    const port = (silent.address() as { port: number }).port;
    const channel = open.track(new SmtpChannel({ url: `smtp://127.0.0.1:${port}`, from: FROM, timeoutMs: 300 }));
    const started = Date.now();
    const failure = await failureOf(channel.send(notification()));
    assert.equal(failure.permanent, false);
    assert.ok(Date.now() - started < 5000);
  });

  test('what is not one e-mail address fails permanently without a connection', async () => {
    const { sink, channel } = await sinkAndChannel();
    for (const address of ['', 'not-an-address', 'a@example.com, b@example.com', 'Someone <a@example.com>', 'a@example.com\r\nBcc: b@example.com']) {
      const failure = await failureOf(channel.send(notification({ address })));
      assert.equal(failure.permanent, true);
      assert.ok(!failure.message.includes('example.com'), 'the address is not repeated in the failure');
    }
    assert.equal(sink.sessions, 0);
  });

  test('after close, a send fails at once (to retry) instead of never settling', async () => {
    const { sink, channel } = await sinkAndChannel();
    await channel.send(notification());
    await channel.close();
    const failure = await failureOf(channel.send(notification({ id: 'after-close' })));
    assert.equal(failure.permanent, false);
    assert.equal(sink.messages.length, 1);
  });
});
