import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { Mailer } from '@taproot/mail';
import { notificationChannelsOf } from './channels';
import { ChannelFailure, type OutgoingNotification } from './notification-channel';
import { SmtpChannel } from './smtp.channel';
import { FakeTwilio, outgoingNotification, SmtpSink } from './testing';
import { TwilioSmsChannel, TwilioVoiceChannel } from './twilio.channel';

const twilio = { accountSid: 'AC1', authToken: 'token', fromNumber: '+15005550006', apiUrl: 'https://api.twilio.com' };

const notification = (channel: OutgoingNotification['channel'], address: string) => outgoingNotification({ id: `n-${channel}`, channel, address });

describe('notificationChannelsOf', () => {
  test('no channel without a mailer (SMTP_URL) or Twilio credentials', () => {
    assert.equal(notificationChannelsOf({ twilio: null }, null).size, 0);
  });

  test("e-mail through the process's mailer when there is one; SMS and call when Twilio is set", async () => {
    const mailer = new Mailer({ url: 'smtp://127.0.0.1:2525', from: 'x@y.z' });
    const email = notificationChannelsOf({ twilio: null }, mailer);
    assert.deepEqual([...email.keys()], ['email']);
    assert.ok(email.get('email') instanceof SmtpChannel);
    await mailer.close();
    const phone = notificationChannelsOf({ twilio }, null);
    assert.deepEqual([...phone.keys()].sort(), ['call', 'sms']);
    assert.ok(phone.get('sms') instanceof TwilioSmsChannel);
    assert.ok(phone.get('call') instanceof TwilioVoiceChannel);
    for (const [kind, channel] of phone) assert.equal(channel.kind, kind);
  });

  test("the channels deliver with the mailer's From and the configured account; closing the mailer ends e-mail sending", async () => {
    const sink = new SmtpSink();
    const fake = new FakeTwilio();
    try {
      const mailer = new Mailer({ url: await sink.start(), from: 'Pager <pager@example.com>' });
      const channels = notificationChannelsOf({ twilio: { accountSid: fake.accountSid, authToken: fake.authToken, fromNumber: '+15005550006', apiUrl: await fake.start() } }, mailer);
      await channels.get('email')!.send(notification('email', 'oncall@example.com'));
      assert.equal((await sink.waitFor()).from, 'Pager <pager@example.com>');
      await channels.get('sms')!.send(notification('sms', '+447700900123'));
      await channels.get('call')!.send(notification('call', '+447700900123'));
      assert.deepEqual(fake.requests.map((r) => [r.kind, r.form.From]), [['sms', '+15005550006'], ['call', '+15005550006']]);

      await mailer.close();
      await assert.rejects(channels.get('email')!.send(notification('email', 'oncall@example.com')), (e: unknown) => e instanceof ChannelFailure && /closed/.test(e.message));
    } finally {
      await sink.close();
      await fake.close();
    }
  });
});
