import { createTransport, type Transporter } from 'nodemailer';
import SMTPPool from 'nodemailer/lib/smtp-pool';
import { ChannelFailure, type NotificationChannel, type OutgoingNotification, type SentNotification } from './notification-channel';
import { alertTitle, isWebUrl } from './notification-text';

export interface SmtpChannelOptions {
  /** `smtp://host:port` or `smtps://user:password@host:465` (nodemailer's URL form, query options included). */
  url: string;
  /** The From header, e.g. `Taproot <taproot@example.com>`. */
  from: string;
  /** Bound on connecting, the greeting and each wait on the socket; default 30 s. */
  timeoutMs?: number;
}

/** The header that names the notification, so a bounce or a support question leads back to its row. */
export const NOTIFICATION_ID_HEADER = 'X-Taproot-Notification-Id';

/**
 * A rough check, enough to refuse what is not one mailbox: a comma or angle bracket would let
 * one "address" reach several recipients, and the relay would refuse the rest anyway.
 */
const MAILBOX = /^[^\s@<>,;:"()[\]\\]+@[^\s@<>,;:"()[\]\\]+$/;

/**
 * E-mail over SMTP through a pooled nodemailer transport (connections are reused across pages, as
 * an alert storm sends many at once). Failures map to the port's `permanent`: a 5xx reply (a
 * refused recipient, bad credentials) will not change on retry; no connection, a timeout or a
 * 4xx reply (a busy server) may.
 */
export class SmtpChannel implements NotificationChannel {
  readonly kind = 'email' as const;
  readonly #transport: Transporter<SMTPPool.SentMessageInfo>;
  readonly #from: string;
  readonly #messageIdDomain: string;
  #closed = false;

  constructor(options: SmtpChannelOptions) {
    const timeout = options.timeoutMs ?? 30_000;
    this.#transport = createTransport(
      // The URL stays in nodemailer's options only: never in a message or a log (it may hold a password).
      new SMTPPool({ pool: true, url: options.url, logger: false, connectionTimeout: timeout, greetingTimeout: timeout, socketTimeout: timeout }),
    );
    this.#from = options.from;
    this.#messageIdDomain = /@([^\s@<>]+)>?\s*$/.exec(options.from)?.[1] ?? 'taproot';
  }

  async send(notification: OutgoingNotification): Promise<SentNotification> {
    // nodemailer's closed pool drops a message without ever calling back: refuse it here instead.
    if (this.#closed) throw new ChannelFailure('the e-mail channel is closed (shutting down)', false);
    // The failure is recorded on the alert, so it does not repeat the person's address.
    if (!MAILBOX.test(notification.address)) throw new ChannelFailure('the address is not one e-mail address (user@host)', true);
    try {
      const info = await this.#transport.sendMail({
        from: this.#from,
        to: notification.address,
        subject: `[Taproot] ${alertTitle(notification)}`,
        text: textBody(notification),
        html: htmlBody(notification),
        // One Message-Id per notification: a retry of the same page is the same message to the receiver.
        messageId: `<${notification.id}@${this.#messageIdDomain}>`,
        headers: { [NOTIFICATION_ID_HEADER]: notification.id, 'Auto-Submitted': 'auto-generated' },
      });
      return { providerId: info.messageId ?? null };
    } catch (error) {
      throw failureOf(error);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#transport.close();
  }
}

/** nodemailer's errors carry the server's reply code (`responseCode`) when there was a reply. */
function failureOf(error: unknown): ChannelFailure {
  const { message, responseCode } = error as { message?: string; responseCode?: number };
  const permanent = typeof responseCode === 'number' && responseCode >= 500;
  return new ChannelFailure(`SMTP: ${message ?? String(error)}`, permanent);
}

function textBody(n: OutgoingNotification): string {
  return [
    `${alertTitle(n)}`,
    '',
    `Status: ${n.alert.status}`,
    ...(n.escalationLevel === null ? [] : [`Escalation level: ${n.escalationLevel}`]),
    ...(n.alert.description ? ['', n.alert.description] : []),
    '',
    ...(isWebUrl(n.alert.url) ? [`Alert: ${n.alert.url}`] : []),
    `Acknowledge (one click, works once): ${n.acknowledgeUrl}`,
    '',
  ].join('\n');
}

function htmlBody(n: OutgoingNotification): string {
  const rows = [['Status', n.alert.status], ...(n.escalationLevel === null ? [] : [['Escalation level', String(n.escalationLevel)]])];
  return [
    '<!doctype html><html><body>',
    `<h2>${escapeHtml(alertTitle(n))}</h2>`,
    `<table>${rows.map(([k, v]) => `<tr><th align="left">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join('')}</table>`,
    // The description is the source's text: escaped, with its line breaks kept.
    n.alert.description ? `<p style="white-space:pre-wrap">${escapeHtml(n.alert.description)}</p>` : '',
    isWebUrl(n.alert.url) ? `<p><a href="${escapeHtml(n.alert.url)}">View the alert</a></p>` : '',
    `<p><a href="${escapeHtml(n.acknowledgeUrl)}"><strong>Acknowledge</strong></a> (one click, works once)</p>`,
    '</body></html>',
  ].join('\n');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
