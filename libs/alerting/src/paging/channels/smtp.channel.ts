import { escapeHtml, MailFailure, type Mailer } from '@taproot/mail';
import { ChannelFailure, type NotificationChannel, type OutgoingNotification, type SentNotification } from './notification-channel';
import { alertTitle, isWebUrl } from './notification-text';

/** The header that names the notification, so a bounce or a support question leads back to its row. */
export const NOTIFICATION_ID_HEADER = 'X-Taproot-Notification-Id';

/**
 * E-mail over SMTP: the page as a mail, sent by the process's pooled Mailer (Runtime.mailer:
 * connections are reused across pages, as an alert storm sends many at once, and shared with the
 * other mails the process sends; the runtime closes it). Its failures map to the port's
 * `permanent`: a 5xx reply (a refused recipient, bad credentials) or what is not one mailbox will
 * not change on retry; no connection, a timeout or a 4xx reply (a busy server) may.
 */
export class SmtpChannel implements NotificationChannel {
  readonly kind = 'email' as const;

  constructor(private readonly mailer: Mailer) {}

  async send(notification: OutgoingNotification): Promise<SentNotification> {
    try {
      const sent = await this.mailer.send({
        to: notification.address,
        subject: `[Taproot] ${alertTitle(notification)}`,
        text: textBody(notification),
        html: htmlBody(notification),
        // One Message-Id per notification: a retry of the same page is the same message to the receiver.
        messageId: this.mailer.messageIdOf(notification.id),
        headers: { [NOTIFICATION_ID_HEADER]: notification.id },
      });
      return { providerId: sent.messageId };
    } catch (error) {
      // The failure is recorded on the alert; the mailer's message does not repeat the address.
      if (error instanceof MailFailure) throw new ChannelFailure(error.message, error.permanent);
      throw error;
    }
  }
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
