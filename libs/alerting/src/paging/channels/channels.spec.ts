import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { closeNotificationChannels, notificationChannelsOf } from './channels';
import { ChannelFailure, type OutgoingNotification } from './notification-channel';
import { SmtpChannel } from './smtp.channel';
import { FakeTwilio, outgoingNotification, SmtpSink } from './testing';
import { TwilioSmsChannel, TwilioVoiceChannel } from './twilio.channel';

const twilio = { accountSid: 'AC1', authToken: 'token', fromNumber: '+15005550006', apiUrl: 'https://api.twilio.com' };

const notification = (channel: OutgoingNotification['channel'], address: string) => outgoingNotification({ id: `n-${channel}`, channel, address });

describe('notificationChannelsOf', () => {
  test('no channel without SMTP_URL or Twilio credentials', () => {
    assert.equal(notificationChannelsOf({ smtpUrl: null, smtpFrom: 'x@y.z', twilio: null }).size, 0);
  });

  test('e-mail when SMTP_URL is set; SMS and call when Twilio is', async () => {
    const email = notificationChannelsOf({ smtpUrl: 'smtp://127.0.0.1:2525', smtpFrom: 'x@y.z', twilio: null });
    assert.deepEqual([...email.keys()], ['email']);
    assert.ok(email.get('email') instanceof SmtpChannel);
    await closeNotificationChannels(email);
    const phone = notificationChannelsOf({ smtpUrl: null, smtpFrom: 'x@y.z', twilio });
    assert.deepEqual([...phone.keys()].sort(), ['call', 'sms']);
    assert.ok(phone.get('sms') instanceof TwilioSmsChannel);
    assert.ok(phone.get('call') instanceof TwilioVoiceChannel);
    for (const [kind, channel] of phone) assert.equal(channel.kind, kind);
  });

  test('the channels deliver with the configured From and account; closing them ends e-mail sending', async () => {
    const sink = new SmtpSink();
    const fake = new FakeTwilio();
    try {
      const channels = notificationChannelsOf({
        smtpUrl: await sink.start(),
        smtpFrom: 'Pager <pager@example.com>',
        twilio: { accountSid: fake.accountSid, authToken: fake.authToken, fromNumber: '+15005550006', apiUrl: await fake.start() },
      });
      await channels.get('email')!.send(notification('email', 'oncall@example.com'));
      assert.equal((await sink.waitFor()).from, 'Pager <pager@example.com>');
      await channels.get('sms')!.send(notification('sms', '+447700900123'));
      await channels.get('call')!.send(notification('call', '+447700900123'));
      assert.deepEqual(fake.requests.map((r) => [r.kind, r.form.From]), [['sms', '+15005550006'], ['call', '+15005550006']]);

      await closeNotificationChannels(channels);
      await assert.rejects(channels.get('email')!.send(notification('email', 'oncall@example.com')), (e: unknown) => e instanceof ChannelFailure && /closed/.test(e.message));
    } finally {
      await sink.close();
      await fake.close();
    }
  });
});
