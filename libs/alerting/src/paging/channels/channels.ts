import type { TaprootConfig } from '@taproot/config';
import type { ChannelKind, NotificationChannel } from './notification-channel';
import { SmtpChannel } from './smtp.channel';
import { TwilioSmsChannel, TwilioVoiceChannel } from './twilio.channel';

/**
 * The channels this deployment can deliver on, by kind: e-mail when `SMTP_URL` is set, SMS and
 * voice when the Twilio credentials are. A kind left out has no channel; the engine records such a
 * notification as failed rather than pretending it was sent. Close them with `closeNotificationChannels`.
 */
export function notificationChannelsOf(config: Pick<TaprootConfig, 'smtpUrl' | 'smtpFrom' | 'twilio'>): Map<ChannelKind, NotificationChannel> {
  const channels = new Map<ChannelKind, NotificationChannel>();
  if (config.smtpUrl) channels.set('email', new SmtpChannel({ url: config.smtpUrl, from: config.smtpFrom }));
  if (config.twilio) {
    channels.set('sms', new TwilioSmsChannel(config.twilio));
    channels.set('call', new TwilioVoiceChannel(config.twilio));
  }
  return channels;
}

/** At shutdown: ends the SMTP pool's connections. Every channel is closed even if one fails. */
export async function closeNotificationChannels(channels: Map<ChannelKind, NotificationChannel>): Promise<void> {
  const results = await Promise.allSettled([...channels.values()].map((channel) => channel.close?.()));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}
