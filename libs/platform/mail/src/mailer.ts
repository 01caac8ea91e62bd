import { connect, type Socket } from 'node:net';
import { createTransport, type Transporter } from 'nodemailer';
import SMTPPool from 'nodemailer/lib/smtp-pool';

export interface MailerOptions {
  /** `smtp://host:port` or `smtps://user:password@host:465` (nodemailer's URL form, query options included). */
  url: string;
  /** The From header, e.g. `Taproot <taproot@example.com>`. */
  from: string;
  /** Bound on connecting, the greeting and each wait on the socket; default 30 s. */
  timeoutMs?: number;
}

/** One message to one mailbox. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** `<id@domain>` (Mailer.messageIdOf); left out, nodemailer makes a random one. */
  messageId?: string;
  /** Extra headers; `Auto-Submitted: auto-generated` is always set. */
  headers?: Record<string, string>;
}

/** What the relay accepted: the message's Message-Id. */
export interface SentMail {
  messageId: string | null;
}

/**
 * A send that failed. `permanent`: it will fail again the same way (a 5xx reply: a refused
 * recipient, bad credentials; what is not one mailbox); otherwise a retry may succeed (no
 * connection, a timeout, a 4xx reply from a busy server, the mailer closing). `retriable` says the
 * latter to `isTransientFailure` (@taproot/messaging), so a bus consumer failing on it is retried,
 * never dead-lettered. The message never holds the relay's URL (it may carry a password).
 */
export class MailFailure extends Error {
  override name = 'MailFailure';
  readonly retriable: boolean;

  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.retriable = !permanent;
  }
}

/**
 * A rough check, enough to refuse what is not one mailbox: a comma or angle bracket would let
 * one "address" reach several recipients, and the relay would refuse the rest anyway.
 */
const MAILBOX = /^[^\s@<>,;:"()[\]\\]+@[^\s@<>,;:"()[\]\\]+$/;

export const isMailbox = (address: string): boolean => MAILBOX.test(address);

/** Text made safe inside HTML: `&`, `<`, `>` and quotes as character references. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Sends e-mail over SMTP through a pooled nodemailer transport (connections are reused across
 * messages, as an alert storm sends many at once), for any context that mails (paging,
 * address verification). Every failure is a MailFailure, permanent or not.
 */
export class Mailer {
  readonly #transport: Transporter<SMTPPool.SentMessageInfo>;
  readonly #from: string;
  readonly #messageIdDomain: string;
  #closed = false;

  constructor(options: MailerOptions) {
    const timeout = options.timeoutMs ?? 30_000;
    this.#transport = createTransport(
      // The URL stays in nodemailer's options only: never in a message or a log (it may hold a password).
      new SMTPPool({ pool: true, url: options.url, logger: false, connectionTimeout: timeout, greetingTimeout: timeout, socketTimeout: timeout, getSocket: noDelaySocket(timeout) }),
    );
    this.#from = options.from;
    this.#messageIdDomain = /@([^\s@<>]+)>?\s*$/.exec(options.from)?.[1] ?? 'taproot';
  }

  /** A Message-Id on the From's domain, for a sender whose retry of one thing is the same message to the receiver. */
  messageIdOf(localPart: string): string {
    return `<${localPart}@${this.#messageIdDomain}>`;
  }

  async send(mail: OutgoingMail): Promise<SentMail> {
    // nodemailer's closed pool drops a message without ever calling back: refuse it here instead.
    if (this.#closed) throw new MailFailure('the mailer is closed (shutting down)', false);
    // A failure may be recorded or logged, so it does not repeat the person's address.
    if (!isMailbox(mail.to)) throw new MailFailure('the address is not one e-mail address (user@host)', true);
    try {
      const info = await this.#transport.sendMail({
        from: this.#from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html === undefined ? {} : { html: mail.html }),
        ...(mail.messageId === undefined ? {} : { messageId: mail.messageId }),
        headers: { ...mail.headers, 'Auto-Submitted': 'auto-generated' },
      });
      return { messageId: info.messageId ?? null };
    } catch (error) {
      throw failureOf(error);
    }
  }

  /** Ends the pool's connections; a send after it fails at once (not permanent). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#transport.close();
  }
}

type SocketCallback = (error: Error | null, socket?: { connection: Socket }) => void;

/**
 * nodemailer's own sockets keep Nagle's algorithm on, so each message's last small write (the
 * DATA terminator) waits for the relay's delayed ACK, about 40 ms a message on a pooled
 * connection (docs/benchmarks.md, paging). The pool's `getSocket` hook hands it a connected
 * socket with TCP_NODELAY instead; nodemailer still does STARTTLS or, for smtps, TLS over it.
 */
function noDelaySocket(timeoutMs: number) {
  return (options: { host?: string; port?: number | string; secure?: boolean }, callback: SocketCallback): void => {
    const socket = connect({ host: options.host || 'localhost', port: Number(options.port) || (options.secure ? 465 : 587) });
    socket.setNoDelay(true);
    socket.setKeepAlive(true);
    const fail = (error: Error) => {
      socket.destroy();
      callback(error);
    };
    socket.setTimeout(timeoutMs, () => fail(Object.assign(new Error('Connection timeout'), { code: 'ETIMEDOUT' })));
    socket.once('error', fail);
    socket.once('connect', () => {
      socket.setTimeout(0);
      socket.removeListener('error', fail);
      callback(null, { connection: socket });
    });
  };
}

/** nodemailer's errors carry the server's reply code (`responseCode`) when there was a reply. */
function failureOf(error: unknown): MailFailure {
  const { message, responseCode } = error as { message?: string; responseCode?: number };
  const permanent = typeof responseCode === 'number' && responseCode >= 500;
  return new MailFailure(`SMTP: ${message ?? String(error)}`, permanent);
}
