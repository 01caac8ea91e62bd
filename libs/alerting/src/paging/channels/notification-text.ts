import type { OutgoingNotification } from './notification-channel';

/**
 * What every channel calls the alert: `Alert <short id> (level N): <summary>`. The level comes
 * before the summary so a cut-off subject or SMS still shows it; the summary is put on one line
 * (alert sources may send new lines) because it goes into a subject and a spoken sentence.
 */
export function alertTitle(notification: OutgoingNotification, summaryLimit = Infinity, ellipsis?: string): string {
  const { alert, escalationLevel } = notification;
  const level = escalationLevel === null ? '' : ` (level ${escalationLevel})`;
  return `Alert ${alert.shortId ?? alert.id}${level}: ${truncate(oneLine(alert.summary), summaryLimit, ellipsis)}`;
}

/** Control characters go too: they are not allowed in XML (TwiML) and mean nothing in a subject. */
export function oneLine(text: string): string {
  return text.replace(/[\s\u0000-\u001f\u007f]+/g, ' ').trim();
}

/** At most `limit` characters, `ellipsis` marking a cut (SMS passes '...': '…' is not in the GSM alphabet and would halve each segment). */
export function truncate(text: string, limit: number, ellipsis = '…'): string {
  if (text.length <= limit) return text;
  let end = Math.max(0, limit - ellipsis.length);
  // Never half of a surrogate pair (an emoji): alone it is not a character.
  if (end > 0 && /[\ud800-\udbff]/.test(text[end - 1])) end -= 1;
  return `${text.slice(0, end)}${ellipsis}`;
}

/** Only http(s) URLs become links: an alert's `url` comes from its source, and `javascript:` is not a link. */
export function isWebUrl(url: string | null): url is string {
  return url !== null && /^https?:\/\/\S+$/i.test(url);
}
