import type { TaprootConfig } from '@taproot/config';
import type { Mailer } from '@taproot/mail';
import type { ChannelKind, NotificationChannel } from './notification-channel';
import { SmtpChannel } from './smtp.channel';
import { TwilioSmsChannel, TwilioVoiceChannel } from './twilio.channel';

/**
 * The channels this deployment can deliver on, by kind: e-mail through the process's mailer (there
 * is one when `SMTP_URL` is set), SMS and voice when the Twilio credentials are. A kind left out
 * has no channel; the engine records such a notification as failed rather than pretending it was sent.
 */
export function notificationChannelsOf(config: Pick<TaprootConfig, 'twilio'>, mailer: Mailer | null): Map<ChannelKind, NotificationChannel> {
  const channels = new Map<ChannelKind, NotificationChannel>();
  if (mailer) channels.set('email', new SmtpChannel(mailer));
  if (config.twilio) {
    channels.set('sms', new TwilioSmsChannel(config.twilio));
    channels.set('call', new TwilioVoiceChannel(config.twilio));
  }
  return channels;
}
