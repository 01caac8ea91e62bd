import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One message the sink accepted, as mailparser read it. */
export interface ReceivedMail {
  /** The From header as written (`Taproot <taproot@localhost>`). */
  from: string;
  /** The envelope's recipients (RCPT TO): who the message was delivered to. */
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** Every header, by lower-case name, its value unfolded as sent (a repeated header: the last). */
  headers: Record<string, string>;
  /** The user the client authenticated as, or null. */
  user: string | null;
  /**
   * When the message's data had all arrived (its final `.`), before it was parsed: milliseconds
   * since the epoch, with the sub-millisecond part (`performance.timeOrigin + performance.now()`,
   * comparable across worker threads). The bench's paging section measures up to it.
   */
  receivedAt: number;
}

export interface SmtpSinkOptions {
  /** Recipients refused with `550 5.1.1` at RCPT TO (compared case-insensitively). */
  refuseRecipients?: string[];
  /** The first N sessions are refused at connect with `421 4.3.2`, as a busy server does. */
  failFirstSessions?: number;
  /** When set, AUTH must use this user and password (`535` otherwise); a session may still skip AUTH. */
  credentials?: { user: string; pass: string };
  /** Awaited before a recipient is accepted at RCPT TO: a test holds one address's mail while others go through. */
  beforeRecipient?: (address: string) => Promise<void> | void;
}

/**
 * A real SMTP server on 127.0.0.1 for tests (smtp-server, no TLS), so mail senders are tested over
 * the wire rather than against a mocked transport. Test-only: never imported by production code.
 */
export class SmtpSink {
  readonly messages: ReceivedMail[] = [];
  /** Sessions opened, refused ones included. */
  sessions = 0;
  #server: SMTPServer;
  #waiters: (() => void)[] = [];

  constructor(options: SmtpSinkOptions = {}) {
    const refused = new Set((options.refuseRecipients ?? []).map((a) => a.toLowerCase()));
    const credentials = options.credentials;
    this.#server = new SMTPServer({
      secure: false,
      disabledCommands: ['STARTTLS'],
      authOptional: true,
      allowInsecureAuth: true,
      logger: false,
      // Sockets still open when close() is called are cut after this, so a test never hangs on them.
      closeTimeout: 200,
      onConnect: (_session, callback) => {
        this.sessions += 1;
        if (this.sessions <= (options.failFirstSessions ?? 0)) return callback(smtpError(421, '4.3.2 Service not available, try again later'));
        callback();
      },
      onAuth: (auth, _session, callback) => {
        if (credentials && (auth.username !== credentials.user || auth.password !== credentials.pass)) {
          return callback(smtpError(535, '5.7.8 Authentication credentials invalid'));
        }
        callback(null, { user: auth.username });
      },
      onRcptTo: (address, _session, callback) => {
        if (refused.has(address.address.toLowerCase())) return callback(smtpError(550, '5.1.1 Mailbox unavailable'));
        Promise.resolve(options.beforeRecipient?.(address.address)).then(() => callback(), callback);
      },
      onData: (stream, session, callback) => {
        let receivedAt = 0;
        stream.once('end', () => (receivedAt = performance.timeOrigin + performance.now()));
        simpleParser(stream).then(
          (mail) => {
            const headers: Record<string, string> = {};
            for (const { key, line } of mail.headerLines) headers[key] = line.slice(line.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' ').trim();
            this.messages.push({
              from: headers.from ?? '',
              to: session.envelope.rcptTo.map((r) => r.address),
              subject: mail.subject ?? '',
              text: mail.text ?? '',
              html: typeof mail.html === 'string' ? mail.html : '',
              headers,
              user: typeof session.user === 'string' ? session.user : null,
              receivedAt: receivedAt || performance.timeOrigin + performance.now(),
            });
            for (const wake of this.#waiters.splice(0)) wake();
            callback();
          },
          (error: Error) => callback(error),
        );
      },
    });
  }

  /** Listens on a free loopback port; answers the URL to give an SMTP client (`smtp://127.0.0.1:<port>`). */
  async start(): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = this.#server.server.address() as AddressInfo;
    return `smtp://127.0.0.1:${port}`;
  }

  /** The first message (received already or still to come) that `predicate` accepts; rejects after `timeoutMs`. */
  async waitFor(predicate: (mail: ReceivedMail) => boolean = () => true, timeoutMs = 5000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(predicate);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching message within ${timeoutMs} ms; received: ${JSON.stringify(this.messages.map((m) => m.subject))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

function smtpError(responseCode: number, message: string): Error & { responseCode: number } {
  return Object.assign(new Error(message), { responseCode });
}
