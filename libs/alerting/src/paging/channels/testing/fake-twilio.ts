import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request FakeTwilio accepted (answered 201). */
export interface TwilioRequest {
  kind: 'sms' | 'call';
  path: string;
  /** The form fields as sent. */
  form: Record<string, string>;
  /** Request headers, lower-case names. */
  headers: Record<string, string>;
  /** The sid it answered with (`SM…` or `CA…`). */
  sid: string;
}

export interface FakeTwilioOptions {
  accountSid?: string;
  authToken?: string;
  /** The first N requests are answered with this status (500 or 429) before anything is checked. */
  failFirst?: { count: number; status: 500 | 429 };
}

const E164 = /^\+[1-9]\d{1,14}$/;
const PATH = /^\/2010-04-01\/Accounts\/([^/]+)\/(Messages|Calls)\.json$/;

/**
 * A local stand-in for Twilio's REST API (the 2010-04-01 Messages and Calls resources): it checks
 * each request as Twilio does and answers with Twilio's shapes and error codes, so the channels
 * are tested over real HTTP. Test-only: never imported by production code.
 */
export class FakeTwilio {
  readonly accountSid: string;
  readonly authToken: string;
  /** Accepted requests, in order. */
  readonly requests: TwilioRequest[] = [];
  /** Every request received, refused ones included. */
  received = 0;
  #server: Server;
  #failuresLeft: number;

  constructor(private readonly options: FakeTwilioOptions = {}) {
    this.accountSid = options.accountSid ?? `AC${randomBytes(16).toString('hex')}`;
    this.authToken = options.authToken ?? randomBytes(16).toString('hex');
    this.#failuresLeft = options.failFirst?.count ?? 0;
    this.#server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => this.#answer(request, Buffer.concat(chunks).toString('utf8'), response));
    });
  }

  /** Listens on a free loopback port; answers the base URL to configure (`http://127.0.0.1:<port>`). */
  async start(): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(0, '127.0.0.1', () => resolve());
    });
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    // fetch keeps connections alive; without this, close() would wait for them to time out.
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #answer(request: IncomingMessage, body: string, response: ServerResponse): void {
    this.received += 1;
    const error = (status: number, code: number, message: string) =>
      send(response, status, { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status });
    if (this.#failuresLeft > 0) {
      this.#failuresLeft -= 1;
      const status = this.options.failFirst!.status;
      return status === 429 ? error(429, 20429, 'Too Many Requests') : error(500, 20500, 'Internal Server Error');
    }
    const match = PATH.exec(request.url ?? '');
    if (request.method !== 'POST' || !match) return error(404, 20404, 'The requested resource was not found');
    const [user, password] = basicCredentials(request.headers.authorization);
    if (user !== this.accountSid || password !== this.authToken) return error(401, 20003, 'Authenticate');
    // Authenticated as one account, the URL must name that account.
    if (decodeURIComponent(match[1]) !== this.accountSid) return error(404, 20404, 'The requested resource was not found');
    // Twilio reads parameters from a form body only: any other body arrives with no 'To'.
    const isForm = (request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
    const form: Record<string, string> = isForm ? Object.fromEntries(new URLSearchParams(body)) : {};
    const kind = match[2] === 'Messages' ? 'sms' : 'call';
    if (!form.To) return error(400, 21604, "A 'To' phone number is required.");
    if (!E164.test(form.To)) return error(400, 21211, `Invalid 'To' Phone Number: ${form.To}`);
    if (!form.From || !E164.test(form.From)) return error(400, 21212, `Invalid From Number (caller ID): ${form.From ?? ''}`);
    if (kind === 'sms') {
      if (!form.Body) return error(400, 21602, 'Message body is required.');
      if (form.Body.length > 1600) return error(400, 21617, 'The concatenated message body exceeds the 1600 character limit.');
    } else {
      if (!form.Twiml && !form.Url) return error(400, 21205, 'Url parameter is required.');
      if (form.Twiml && form.Twiml.length > 4000) return error(400, 32018, 'Twiml size exceeded maximum allowed value of 4000 characters');
    }
    const sid = `${kind === 'sms' ? 'SM' : 'CA'}${randomBytes(16).toString('hex')}`;
    const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
    this.requests.push({ kind, path: request.url!, form, headers, sid });
    const now = new Date().toUTCString();
    send(response, 201, {
      sid,
      account_sid: this.accountSid,
      to: form.To,
      from: form.From,
      ...(kind === 'sms' ? { body: form.Body, num_segments: String(Math.ceil(form.Body.length / 153)), direction: 'outbound-api' } : { direction: 'outbound-api' }),
      status: 'queued',
      date_created: now,
      date_updated: now,
      api_version: '2010-04-01',
      uri: `/2010-04-01/Accounts/${this.accountSid}/${match[2]}/${sid}.json`,
    });
  }
}

function basicCredentials(header: string | undefined): [string, string] | [] {
  const match = /^Basic\s+(\S+)$/i.exec(header ?? '');
  if (!match) return [];
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? [] : [decoded.slice(0, colon), decoded.slice(colon + 1)];
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}
