/** How a person is reached: the contact types of a notification rule Taproot delivers itself. */
export const CHANNELS = ['email', 'sms', 'call'] as const;
export type ChannelKind = (typeof CHANNELS)[number];

/** One notification to hand to a channel: what the paged person is told, and how to acknowledge. */
export interface OutgoingNotification {
  /** The notification row's id: providers that take an idempotency key get it. */
  id: string;
  channel: ChannelKind;
  /** An e-mail address, or an E.164 phone number for sms and call. */
  address: string;
  organizationId: string;
  alert: { id: string; shortId: string | null; summary: string; description: string | null; status: string; url: string | null };
  escalationLevel: number | null;
  /** The signed one-click acknowledge link (it works once). */
  acknowledgeUrl: string;
}

/** What the provider answered: its id for the message, kept on the notification row. */
export interface SentNotification {
  providerId: string | null;
}

/**
 * The port every channel adapter implements (e-mail over SMTP, SMS and voice through a
 * Twilio-compatible provider). A rejection is a failed send: the engine records it on the alert
 * and retries with backoff; a `permanent` failure (a refused address) is not retried.
 */
export interface NotificationChannel {
  readonly kind: ChannelKind;
  send(notification: OutgoingNotification): Promise<SentNotification>;
}

export class ChannelFailure extends Error {
  override name = 'ChannelFailure';
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}
