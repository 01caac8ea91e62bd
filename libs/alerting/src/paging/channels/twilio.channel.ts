import { ChannelFailure, type NotificationChannel, type OutgoingNotification, type SentNotification } from './notification-channel';
import { alertTitle, oneLine, truncate } from './notification-text';

export interface TwilioOptions {
  accountSid: string;
  authToken: string;
  /** The E.164 number (or a Twilio-compatible provider's) that sends and calls. */
  fromNumber: string;
  /** `https://api.twilio.com`, or a compatible API's base (paths below it start `/2010-04-01/`). */
  apiUrl: string;
  /** Bound on one request; default 15 s. */
  timeoutMs?: number;
}

export const E164 = /^\+[1-9]\d{1,14}$/;
/** Twilio's limit on a message body (longer ones are refused with 21617). */
export const SMS_MAX_LENGTH = 1600;
/** The summary read out: about 45 s of speech, and escaped it stays under TwiML's 4000 characters. */
const SPOKEN_SUMMARY_MAX_LENGTH = 600;

/** SMS through Twilio's Messages resource. */
export class TwilioSmsChannel implements NotificationChannel {
  readonly kind = 'sms' as const;
  // A private field: logging or inspecting the channel never shows the auth token.
  readonly #options: TwilioOptions;
  constructor(options: TwilioOptions) {
    this.#options = options;
  }

  send(notification: OutgoingNotification): Promise<SentNotification> {
    return post(this.#options, 'Messages', notification, { Body: smsBody(notification) });
  }
}

/** A voice call through Twilio's Calls resource, its TwiML inline: it reads the alert out, twice. */
export class TwilioVoiceChannel implements NotificationChannel {
  readonly kind = 'call' as const;
  // A private field: logging or inspecting the channel never shows the auth token.
  readonly #options: TwilioOptions;
  constructor(options: TwilioOptions) {
    this.#options = options;
  }

  send(notification: OutgoingNotification): Promise<SentNotification> {
    return post(this.#options, 'Calls', notification, { Twiml: twiml(notification) });
  }
}

function smsBody(n: OutgoingNotification): string {
  const head = '[Taproot] ';
  const tail = `\nAcknowledge: ${n.acknowledgeUrl}`;
  const withoutSummary = head.length + alertTitle({ ...n, alert: { ...n.alert, summary: '' } }).length + tail.length;
  return `${head}${alertTitle(n, SMS_MAX_LENGTH - withoutSummary, '...')}${tail}`;
}

function twiml(n: OutgoingNotification): string {
  const { alert, escalationLevel } = n;
  const id = alert.shortId ? ` ${alert.shortId}` : '';
  const level = escalationLevel === null ? '' : ` Escalation level ${escalationLevel}.`;
  const summary = truncate(oneLine(alert.summary), SPOKEN_SUMMARY_MAX_LENGTH);
  const sentence = `Taproot alert${id}.${level} ${summary}. Status: ${alert.status}. Acknowledge it with the link in your text or e-mail, or in Taproot.`;
  return `<Response><Say loop="2">${escapeXml(sentence)}</Say></Response>`;
}

/**
 * One request to Twilio's REST API (2010-04-01), with global fetch rather than the twilio SDK: the
 * SDK is heavy and cannot easily be pointed at a local fake. Failures follow the port: a 4xx answer
 * (bad credentials, a number Twilio refuses) will not change on retry, except 429; a 5xx, 429, a
 * timeout or no connection may.
 */
async function post(options: TwilioOptions, resource: 'Messages' | 'Calls', n: OutgoingNotification, content: Record<string, string>): Promise<SentNotification> {
  // Checked here, so a bad contact method fails at once, without a request or a retry.
  if (!E164.test(n.address)) throw new ChannelFailure('the address is not an E.164 phone number (+ and up to 15 digits)', true);
  const url = `${options.apiUrl.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(options.accountSid)}/${resource}.json`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        // A retried page (our timeout, their 5xx after acting) is then one message, not two.
        'I-Twilio-Idempotency-Token': n.id,
      },
      body: new URLSearchParams({ To: n.address, From: options.fromNumber, ...content }).toString(),
      signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
    });
  } catch (error) {
    // fetch's "fetch failed" says little; its cause names the network error (ECONNREFUSED, ...).
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    throw new ChannelFailure(`Twilio: ${(error as Error).message}${cause ? `: ${cause}` : ''}`, false);
  }
  const answer = await response.text();
  const json = parsed(answer);
  if (!response.ok) {
    const detail = typeof json?.code === 'number' ? `${json.code} ${String(json.message ?? '')}` : answer.slice(0, 200);
    const permanent = response.status >= 400 && response.status < 500 && response.status !== 429;
    throw new ChannelFailure(`Twilio ${response.status}: ${detail}`.trim(), permanent);
  }
  return { providerId: typeof json?.sid === 'string' ? json.sid : null };
}

function parsed(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}
