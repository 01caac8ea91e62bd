import { afterEach, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { Mailer } from '@taproot/mail';
import { NOTIFICATION_ID_HEADER, SmtpChannel } from './smtp.channel';
import { channelFailureOf as failureOf, OpenResources, outgoingNotification as notification, SmtpSink, type SmtpSinkOptions } from './testing';

const FROM = 'Taproot <pager@taproot.example>';

const open = new OpenResources();
afterEach(() => open.closeAll());

async function sinkAndChannel(options: SmtpSinkOptions = {}, url = (u: string) => u) {
  const sink = open.track(new SmtpSink(options));
  const mailer = open.track(new Mailer({ url: url(await sink.start()), from: FROM, timeoutMs: 2000 }));
  return { sink, mailer, channel: new SmtpChannel(mailer) };
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

  test('inspecting or logging the channel shows no password', async () => {
    const channel = new SmtpChannel(open.track(new Mailer({ url: 'smtps://pager:hunter2@127.0.0.1:465', from: FROM })));
    assert.ok(!inspect(channel, { depth: 10 }).includes('hunter2') && !JSON.stringify(channel).includes('hunter2'));
  });

  // How the mailer fails (timeouts, credentials, no server) is @taproot/mail's test; here, that each failure keeps its permanence.
  test("the mailer's failures are ChannelFailures, permanent or to retry, naming no address", async () => {
    const { sink, mailer, channel } = await sinkAndChannel({ refuseRecipients: ['gone@example.com'], failFirstSessions: 1 });
    const busy = await failureOf(channel.send(notification()));
    assert.deepEqual([busy.permanent, /421/.test(busy.message)], [false, true]);
    const refused = await failureOf(channel.send(notification({ address: 'gone@example.com' })));
    assert.deepEqual([refused.permanent, /550/.test(refused.message)], [true, true]);
    const notOne = await failureOf(channel.send(notification({ address: 'a@example.com, b@example.com' })));
    assert.equal(notOne.permanent, true);
    assert.ok(!notOne.message.includes('example.com'), notOne.message);
    assert.equal(sink.messages.length, 0);
    await mailer.close();
    assert.equal((await failureOf(channel.send(notification()))).permanent, false, 'closed (the process shutting down): to retry');
  });
});
